// Proves the DuckDB dependency path: the pinned library links, loads and answers a query.
#include <duckdb.h>
#include <gtest/gtest.h>

#include "core/duckdb_version.h"
#include "timef/version.h"

namespace timef {
namespace {

TEST(DuckDBLinkTest, LoadedVersionIsPinned) {
  EXPECT_EQ(LoadedDuckDBVersion(), kPinnedDuckDBVersion);
  EXPECT_NO_THROW(CheckDuckDBVersion());
}

TEST(DuckDBLinkTest, RunsAQuery) {
  duckdb_database db = nullptr;
  duckdb_connection con = nullptr;
  ASSERT_EQ(duckdb_open(nullptr, &db), DuckDBSuccess);
  ASSERT_EQ(duckdb_connect(db, &con), DuckDBSuccess);
  duckdb_result result;
  ASSERT_EQ(duckdb_query(con, "SELECT sum(range) FROM range(1000)", &result), DuckDBSuccess);
  EXPECT_EQ(duckdb_value_int64(&result, 0, 0), 499500);
  duckdb_destroy_result(&result);
  duckdb_disconnect(&con);
  duckdb_close(&db);
}

}  // namespace
}  // namespace timef
