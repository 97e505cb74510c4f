// Acceptance of `timef parquet rewrite` against DuckDB: a file DuckDB writes (v1 and v2 pages,
// snappy, zstd, uncompressed, several row groups) is rewritten by RewriteFile — the function the
// CLI calls, with the CLI's encoding names parsed by ParseEncodingName — once per encoding option
// the command offers, and DuckDB must read the rewrite back with exactly the rows it reads from its
// own file: same column names and types, every value bit-exact (NaN, ±infinity, -0.0), nulls,
// empty and long strings, binary, UUIDs, null lists, empty lists and null elements. The one
// exception is DELTA_BYTE_ARRAY on a FIXED_LEN_BYTE_ARRAY column (UUID), which DuckDB does not
// read: that rewrite is checked through timef's reader (see Rewrite::duckdb_reads_rewrite).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/format_test_support.h"
#include "parquet/reader_test_support.h"
#include "parquet/tool_inspect.h"

namespace timef::parquet {
namespace {

using testing::CellsOf;
using testing::DuckDb;
using testing::SameCells;

constexpr int kRows = 5000;

// Every type the rewrite carries, with nulls, specials and edge cases spread by modulo patterns.
constexpr const char* kTableSql = R"sql(
CREATE TABLE t AS SELECT
  i::BIGINT AS id,
  CASE WHEN i % 6 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
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
  CASE WHEN i % 9 = 0 THEN NULL WHEN i % 9 = 1 THEN '' ELSE 'label-' || (i % 37) END AS s,
  CASE WHEN i % 17 = 0 THEN NULL
       ELSE repeat(chr((97 + i % 26)::INTEGER), (i % 300)::INTEGER) || 'é' || i::VARCHAR
  END AS ls,
  CASE WHEN i % 19 = 0 THEN NULL ELSE unhex(md5(i::VARCHAR)[1:(2 * (i % 8))::INTEGER]) END AS bin,
  (SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' ||
           substr(h, 17, 4) || '-' || substr(h, 21, 12))::UUID
   FROM (SELECT md5(i::VARCHAR) AS h)) AS u,
  CASE WHEN i % 11 = 0 THEN NULL WHEN i % 11 = 1 THEN []::INTEGER[]
       ELSE list_transform(range((i % 6)::BIGINT),
                           x -> CASE WHEN (x + i) % 4 = 0 THEN NULL ELSE (x * i)::INTEGER END)
  END AS l,
  list_transform(range((i % 4)::BIGINT), x -> (x - 2) * ((hash(i) >> 1)::BIGINT % 1000000007))
    AS l64,
  CASE WHEN i % 10 = 7 THEN NULL
       ELSE list_transform(range((i % 5)::BIGINT),
                           x -> CASE (x + i) % 7 WHEN 0 THEN NULL WHEN 1 THEN 'nan'::FLOAT
                                     WHEN 2 THEN '-0.0'::FLOAT WHEN 3 THEN '-inf'::FLOAT
                                     ELSE (x * i * 0.001)::FLOAT END)
  END AS lf,
  list_transform(range((i % 4)::BIGINT), x -> (x + i) / 3.0) AS ld,
  CASE WHEN i % 5 = 2 THEN NULL
       ELSE list_transform(range((i % 3)::BIGINT),
                           x -> CASE WHEN x = 1 AND i % 2 = 0 THEN NULL
                                     ELSE 'e' || ((x + i) % 10)::VARCHAR END)
  END AS lstr
FROM range(5000) r(i)
)sql";

// The columns by the encodings that fit them.
const std::vector<std::string> kIntegerColumns = {"id",  "i8",  "u8",  "i16", "u16", "i32",
                                                  "u32", "i64", "u64", "l",   "l64"};
const std::vector<std::string> kFloatColumns = {"f", "d", "lf", "ld"};
const std::vector<std::string> kByteArrayColumns = {"s", "ls", "bin", "lstr"};

struct Input {
  std::string name;
  std::string copy_options;  // after FORMAT parquet
};

