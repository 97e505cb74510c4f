// Round trips through the engine's own reader over random schemas: every type × encoding ×
// codec × nullability × list/flat × page size × page version, whole chunks and row ranges; a
// single-row read decodes exactly one data page, which holds only when pages start at row
// boundaries and the OffsetIndex is exact.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "parquet/writer_test_util.h"

namespace timef::parquet {
namespace {

using writer_testing::Cell;
using writer_testing::Column;
using writer_testing::RandomRows;
using writer_testing::Rows;

// The rows a ColumnData holds (the inverse of writer_testing::ToColumnData).
Rows FromColumnData(const ColumnDescriptor& column, const ColumnData& data) {
  const auto width = static_cast<std::size_t>(SlotWidth(column.physical_type, column.type_length));
  auto slot = [&](std::int64_t i) -> std::optional<std::string> {
    const auto s = static_cast<std::size_t>(i);
    if (!data.validity.empty() && data.validity[s] == 0) return std::nullopt;
    const char* base = reinterpret_cast<const char*>(data.values.data());
    if (column.physical_type == Type::kByteArray) {
      return std::string(base + data.byte_offsets[s], base + data.byte_offsets[s + 1]);
    }
    std::string value(base + s * width, width);
    if (column.physical_type == Type::kBoolean) value[0] = value[0] != 0 ? '\1' : '\0';
    return value;
  };
  Rows rows(static_cast<std::size_t>(data.num_rows));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (!column.is_list) {
      rows[r].items = {slot(static_cast<std::int64_t>(r))};
      continue;
    }
    rows[r].present = data.list_validity.empty() || data.list_validity[r] != 0;
    for (std::int64_t s = data.list_offsets[r]; s < data.list_offsets[r + 1]; ++s) {
      rows[r].items.push_back(slot(s));
    }
  }
  return rows;
}

std::vector<Encoding> EncodingsFor(Type type) {
  switch (type) {
    case Type::kBoolean:
      return {Encoding::kPlain, Encoding::kRle};
    case Type::kInt32:
    case Type::kInt64:
      return {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaBinaryPacked};
    case Type::kFloat:
    case Type::kDouble:
      return {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kByteStreamSplit};
    case Type::kByteArray:
      return {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaLengthByteArray,
              Encoding::kDeltaByteArray};
    case Type::kFixedLenByteArray:
      return {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaByteArray};
    default:
      return {Encoding::kPlain};
  }
}

class WriterReaderTest : public ::testing::TestWithParam<int> {};

TEST_P(WriterReaderTest, RandomSchemaRoundTrips) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(GetParam()) * 7919 + 1);
  constexpr Type kTypes[] = {Type::kBoolean,
                             Type::kInt32,
                             Type::kInt64,
                             Type::kFloat,
                             Type::kDouble,
                             Type::kByteArray,
                             Type::kFixedLenByteArray};
  constexpr CompressionCodec kCodecs[] = {CompressionCodec::kUncompressed, CompressionCodec::kZstd,
                                          CompressionCodec::kSnappy, CompressionCodec::kGzip,
                                          CompressionCodec::kLz4Raw};
  const std::int64_t kTargets[] = {64, 700, 16 * 1024};

  std::vector<ColumnDescriptor> schema;
  WriterOptions options;
  options.compression = kCodecs[rng() % std::size(kCodecs)];
  options.compression_level = options.compression == CompressionCodec::kZstd ? 3 : 0;
  options.data_page_version = rng() % 2 == 0 ? DataPageVersion::kV1 : DataPageVersion::kV2;
  options.data_page_target_bytes = kTargets[rng() % std::size(kTargets)];
  const std::size_t num_columns = 1 + rng() % 4;
  for (std::size_t c = 0; c < num_columns; ++c) {
    const Type type = kTypes[rng() % std::size(kTypes)];
    const bool is_list = rng() % 2 == 0;
    ColumnDescriptor column = Column("c" + std::to_string(c), type, rng() % 2 == 0, is_list,
                                     is_list && rng() % 2 == 0, 1 + static_cast<int>(rng() % 20));
    const auto encodings = EncodingsFor(type);
    schema.push_back(column);
    options.columns.push_back(ColumnWriteOptions{encodings[rng() % encodings.size()]});
  }
  SCOPED_TRACE("codec " + ToString(options.compression) + ", v" +
               std::to_string(static_cast<int>(options.data_page_version)) + ", target " +
               std::to_string(options.data_page_target_bytes));

  std::vector<std::vector<Rows>> groups(1 + rng() % 3);
  for (auto& group : groups) {
    const std::size_t rows = 1 + rng() % 400;
    for (const ColumnDescriptor& column : schema) group.push_back(RandomRows(column, rows, rng()));
  }
  auto bytes = writer_testing::WriteFile(schema, groups, options);

  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(std::move(bytes)));
  ASSERT_EQ(reader.columns(), schema);
  ASSERT_EQ(reader.num_row_groups(), static_cast<int>(groups.size()));
  ColumnData data;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t c = 0; c < schema.size(); ++c) {
      SCOPED_TRACE(schema[c].name + " (" + ToString(schema[c].physical_type) + ", " +
                   ToString(options.columns[c].encoding) + ") in row group " + std::to_string(g));
      const Rows& expected = groups[g][c];
      reader.ReadColumnChunk(static_cast<int>(g), static_cast<int>(c), data);
      ASSERT_EQ(FromColumnData(schema[c], data), expected);

      const auto n = static_cast<std::int64_t>(expected.size());
      const std::int64_t first = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
      const std::int64_t last =
          first + 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n - first));
      reader.ReadRows(static_cast<int>(g), static_cast<int>(c), first, last, data);
      ASSERT_EQ(FromColumnData(schema[c], data),
                Rows(expected.begin() + first, expected.begin() + last));

      reader.ResetStats();
      reader.ReadRows(static_cast<int>(g), static_cast<int>(c), first, first + 1, data);
      ASSERT_EQ(FromColumnData(schema[c], data), Rows{expected[static_cast<std::size_t>(first)]});
      EXPECT_EQ(reader.stats().data_pages_decoded, 1u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, WriterReaderTest, ::testing::Range(0, 60));

}  // namespace
}  // namespace timef::parquet
