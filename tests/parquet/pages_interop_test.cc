// The format layer against independent implementations. DuckDB writes Parquet files with each codec
// and page version; parquet-wasm (arrow-rs) wrote tests/parquet/data/parquet_wasm_v2_page_index
// (data page v2, page index). For each file we parse the footer, check that our encoder reproduces
// its bytes exactly, walk every page of every column chunk, verify CRCs when present, decompress
// each page to its declared size, and check the page index against the pages found.
#include <duckdb.h>
#include <gtest/gtest.h>

#include <string>

#include "parquet/compression.h"
#include "parquet/crc32.h"
#include "parquet/file_io.h"
#include "parquet/format_test_support.h"
#include "parquet/metadata.h"

namespace timef::parquet {
namespace {

void WriteWithDuckDB(const std::filesystem::path& path, std::int64_t rows,
                     const std::string& options) {
  duckdb_database db = nullptr;
  duckdb_connection con = nullptr;
  ASSERT_EQ(duckdb_open(nullptr, &db), DuckDBSuccess);
  ASSERT_EQ(duckdb_connect(db, &con), DuckDBSuccess);
  const std::string sql =
      "COPY (SELECT i::BIGINT AS i,"
      " CASE WHEN i % 7 = 0 THEN NULL ELSE 'label-' || (i % 50) END AS s,"
      " (i * 0.25)::DOUBLE AS d,"
      " CASE WHEN i % 11 = 0 THEN NULL ELSE [i::INTEGER, NULL, (i % 3)::INTEGER] END AS l"
      " FROM range(" +
      std::to_string(rows) + ") t(i)) TO '" + path.string() + "' (FORMAT parquet, " + options + ")";
  duckdb_result result;
  const bool ok = duckdb_query(con, sql.c_str(), &result) == DuckDBSuccess;
  const std::string error = ok ? "" : duckdb_result_error(&result);
  duckdb_destroy_result(&result);
  duckdb_disconnect(&con);
  duckdb_close(&db);
  ASSERT_TRUE(ok) << error;
}

// Parses the footer (<metadata> <u32 little-endian length> "PAR1") and checks that re-encoding
// the decoded metadata gives the same bytes.
FileMetaData ReadFooter(const RandomAccessFile& file) {
  EXPECT_GT(file.size(), 12u);
  const auto head = file.Read(0, 4);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(head.data()), 4), "PAR1");
  const auto tail = file.Read(file.size() - 8, 8);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(tail.data()) + 4, 4), "PAR1");
  std::uint32_t length = 0;
  for (int i = 3; i >= 0; --i) length = (length << 8) | std::to_integer<std::uint32_t>(tail[i]);
  const auto footer = file.Read(file.size() - 8 - length, length);
  std::size_t consumed = 0;
  auto meta = ReadThrift<FileMetaData>(footer, &consumed);
  EXPECT_EQ(consumed, footer.size());
  std::vector<std::byte> reencoded;
  WriteThrift(meta, reencoded);
  EXPECT_EQ(testing::Hex(reencoded), testing::Hex(footer));
  return meta;
}

struct WalkSummary {
  std::int64_t rows = 0;
  int pages = 0;
  int data_pages_v2 = 0;
  int pages_with_crc = 0;
  int chunks_with_offset_index = 0;
  int chunks_with_column_index = 0;
};

