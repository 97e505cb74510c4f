// The DuckDB-written inputs and the `timef parquet rewrite` option sets of the rewrite acceptance:
// one definition shared by rewrite_duckdb_test.cc (DuckDB reads the rewrite) and the
// parquet_duckdb_oracle tool, which hands the same files and option sets to the Node readers
// (tests/interop). Plain data in the CLI's own spelling, so it needs nothing from src/.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace timef::parquet::testing {

inline constexpr int kRewriteRows = 5000;

// Every type the rewrite carries, with nulls, specials and edge cases spread by modulo patterns.
inline constexpr const char* kRewriteTableSql = R"sql(
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

struct DuckDbInput {
  std::string name;
  std::string copy_options;  // after FORMAT parquet
};

inline const std::vector<DuckDbInput>& DuckDbInputs() {
  static const std::vector<DuckDbInput> inputs = {
      {"SnappyV1", "COMPRESSION snappy, ROW_GROUP_SIZE 2048"},
      {"ZstdV2", "COMPRESSION zstd, ROW_GROUP_SIZE 2048, PARQUET_VERSION v2"},
      {"Uncompressed", "COMPRESSION uncompressed"},
  };
  return inputs;
}

// One `timef parquet rewrite` invocation's options, spelled as on the command line.
struct RewriteCase {
  std::string name;
  std::vector<std::pair<std::string, std::string>> encodings;  // column, encoding name
  std::string compression = "zstd";                            // --compression
  std::optional<int> level;
  std::optional<std::int64_t> page_size;
  std::optional<std::int64_t> row_group_rows;
  int data_page_version = 1;
  // DuckDB (1.x) refuses DELTA_BYTE_ARRAY on FIXED_LEN_BYTE_ARRAY ("only supported for
  // string/blob data") although the Parquet spec allows it; such a rewrite is checked through
  // the other readers against DuckDB's reading of the original instead.
  bool duckdb_reads_rewrite = true;
};

inline std::vector<std::string> CliArguments(const RewriteCase& rewrite) {
  std::vector<std::string> args = {"--compression", rewrite.compression};
  if (rewrite.level) args.insert(args.end(), {"--level", std::to_string(*rewrite.level)});
  if (rewrite.page_size)
    args.insert(args.end(), {"--page-size", std::to_string(*rewrite.page_size)});
  if (rewrite.row_group_rows) {
    args.insert(args.end(), {"--row-group-rows", std::to_string(*rewrite.row_group_rows)});
  }
  args.insert(args.end(), {"--data-page-version", std::to_string(rewrite.data_page_version)});
  for (const auto& [column, encoding] : rewrite.encodings) {
    args.insert(args.end(), {"--encoding", column + "=" + encoding});
  }
  return args;
}

// The columns of kRewriteTableSql by the encodings that fit them.
inline const std::vector<std::string> kIntegerColumns = {"id",  "i8",  "u8",  "i16", "u16", "i32",
                                                         "u32", "i64", "u64", "l",   "l64"};
inline const std::vector<std::string> kFloatColumns = {"f", "d", "lf", "ld"};
inline const std::vector<std::string> kByteArrayColumns = {"s", "ls", "bin", "lstr"};
inline const std::vector<std::string> kBoolColumn = {"b"};
inline const std::vector<std::string> kUuidColumn = {"u"};

inline std::vector<std::pair<std::string, std::string>> Assign(
    std::initializer_list<std::pair<const std::vector<std::string>*, std::string>> groups) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [columns, encoding] : groups) {
    for (const auto& column : *columns) out.emplace_back(column, encoding);
  }
  return out;
}

// Every encoding option on every column it fits, both codecs, v1 and v2 pages, page sizes and
// row-group splits. Encoding names are case-insensitive on the command line; some are lower case
// on purpose.
inline std::vector<RewriteCase> RewriteCases() {
  std::vector<RewriteCase> out;
  out.push_back({.name = "PlainUncompressed", .compression = "none"});
  out.push_back({.name = "PlainZstdV2", .level = 3, .page_size = 1024, .data_page_version = 2});
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
                 .compression = "none",
                 .page_size = 300,
                 .data_page_version = 2});
  out.push_back({.name = "DeltaByteArray",
                 .encodings = Assign({{&kIntegerColumns, "DELTA_BINARY_PACKED"},
                                      {&kFloatColumns, "BYTE_STREAM_SPLIT"},
                                      {&kByteArrayColumns, "DELTA_BYTE_ARRAY"},
                                      {&kBoolColumn, "RLE"}}),
                 .compression = "none",
                 .page_size = 512,
                 .row_group_rows = 1000});
  out.push_back({.name = "DeltaByteArrayFixedLength",
                 .encodings = Assign({{&kUuidColumn, "DELTA_BYTE_ARRAY"}}),
                 .page_size = 700,
                 .data_page_version = 2,
                 .duckdb_reads_rewrite = false});
  out.push_back({.name = "DeltaLengthByteArrayV2",
                 .encodings = Assign({{&kIntegerColumns, "delta_binary_packed"},
                                      {&kFloatColumns, "byte_stream_split"},
                                      {&kByteArrayColumns, "DELTA_LENGTH_BYTE_ARRAY"}}),
                 .level = 5,
                 .row_group_rows = 4096,
                 .data_page_version = 2});
  return out;
}

}  // namespace timef::parquet::testing
