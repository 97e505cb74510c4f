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

// A random file: schema, write options and rows of each row group.
struct RandomFile {
  std::vector<ColumnDescriptor> schema;
  WriterOptions options;
  std::vector<std::vector<Rows>> groups;
  std::vector<std::byte> bytes;
};

RandomFile MakeRandomFile(std::mt19937_64& rng) {
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
  std::vector<std::vector<Rows>> groups(1 + rng() % 3);
  for (auto& group : groups) {
    const std::size_t rows = 1 + rng() % 400;
    for (const ColumnDescriptor& column : schema) group.push_back(RandomRows(column, rows, rng()));
  }
  auto bytes = writer_testing::WriteFile(schema, groups, options);
  return {std::move(schema), std::move(options), std::move(groups), std::move(bytes)};
}

// A random file (seeded) and a reader over it.
struct OpenedFile {
  RandomFile file;
  FileReader reader;
};

OpenedFile OpenRandomFile(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  RandomFile file = MakeRandomFile(rng);
  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(file.bytes));
  return {std::move(file), std::move(reader)};
}

std::string Describe(const WriterOptions& options) {
  return "codec " + ToString(options.compression) + ", v" +
         std::to_string(static_cast<int>(options.data_page_version)) + ", target " +
         std::to_string(options.data_page_target_bytes);
}

class WriterReaderTest : public ::testing::TestWithParam<int> {};

TEST_P(WriterReaderTest, RandomSchemaRoundTrips) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(GetParam()) * 7919 + 1);
  RandomFile file = MakeRandomFile(rng);
  const auto& [schema, options, groups, bytes] = file;
  SCOPED_TRACE(Describe(options));

  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(bytes));
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

// Reading a chunk one row after the other decodes each data page once: a list read that stops
// inside a page parks it with its decoders, and the read of the next row goes on from them, also
// after a read elsewhere in between (another column, or the same row again). Every row comes
// back right.
TEST_P(WriterReaderTest, RowByRowReadsDecodeEachPageOnce) {
  auto [file, reader] = OpenRandomFile(static_cast<std::uint64_t>(GetParam()) * 104729 + 3);
  const auto& [schema, options, groups, bytes] = file;
  SCOPED_TRACE(Describe(options));
  ColumnData data;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t c = 0; c < schema.size(); ++c) {
      SCOPED_TRACE(schema[c].name + (schema[c].is_list ? " (list)" : "") + " in row group " +
                   std::to_string(g));
      const Rows& expected = groups[g][c];
      const auto rows = static_cast<std::int64_t>(expected.size());
      const int group = static_cast<int>(g);
      const int column = static_cast<int>(c);
      const OffsetIndex* index = reader.offset_index(group, column);
      ASSERT_NE(index, nullptr);
      const auto pages = static_cast<std::uint64_t>(index->page_locations.size());

      reader.ResetStats();
      for (std::int64_t r = 0; r < rows; ++r) {
        reader.ReadRows(group, column, r, r + 1, data);
        ASSERT_EQ(FromColumnData(schema[c], data), Rows{expected[static_cast<std::size_t>(r)]})
            << "row " << r;
      }
      if (schema[c].is_list) {
        EXPECT_EQ(reader.stats().data_pages_decoded, pages);
        EXPECT_EQ(reader.stats().data_pages_resumed, static_cast<std::uint64_t>(rows) - pages);
      } else {
        EXPECT_EQ(reader.stats().data_pages_decoded, static_cast<std::uint64_t>(rows));
        EXPECT_EQ(reader.stats().data_pages_resumed, 0u);
      }

      // Row 0, then a read elsewhere (another chunk, or row 0 again), then row 1.
      if (rows < 2) continue;
      reader.ReadRows(group, column, 0, 1, data);
      const int other_column = static_cast<int>((c + 1) % schema.size());
      reader.ReadRows(group, other_column, rows - 1, rows, data);
      ASSERT_EQ(FromColumnData(schema[static_cast<std::size_t>(other_column)], data),
                Rows{groups[g][static_cast<std::size_t>(other_column)].back()});
      reader.ReadRows(group, column, 0, 1, data);
      reader.ResetStats();
      reader.ReadRows(group, column, 1, 2, data);
      ASSERT_EQ(FromColumnData(schema[c], data), Rows{expected[1]});
      EXPECT_EQ(reader.stats().data_pages_decoded + reader.stats().data_pages_resumed, 1u);

      // A range read that starts where the last read stopped and runs over later pages.
      reader.ReadRows(group, column, 0, 1, data);
      reader.ReadRows(group, column, 1, rows, data);
      ASSERT_EQ(FromColumnData(schema[c], data), Rows(expected.begin() + 1, expected.end()));
    }
  }
}