struct Rewrite {
  std::string name;
  std::vector<std::pair<std::string, std::string>> encodings;  // column, CLI encoding name
  CompressionCodec compression = CompressionCodec::kZstd;
  std::optional<int> level;
  std::optional<std::int64_t> page_size;
  std::optional<std::int64_t> row_group_rows;
  DataPageVersion version = DataPageVersion::kV1;
  // DuckDB (1.x) refuses DELTA_BYTE_ARRAY on FIXED_LEN_BYTE_ARRAY ("only supported for
  // string/blob data") although the Parquet spec allows it; such a rewrite is checked through
  // timef's reader against DuckDB's reading of the original instead.
  bool duckdb_reads_rewrite = true;
};

void PrintTo(const Input& input, std::ostream* os) { *os << input.name; }
void PrintTo(const Rewrite& rewrite, std::ostream* os) { *os << rewrite.name; }

std::vector<std::pair<std::string, std::string>> Assign(
    std::initializer_list<std::pair<const std::vector<std::string>*, std::string>> groups) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [columns, encoding] : groups) {
    for (const auto& column : *columns) out.emplace_back(column, encoding);
  }
  return out;
}

const std::vector<std::string> kBoolColumn = {"b"};
const std::vector<std::string> kUuidColumn = {"u"};

std::vector<Rewrite> Rewrites() {
  std::vector<Rewrite> out;
  out.push_back({.name = "PlainUncompressed", .compression = CompressionCodec::kUncompressed});
  out.push_back(
      {.name = "PlainZstdV2", .level = 3, .page_size = 1024, .version = DataPageVersion::kV2});
  out.push_back({.name = "DictionaryZstd",
                 .encodings = Assign({{&kIntegerColumns, "RLE_DICTIONARY"},
                                      {&kFloatColumns, "RLE_DICTIONARY"},
                                      {&kByteArrayColumns, "rle_dictionary"},
                                      {&kUuidColumn, "RLE_DICTIONARY"},
                                      {&kBoolColumn, "RLE"}}),
                 .level = 1,
                 .row_group_rows = 1500});
  out.push_back({.name = "DictionaryV2SmallPages",
                 .encodings = Assign({{&kIntegerColumns, "RLE_DICTIONARY"},
                                      {&kFloatColumns, "RLE_DICTIONARY"},
                                      {&kByteArrayColumns, "RLE_DICTIONARY"},
                                      {&kUuidColumn, "RLE_DICTIONARY"}}),
                 .compression = CompressionCodec::kUncompressed,
                 .page_size = 300,
                 .version = DataPageVersion::kV2});
  out.push_back({.name = "DeltaByteArray",
                 .encodings = Assign({{&kIntegerColumns, "DELTA_BINARY_PACKED"},
                                      {&kFloatColumns, "BYTE_STREAM_SPLIT"},
                                      {&kByteArrayColumns, "DELTA_BYTE_ARRAY"},
                                      {&kBoolColumn, "RLE"}}),
                 .compression = CompressionCodec::kUncompressed,
                 .page_size = 512,
                 .row_group_rows = 1000});
  out.push_back({.name = "DeltaByteArrayFixedLength",
                 .encodings = Assign({{&kUuidColumn, "DELTA_BYTE_ARRAY"}}),
                 .page_size = 700,
                 .version = DataPageVersion::kV2,
                 .duckdb_reads_rewrite = false});
  out.push_back({.name = "DeltaLengthByteArrayV2",
                 .encodings = Assign({{&kIntegerColumns, "delta_binary_packed"},
                                      {&kFloatColumns, "byte_stream_split"},
                                      {&kByteArrayColumns, "DELTA_LENGTH_BYTE_ARRAY"}}),
                 .level = 5,
                 .row_group_rows = 4096,
                 .version = DataPageVersion::kV2});
  return out;
}

const std::vector<Input> kInputs = {
    {"SnappyV1", "COMPRESSION snappy, ROW_GROUP_SIZE 2048"},
    {"ZstdV2", "COMPRESSION zstd, ROW_GROUP_SIZE 2048, PARQUET_VERSION v2"},
    {"Uncompressed", "COMPRESSION uncompressed"},
};

