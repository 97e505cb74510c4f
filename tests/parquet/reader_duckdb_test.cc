// The reader against an independent implementation: DuckDB writes a table of every supported type
// (ints of all widths, unsigned, floats with NaN/±inf/-0.0, dictionary and long strings, booleans,
// UUID, lists with null lists, empty lists and null elements) with each codec and page version;
// timef reads every column chunk, whole and by row ranges, and must match DuckDB's own reading of
// the same file bit for bit.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/format_test_support.h"
#include "parquet/reader_file_builder.h"
#include "parquet/reader_test_support.h"

namespace timef::parquet {
namespace {

using testing::CellsOf;
using testing::DuckDb;
using testing::SameCells;

constexpr int kRows = 5000;

// Deterministic values; the modulo patterns put nulls, specials and empty lists everywhere.
std::string TableSql(int rows) {
  return R"sql(
CREATE TABLE t AS SELECT
  i::BIGINT AS id,
  CASE WHEN i % 7 = 3 THEN NULL ELSE ((i * 37) % 256 - 128)::TINYINT END AS i8,
  ((i * 53) % 256)::UTINYINT AS u8,
  ((i * 7919) % 65536 - 32768)::SMALLINT AS i16,
  ((i * 7919) % 65536)::USMALLINT AS u16,
  CASE WHEN i % 5 = 0 THEN NULL
       ELSE ((hash(i) % 4294967296)::BIGINT - 2147483648)::INTEGER END AS i32,
  (hash(i) % 4294967296)::UINTEGER AS u32,
  (hash(i) >> 1)::BIGINT * (CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END) AS i64,
  hash(i + 1) AS u64,
  CASE i % 13 WHEN 0 THEN 'nan'::FLOAT WHEN 1 THEN 'inf'::FLOAT WHEN 2 THEN '-inf'::FLOAT
              WHEN 3 THEN '-0.0'::FLOAT WHEN 4 THEN NULL ELSE (i * 0.37)::FLOAT END AS f,
  CASE i % 11 WHEN 0 THEN 'nan'::DOUBLE WHEN 1 THEN 'inf'::DOUBLE WHEN 2 THEN '-inf'::DOUBLE
              WHEN 3 THEN '-0.0'::DOUBLE WHEN 4 THEN NULL ELSE i / 7.0 END AS d,
  CASE WHEN i % 9 = 0 THEN NULL ELSE 'label-' || (i % 37) END AS s,
  CASE WHEN i % 17 = 0 THEN NULL
       ELSE repeat(chr((97 + i % 26)::INTEGER), (i % 300)::INTEGER) || i::VARCHAR END AS ls,
  CASE WHEN i % 6 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
  (SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' ||
           substr(h, 17, 4) || '-' || substr(h, 21, 12))::UUID
   FROM (SELECT md5(i::VARCHAR) AS h)) AS u,
  CASE WHEN i % 11 = 0 THEN NULL WHEN i % 11 = 1 THEN []::INTEGER[]
       ELSE list_transform(range((i % 6)::BIGINT),
                           x -> CASE WHEN (x + i) % 4 = 0 THEN NULL ELSE (x * i)::INTEGER END)
  END AS l,
  list_transform(range((i % 4)::BIGINT), x -> (x + i) / 3.0) AS ld,
  CASE WHEN i % 5 = 2 THEN NULL
       ELSE list_transform(range((i % 3)::BIGINT),
                           x -> CASE WHEN x = 1 AND i % 2 = 0 THEN NULL
                                     ELSE 'e' || ((x + i) % 10)::VARCHAR END)
  END AS lstr
FROM range()sql" +
         std::to_string(rows) + ") r(i)";
}

const std::vector<std::string> kColumns = {"id",  "i8",  "u8",  "i16", "u16", "i32",
                                           "u32", "i64", "u64", "f",   "d",   "s",
                                           "ls",  "b",   "u",   "l",   "ld",  "lstr"};

struct Case {
  std::string name;
  std::string options;  // the COPY options after FORMAT parquet
  CompressionCodec codec;
};

class ReaderDuckDbTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    db_.Exec("SET threads = 1");
    db_.Exec(TableSql(kRows));
    path_ = dir_.path() / "duck.parquet";
    db_.Exec("COPY t TO '" + path_.string() + "' (FORMAT parquet, " + GetParam().options + ")");
    // DuckDB's reading of the file is the oracle.
    expected_ = db_.Columns("SELECT * FROM read_parquet('" + path_.string() + "')");
    ASSERT_EQ(expected_.size(), kColumns.size());
  }

  // The oracle's rows [first, last) of the file for column `c`.
  std::vector<testing::Cell> Expected(std::size_t c, std::int64_t first, std::int64_t last) {
    return {expected_[c].begin() + first, expected_[c].begin() + last};
  }

  testing::ScratchDir dir_;
  DuckDb db_;
  std::filesystem::path path_;
  std::vector<std::vector<testing::Cell>> expected_;
};