// Row r of every column, then row r + 1 of every column, ...: the way a record's leads are read
// when the shard stores them lead by lead. Each list page is still decoded once.
TEST_P(WriterReaderTest, InterleavedRowReadsDecodeEachPageOnce) {
  auto [file, reader] = OpenRandomFile(static_cast<std::uint64_t>(GetParam()) * 15485863 + 5);
  const auto& [schema, options, groups, bytes] = file;
  SCOPED_TRACE(Describe(options));
  ColumnData data;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const int group = static_cast<int>(g);
    const auto rows = static_cast<std::int64_t>(groups[g][0].size());
    std::uint64_t want_decoded = 0, want_resumed = 0;
    for (std::size_t c = 0; c < schema.size(); ++c) {
      const auto pages = reader.offset_index(group, static_cast<int>(c))->page_locations.size();
      want_decoded += schema[c].is_list ? pages : static_cast<std::uint64_t>(rows);
      want_resumed += schema[c].is_list ? static_cast<std::uint64_t>(rows) - pages : 0;
    }
    reader.ResetStats();
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < schema.size(); ++c) {
        reader.ReadRows(group, static_cast<int>(c), r, r + 1, data);
        ASSERT_EQ(FromColumnData(schema[c], data), Rows{groups[g][c][static_cast<std::size_t>(r)]})
            << "row " << r << " of " << schema[c].name << " in row group " << g;
      }
    }
    EXPECT_EQ(reader.stats().data_pages_decoded, want_decoded) << "row group " << g;
    EXPECT_EQ(reader.stats().data_pages_resumed, want_resumed) << "row group " << g;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, WriterReaderTest, ::testing::Range(0, 60));

// More chunks read in turn than pages are parked: the oldest parked page goes first, so a cycle
// over kParkedPages + 8 chunks finds none of its pages parked, and every row still comes back
// right (no read goes on from another chunk's page).
TEST(ParkedPagesTest, OldestParkedPageGoesFirst) {
  const ColumnDescriptor column = Column("l", Type::kInt32, false, true, false);
  const std::size_t kGroups = ColumnChunkReader::kParkedPages + 8;
  std::vector<std::vector<Rows>> groups;
  for (std::size_t g = 0; g < kGroups; ++g) groups.push_back({RandomRows(column, 20, 100 + g)});
  WriterOptions options;
  options.data_page_target_bytes = 1 << 20;  // one page per row group
  options.columns.push_back(ColumnWriteOptions{Encoding::kPlain});
  FileReader reader = FileReader::Open(
      std::make_shared<MemoryFile>(writer_testing::WriteFile({column}, groups, options)));
  ColumnData data;
  // Rows 0..18: each read stops inside its page and parks it (row 19, the last, would not).
  for (std::int64_t r = 0; r < 19; ++r) {
    for (std::size_t g = 0; g < kGroups; ++g) {
      reader.ReadRows(static_cast<int>(g), 0, r, r + 1, data);
      ASSERT_EQ(FromColumnData(column, data), Rows{groups[g][0][static_cast<std::size_t>(r)]});
    }
  }
  EXPECT_EQ(reader.stats().data_pages_resumed, 0u);
  EXPECT_EQ(reader.stats().data_pages_decoded, 19 * kGroups);

  // Within the bound, the same cycle resumes every page after its first row.
  reader.ResetStats();
  for (std::int64_t r = 0; r < 20; ++r) {
    for (std::size_t g = 0; g < ColumnChunkReader::kParkedPages; ++g) {
      reader.ReadRows(static_cast<int>(g), 0, r, r + 1, data);
      ASSERT_EQ(FromColumnData(column, data), Rows{groups[g][0][static_cast<std::size_t>(r)]});
    }
  }
  EXPECT_EQ(reader.stats().data_pages_decoded, ColumnChunkReader::kParkedPages);
  EXPECT_EQ(reader.stats().data_pages_resumed, 19 * ColumnChunkReader::kParkedPages);
}

}  // namespace
}  // namespace timef::parquet