class RewriteDuckDbTest : public ::testing::TestWithParam<std::tuple<Input, Rewrite>> {
 protected:
  std::string Scan(const std::filesystem::path& path) {
    return "SELECT * FROM read_parquet('" + path.string() + "') ORDER BY id";
  }

  testing::ScratchDir dir_;
  DuckDb db_;
};

TEST_P(RewriteDuckDbTest, DuckDbReadsTheRewriteAsItsOwnFile) {
  const auto& [input, rewrite] = GetParam();
  db_.Exec("SET threads = 1");
  db_.Exec(kTableSql);
  const auto original = dir_.path() / "duck.parquet";
  db_.Exec("COPY t TO '" + original.string() + "' (FORMAT parquet, " + input.copy_options + ")");

  RewriteOptions options;
  options.compression = rewrite.compression;
  options.compression_level = rewrite.level;
  options.page_size_bytes = rewrite.page_size;
  options.row_group_rows = rewrite.row_group_rows;
  options.data_page_version = rewrite.version;
  for (const auto& [column, name] : rewrite.encodings) {
    const auto encoding = ParseEncodingName(name);
    ASSERT_TRUE(encoding.has_value()) << name;
    options.encodings.emplace_back(column, *encoding);
  }
  const auto rewritten = dir_.path() / "rewritten.parquet";
  RewriteFile(original, rewritten, options);

  const auto expected = db_.Columns(Scan(original));
  ASSERT_EQ(expected.size(), 21u);
  for (const auto& column : expected) ASSERT_EQ(column.size(), static_cast<std::size_t>(kRows));
  if (rewrite.duckdb_reads_rewrite) {
    // Same schema as DuckDB sees it, and the same rows, bit for bit.
    EXPECT_EQ(db_.Columns("DESCRIBE " + Scan(original)),
              db_.Columns("DESCRIBE " + Scan(rewritten)));
    const auto actual = db_.Columns(Scan(rewritten));
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t c = 0; c < expected.size(); ++c) {
      EXPECT_TRUE(SameCells(expected[c], actual[c])) << "column " << c;
    }
  }

  // The options took effect: codec, row groups and each column's encoding.
  FileReader reader = FileReader::OpenFile(rewritten);
  EXPECT_EQ(reader.num_rows(), kRows);
  if (rewrite.row_group_rows) {
    EXPECT_EQ(reader.num_row_groups(),
              (kRows + *rewrite.row_group_rows - 1) / *rewrite.row_group_rows);
  } else {
    EXPECT_EQ(reader.num_row_groups(), FileReader::OpenFile(original).num_row_groups());
  }
  for (int c = 0; c < static_cast<int>(reader.columns().size()); ++c) {
    const std::string& column = reader.columns()[c].name;
    Encoding want = Encoding::kPlain;
    for (const auto& [name, encoding] : options.encodings) {
      if (name == column) want = encoding;
    }
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      const auto& meta = reader.column_chunk(g, c).meta_data;
      ASSERT_TRUE(meta.has_value());
      EXPECT_EQ(meta->codec, rewrite.compression) << column;
      EXPECT_NE(std::find(meta->encodings.begin(), meta->encodings.end(), want),
                meta->encodings.end())
          << column << " in row group " << g << " lacks encoding " << static_cast<int>(want);
    }
  }

  // timef's own reading of the rewrite agrees with DuckDB's too.
  ColumnData data;
  for (int c = 0; c < static_cast<int>(reader.columns().size()); ++c) {
    std::vector<testing::Cell> cells;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      reader.ReadColumnChunk(g, c, data);
      auto part = CellsOf(data);
      cells.insert(cells.end(), part.begin(), part.end());
    }
    EXPECT_TRUE(SameCells(expected[static_cast<std::size_t>(c)], cells))
        << reader.columns()[c].name;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryEncodingOption, RewriteDuckDbTest,
                         ::testing::Combine(::testing::ValuesIn(kInputs),
                                            ::testing::ValuesIn(Rewrites())),
                         [](const ::testing::TestParamInfo<std::tuple<Input, Rewrite>>& info) {
                           return std::get<0>(info.param).name + "_" + std::get<1>(info.param).name;
                         });

}  // namespace
}  // namespace timef::parquet