TEST_P(ReaderDuckDbTest, SchemaResolvesToTheTableColumns) {
  FileReader reader = FileReader::OpenFile(path_);
  const auto& columns = reader.columns();
  ASSERT_EQ(columns.size(), kColumns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    EXPECT_EQ(columns[c].name, kColumns[c]);
    EXPECT_EQ(reader.ColumnIndex(kColumns[c]), static_cast<int>(c));
  }
  EXPECT_EQ(reader.num_rows(), kRows);
  EXPECT_EQ(columns[reader.ColumnIndex("u")].physical_type, Type::kFixedLenByteArray);
  EXPECT_EQ(columns[reader.ColumnIndex("u")].type_length, 16);
  const auto& list = columns[reader.ColumnIndex("l")];
  EXPECT_TRUE(list.is_list);
  EXPECT_TRUE(list.nullable);
  EXPECT_TRUE(list.element_nullable);
  EXPECT_EQ(list.max_definition_level(), 3);
  EXPECT_EQ(list.path_in_schema, (std::vector<std::string>{"l", "list", "element"}));
  EXPECT_THROW(reader.ColumnIndex("nope"), NotFoundError);
}

TEST_P(ReaderDuckDbTest, WholeChunksMatchDuckDb) {
  FileReader reader = FileReader::OpenFile(path_);
  ASSERT_GT(reader.num_row_groups(), 1);
  ColumnData data;
  for (std::size_t c = 0; c < kColumns.size(); ++c) {
    std::int64_t row = 0;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      SCOPED_TRACE("column " + kColumns[c] + ", row group " + std::to_string(g));
      ASSERT_EQ(reader.column_chunk(g, static_cast<int>(c)).meta_data->codec, GetParam().codec);
      reader.ReadColumnChunk(g, static_cast<int>(c), data);
      const std::int64_t rows = reader.row_group_num_rows(g);
      ASSERT_EQ(data.num_rows, rows);
      EXPECT_TRUE(SameCells(Expected(c, row, row + rows), CellsOf(data), row));
      row += rows;
    }
    EXPECT_EQ(row, kRows);
  }
}

