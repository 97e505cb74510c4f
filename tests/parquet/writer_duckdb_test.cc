// DuckDB as an independent reader of the writer's files: values (bit-exact floats with NaN
// payloads, ±infinity and -0.0; strings; binary; nulls; lists with null lists, empty lists and
// null elements), the footer as DuckDB reports it (encodings, codec, statistics, schema,
// key-value metadata, created_by), and filters DuckDB answers with the statistics.
#include <duckdb.h>
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "parquet/file_writer.h"
#include "parquet/format_test_support.h"
#include "parquet/writer_test_util.h"
#include "timef/version.h"

namespace timef::parquet {
namespace {

using writer_testing::BoundsOf;
using writer_testing::Cell;
using writer_testing::Column;
using writer_testing::FromRaw;
using writer_testing::NonNullValues;
using writer_testing::NullCount;
using writer_testing::RandomRows;
using writer_testing::Raw;
using writer_testing::Rows;

class DuckDB {
 public:
  struct Result {
    duckdb_result result{};
    ~Result() { duckdb_destroy_result(&result); }
    idx_t rows() { return duckdb_row_count(&result); }
  };

  DuckDB() {
    if (duckdb_open(nullptr, &db_) != DuckDBSuccess ||
        duckdb_connect(db_, &con_) != DuckDBSuccess) {
      throw std::runtime_error("cannot open DuckDB");
    }
  }
  ~DuckDB() {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
  }

  std::unique_ptr<Result> Query(const std::string& sql) {
    auto result = std::make_unique<Result>();
    if (duckdb_query(con_, sql.c_str(), &result->result) != DuckDBSuccess) {
      ADD_FAILURE() << sql << ": " << duckdb_result_error(&result->result);
      return nullptr;
    }
    return result;
  }

  std::string Text(const std::string& sql) {
    auto result = Query(sql);
    if (!result || result->rows() != 1) return "<no result>";
    return VarChar(*result, 0, 0).value_or("NULL");
  }

  static std::optional<std::string> VarChar(Result& r, idx_t col, idx_t row) {
    if (duckdb_value_is_null(&r.result, col, row)) return std::nullopt;
    char* text = duckdb_value_varchar(&r.result, col, row);
    std::string out = text;
    duckdb_free(text);
    return out;
  }