// Walks every page of every column chunk, decompressing each, and cross-checks the page index.
WalkSummary WalkAllPages(const RandomAccessFile& file, const FileMetaData& meta) {
  WalkSummary summary;
  Decompressor decompressor;
  for (std::size_t g = 0; g < meta.row_groups.size(); ++g) {
    const RowGroup& group = meta.row_groups[g];
    summary.rows += group.num_rows;
    for (const ColumnChunk& chunk : group.columns) {
      if (!chunk.meta_data) {
        ADD_FAILURE() << "column chunk without metadata";
        continue;
      }
      const ColumnMetaData& column = *chunk.meta_data;
      SCOPED_TRACE("row group " + std::to_string(g) + ", column " + column.path_in_schema[0]);
      const std::int64_t start = column.dictionary_page_offset.value_or(0) > 0
                                     ? *column.dictionary_page_offset
                                     : column.data_page_offset;
      const auto bytes = file.Read(start, column.total_compressed_size);
      std::size_t pos = 0;
      std::int64_t values = 0;
      std::vector<std::int64_t> data_page_offsets;
      while (pos < bytes.size()) {
        std::size_t header_size = 0;
        const auto header = ReadThrift<PageHeader>(std::span(bytes).subspan(pos), &header_size);
        const auto payload =
            std::span(bytes).subspan(pos + header_size, header.compressed_page_size);
        if (header.crc) {
          ++summary.pages_with_crc;
          EXPECT_EQ(Crc32(payload), CrcFromThrift(*header.crc));
        }
        std::size_t levels = 0;  // v2: the levels are stored uncompressed in front
        CompressionCodec codec = column.codec;
        if (header.type == PageType::kDataPage) {
          EXPECT_TRUE(header.data_page_header.has_value());
          values += header.data_page_header.value().num_values;
          data_page_offsets.push_back(start + static_cast<std::int64_t>(pos));
        } else if (header.type == PageType::kDataPageV2) {
          EXPECT_TRUE(header.data_page_header_v2.has_value());
          const auto& v2 = header.data_page_header_v2.value();
          ++summary.data_pages_v2;
          values += v2.num_values;
          levels = v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
          if (!v2.compressed()) codec = CompressionCodec::kUncompressed;
          data_page_offsets.push_back(start + static_cast<std::int64_t>(pos));
        } else {
          EXPECT_EQ(header.type, PageType::kDictionaryPage);
          EXPECT_TRUE(header.dictionary_page_header.has_value());
        }
        const auto section = payload.subspan(levels);
        const std::int64_t uncompressed = header.uncompressed_page_size - levels;
        EXPECT_NO_THROW(CheckDecompressedSize(codec, section.size(), uncompressed));
        std::vector<std::byte> out(uncompressed);
        EXPECT_NO_THROW(decompressor.Decompress(codec, section, out));
        pos += header_size + header.compressed_page_size;
        ++summary.pages;
      }
      EXPECT_EQ(pos, bytes.size());
      EXPECT_EQ(values, column.num_values);

      if (chunk.offset_index_offset && chunk.offset_index_length) {
        ++summary.chunks_with_offset_index;
        const auto index_bytes = file.Read(*chunk.offset_index_offset, *chunk.offset_index_length);
        const auto index = ReadThrift<OffsetIndex>(index_bytes);
        EXPECT_EQ(index.page_locations.size(), data_page_offsets.size());
        std::int64_t previous_first_row = -1;
        for (std::size_t p = 0; p < index.page_locations.size(); ++p) {
          const PageLocation& location = index.page_locations[p];
          if (p < data_page_offsets.size()) {
            EXPECT_EQ(location.offset, data_page_offsets[p]);
          }
          EXPECT_GT(location.first_row_index, previous_first_row);
          EXPECT_LT(location.first_row_index, group.num_rows);
          previous_first_row = location.first_row_index;
        }
        if (!index.page_locations.empty()) {
          EXPECT_EQ(index.page_locations[0].first_row_index, 0);
        }
      }
      if (chunk.column_index_offset && chunk.column_index_length) {
        ++summary.chunks_with_column_index;
        const auto index_bytes = file.Read(*chunk.column_index_offset, *chunk.column_index_length);
        const auto index = ReadThrift<ColumnIndex>(index_bytes);
        EXPECT_EQ(index.null_pages.size(), data_page_offsets.size());
        EXPECT_EQ(index.min_values.size(), index.null_pages.size());
        EXPECT_EQ(index.max_values.size(), index.null_pages.size());
        if (index.null_counts) {
          EXPECT_EQ(index.null_counts->size(), index.null_pages.size());
        }
      }
    }
  }
  return summary;
}

struct DuckDBCase {
  std::string name;
  std::string options;
  CompressionCodec codec;
};

class DuckDBPagesTest : public ::testing::TestWithParam<DuckDBCase> {};

