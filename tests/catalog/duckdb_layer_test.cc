// The RAII DuckDB layer: typed chunk access, binds (including BIGINT[] lists), the chunk-based
// appender, transactions, error classes and messages, and read-only opens that write nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "catalog/catalog_schema.h"
#include "catalog/duckdb/duckdb_appender.h"
#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/duckdb_statement.h"
#include "catalog/write/catalog_writer.h"
#include "catalog_test_util.h"
#include "core/checksum.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

using testing::QueryRows;
using testing::RunSql;
using testing::ScratchDir;

constexpr char kTable[] =
    "CREATE TABLE t (k BIGINT NOT NULL, d DOUBLE, b BOOLEAN, s VARCHAR, j JSON, "
    "sl VARCHAR[], il BIGINT[])";

TEST(DuckDBLayerTest, TypedColumnsReadValuesAndNulls) {
  ScratchDir dir;
  RunSql(dir / "a.duckdb",
         {kTable,
          "INSERT INTO t VALUES (1, 1.5, true, 'héllo, a string longer than twelve bytes', "
          "'{\"a\":1}', ['x', ''], [1, -2]), (2, NULL, NULL, NULL, NULL, NULL, NULL), "
          "(-9223372036854775808, CAST('-0.0' AS DOUBLE), false, '', '[]', [], [])"});
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  Result result = connection.Query("SELECT * FROM t ORDER BY k DESC", "t");
  ASSERT_EQ(result.column_count(), 7u);
  EXPECT_EQ(result.column(4).type_name, "JSON");
  EXPECT_EQ(result.column(5).type_name, "VARCHAR[]");
  EXPECT_EQ(result.ColumnIndex("il"), 6u);
  auto chunk = result.Next();
  ASSERT_TRUE(chunk.has_value());
  ASSERT_EQ(chunk->size(), 3u);
  auto k = chunk->Int64(0);
  auto d = chunk->Double(1);
  auto b = chunk->Bool(2);
  auto s = chunk->Varchar(3);
  auto j = chunk->Varchar(4);
  auto sl = chunk->VarcharList(5);
  auto il = chunk->Int64List(6);
  EXPECT_EQ(k.Get(0), 2);
  EXPECT_TRUE(d.IsNull(0));
  EXPECT_TRUE(b.IsNull(0));
  EXPECT_TRUE(s.IsNull(0));
  EXPECT_FALSE(j.Optional(0).has_value());
  EXPECT_TRUE(sl.IsNull(0));
  EXPECT_FALSE(il.Optional(0).has_value());

  EXPECT_EQ(k.Get(1), 1);
  EXPECT_EQ(d.Get(1), 1.5);
  EXPECT_TRUE(b.Get(1));
  EXPECT_EQ(s.Get(1), "héllo, a string longer than twelve bytes");
  EXPECT_EQ(j.Get(1), "{\"a\":1}");
  EXPECT_EQ(sl.Get(1), (std::vector<std::string>{"x", ""}));
  EXPECT_EQ(il.Get(1), (std::vector<int64_t>{1, -2}));

  EXPECT_EQ(k.Get(2), std::numeric_limits<int64_t>::min());
  EXPECT_TRUE(std::signbit(d.Get(2)));
  EXPECT_FALSE(b.Get(2));
  EXPECT_EQ(s.Get(2), "");
  EXPECT_TRUE(sl.Get(2).empty());
  EXPECT_TRUE(il.Get(2).empty());
  EXPECT_FALSE(result.Next().has_value());
}

TEST(DuckDBLayerTest, ColumnTypeMismatchNamesColumn) {
  ScratchDir dir;
  RunSql(dir / "a.duckdb", {kTable, "INSERT INTO t (k) VALUES (1)"});
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  Result result = connection.Query("SELECT k, CAST(k AS INTEGER) AS small FROM t", "t");
  auto chunk = result.Next();
  ASSERT_TRUE(chunk.has_value());
  try {
    chunk->Varchar(0);
    FAIL() << "expected FormatError";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.where(), "t.k");
    EXPECT_NE(std::string(e.what()).find("expected type VARCHAR, found BIGINT"), std::string::npos);
  }
  EXPECT_THROW(chunk->Int64(1), FormatError);
}