 private:
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

enum class Fetch { kBool, kInt32, kUInt32, kInt64, kFloat, kDouble, kText, kBlob };

// The value at (col, row) as the PLAIN bytes the rows hold.
std::optional<std::string> FetchValue(DuckDB::Result& r, idx_t col, idx_t row, Fetch fetch) {
  duckdb_result* res = &r.result;
  if (duckdb_value_is_null(res, col, row)) return std::nullopt;
  switch (fetch) {
    case Fetch::kBool:
      return std::string(1, duckdb_value_boolean(res, col, row) ? '\1' : '\0');
    case Fetch::kInt32:
      return Raw(duckdb_value_int32(res, col, row));
    case Fetch::kUInt32:
      return Raw(duckdb_value_uint32(res, col, row));
    case Fetch::kInt64:
      return Raw(duckdb_value_int64(res, col, row));
    case Fetch::kFloat:
      return Raw(duckdb_value_float(res, col, row));
    case Fetch::kDouble:
      return Raw(duckdb_value_double(res, col, row));
    case Fetch::kText:
      return DuckDB::VarChar(r, col, row);
    case Fetch::kBlob: {
      duckdb_blob blob = duckdb_value_blob(res, col, row);
      std::string out(static_cast<const char*>(blob.data), blob.size);
      duckdb_free(blob.data);
      return out;
    }
  }
  return std::nullopt;
}

struct TestColumn {
  ColumnDescriptor column;
  Fetch fetch;
  Encoding encodings[3];  // per family: plain, dictionary, special
};

ColumnDescriptor Text(ColumnDescriptor column) {
  column.logical_type = LogicalType::Simple(LogicalType::Kind::kString);
  column.converted_type = ConvertedType::kUtf8;
  return column;
}

std::vector<TestColumn> TestColumns() {
  constexpr Encoding P = Encoding::kPlain;
  constexpr Encoding D = Encoding::kRleDictionary;
  ColumnDescriptor u32 = Column("u32", Type::kInt32);
  u32.logical_type = LogicalType::Integer(32, false);
  u32.converted_type = ConvertedType::kUint32;
  return {
      {Column("i32", Type::kInt32), Fetch::kInt32, {P, D, Encoding::kDeltaBinaryPacked}},
      {Column("i64", Type::kInt64, true), Fetch::kInt64, {P, D, Encoding::kDeltaBinaryPacked}},
      {u32, Fetch::kUInt32, {P, D, Encoding::kDeltaBinaryPacked}},
      {Column("f32", Type::kFloat, true), Fetch::kFloat, {P, D, Encoding::kByteStreamSplit}},
      {Column("f64", Type::kDouble), Fetch::kDouble, {P, D, Encoding::kByteStreamSplit}},
      {Text(Column("s", Type::kByteArray, true)),
       Fetch::kText,
       {P, D, Encoding::kDeltaLengthByteArray}},
      {Text(Column("s2", Type::kByteArray)), Fetch::kText, {P, D, Encoding::kDeltaByteArray}},
      {Column("bin", Type::kByteArray, true), Fetch::kBlob, {P, D, Encoding::kDeltaByteArray}},
      {Column("b", Type::kBoolean, true), Fetch::kBool, {P, P, Encoding::kRle}},
      {Column("fl", Type::kFixedLenByteArray, false, false, false, 16),
       Fetch::kBlob,
       {P, D, Encoding::kDeltaByteArray}},
      {Column("ld", Type::kDouble, true, true, true),
       Fetch::kDouble,
       {P, D, Encoding::kByteStreamSplit}},
      {Column("li", Type::kInt64, false, true, false),
       Fetch::kInt64,
       {P, D, Encoding::kDeltaBinaryPacked}},
      {Text(Column("ls", Type::kByteArray, true, true, true)),
       Fetch::kText,
       {P, D, Encoding::kDeltaByteArray}},
      {Column("lb", Type::kBoolean, false, true, true), Fetch::kBool, {P, P, Encoding::kRle}},
  };
}

struct Config {
  const char* name;
  int family;  // index into TestColumn::encodings
  DataPageVersion version;
  CompressionCodec codec;
  std::int64_t page_target;
};

std::string ConfigName(const ::testing::TestParamInfo<Config>& info) { return info.param.name; }

class WriterDuckDBTest : public ::testing::TestWithParam<Config> {};

// Renders a bound the way DuckDB's parquet_metadata() does, for the kinds compared here.
std::optional<std::string> BoundText(Fetch fetch, const std::string& raw) {
  switch (fetch) {
    case Fetch::kInt32:
      return std::to_string(FromRaw<std::int32_t>(raw));
    case Fetch::kUInt32:
      return std::to_string(FromRaw<std::uint32_t>(raw));
    case Fetch::kInt64:
      return std::to_string(FromRaw<std::int64_t>(raw));
    case Fetch::kBool:
      return raw[0] != 0 ? "true" : "false";
    case Fetch::kText:
      return raw;
    default:
      return std::nullopt;  // floats are compared numerically, binary not at all
  }
}

// parquet_metadata() renders a float bound as text, and an infinite one as NULL.
void ExpectFloatBound(const std::optional<std::string>& shown, bool has_bounds, bool single,
                      const std::string& raw, bool is_min) {
  if (!has_bounds) {
    EXPECT_FALSE(shown.has_value());
    return;
  }
  const double bound = single ? FromRaw<float>(raw) : FromRaw<double>(raw);
  if (std::isinf(bound)) {
    EXPECT_FALSE(shown.has_value()) << *shown;
    return;
  }
  ASSERT_TRUE(shown.has_value());
  EXPECT_EQ(std::stod(*shown), bound) << (is_min ? "min " : "max ") << *shown;
  if (bound == 0) {
    EXPECT_EQ(shown->front() == '-', is_min) << *shown;
  }
}

TEST_P(WriterDuckDBTest, DuckDBReadsValuesAndMetadata) {
  const Config& config = GetParam();
  const auto columns = TestColumns();
  std::vector<ColumnDescriptor> schema;
  WriterOptions options;
  options.compression = config.codec;
  options.compression_level = 3;
  options.data_page_version = config.version;
  options.data_page_target_bytes = config.page_target;
  options.key_value_metadata = {{"timef.test", "duckdb"}};
  for (const auto& c : columns) {
    schema.push_back(c.column);
    options.columns.push_back(ColumnWriteOptions{c.encodings[config.family]});
  }
  const std::size_t group_rows[] = {1500, 700};
  std::vector<std::vector<Rows>> groups;
  for (std::size_t g = 0; g < 2; ++g) {
    auto& group = groups.emplace_back();
    for (std::size_t c = 0; c < columns.size(); ++c) {
      group.push_back(RandomRows(columns[c].column, group_rows[g], 97 * c + 1000 * g + 5));
    }
  }
  testing::ScratchDir dir;
  const std::string path = (dir.path() / "writer.parquet").string();
  {
    FileOutputStream out(path);
    FileWriter writer(out, schema, options);
    for (const auto& group : groups) {
      for (std::size_t c = 0; c < columns.size(); ++c) {
        const ColumnData data = writer_testing::ToColumnData(schema[c], group[c], 1);
        writer.WriteColumn(c, data.View());
      }
      writer.FlushRowGroup();
    }
    writer.Close();
    out.Close();
  }

  DuckDB duck;
  const std::string source = "read_parquet('" + path + "', file_row_number = true)";
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const ColumnDescriptor& column = columns[c].column;
    SCOPED_TRACE("column " + column.name);
    Rows expected = groups[0][c];
    expected.insert(expected.end(), groups[1][c].begin(), groups[1][c].end());
    Rows actual(expected.size());
    if (!column.is_list) {
      auto r =
          duck.Query("SELECT " + column.name + " FROM " + source + " ORDER BY file_row_number");
      ASSERT_TRUE(r);
      ASSERT_EQ(r->rows(), expected.size());
      for (idx_t i = 0; i < r->rows(); ++i) {
        actual[i].items = {FetchValue(*r, 0, i, columns[c].fetch)};
      }
    } else {
      auto present = duck.Query("SELECT " + column.name + " IS NOT NULL FROM " + source +
                                " ORDER BY file_row_number");
      ASSERT_TRUE(present);
      ASSERT_EQ(present->rows(), expected.size());
      for (idx_t i = 0; i < present->rows(); ++i) {
        actual[i].present = duckdb_value_boolean(&present->result, 0, i);
      }
      auto items =
          duck.Query("SELECT file_row_number, generate_subscripts(" + column.name +
                     ", 1) AS k, unnest(" + column.name + ") FROM " + source + " ORDER BY 1, 2");
      ASSERT_TRUE(items);
      for (idx_t i = 0; i < items->rows(); ++i) {
        const auto row = static_cast<std::size_t>(duckdb_value_int64(&items->result, 0, i));
        ASSERT_LT(row, actual.size());
        actual[row].items.push_back(FetchValue(*items, 2, i, columns[c].fetch));
      }
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(actual[i], expected[i]) << "row " << i;
    }

    // The footer as DuckDB reads it, per row group.
    const std::string leaf = column.is_list ? column.name + ", list, element" : column.name;
    auto meta = duck.Query(
        "SELECT row_group_num_rows, num_values, compression, encodings, stats_null_count, "
        "stats_min_value, stats_max_value FROM parquet_metadata('" +
        path + "') WHERE path_in_schema = '" + leaf + "' ORDER BY row_group_id");
    ASSERT_TRUE(meta);
    ASSERT_EQ(meta->rows(), 2u);
    for (idx_t g = 0; g < 2; ++g) {
      const Rows& rows = groups[g][c];
      EXPECT_EQ(duckdb_value_int64(&meta->result, 0, g), static_cast<std::int64_t>(rows.size()));
      EXPECT_EQ(DuckDB::VarChar(*meta, 2, g),
                config.codec == CompressionCodec::kZstd ? "ZSTD" : "UNCOMPRESSED");
      const std::string encodings = DuckDB::VarChar(*meta, 3, g).value_or("");
      EXPECT_NE(encodings.find(ToString(columns[c].encodings[config.family])), std::string::npos)
          << encodings;
      EXPECT_EQ(duckdb_value_int64(&meta->result, 4, g), NullCount(rows, column.is_list));
      const auto bounds = BoundsOf(column, NonNullValues(rows), columns[c].fetch == Fetch::kUInt32);
      const auto min = DuckDB::VarChar(*meta, 5, g);
      const auto max = DuckDB::VarChar(*meta, 6, g);
      if (columns[c].fetch == Fetch::kFloat || columns[c].fetch == Fetch::kDouble) {
        const bool single = columns[c].fetch == Fetch::kFloat;
        ExpectFloatBound(min, bounds.has_bounds, single, bounds.min, true);
        ExpectFloatBound(max, bounds.has_bounds, single, bounds.max, false);
        continue;
      }
      ASSERT_EQ(min.has_value(), bounds.has_bounds);
      if (!bounds.has_bounds) continue;
      if (const auto min_text = BoundText(columns[c].fetch, bounds.min)) {
        // Longer strings have truncated bounds (checked in writer_roundtrip_test).
        const auto max_text = BoundText(columns[c].fetch, bounds.max);
        if (min_text->size() <= 64) {
          EXPECT_EQ(min, *min_text);
        }
        if (max_text->size() <= 64) {
          EXPECT_EQ(max, *max_text);
        }
      }
    }
  }

