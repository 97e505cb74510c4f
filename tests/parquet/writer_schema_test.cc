#include <gtest/gtest.h>

#include "parquet/schema.h"
#include "parquet/writer_test_util.h"

namespace timef::parquet {
namespace {

using writer_testing::Column;

TEST(WriterSchemaTest, FlatColumns) {
  ColumnDescriptor text = Column("name", Type::kByteArray, true);
  text.logical_type = LogicalType::Simple(LogicalType::Kind::kString);
  text.converted_type = ConvertedType::kUtf8;
  const ColumnDescriptor uuid = [] {
    ColumnDescriptor c = Column("id", Type::kFixedLenByteArray, false, false, false, 16);
    c.logical_type = LogicalType::Simple(LogicalType::Kind::kUuid);
    return c;
  }();
  const auto schema = BuildSchemaElements({text, uuid});
  ASSERT_EQ(schema.size(), 3u);
  EXPECT_EQ(schema[0].name, "schema");
  EXPECT_EQ(schema[0].num_children, 2);
  EXPECT_FALSE(schema[0].repetition_type.has_value());
  EXPECT_FALSE(schema[0].type.has_value());

  EXPECT_EQ(schema[1].name, "name");
  EXPECT_EQ(schema[1].type, Type::kByteArray);
  EXPECT_EQ(schema[1].repetition_type, FieldRepetitionType::kOptional);
  EXPECT_EQ(schema[1].converted_type, ConvertedType::kUtf8);
  EXPECT_EQ(schema[1].logical_type, text.logical_type);
  EXPECT_FALSE(schema[1].type_length.has_value());
  EXPECT_FALSE(schema[1].num_children.has_value());

  EXPECT_EQ(schema[2].type, Type::kFixedLenByteArray);
  EXPECT_EQ(schema[2].type_length, 16);
  EXPECT_EQ(schema[2].repetition_type, FieldRepetitionType::kRequired);
  EXPECT_FALSE(schema[2].converted_type.has_value());
}

TEST(WriterSchemaTest, ListsUseTheThreeLevelStructure) {
  ColumnDescriptor values = Column("values", Type::kFloat, false, true, true);
  ColumnDescriptor codes = Column("codes", Type::kInt32, true, true, false);
  codes.logical_type = LogicalType::Integer(16, false);
  codes.converted_type = ConvertedType::kUint16;
  const auto schema = BuildSchemaElements({values, codes});
  ASSERT_EQ(schema.size(), 7u);
  EXPECT_EQ(schema[0].num_children, 2);

  EXPECT_EQ(schema[1].name, "values");
  EXPECT_FALSE(schema[1].type.has_value());
  EXPECT_EQ(schema[1].repetition_type, FieldRepetitionType::kRequired);
  EXPECT_EQ(schema[1].num_children, 1);
  EXPECT_EQ(schema[1].converted_type, ConvertedType::kList);
  EXPECT_EQ(schema[1].logical_type, LogicalType::Simple(LogicalType::Kind::kList));
  EXPECT_EQ(schema[2].name, "list");
  EXPECT_EQ(schema[2].repetition_type, FieldRepetitionType::kRepeated);
  EXPECT_EQ(schema[2].num_children, 1);
  EXPECT_EQ(schema[3].name, "element");
  EXPECT_EQ(schema[3].type, Type::kFloat);
  EXPECT_EQ(schema[3].repetition_type, FieldRepetitionType::kOptional);

  EXPECT_EQ(schema[4].repetition_type, FieldRepetitionType::kOptional);
  EXPECT_EQ(schema[6].repetition_type, FieldRepetitionType::kRequired);
  EXPECT_EQ(schema[6].converted_type, ConvertedType::kUint16);
  EXPECT_EQ(schema[6].logical_type, codes.logical_type);

  EXPECT_EQ(StandardPathInSchema(values), (std::vector<std::string>{"values", "list", "element"}));
  EXPECT_EQ(StandardPathInSchema(Column("x", Type::kInt32)), std::vector<std::string>{"x"});
  EXPECT_EQ(values.max_definition_level(), 2);
  EXPECT_EQ(codes.max_definition_level(), 2);
}

TEST(WriterSchemaTest, DecimalCarriesScaleAndPrecision) {
  ColumnDescriptor decimal = Column("d", Type::kInt64);
  decimal.logical_type = LogicalType::Decimal(3, 12);
  decimal.converted_type = ConvertedType::kDecimal;
  const auto schema = BuildSchemaElements({decimal});
  EXPECT_EQ(schema[1].scale, 3);
  EXPECT_EQ(schema[1].precision, 12);
}

}  // namespace
}  // namespace timef::parquet