TEST(DuckDBLayerTest, NullListElementIsFormatError) {
  ScratchDir dir;
  RunSql(dir / "a.duckdb", {kTable, "INSERT INTO t (k, il) VALUES (1, [1, NULL])"});
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  Result result = connection.Query("SELECT il FROM t", "t");
  auto chunk = result.Next();
  ASSERT_TRUE(chunk.has_value());
  EXPECT_THROW(chunk->Int64List(0).Get(0), FormatError);
}

TEST(DuckDBLayerTest, ManyChunks) {
  ScratchDir dir;
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadWrite);
  Connection connection(db);
  Result result = connection.Query("SELECT range AS k FROM range(10000)", "range");
  int64_t expected = 0;
  int chunks = 0;
  while (auto chunk = result.Next()) {
    ++chunks;
    auto k = chunk->Int64(0);
    for (idx_t row = 0; row < chunk->size(); ++row) EXPECT_EQ(k.Get(row), expected++);
  }
  EXPECT_EQ(expected, 10000);
  EXPECT_GT(chunks, 1);
}

TEST(DuckDBLayerTest, StreamedResultReadsEveryRowAndFailsLoudly) {
  ScratchDir dir;
  RunSql(dir / "a.duckdb", {"CREATE TABLE r AS SELECT range AS k FROM range(1000000)"});
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  {
    Result result = connection.Stream("SELECT k FROM r ORDER BY k", "r");
    int64_t expected = 0;
    while (auto chunk = result.Next()) {
      auto k = chunk->Int64(0);
      for (idx_t row = 0; row < chunk->size(); ++row) EXPECT_EQ(k.Get(row), expected++);
    }
    EXPECT_EQ(expected, 1000000);
  }
  {
    // DuckDB ends a stream without an error when another statement runs on its connection; the
    // layer raises instead of handing out a short result.
    Result result = connection.Stream("SELECT k FROM r", "r");
    ASSERT_TRUE(result.Next().has_value());
    connection.Query("SELECT 1", "other");
    try {
      result.Next();
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("another statement ran"), std::string::npos) << e.what();
    }
  }
  {
    // An error met while streaming is raised by the Next() that meets it, naming the table.
    int64_t rows = 0;
    try {
      Result result = connection.Stream(
          "SELECT CASE WHEN k > 900000 THEN error('boom') ELSE k END AS k FROM r", "r");
      while (auto chunk = result.Next()) rows += static_cast<int64_t>(chunk->size());
      FAIL() << "no error after " << rows << " rows";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("boom"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("a.duckdb: r: "), std::string::npos) << e.what();
    }
    EXPECT_GT(rows, 0);
    EXPECT_LT(rows, 1000000);
  }
}