  // Filters DuckDB may answer from the statistics give the counts the rows give.
  auto count_where = [&](const std::string& condition) {
    return duck.Text("SELECT count(*) FROM read_parquet('" + path + "') WHERE " + condition);
  };
  std::int64_t above = 0;
  for (std::size_t g = 0; g < 2; ++g) {
    for (const Cell& cell : groups[g][1]) {
      if (cell.items[0] && FromRaw<std::int64_t>(*cell.items[0]) > 5) ++above;
    }
  }
  EXPECT_EQ(count_where("i64 > 5"), std::to_string(above));
  EXPECT_EQ(count_where("i64 > 9223372036854775806"), std::to_string([&] {
              std::int64_t n = 0;
              for (std::size_t g = 0; g < 2; ++g) {
                for (const Cell& cell : groups[g][1]) {
                  if (cell.items[0] && FromRaw<std::int64_t>(*cell.items[0]) == INT64_MAX) ++n;
                }
              }
              return n;
            }()));
  EXPECT_EQ(count_where("u32 >= 4294967295"), std::to_string([&] {
              std::int64_t n = 0;
              for (std::size_t g = 0; g < 2; ++g) {
                for (const Cell& cell : groups[g][2]) {
                  if (FromRaw<std::uint32_t>(*cell.items[0]) == UINT32_MAX) ++n;
                }
              }
              return n;
            }()));
  EXPECT_EQ(count_where("s = 'gamma'"), std::to_string([&] {
              std::int64_t n = 0;
              for (std::size_t g = 0; g < 2; ++g) {
                for (const Cell& cell : groups[g][5]) n += cell.items[0] == "gamma" ? 1 : 0;
              }
              return n;
            }()));

