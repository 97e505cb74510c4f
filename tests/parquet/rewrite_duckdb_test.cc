// Acceptance of `timef parquet rewrite` against DuckDB: a file DuckDB writes (v1 and v2 pages,
// snappy, zstd, uncompressed, several row groups) is rewritten by RewriteFile — the function the
// CLI calls, with the CLI's encoding names parsed by ParseEncodingName — once per encoding option
// the command offers, and DuckDB must read the rewrite back with exactly the rows it reads from its
// own file: same column names and types, every value bit-exact (NaN, ±infinity, -0.0), nulls,
// empty and long strings, binary, UUIDs, null lists, empty lists and null elements. The one
// exception is DELTA_BYTE_ARRAY on a FIXED_LEN_BYTE_ARRAY column (UUID), which DuckDB does not
// read: that rewrite is checked through timef's reader (see RewriteCase::duckdb_reads_rewrite).
// The inputs and option sets live in duckdb_rewrite_cases.h, shared with tests/interop, where the
// same rewrites go to hyparquet and parquet-wasm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "parquet/duckdb_rewrite_cases.h"
#include "parquet/file_reader.h"
#include "parquet/format_test_support.h"
#include "parquet/reader_test_support.h"
#include "parquet_tool/inspect.h"

namespace timef::parquet {
namespace testing {

// Test names for GoogleTest's messages (found by argument-dependent lookup, hence here).
void PrintTo(const DuckDbInput& input, std::ostream* os) { *os << input.name; }
void PrintTo(const RewriteCase& rewrite, std::ostream* os) { *os << rewrite.name; }

}  // namespace testing
namespace {

using testing::CellsOf;
using testing::DuckDb;
using testing::SameCells;

using testing::DuckDbInput;
using testing::RewriteCase;

constexpr int kDuckDbRows = testing::kRewriteRows;

class RewriteDuckDbTest : public ::testing::TestWithParam<std::tuple<DuckDbInput, RewriteCase>> {
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
  db_.Exec(testing::kRewriteTableSql);
  const auto original = dir_.path() / "duck.parquet";
  db_.Exec("COPY t TO '" + original.string() + "' (FORMAT parquet, " + input.copy_options + ")");

  RewriteOptions options;
  ASSERT_TRUE(rewrite.compression == "zstd" || rewrite.compression == "none");
  options.compression =
      rewrite.compression == "zstd" ? CompressionCodec::kZstd : CompressionCodec::kUncompressed;
  options.compression_level = rewrite.level;
  options.page_size_bytes = rewrite.page_size;
  options.row_group_rows = rewrite.row_group_rows;
  options.data_page_version =
      rewrite.data_page_version == 2 ? DataPageVersion::kV2 : DataPageVersion::kV1;
  for (const auto& [column, name] : rewrite.encodings) {
    const auto encoding = ParseEncodingName(name);
    ASSERT_TRUE(encoding.has_value()) << name;
    options.encodings.emplace_back(column, *encoding);
  }
  const auto rewritten = dir_.path() / "rewritten.parquet";
  RewriteFile(original, rewritten, options);

  const auto expected = db_.Columns(Scan(original));
  ASSERT_EQ(expected.size(), 21u);
  for (const auto& column : expected)
    ASSERT_EQ(column.size(), static_cast<std::size_t>(kDuckDbRows));
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
  EXPECT_EQ(reader.num_rows(), kDuckDbRows);
  if (rewrite.row_group_rows) {
    EXPECT_EQ(reader.num_row_groups(),
              (kDuckDbRows + *rewrite.row_group_rows - 1) / *rewrite.row_group_rows);
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
      EXPECT_EQ(meta->codec, options.compression) << column;
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

INSTANTIATE_TEST_SUITE_P(
    EveryEncodingOption, RewriteDuckDbTest,
    ::testing::Combine(::testing::ValuesIn(testing::DuckDbInputs()),
                       ::testing::ValuesIn(testing::RewriteCases())),
    [](const ::testing::TestParamInfo<std::tuple<DuckDbInput, RewriteCase>>& info) {
      return std::get<0>(info.param).name + "_" + std::get<1>(info.param).name;
    });

}  // namespace
}  // namespace timef::parquet
