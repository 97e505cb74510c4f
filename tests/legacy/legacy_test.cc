// Legacy read and upgrade (docs/format.md §15) on fixtures written by DuckDB.
#include "timef/legacy.h"

#include <duckdb.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/checksum.h"
#include "legacy/id_codec.h"
#include "legacy/legacy_fixture.h"
#include "support/scratch_dir.h"
#include "timef/error.h"
#include "timef/reader.h"

namespace timef {
namespace {

namespace fs = std::filesystem;
using testing::LegacyFixtureOptions;
using testing::ScratchDir;
using testing::WriteLegacyFixture;

// ---- the independent check: DuckDB's C API on the upgraded catalog, no timef code ----

std::vector<std::vector<Json>> QueryCatalog(const fs::path& file, const std::string& sql) {
  duckdb_config config;
  duckdb_create_config(&config);
  duckdb_set_config(config, "access_mode", "READ_ONLY");
  duckdb_database db;
  char* error = nullptr;
  if (duckdb_open_ext(file.c_str(), &db, config, &error) != DuckDBSuccess) {
    std::string message = error ? error : "cannot open";
    duckdb_free(error);
    duckdb_destroy_config(&config);
    throw std::runtime_error(message);
  }
  duckdb_destroy_config(&config);
  duckdb_connection con;
  duckdb_connect(db, &con);
  duckdb_result result;
  std::vector<std::vector<Json>> rows;
  if (duckdb_query(con, sql.c_str(), &result) != DuckDBSuccess) {
    std::string message = duckdb_result_error(&result);
    duckdb_destroy_result(&result);
    duckdb_disconnect(&con);
    duckdb_close(&db);
    throw std::runtime_error(message + "\n" + sql);
  }
  for (idx_t r = 0; r < duckdb_row_count(&result); ++r) {
    std::vector<Json> row;
    for (idx_t c = 0; c < duckdb_column_count(&result); ++c) {
      if (duckdb_value_is_null(&result, c, r)) {
        row.emplace_back(nullptr);
      } else {
        char* value = duckdb_value_varchar(&result, c, r);
        row.emplace_back(value != nullptr ? std::string(value) : std::string("<unprintable>"));
        duckdb_free(value);
      }
    }
    rows.push_back(std::move(row));
  }
  duckdb_destroy_result(&result);
  duckdb_disconnect(&con);
  duckdb_close(&db);
  return rows;
}

void CheckExpectedCatalog(const fs::path& fixture, const fs::path& release) {
  std::ifstream in(fixture.string() + ".expected.json");
  ASSERT_TRUE(in) << "no expected rows beside " << fixture;
  const Json expected = Json::parse(in);
  ASSERT_GT(expected.size(), 5u);
  for (const Json& q : expected) {
    const std::string sql = q["sql"].get<std::string>();
    const auto rows = QueryCatalog(release / "control.duckdb", sql);
    std::vector<std::vector<Json>> want;
    for (const Json& row : q["rows"]) {
      ASSERT_TRUE(row.is_array()) << sql;
      want.push_back(row.get<std::vector<Json>>());
    }
    EXPECT_EQ(Json(rows).dump(), Json(want).dump()) << sql;
  }
}

struct Variant {
  const char* name;
  bool uuid16;
  bool part_prefix;
  bool id_encoding;
};

void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

class LegacyFixtureTest : public ::testing::TestWithParam<Variant> {};

TEST_P(LegacyFixtureTest, UpgradeMatchesTheExpectedCatalog) {
  ScratchDir scratch;
  const fs::path legacy = scratch.path() / "legacy";
  WriteLegacyFixture(legacy, {.uuid16 = GetParam().uuid16,
                              .shard_prefix_part = GetParam().part_prefix,
                              .write_id_encoding = GetParam().id_encoding});
  ASSERT_TRUE(IsLegacyRelease(legacy));
  std::vector<std::string> warned;
  UpgradeOptions options;
  options.warn = [&](const std::string& w) { warned.push_back(w); };
  const UpgradeResult result = Upgrade(legacy, scratch.path() / "out", options);
  EXPECT_EQ(result.written.release_dir, scratch.path() / "out" / "legacy" / "fixture" / "1.0.0");
  EXPECT_EQ(warned, result.warnings);
  // The unit that does not parse and the ignored answer target_schema, once each.
  ASSERT_EQ(result.warnings.size(), 2u) << ::testing::PrintToString(result.warnings);
  EXPECT_NE(result.warnings[0].find("frobnicate"), std::string::npos);
  EXPECT_NE(result.warnings[1].find("target_schema"), std::string::npos);
  const auto& upgraded = result.written.manifest.build_env.upgraded_from;
  ASSERT_TRUE(upgraded.has_value());
  EXPECT_EQ(upgraded->timef_format_version, 2);
  EXPECT_EQ(upgraded->manifest_checksum, FileChecksum(legacy / "manifest.json"));
  CheckExpectedCatalog(legacy, result.written.release_dir);
  Reader::Open(result.written.release_dir).Verify();
}

INSTANTIATE_TEST_SUITE_P(Layouts, LegacyFixtureTest,
                         ::testing::Values(Variant{"strings", false, true, true},
                                           Variant{"uuid16", true, true, true},
                                           Variant{"uuid16_shards", true, false, false},
                                           Variant{"strings_shards", false, false, false}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace timef