  // Schema, key-value metadata and file metadata.
  EXPECT_EQ(duck.Text("SELECT duckdb_type FROM parquet_schema('" + path + "') WHERE name = 'u32'"),
            "UINTEGER");
  EXPECT_EQ(
      duck.Text("SELECT converted_type FROM parquet_schema('" + path + "') WHERE name = 'u32'"),
      "UINT_32");
  EXPECT_EQ(duck.Text("SELECT duckdb_type FROM parquet_schema('" + path + "') WHERE name = 's'"),
            "VARCHAR");
  EXPECT_EQ(duck.Text("SELECT decode(value) FROM parquet_kv_metadata('" + path +
                      "') WHERE decode(key) = 'timef.test'"),
            "duckdb");
  EXPECT_EQ(duck.Text("SELECT created_by FROM parquet_file_metadata('" + path + "')"),
            std::string("timef version ") + kVersion);
  EXPECT_EQ(duck.Text("SELECT num_rows FROM parquet_file_metadata('" + path + "')"), "2200");
}

// Floats with zeros, NaN and finite bounds; an all-NaN chunk; a column that is all null in one
// row group (an empty dictionary); one list row far larger than a page; a dictionary that falls
// back to PLAIN in one row group and not in the next.
TEST(WriterDuckDBEdgeTest, ZerosNaNsEmptyDictionaryHugeRowAndFallback) {
  const ColumnDescriptor d = Column("d", Type::kDouble);
  const ColumnDescriptor n = Column("n", Type::kInt32, true);
  const ColumnDescriptor big = Column("big", Type::kFloat, false, true, false);
  const ColumnDescriptor fb = Text(Column("fb", Type::kByteArray));
  const std::vector<ColumnDescriptor> schema = {d, n, big, fb};
  WriterOptions options;
  options.compression_level = 3;
  options.dictionary_limit_bytes = 1000;
  options.columns = {
      ColumnWriteOptions{Encoding::kPlain}, ColumnWriteOptions{Encoding::kRleDictionary},
      ColumnWriteOptions{Encoding::kByteStreamSplit}, ColumnWriteOptions{Encoding::kRleDictionary}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::vector<double>> doubles = {
      {1.5, -0.0, 0.0, nan, -2.5}, {0.0, -0.0, nan}, {nan, nan}};
  const std::size_t rows_per_group[] = {600, 3, 2};
  std::vector<std::vector<Rows>> groups;
  for (std::size_t g = 0; g < 3; ++g) {
    std::vector<Rows> group(4, Rows(rows_per_group[g]));
    for (std::size_t r = 0; r < rows_per_group[g]; ++r) {
      group[0][r].items = {Raw(doubles[g][r % doubles[g].size()])};
      group[1][r].items = {g == 1 ? std::nullopt
                                  : std::optional<std::string>(Raw<std::int32_t>(r % 3))};
      const std::size_t length = g == 0 && r == 7 ? 100000 : r % 4;
      for (std::size_t i = 0; i < length; ++i) {
        group[2][r].items.push_back(Raw(static_cast<float>(i) * 0.5f - 3.0f));
      }
      group[3][r].items = {g == 0 ? "value-" + std::to_string(r) : std::string("same")};
    }
    groups.push_back(std::move(group));
  }
  testing::ScratchDir dir;
  const std::string path = (dir.path() / "edge.parquet").string();
  {
    FileOutputStream out(path);
    FileWriter writer(out, schema, options);
    for (const auto& group : groups) {
      for (std::size_t c = 0; c < schema.size(); ++c) {
        const ColumnData data = writer_testing::ToColumnData(schema[c], group[c]);
        writer.WriteColumn(c, data.View());
      }
      writer.FlushRowGroup();
    }
    writer.Close();
    out.Close();
  }

  DuckDB duck;
  const Fetch fetches[] = {Fetch::kDouble, Fetch::kInt32, Fetch::kFloat, Fetch::kText};
  const std::string source = "read_parquet('" + path + "', file_row_number = true)";
  for (std::size_t c = 0; c < schema.size(); ++c) {
    SCOPED_TRACE(schema[c].name);
    Rows expected;
    for (const auto& group : groups)
      expected.insert(expected.end(), group[c].begin(), group[c].end());
    Rows actual(expected.size());
    if (schema[c].is_list) {
      auto items =
          duck.Query("SELECT file_row_number, generate_subscripts(big, 1), unnest(big) FROM " +
                     source + " ORDER BY 1, 2");
      ASSERT_TRUE(items);
      for (idx_t i = 0; i < items->rows(); ++i) {
        actual[static_cast<std::size_t>(duckdb_value_int64(&items->result, 0, i))].items.push_back(
            FetchValue(*items, 2, i, fetches[c]));
      }
    } else {
      auto r =
          duck.Query("SELECT " + schema[c].name + " FROM " + source + " ORDER BY file_row_number");
      ASSERT_TRUE(r);
      ASSERT_EQ(r->rows(), expected.size());
      for (idx_t i = 0; i < r->rows(); ++i) actual[i].items = {FetchValue(*r, 0, i, fetches[c])};
    }
    EXPECT_TRUE(actual == expected);
  }

  auto column_meta = [&](const std::string& leaf, const std::string& what) {
    auto r = duck.Query("SELECT " + what + " FROM parquet_metadata('" + path +
                        "') WHERE path_in_schema = '" + leaf + "' ORDER BY row_group_id");
    std::vector<std::string> out;
    for (idx_t i = 0; r && i < r->rows(); ++i)
      out.push_back(DuckDB::VarChar(*r, 0, i).value_or("NULL"));
    return out;
  };
  EXPECT_EQ(column_meta("d", "stats_min_value"),
            (std::vector<std::string>{"-2.5", "-0.0", "NULL"}));
  EXPECT_EQ(column_meta("d", "stats_max_value"), (std::vector<std::string>{"1.5", "0.0", "NULL"}));
  EXPECT_EQ(column_meta("n", "stats_null_count"), (std::vector<std::string>{"0", "3", "0"}));
  const auto fallback = column_meta("fb", "encodings");
  ASSERT_EQ(fallback.size(), 3u);
  EXPECT_EQ(fallback[0], "PLAIN");
  EXPECT_NE(fallback[1].find("RLE_DICTIONARY"), std::string::npos) << fallback[1];
  EXPECT_EQ(column_meta("fb", "dictionary_page_offset")[0], "NULL");

  auto count = [&](const std::string& condition) {
    return duck.Text("SELECT count(*) FROM read_parquet('" + path + "') WHERE " + condition);
  };
  // DuckDB orders NaN above every number, yet Parquet bounds leave NaN out, so DuckDB prunes row
  // groups whose NaNs it would have counted for "d > 1.0"; asking without NaN is exact.
  EXPECT_EQ(count("d > 1.0 AND NOT isnan(d)"), "120");
  EXPECT_EQ(count("d = 0"), std::to_string(240 + 2));
  EXPECT_EQ(count("d < -1"), "120");
  EXPECT_EQ(count("fb = 'value-599'"), "1");
  EXPECT_EQ(count("len(big) = 100000"), "1");
}

INSTANTIATE_TEST_SUITE_P(
    Representative, WriterDuckDBTest,
    ::testing::Values(
        Config{"plain_v1_none", 0, DataPageVersion::kV1, CompressionCodec::kUncompressed, 16384},
        Config{"plain_v2_zstd_small_pages", 0, DataPageVersion::kV2, CompressionCodec::kZstd, 300},
        Config{"dictionary_v1_zstd", 1, DataPageVersion::kV1, CompressionCodec::kZstd, 16384},
        Config{"dictionary_v2_none_small_pages", 1, DataPageVersion::kV2,
               CompressionCodec::kUncompressed, 300},
        Config{"special_v1_zstd_small_pages", 2, DataPageVersion::kV1, CompressionCodec::kZstd,
               300},
        Config{"special_v2_zstd", 2, DataPageVersion::kV2, CompressionCodec::kZstd, 16384},
        Config{"special_v1_none", 2, DataPageVersion::kV1, CompressionCodec::kUncompressed, 16384}),
    ConfigName);

}  // namespace
}  // namespace timef::parquet
