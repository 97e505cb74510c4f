// Page cutting, dictionary decisions, statistics edge cases and the file layout, checked on the
// parsed file.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "parquet/file_writer.h"
#include "parquet/writer_test_util.h"

namespace timef::parquet {
namespace {

using writer_testing::Cell;
using writer_testing::Column;
using writer_testing::DecodeChunk;
using writer_testing::DecodeDictionary;
using writer_testing::FromRaw;
using writer_testing::ParseFile;
using writer_testing::Raw;
using writer_testing::Rows;
using writer_testing::WriteFile;

Rows Flat(const std::vector<std::string>& values) {
  Rows rows;
  for (const auto& v : values) rows.push_back(Cell{true, {v}});
  return rows;
}

template <typename T>
Rows FlatOf(const std::vector<T>& values) {
  Rows rows;
  for (T v : values) rows.push_back(Cell{true, {Raw(v)}});
  return rows;
}

WriterOptions Options(Encoding encoding, std::int64_t page_target = 16 * 1024) {
  WriterOptions options;
  options.compression = CompressionCodec::kUncompressed;
  options.data_page_target_bytes = page_target;
  options.columns = {ColumnWriteOptions{encoding}};
  return options;
}

TEST(WriterLayoutTest, FixedWidthRowsFillPagesExactly) {
  // 4 bytes a row, no levels: a 4096-byte page holds exactly 1024 rows.
  const ColumnDescriptor column = Column("x", Type::kInt32);
  std::vector<std::int32_t> values(10000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i * 7);
  for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    WriterOptions options = Options(Encoding::kPlain, 4096);
    options.data_page_version = version;
    const auto parsed = ParseFile(WriteFile({column}, {{FlatOf(values)}}, options));
    const auto& chunk = parsed.chunks[0][0];
    ASSERT_EQ(chunk.pages.size(), 10u);
    for (std::size_t p = 0; p < 10; ++p) {
      EXPECT_EQ(chunk.offset_index->page_locations[p].first_row_index,
                static_cast<std::int64_t>(p * 1024));
      EXPECT_EQ(chunk.pages[p].header.uncompressed_page_size, p < 9 ? 4096 : 784 * 4);
    }
    // Ascending values: ascending boundary order, page bounds are the first and last value.
    ASSERT_TRUE(chunk.column_index.has_value());
    EXPECT_EQ(chunk.column_index->boundary_order, BoundaryOrder::kAscending);
    EXPECT_EQ(FromRaw<std::int32_t>(chunk.column_index->min_values[1]), 1024 * 7);
    EXPECT_EQ(FromRaw<std::int32_t>(chunk.column_index->max_values[1]), 2047 * 7);
  }
}

TEST(WriterLayoutTest, BoundaryOrderFollowsTheData) {
  const ColumnDescriptor column = Column("x", Type::kInt64);
  std::vector<std::int64_t> descending(3000);
  for (std::size_t i = 0; i < descending.size(); ++i) {
    descending[i] = 1000000 - static_cast<std::int64_t>(i);
  }
  auto parsed =
      ParseFile(WriteFile({column}, {{FlatOf(descending)}}, Options(Encoding::kPlain, 1024)));
  EXPECT_GT(parsed.chunks[0][0].pages.size(), 2u);
  EXPECT_EQ(parsed.chunks[0][0].column_index->boundary_order, BoundaryOrder::kDescending);

  std::vector<std::int64_t> zigzag = descending;
  for (std::size_t i = 0; i < zigzag.size(); i += 2) zigzag[i] = -zigzag[i];
  parsed = ParseFile(WriteFile({column}, {{FlatOf(zigzag)}}, Options(Encoding::kPlain, 1024)));
  EXPECT_EQ(parsed.chunks[0][0].column_index->boundary_order, BoundaryOrder::kUnordered);
}

TEST(WriterLayoutTest, LargeRowGetsAPageOfItsOwn) {
  const ColumnDescriptor column = Column("l", Type::kDouble, false, true, false);
  Rows rows;
  for (std::size_t length : {10, 10, 5000, 10, 10}) {
    Cell cell;
    for (std::size_t i = 0; i < length; ++i) cell.items.push_back(Raw(static_cast<double>(i)));
    rows.push_back(cell);
  }
  const auto parsed = ParseFile(WriteFile({column}, {{rows}}, Options(Encoding::kPlain, 1024)));
  const auto& chunk = parsed.chunks[0][0];
  const auto decoded = DecodeChunk(column, chunk);
  EXPECT_EQ(decoded.rows, rows);
  EXPECT_EQ(decoded.rows_per_page, (std::vector<std::size_t>{2, 1, 2}));
  std::vector<std::int64_t> first_rows;
  for (const auto& location : chunk.offset_index->page_locations) {
    first_rows.push_back(location.first_row_index);
  }
  EXPECT_EQ(first_rows, (std::vector<std::int64_t>{0, 2, 3}));
  EXPECT_GT(chunk.pages[1].header.uncompressed_page_size, 40000);
}

// docs/format.md §7.4: a row of at least a quarter of the page target has a page to itself (a
// one-row read decodes no other row); smaller rows share pages up to the target. Without that
// rule these rows would fill pages of 4 and 2 rows.
TEST(WriterLayoutTest, RowOfAQuarterOfTheTargetGetsAPageOfItsOwn) {
  const ColumnDescriptor column = Column("l", Type::kDouble, false, true, false);
  auto rows_of = [](const std::vector<std::size_t>& lengths) {
    Rows rows;
    for (std::size_t length : lengths) {
      Cell cell;
      for (std::size_t i = 0; i < length; ++i) cell.items.push_back(Raw(static_cast<double>(i)));
      rows.push_back(cell);
    }
    return rows;
  };
  // 16 KiB target: 600 doubles (4,800 bytes) are large, 400 (3,200 bytes) are not.
  const WriterOptions options = Options(Encoding::kPlain, 16 * 1024);
  for (const auto& [lengths, per_page] :
       std::vector<std::pair<std::vector<std::size_t>, std::vector<std::size_t>>>{
           {{400, 400, 600, 400, 400, 400}, {2, 1, 3}},
           {{600, 600, 400, 400}, {1, 1, 2}},
           {{400, 400, 400, 400, 400, 400}, {5, 1}},
       }) {
    const Rows rows = rows_of(lengths);
    const auto parsed = ParseFile(WriteFile({column}, {{rows}}, options));
    const auto decoded = DecodeChunk(column, parsed.chunks[0][0]);
    EXPECT_EQ(decoded.rows, rows);
    EXPECT_EQ(decoded.rows_per_page, per_page) << "rows of " << ::testing::PrintToString(lengths);
  }
}

// data_page_target_bytes has no upper limit (timef/write_options.h): the largest target means
// one page per column chunk, not an overflow of the target counted in bits.
TEST(WriterLayoutTest, LargestPageTargetMeansOnePage) {
  const ColumnDescriptor column = Column("x", Type::kInt64);
  std::vector<std::int64_t> values(5000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i);
  const auto parsed =
      ParseFile(WriteFile({column}, {{FlatOf(values)}},
                          Options(Encoding::kPlain, std::numeric_limits<std::int64_t>::max())));
  const auto decoded = DecodeChunk(column, parsed.chunks[0][0]);
  EXPECT_EQ(decoded.rows, FlatOf(values));
  EXPECT_EQ(decoded.rows_per_page, (std::vector<std::size_t>{5000}));
}

TEST(WriterLayoutTest, DictionaryFallsBackPerColumnChunk) {
  const ColumnDescriptor column = Column("s", Type::kByteArray);
  std::vector<std::string> distinct, repeated;
  for (int i = 0; i < 500; ++i) distinct.push_back("value-" + std::to_string(i));
  for (int i = 0; i < 500; ++i) repeated.push_back(i % 2 == 0 ? "even" : "odd");
  WriterOptions options = Options(Encoding::kRleDictionary);
  options.dictionary_limit_bytes = 1000;
  const auto parsed = ParseFile(
      WriteFile({column}, {{Flat(distinct)}, {Flat(repeated)}, {Flat(distinct)}}, options));
  ASSERT_EQ(parsed.chunks.size(), 3u);
  for (std::size_t g = 0; g < 3; ++g) {
    const auto& chunk = parsed.chunks[g][0];
    const bool fell_back = g != 1;
    EXPECT_EQ(chunk.dictionary.has_value(), !fell_back);
    EXPECT_EQ(chunk.chunk.meta_data->dictionary_page_offset.has_value(), !fell_back);
    EXPECT_EQ(chunk.chunk.meta_data->encodings,
              fell_back ? std::vector<Encoding>{Encoding::kPlain}
                        : (std::vector<Encoding>{Encoding::kPlain, Encoding::kRleDictionary}));
    EXPECT_EQ(DecodeChunk(column, chunk).rows, Flat(fell_back ? distinct : repeated));
  }
  EXPECT_EQ(DecodeDictionary(column, *parsed.chunks[1][0].dictionary),
            (std::vector<std::string>{"even", "odd"}));
}

TEST(WriterLayoutTest, FloatDictionaryFallsBackToTheChosenEncoding) {
  const ColumnDescriptor column = Column("f", Type::kFloat);
  std::vector<float> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  WriterOptions options = Options(Encoding::kRleDictionary);
  options.dictionary_limit_bytes = 400;
  options.columns[0].dictionary_fallback = Encoding::kByteStreamSplit;
  auto parsed = ParseFile(WriteFile({column}, {{FlatOf(values)}}, options));
  EXPECT_EQ(parsed.chunks[0][0].chunk.meta_data->encodings,
            std::vector<Encoding>{Encoding::kByteStreamSplit});
  EXPECT_EQ(DecodeChunk(column, parsed.chunks[0][0]).rows, FlatOf(values));

  // Without a fallback the dictionary grows past the limit.
  options.columns[0].dictionary_fallback = std::nullopt;
  parsed = ParseFile(WriteFile({column}, {{FlatOf(values)}}, options));
  ASSERT_TRUE(parsed.chunks[0][0].dictionary.has_value());
  EXPECT_EQ(parsed.chunks[0][0].dictionary->header.dictionary_page_header->num_values, 1000);
  EXPECT_EQ(DecodeChunk(column, parsed.chunks[0][0]).rows, FlatOf(values));
}

TEST(WriterLayoutTest, DictionaryPresetComesFirstInItsOrder) {
  ColumnDescriptor column = Column("e", Type::kByteArray, true);
  column.logical_type = LogicalType::Simple(LogicalType::Kind::kString);
  WriterOptions options = Options(Encoding::kRleDictionary);
  options.columns[0].dictionary_preset = {"cold", "warm", "hot"};
  options.columns[0].dictionary_fallback = std::nullopt;
  Rows rows = Flat({"hot", "hot", "cold"});
  rows.push_back(Cell{true, {std::nullopt}});
  const Rows second = Flat({"lukewarm"});
  const auto parsed = ParseFile(WriteFile({column}, {{rows}, {second}}, options));
  EXPECT_EQ(DecodeDictionary(column, *parsed.chunks[0][0].dictionary),
            (std::vector<std::string>{"cold", "warm", "hot"}));
  EXPECT_EQ(DecodeDictionary(column, *parsed.chunks[1][0].dictionary),
            (std::vector<std::string>{"cold", "warm", "hot", "lukewarm"}));
  EXPECT_EQ(DecodeChunk(column, parsed.chunks[0][0]).rows, rows);
  EXPECT_EQ(DecodeChunk(column, parsed.chunks[1][0]).rows, second);
}

TEST(WriterLayoutTest, AllNullDictionaryColumnHasAnEmptyDictionary) {
  const ColumnDescriptor column = Column("n", Type::kInt64, true);
  const Rows rows(5, Cell{true, {std::nullopt}});
  const auto parsed = ParseFile(WriteFile({column}, {{rows}}, Options(Encoding::kRleDictionary)));
  const auto& chunk = parsed.chunks[0][0];
  ASSERT_TRUE(chunk.dictionary.has_value());
  EXPECT_EQ(chunk.dictionary->header.dictionary_page_header->num_values, 0);
  EXPECT_EQ(DecodeChunk(column, chunk).rows, rows);
  const Statistics& stats = *chunk.chunk.meta_data->statistics;
  EXPECT_EQ(stats.null_count, 5);
  EXPECT_FALSE(stats.min_value.has_value());
  ASSERT_TRUE(chunk.column_index.has_value());
  EXPECT_EQ(chunk.column_index->null_pages, std::vector<bool>{true});
  EXPECT_EQ(chunk.column_index->min_values, std::vector<std::string>{""});
}

TEST(WriterLayoutTest, FloatStatisticsEdgeCases) {
  const ColumnDescriptor column = Column("d", Type::kDouble);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Zeros only: min -0.0, max +0.0 whichever sign came first.
  auto parsed = ParseFile(
      WriteFile({column}, {{FlatOf<double>({0.0, -0.0, 0.0})}}, Options(Encoding::kPlain)));
  auto stats = *parsed.chunks[0][0].chunk.meta_data->statistics;
  EXPECT_EQ(*stats.min_value, Raw(-0.0));
  EXPECT_EQ(*stats.max_value, Raw(0.0));
  EXPECT_EQ(stats.nan_count, 0);
  EXPECT_EQ(parsed.chunks[0][0].column_index->min_values[0], Raw(-0.0));

  // All NaN: no bounds, and no column index (TYPE_ORDER cannot describe a NaN-only page).
  parsed =
      ParseFile(WriteFile({column}, {{FlatOf<double>({nan, nan})}}, Options(Encoding::kPlain)));
  stats = *parsed.chunks[0][0].chunk.meta_data->statistics;
  EXPECT_FALSE(stats.min_value.has_value());
  EXPECT_FALSE(stats.max_value.has_value());
  EXPECT_EQ(stats.nan_count, 2);
  EXPECT_FALSE(parsed.chunks[0][0].column_index.has_value());
  EXPECT_FALSE(parsed.chunks[0][0].chunk.column_index_offset.has_value());
  EXPECT_TRUE(parsed.chunks[0][0].offset_index.has_value());

  // NaN among numbers is left out of the bounds.
  parsed = ParseFile(
      WriteFile({column}, {{FlatOf<double>({nan, 3.0, -1.0, nan})}}, Options(Encoding::kPlain)));
  stats = *parsed.chunks[0][0].chunk.meta_data->statistics;
  EXPECT_EQ(FromRaw<double>(*stats.min_value), -1.0);
  EXPECT_EQ(FromRaw<double>(*stats.max_value), 3.0);
  EXPECT_EQ(stats.nan_count, 2);
  EXPECT_EQ(parsed.chunks[0][0].column_index->nan_counts, std::vector<std::int64_t>{2});
}

TEST(WriterLayoutTest, UnsignedAndUndefinedOrders) {
  ColumnDescriptor u32 = Column("u", Type::kInt32);
  u32.logical_type = LogicalType::Integer(32, false);
  u32.converted_type = ConvertedType::kUint32;
  auto parsed = ParseFile(
      WriteFile({u32}, {{FlatOf<std::int32_t>({-1, 5, 0x7FFFFFFF})}}, Options(Encoding::kPlain)));
  auto stats = *parsed.chunks[0][0].chunk.meta_data->statistics;
  EXPECT_EQ(FromRaw<std::uint32_t>(*stats.min_value), 5u);
  EXPECT_EQ(FromRaw<std::uint32_t>(*stats.max_value), 0xFFFFFFFFu);

  // A decimal in a fixed-length byte array orders as a signed number: no bounds are written.
  ColumnDescriptor decimal = Column("d", Type::kFixedLenByteArray, true, false, false, 4);
  decimal.logical_type = LogicalType::Decimal(2, 9);
  decimal.converted_type = ConvertedType::kDecimal;
  Rows rows = Flat({std::string("\x00\x00\x01\x00", 4), std::string("\xff\xff\xff\xff", 4)});
  rows.push_back(Cell{true, {std::nullopt}});
  parsed = ParseFile(WriteFile({decimal}, {{rows}}, Options(Encoding::kPlain)));
  stats = *parsed.chunks[0][0].chunk.meta_data->statistics;
  EXPECT_FALSE(stats.min_value.has_value());
  EXPECT_EQ(stats.null_count, 1);
  EXPECT_FALSE(parsed.chunks[0][0].column_index.has_value());
  EXPECT_EQ(DecodeChunk(decimal, parsed.chunks[0][0]).rows, rows);
}

TEST(WriterLayoutTest, LongStringBoundsAreTruncated) {
  ColumnDescriptor column = Column("s", Type::kByteArray);
  column.logical_type = LogicalType::Simple(LogicalType::Kind::kString);
  const std::string low = std::string(100, 'b');
  const std::string high = std::string(100, 'y');
  auto parsed =
      ParseFile(WriteFile({column}, {{Flat({high, low, "c"})}}, Options(Encoding::kPlain)));
  auto stats = *parsed.chunks[0][0].chunk.meta_data->statistics;
  EXPECT_EQ(*stats.min_value, std::string(64, 'b'));
  EXPECT_EQ(*stats.max_value, std::string(63, 'y') + 'z');
  EXPECT_EQ(stats.is_min_value_exact, false);
  EXPECT_EQ(stats.is_max_value_exact, false);
  EXPECT_EQ(parsed.chunks[0][0].column_index->min_values[0], std::string(64, 'b'));
  EXPECT_EQ(parsed.chunks[0][0].column_index->max_values[0], std::string(63, 'y') + 'z');

  // A maximum that cannot be shortened stays whole; 0 turns truncation off.
  const std::string ff(80, '\xff');
  parsed = ParseFile(WriteFile({column}, {{Flat({ff, "a"})}}, Options(Encoding::kPlain)));
  stats = *parsed.chunks[0][0].chunk.meta_data->statistics;
  EXPECT_EQ(*stats.max_value, ff);
  EXPECT_EQ(stats.is_max_value_exact, true);
  WriterOptions whole = Options(Encoding::kPlain);
  whole.statistics_truncate_bytes = 0;
  parsed = ParseFile(WriteFile({column}, {{Flat({high, low})}}, whole));
  stats = *parsed.chunks[0][0].chunk.meta_data->statistics;
  EXPECT_EQ(*stats.min_value, low);
  EXPECT_EQ(*stats.max_value, high);
}

TEST(WriterLayoutTest, PageIndexFollowsTheRowGroupsAndPrecedesTheFooter) {
  const std::vector<ColumnDescriptor> schema = {Column("a", Type::kInt32),
                                                Column("b", Type::kDouble, true, true, true)};
  WriterOptions options;
  options.compression_level = 1;
  const auto groups = std::vector<std::vector<Rows>>{
      {writer_testing::RandomRows(schema[0], 50, 1), writer_testing::RandomRows(schema[1], 50, 2)},
      {writer_testing::RandomRows(schema[0], 20, 3), writer_testing::RandomRows(schema[1], 20, 4)}};
  const auto file = WriteFile(schema, groups, options);
  const auto parsed = ParseFile(file);
  std::int64_t data_end = 0;
  for (const auto& group : parsed.meta.row_groups) {
    for (const auto& chunk : group.columns) {
      data_end = std::max(
          data_end, chunk.meta_data->data_page_offset + chunk.meta_data->total_compressed_size);
    }
  }
  // Column indexes back to back (row group major), then the offset indexes, then the footer.
  std::int64_t expected = data_end;
  for (const auto& group : parsed.meta.row_groups) {
    for (const auto& chunk : group.columns) {
      if (!chunk.column_index_offset) continue;
      EXPECT_EQ(*chunk.column_index_offset, expected);
      expected += *chunk.column_index_length;
    }
  }
  for (const auto& group : parsed.meta.row_groups) {
    for (const auto& chunk : group.columns) {
      ASSERT_TRUE(chunk.offset_index_offset.has_value());
      EXPECT_EQ(*chunk.offset_index_offset, expected);
      expected += *chunk.offset_index_length;
    }
  }
  const std::uint32_t footer = writer_testing::Le32(file, file.size() - 8);
  EXPECT_EQ(static_cast<std::size_t>(expected) + footer + 8, file.size());

  // Row group sizes add up; file_offset points at the first chunk.
  for (const auto& group : parsed.meta.row_groups) {
    std::int64_t compressed = 0, uncompressed = 0;
    for (const auto& chunk : group.columns) {
      compressed += chunk.meta_data->total_compressed_size;
      uncompressed += chunk.meta_data->total_uncompressed_size;
      EXPECT_EQ(chunk.file_offset, 0);
    }
    EXPECT_EQ(group.total_compressed_size, compressed);
    EXPECT_EQ(group.total_byte_size, uncompressed);
    EXPECT_EQ(group.file_offset, group.columns[0].meta_data->data_page_offset);
  }
}

TEST(WriterLayoutTest, EmptyFileAndNoOpFlushes) {
  const std::vector<ColumnDescriptor> schema = {Column("a", Type::kInt32)};
  MemoryOutputStream out;
  FileWriter writer(out, schema, Options(Encoding::kPlain));
  writer.FlushRowGroup();  // nothing pending: no row group
  EXPECT_EQ(writer.num_row_groups(), 0);
  const FileMetaData& meta = writer.Close();
  EXPECT_EQ(meta.num_rows, 0);
  EXPECT_TRUE(meta.row_groups.empty());
  const auto parsed = ParseFile(out.bytes());
  EXPECT_EQ(parsed.meta, meta);
  EXPECT_EQ(parsed.meta.schema, BuildSchemaElements(schema));
}

TEST(WriterLayoutTest, CloseFlushesPendingRowsAndKeepsKeyValues) {
  const std::vector<ColumnDescriptor> schema = {Column("a", Type::kInt32)};
  MemoryOutputStream out;
  WriterOptions options = Options(Encoding::kPlain);
  options.key_value_metadata = {{"first", "1"}};
  options.created_by = "custom";
  FileWriter writer(out, schema, options);
  const ColumnData data = writer_testing::ToColumnData(schema[0], FlatOf<std::int32_t>({1, 2, 3}));
  writer.WriteColumn(0, data.View());
  EXPECT_EQ(writer.pending_rows(0), 3);
  writer.AddKeyValue("second", std::nullopt);
  const FileMetaData& meta = writer.Close();
  EXPECT_EQ(&writer.Close(), &meta);
  EXPECT_EQ(meta.num_rows, 3);
  ASSERT_EQ(meta.row_groups.size(), 1u);
  EXPECT_EQ(meta.key_value_metadata,
            (std::vector<KeyValue>{{"first", "1"}, {"second", std::nullopt}}));
  EXPECT_EQ(meta.created_by, "custom");
  EXPECT_EQ(ParseFile(out.bytes()).meta, meta);
}

}  // namespace
}  // namespace timef::parquet