TEST(DuckDBLayerTest, PreparedBindsScalarsAndLists) {
  ScratchDir dir;
  RunSql(dir / "a.duckdb",
         {"CREATE TABLE r AS SELECT range AS id, 'n' || range AS name FROM range(1, 100001)"});
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadOnly);
  Connection connection(db);

  PreparedStatement scalars = connection.Prepare(
      "SELECT $1::BIGINT, $2::DOUBLE, $3::BOOLEAN, $4::VARCHAR, $5::BIGINT", "binds");
  EXPECT_EQ(scalars.parameter_count(), 5u);
  scalars.BindInt64(1, -7).BindDouble(2, 2.25).BindBool(3, true).BindVarchar(4, "a'b").BindNull(5);
  Result r = scalars.Execute();
  auto chunk = r.Next();
  ASSERT_TRUE(chunk.has_value());
  EXPECT_EQ(chunk->Int64(0).Get(0), -7);
  EXPECT_EQ(chunk->Double(1).Get(0), 2.25);
  EXPECT_TRUE(chunk->Bool(2).Get(0));
  EXPECT_EQ(chunk->Varchar(3).Get(0), "a'b");
  EXPECT_TRUE(chunk->Int64(4).IsNull(0));

  // Batched lookup keeping the caller's order; 99999999 does not exist.
  PreparedStatement lookup = connection.Prepare(
      "SELECT q.pos, r.id, r.name FROM (SELECT unnest($1::BIGINT[]) AS id, "
      "generate_subscripts($1::BIGINT[], 1) AS pos) q JOIN r USING (id) ORDER BY q.pos",
      "r");
  std::vector<int64_t> ids = {77777, 3, 99999999, 50000};
  lookup.BindInt64List(1, ids);
  Result found = lookup.Execute();
  std::vector<std::string> names;
  while (auto c = found.Next()) {
    for (idx_t row = 0; row < c->size(); ++row) names.emplace_back(c->Varchar(2).Get(row));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"n77777", "n3", "n50000"}));

  std::vector<int64_t> none;
  lookup.BindInt64List(1, none);
  Result empty = lookup.Execute();
  EXPECT_FALSE(empty.Next().has_value());

  PreparedStatement strings = connection.Prepare("SELECT list_sort($1::VARCHAR[]) AS l", "strings");
  std::vector<std::string> values = {"b", "a", ""};
  strings.BindVarcharList(1, values);
  Result s = strings.Execute();
  auto sc = s.Next();
  ASSERT_TRUE(sc.has_value());
  EXPECT_EQ(sc->VarcharList(0).Get(0), (std::vector<std::string>{"", "a", "b"}));

  EXPECT_THROW(strings.BindInt64(9, 1), Error);
}

TEST(DuckDBLayerTest, AppenderWritesEveryTypeAcrossChunks) {
  ScratchDir dir;
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadWrite);
  Connection connection(db);
  connection.Execute(kTable, "t");
  const int64_t n = 5000;  // more than two chunks of 2048 rows
  {
    Appender appender = connection.Append("t");
    for (int64_t i = 0; i < n; ++i) {
      appender.Int64(i);
      if (i % 3 == 0) {
        appender.Null().Null().Null().Null().Null().Null();
      } else {
        std::vector<std::string> sl(static_cast<size_t>(i % 4), "s" + std::to_string(i));
        std::vector<int64_t> il(static_cast<size_t>(i % 5), i);
        appender.Double(i * 0.5)
            .Bool(i % 2 == 0)
            .Varchar("value number " + std::to_string(i))
            .Varchar("{\"i\":" + std::to_string(i) + "}")
            .VarcharList(sl)
            .Int64List(il);
      }
      appender.EndRow();
    }
    EXPECT_EQ(appender.rows(), n);
    appender.Close();
  }
  EXPECT_EQ(QueryRows(connection,
                      "SELECT count(*), count(d), sum(len(sl))::BIGINT, sum(len(il))::BIGINT, "
                      "count(*) FILTER (WHERE s = 'value number ' || k) FROM t"),
            (std::vector<std::string>{"5000|3333|" + std::to_string([&] {
                                        int64_t t = 0;
                                        for (int64_t i = 0; i < n; ++i) {
                                          if (i % 3 != 0) t += i % 4;
                                        }
                                        return t;
                                      }()) +
                                      "|" + std::to_string([&] {
                                        int64_t t = 0;
                                        for (int64_t i = 0; i < n; ++i) {
                                          if (i % 3 != 0) t += i % 5;
                                        }
                                        return t;
                                      }()) +
                                      "|3333"}));
  // Spot-check rows after chunk boundaries (a chunk holds 2048 rows): validity and list offsets
  // must not leak from one chunk into the next.
  EXPECT_EQ(
      QueryRows(connection,
                "SELECT k, d, sl, il FROM t WHERE k IN (2046, 2048, 2049, 2051, 4097) ORDER BY k"),
      (std::vector<std::string>{
          "2046|NULL|NULL|NULL", "2048|1024.000000|[]|[2048,2048,2048]", "2049|NULL|NULL|NULL",
          "2051|1025.500000|[s2051,s2051,s2051]|[2051]", "4097|2048.500000|[s4097]|[4097,4097]"}));
  EXPECT_EQ(QueryRows(connection, "SELECT j, b FROM t WHERE k = 4"),
            std::vector<std::string>{"{\"i\":4}|true"});
}