TEST_P(ReaderDuckDbTest, RowRangesMatchWholeChunks) {
  for (const bool use_index : {true, false}) {
    SCOPED_TRACE(use_index ? "with page index" : "page scan");
    ReaderOptions options;
    options.use_page_index = use_index;
    FileReader reader = FileReader::OpenFile(path_, options);
    std::mt19937_64 rng(42);
    ColumnData data;
    for (std::size_t c = 0; c < kColumns.size(); ++c) {
      std::int64_t group_start = 0;
      for (int g = 0; g < reader.num_row_groups(); ++g) {
        const std::int64_t rows = reader.row_group_num_rows(g);
        for (int k = 0; k < 12; ++k) {
          std::int64_t first = static_cast<std::int64_t>(rng() % (rows + 1));
          std::int64_t last = static_cast<std::int64_t>(rng() % (rows + 1));
          if (first > last) std::swap(first, last);
          if (k == 0) first = last = rows / 2;                // empty range
          if (k == 1) last = first + (first < rows ? 1 : 0);  // one row
          SCOPED_TRACE(kColumns[c] + " group " + std::to_string(g) + " rows [" +
                       std::to_string(first) + ", " + std::to_string(last) + ")");
          reader.ReadRows(g, static_cast<int>(c), first, last, data);
          ASSERT_EQ(data.num_rows, last - first);
          EXPECT_TRUE(SameCells(Expected(c, group_start + first, group_start + last), CellsOf(data),
                                group_start + first));
        }
        group_start += rows;
      }
    }
  }
}

TEST_P(ReaderDuckDbTest, RowRangesThroughAnAddedPageIndex) {
  // DuckDB writes no page index: give its file one (a footer rewrite), so that the indexed path,
  // including the lazy read of the dictionary page, runs over DuckDB's own pages.
  const auto source = OpenPreadFile(path_);
  auto bytes = source->Read(0, source->size());
  const std::size_t indexed = testing::AddOffsetIndexes(bytes);
  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(bytes, "indexed.parquet"));
  ASSERT_EQ(indexed, kColumns.size() * static_cast<std::size_t>(reader.num_row_groups()));
  std::mt19937_64 rng(7);
  ColumnData data;
  for (std::size_t c = 0; c < kColumns.size(); ++c) {
    std::int64_t group_start = 0;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      ASSERT_NE(reader.offset_index(g, static_cast<int>(c)), nullptr);
      const std::int64_t rows = reader.row_group_num_rows(g);
      for (int k = 0; k < 4; ++k) {
        std::int64_t first = static_cast<std::int64_t>(rng() % rows);
        std::int64_t last = k % 2 == 0 ? first + 1 : static_cast<std::int64_t>(rng() % (rows + 1));
        if (first > last) std::swap(first, last);
        SCOPED_TRACE(kColumns[c] + " group " + std::to_string(g) + " rows [" +
                     std::to_string(first) + ", " + std::to_string(last) + ")");
        reader.ResetStats();
        reader.ReadRows(g, static_cast<int>(c), first, last, data);
        EXPECT_TRUE(SameCells(Expected(c, group_start + first, group_start + last), CellsOf(data),
                              group_start + first));
        EXPECT_EQ(reader.stats().data_pages_skipped, 0u);
      }
      group_start += rows;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, ReaderDuckDbTest,
    ::testing::Values(
        Case{"Uncompressed", "COMPRESSION uncompressed, ROW_GROUP_SIZE 2048",
             CompressionCodec::kUncompressed},
        Case{"Snappy", "COMPRESSION snappy, ROW_GROUP_SIZE 2048", CompressionCodec::kSnappy},
        Case{"Gzip", "COMPRESSION gzip, ROW_GROUP_SIZE 2048", CompressionCodec::kGzip},
        Case{"Zstd", "COMPRESSION zstd, ROW_GROUP_SIZE 2048", CompressionCodec::kZstd},
        Case{"Lz4Raw", "COMPRESSION lz4_raw, ROW_GROUP_SIZE 2048", CompressionCodec::kLz4Raw},
        Case{"ZstdV2", "COMPRESSION zstd, ROW_GROUP_SIZE 2048, PARQUET_VERSION v2",
             CompressionCodec::kZstd},
        Case{"SnappyV2", "COMPRESSION snappy, ROW_GROUP_SIZE 2048, PARQUET_VERSION v2",
             CompressionCodec::kSnappy},
        Case{"UncompressedV2", "COMPRESSION uncompressed, ROW_GROUP_SIZE 2048, PARQUET_VERSION v2",
             CompressionCodec::kUncompressed}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace timef::parquet
