// Owned copies of query rows (catalog/duckdb/owned_rows.h) and the reader's catalog row cache
// (catalog/rows/row_cache.h): every cell kind copies exactly, a selection keeps result order, the
// byte budget is honoured, and a cached result answers a keyed query exactly as its SQL does.
#include "catalog/rows/row_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/owned_rows.h"
#include "catalog_test_util.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

using testing::RunSql;
using testing::ScratchDir;

// 5000 rows (more than two DuckDB chunks): keys with repeats, NULLs in every column, strings of
// 0..40 bytes (inlined and not), lists with and without elements, one list with a NULL element.
void WriteTable(const std::filesystem::path& path) {
  RunSql(
      path,
      {"CREATE TABLE t (k BIGINT, g BIGINT, d DOUBLE, b BOOLEAN, s VARCHAR, sl VARCHAR[], "
       "il BIGINT[])",
       "INSERT INTO t SELECT i, i % 97, CASE WHEN i % 11 = 0 THEN NULL ELSE i / 3.0 END, "
       "CASE WHEN i % 13 = 0 THEN NULL ELSE i % 2 = 0 END, "
       "CASE WHEN i % 17 = 0 THEN NULL ELSE repeat(chr((97 + i % 26)::INTEGER), (i % 41)::INTEGER) "
       "END, "
       "CASE WHEN i % 19 = 0 THEN NULL ELSE [repeat('x', (i % 30)::INTEGER), 'é'][1:(i % 3)] END, "
       "CASE WHEN i % 23 = 0 THEN NULL WHEN i = 4001 THEN [1, NULL] "
       "ELSE range(i % 5) END FROM range(5000) r(i)"});
}

std::vector<std::vector<std::optional<std::string>>> Cells(RowStream rows) {
  std::vector<std::vector<std::optional<std::string>>> out;
  while (std::optional<Chunk> chunk = rows.Next()) {
    for (idx_t row = 0; row < chunk->size(); ++row) {
      std::vector<std::optional<std::string>> cells;
      for (idx_t c = 0; c < chunk->shape()->columns.size(); ++c) {
        // The one list with a NULL element raises the same error either way (checked below).
        try {
          cells.push_back(chunk->Text(c, row));
        } catch (const FormatError&) {
          cells.push_back("<null element>");
        }
      }
      out.push_back(std::move(cells));
    }
  }
  return out;
}

TEST(OwnedRowsTest, EveryCellKindCopiesExactlyAndOutlivesTheConnection) {
  ScratchDir dir;
  WriteTable(dir / "t.duckdb");
  std::optional<Chunk> copy;
  std::vector<std::vector<std::optional<std::string>>> expected;
  {
    Database db = Database::Open(dir / "t.duckdb", AccessMode::kReadOnly);
    Connection connection(db);
    expected = Cells(RowStream(connection.Query("SELECT * FROM t ORDER BY k", "t")));
    Result result = connection.Query("SELECT * FROM t ORDER BY k", "t");
    ASSERT_TRUE(RowsBuilder::CanCopy(*result.shape()));
    RowsBuilder builder(result.shape());
    while (std::optional<Chunk> chunk = result.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) builder.Append(*chunk, row);
    }
    EXPECT_EQ(builder.size(), 5000u);
    EXPECT_GT(builder.bytes(), 5000u * 7 * 8);
    copy = builder.Finish();
  }
  // The database and connection are gone; the copy is timef's memory.
  ASSERT_EQ(expected.size(), 5000u);
  EXPECT_EQ(Cells(RowStream(std::move(*copy))), expected);
}

TEST(OwnedRowsTest, ANullListElementIsTheSameFormatErrorInTheCopy) {
  ScratchDir dir;
  WriteTable(dir / "t.duckdb");
  Database db = Database::Open(dir / "t.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  Result result = connection.Query("SELECT il FROM t WHERE k = 4001", "t");
  std::optional<Chunk> chunk = result.Next();
  ASSERT_TRUE(chunk);
  RowsBuilder builder(result.shape());
  builder.Append(*chunk, 0);
  const Chunk copy = builder.Finish();
  auto message = [](const Chunk& c) {
    try {
      c.Int64List(0).Get(0);
    } catch (const FormatError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(*chunk).find("t.il: NULL list element"), std::string::npos) << message(*chunk);
  EXPECT_EQ(message(copy), message(*chunk));
  // A wrong column kind is named as for DuckDB's chunks.
  EXPECT_THROW(copy.Varchar(0), FormatError);
}

KeyedQuery GroupQuery() {
  return {.what = "t",
          .sql =
              "SELECT t.g, t.k, t.s, t.sl FROM t JOIN {keys} q ON t.g = q.k "
              "ORDER BY t.s DESC NULLS FIRST, t.k",
          .key_column = 0,
          .domain = "SELECT DISTINCT g AS k FROM t"};
}

TEST(CatalogRowCacheTest, CachedRowsAnswerKeyedQueriesAsTheirSqlDoes) {
  ScratchDir dir;
  WriteTable(dir / "t.duckdb");
  Database db = Database::Open(dir / "t.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  CatalogRowCache cache(int64_t{64} << 20);
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<int64_t> keys;
    const int n = static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) keys.push_back(static_cast<int64_t>(rng() % 120));  // some absent
    SCOPED_TRACE(::testing::PrintToString(keys));
    const auto want = Cells(RunKeyed(connection, nullptr, GroupQuery(), keys));
    const auto got = Cells(RunKeyed(connection, &cache, GroupQuery(), keys));
    // A key listed twice joins twice in SQL; the cache returns each row once.
    std::vector<int64_t> distinct = keys;
    std::sort(distinct.begin(), distinct.end());
    if (std::adjacent_find(distinct.begin(), distinct.end()) == distinct.end()) {
      EXPECT_EQ(got, want);
    } else {
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      EXPECT_EQ(got, Cells(RunKeyed(connection, nullptr, GroupQuery(), distinct)));
    }
  }
  EXPECT_EQ(cache.loads(), 1u);  // one whole-result load, then memory
  EXPECT_GT(cache.bytes(), 0);
  // A query without keys is its whole result.
  const KeyedQuery whole{.what = "t", .sql = "SELECT count(*)::BIGINT AS n FROM t"};
  EXPECT_EQ(Cells(RunKeyed(connection, &cache, whole, {})),
            Cells(RunKeyed(connection, nullptr, whole, {})));
  EXPECT_EQ(cache.loads(), 2u);
  cache.Clear();
  EXPECT_EQ(cache.bytes(), 0);
}

TEST(CatalogRowCacheTest, AResultOverTheBudgetIsNotKeptAndRunsAsSql) {
  ScratchDir dir;
  WriteTable(dir / "t.duckdb");
  Database db = Database::Open(dir / "t.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  CatalogRowCache cache(4096);  // the group query's 5000 rows need far more
  EXPECT_EQ(cache.Rows(connection, GroupQuery()), nullptr);
  EXPECT_EQ(cache.loads(), 0u);
  EXPECT_EQ(cache.bytes(), 0);
  const std::vector<int64_t> keys = {3, 5};
  EXPECT_EQ(Cells(RunKeyed(connection, &cache, GroupQuery(), keys)),
            Cells(RunKeyed(connection, nullptr, GroupQuery(), keys)));
  // A small result still fits what is left.
  const KeyedQuery one{.what = "t", .sql = "SELECT 1::BIGINT AS n"};
  EXPECT_NE(cache.Rows(connection, one), nullptr);
  EXPECT_EQ(cache.loads(), 1u);
  EXPECT_LE(cache.bytes(), 4096);
}

}  // namespace
}  // namespace timef::catalog