TEST(DuckDBLayerTest, AppenderRejectsWrongTypeAndShortRowNamingColumn) {
  ScratchDir dir;
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadWrite);
  Connection connection(db);
  connection.Execute(kTable, "t");
  Appender appender = connection.Append("t");
  try {
    appender.Varchar("x");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "t.k");
  }
  appender.Int64(1);
  EXPECT_THROW(appender.EndRow(), Error);
}

TEST(DuckDBLayerTest, AppenderForMissingTableNamesIt) {
  ScratchDir dir;
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadWrite);
  Connection connection(db);
  try {
    connection.Append("no_such_table");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "no_such_table");
    EXPECT_NE(std::string(e.what()).find("cannot create appender"), std::string::npos);
  }
}

TEST(DuckDBLayerTest, AppenderNotNullViolationNamesTable) {
  ScratchDir dir;
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadWrite);
  Connection connection(db);
  connection.Execute(kTable, "t");
  Appender appender = connection.Append("t");
  appender.Null().Null().Null().Null().Null().Null().Null().EndRow();
  try {
    appender.Close();
    FAIL() << "expected a NOT NULL violation";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "t");
    EXPECT_NE(std::string(e.what()).find("NOT NULL"), std::string::npos) << e.what();
  }
}

TEST(DuckDBLayerTest, TransactionRollsBackAppendedRows) {
  ScratchDir dir;
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadWrite);
  Connection connection(db);
  connection.Execute("CREATE TABLE x (a BIGINT)", "x");
  {
    Transaction transaction(connection);
    Appender appender = connection.Append("x");
    appender.Int64(1).EndRow();
    appender.Close();
    EXPECT_EQ(QueryRows(connection, "SELECT count(*) FROM x"), std::vector<std::string>{"1"});
  }
  EXPECT_EQ(QueryRows(connection, "SELECT count(*) FROM x"), std::vector<std::string>{"0"});
  {
    Transaction transaction(connection);
    connection.Execute("INSERT INTO x VALUES (2)", "x");
    transaction.Commit();
  }
  EXPECT_EQ(QueryRows(connection, "SELECT a FROM x"), std::vector<std::string>{"2"});
}

TEST(DuckDBLayerTest, QueryErrorsCarryDuckDBMessageFileAndTable) {
  ScratchDir dir;
  RunSql(dir / "a.duckdb", {"CREATE TABLE x (a BIGINT)"});
  {
    Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadWrite);
    Connection connection(db);
    try {
      connection.Query("SELECT * FROM missing_table", "missing_table");
      FAIL();
    } catch (const FormatError&) {
      FAIL() << "a read-write connection reports plain Error";
    } catch (const Error& e) {
      EXPECT_EQ(e.where(), "missing_table");
      ASSERT_TRUE(e.path().has_value());
      EXPECT_EQ(*e.path(), dir / "a.duckdb");
      EXPECT_NE(std::string(e.what()).find("Catalog Error"), std::string::npos) << e.what();
    }
  }
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  // On a read-only catalog, a missing table or column is a format problem (FORMAT.md §11).
  EXPECT_THROW(connection.Query("SELECT * FROM missing_table", "missing_table"), FormatError);
  EXPECT_THROW(connection.Query("SELECT nope FROM x", "x"), FormatError);
  EXPECT_THROW(connection.Prepare("SELECT nope FROM x", "x"), FormatError);
  // Other failures are plain Error with DuckDB's message.
  try {
    connection.Query("SELECT CAST('z' AS BIGINT)", "cast");
    FAIL();
  } catch (const FormatError&) {
    FAIL() << "a conversion error is not a format error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Conversion Error"), std::string::npos) << e.what();
  }
  // Writes are refused on a read-only open.
  EXPECT_THROW(connection.Execute("INSERT INTO x VALUES (1)", "x"), Error);
}

