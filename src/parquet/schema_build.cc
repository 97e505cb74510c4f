#include "parquet/schema.h"

namespace timef::parquet {

namespace {

FieldRepetitionType Repetition(bool nullable) {
  return nullable ? FieldRepetitionType::kOptional : FieldRepetitionType::kRequired;
}

SchemaElement Leaf(const ColumnDescriptor& column, std::string name, bool nullable) {
  SchemaElement leaf;
  leaf.type = column.physical_type;
  if (column.physical_type == Type::kFixedLenByteArray) leaf.type_length = column.type_length;
  leaf.repetition_type = Repetition(nullable);
  leaf.name = std::move(name);
  leaf.converted_type = column.converted_type;
  leaf.logical_type = column.logical_type;
  if (column.logical_type && column.logical_type->kind == LogicalType::Kind::kDecimal) {
    // Readers that predate logical types find the decimal's parameters here.
    leaf.scale = column.logical_type->scale;
    leaf.precision = column.logical_type->precision;
  }
  return leaf;
}

}  // namespace

std::vector<SchemaElement> BuildSchemaElements(const std::vector<ColumnDescriptor>& columns) {
  std::vector<SchemaElement> schema;
  schema.reserve(1 + 3 * columns.size());
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<std::int32_t>(columns.size());
  schema.push_back(std::move(root));
  for (const ColumnDescriptor& column : columns) {
    if (!column.is_list) {
      schema.push_back(Leaf(column, column.name, column.nullable));
      continue;
    }
    SchemaElement outer;
    outer.repetition_type = Repetition(column.nullable);
    outer.name = column.name;
    outer.num_children = 1;
    outer.converted_type = ConvertedType::kList;
    outer.logical_type = LogicalType::Simple(LogicalType::Kind::kList);
    schema.push_back(std::move(outer));

    SchemaElement repeated;
    repeated.repetition_type = FieldRepetitionType::kRepeated;
    repeated.name = "list";
    repeated.num_children = 1;
    schema.push_back(std::move(repeated));

    schema.push_back(Leaf(column, "element", column.element_nullable));
  }
  return schema;
}

std::vector<std::string> StandardPathInSchema(const ColumnDescriptor& column) {
  if (column.is_list) return {column.name, "list", "element"};
  return {column.name};
}

}  // namespace timef::parquet