TEST_P(DuckDBPagesTest, FooterAndEveryPageDecode) {
  constexpr std::int64_t kRows = 10000;
  testing::ScratchDir dir;
  const auto path = dir.path() / "duck.parquet";
  ASSERT_NO_FATAL_FAILURE(WriteWithDuckDB(path, kRows, GetParam().options));
  const auto file = OpenMmapFile(path);
  const FileMetaData meta = ReadFooter(*file);

  EXPECT_EQ(meta.num_rows, kRows);
  ASSERT_EQ(meta.schema.size(), 7u);  // root, i, s, d, l (LIST) > list > element
  EXPECT_EQ(meta.schema[0].num_children, 4);
  EXPECT_EQ(meta.schema[1].name, "i");
  EXPECT_EQ(meta.schema[1].type, Type::kInt64);
  EXPECT_EQ(meta.schema[2].name, "s");
  EXPECT_EQ(meta.schema[2].type, Type::kByteArray);
  EXPECT_EQ(meta.schema[2].converted_type, ConvertedType::kUtf8);
  EXPECT_EQ(meta.schema[3].type, Type::kDouble);
  EXPECT_EQ(meta.schema[4].name, "l");
  EXPECT_EQ(meta.schema[4].converted_type, ConvertedType::kList);
  EXPECT_EQ(meta.schema[6].type, Type::kInt32);
  ASSERT_TRUE(meta.created_by.has_value());
  EXPECT_NE(meta.created_by->find("DuckDB"), std::string::npos) << *meta.created_by;
  for (const RowGroup& group : meta.row_groups) {
    ASSERT_EQ(group.columns.size(), 4u);
    for (const ColumnChunk& chunk : group.columns) {
      EXPECT_EQ(chunk.meta_data.value().codec, GetParam().codec);
    }
  }

  const WalkSummary summary = WalkAllPages(*file, meta);
  EXPECT_EQ(summary.rows, kRows);
  EXPECT_GE(summary.pages, 12);
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, DuckDBPagesTest,
    ::testing::Values(
        DuckDBCase{"Uncompressed", "COMPRESSION 'uncompressed', ROW_GROUP_SIZE 4000",
                   CompressionCodec::kUncompressed},
        DuckDBCase{"Snappy", "COMPRESSION 'snappy', ROW_GROUP_SIZE 4000",
                   CompressionCodec::kSnappy},
        DuckDBCase{"Gzip", "COMPRESSION 'gzip', ROW_GROUP_SIZE 4000", CompressionCodec::kGzip},
        DuckDBCase{"Zstd", "COMPRESSION 'zstd', ROW_GROUP_SIZE 4000", CompressionCodec::kZstd},
        DuckDBCase{"Lz4Raw", "COMPRESSION 'lz4_raw', ROW_GROUP_SIZE 4000",
                   CompressionCodec::kLz4Raw},
        DuckDBCase{"ZstdPagesV2", "COMPRESSION 'zstd', ROW_GROUP_SIZE 4000, PARQUET_VERSION 'V2'",
                   CompressionCodec::kZstd}),
    [](const auto& info) { return info.param.name; });

TEST(ParquetWasmPagesTest, DataPageV2AndPageIndex) {
  const auto file = OpenPreadFile(std::filesystem::path(TIMEF_SOURCE_DIR) /
                                  "tests/parquet/data/parquet_wasm_v2_page_index.parquet");
  const FileMetaData meta = ReadFooter(*file);
  EXPECT_EQ(meta.num_rows, 3000);
  EXPECT_EQ(meta.row_groups.size(), 3u);
  EXPECT_EQ(meta.created_by, "parquet-wasm fixture for timef");
  ASSERT_TRUE(meta.column_orders.has_value());
  EXPECT_EQ(meta.column_orders->size(), 3u);
  ASSERT_EQ(meta.schema.size(), 4u);
  EXPECT_EQ(meta.schema[2].name, "label");
  ASSERT_TRUE(meta.schema[2].logical_type.has_value());
  EXPECT_EQ(meta.schema[2].logical_type->kind, LogicalType::Kind::kString);

  const WalkSummary summary = WalkAllPages(*file, meta);
  EXPECT_EQ(summary.rows, 3000);
  EXPECT_GT(summary.data_pages_v2, 9);
  EXPECT_EQ(summary.chunks_with_offset_index, 9);
  EXPECT_EQ(summary.chunks_with_column_index, 9);
}

}  // namespace
}  // namespace timef::parquet