TEST(DuckDBLayerTest, ReadOnlyOpenWritesNothing) {
  ScratchDir dir;
  const auto path = dir / "control.duckdb";
  RunSql(path, {kTable, "INSERT INTO t (k, s) SELECT range, 'v' || range FROM range(50000)"});
  ASSERT_FALSE(std::filesystem::exists(WalPath(path)));
  const std::string before = FileChecksum(path);
  const auto size_before = std::filesystem::file_size(path);
  const auto mtime_before = std::filesystem::last_write_time(path);
  for (int round = 0; round < 2; ++round) {
    Database db = Database::Open(path, AccessMode::kReadOnly);
    Connection connection(db);
    EXPECT_EQ(QueryRows(connection, "SELECT count(*), max(s) FROM t"),
              std::vector<std::string>{"50000|v9999"});
    // Temporary objects live in memory only.
    connection.Execute("CREATE TEMP TABLE scratch AS SELECT * FROM t ORDER BY s DESC", "scratch");
    EXPECT_FALSE(std::filesystem::exists(WalPath(path)));
  }
  EXPECT_EQ(FileChecksum(path), before);
  EXPECT_EQ(std::filesystem::file_size(path), size_before);
  EXPECT_EQ(std::filesystem::last_write_time(path), mtime_before);
  std::vector<std::string> entries;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    entries.push_back(e.path().filename().string());
  }
  EXPECT_EQ(entries, std::vector<std::string>{"control.duckdb"});
}

TEST(DuckDBLayerTest, ReadOnlyOpenCannotReachOtherFiles) {
  ScratchDir dir;
  RunSql(dir / "a.duckdb", {"CREATE TABLE x (a BIGINT)"});
  { std::ofstream(dir / "other.csv") << "a\n1\n"; }
  Database db = Database::Open(dir / "a.duckdb", AccessMode::kReadOnly);
  Connection connection(db);
  std::string sql = "SELECT * FROM read_csv(" + SqlQuote((dir / "other.csv").string()) + ")";
  EXPECT_THROW(connection.Query(sql, "read_csv"), Error);
  EXPECT_THROW(connection.Execute("SET enable_external_access = true", "set"), Error);
}

TEST(DuckDBLayerTest, MissingFileIsFileError) {
  ScratchDir dir;
  try {
    Database::Open(dir / "nope.duckdb", AccessMode::kReadOnly);
    FAIL();
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::make_error_code(std::errc::no_such_file_or_directory));
    EXPECT_EQ(*e.path(), dir / "nope.duckdb");
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "nope.duckdb"));
}

TEST(DuckDBLayerTest, NonDuckDBFileIsFormatErrorNamingFile) {
  ScratchDir dir;
  for (std::string content : {std::string("hello"), std::string(100000, 'x'),
                              std::string(8, '\0') + "DUCK" + std::string(5000, '\1')}) {
    const auto path = dir / "control.duckdb";
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << content;
    }
    try {
      Database::Open(path, AccessMode::kReadOnly);
      FAIL() << "opened a non-DuckDB file";
    } catch (const FileError&) {
      FAIL() << "not a FileError";
    } catch (const FormatError& e) {
      ASSERT_TRUE(e.path().has_value());
      EXPECT_EQ(*e.path(), path);
    }
  }
}

}  // namespace
}  // namespace timef::catalog
