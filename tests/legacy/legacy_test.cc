// Legacy read and upgrade (docs/format.md §15) on fixtures written by DuckDB.
#include "timef/legacy.h"

#include <duckdb.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "core/checksum.h"
#include "legacy/id_codec.h"
#include "legacy/legacy_fixture.h"
#include "parquet/file_reader.h"
#include "support/scratch_dir.h"
#include "timef/error.h"
#include "timef/model/dump.h"
#include "timef/reader.h"
#include "timef/upgrade.h"

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

// Every key of docs/format.md §15.3 and §15.6 that the fixture sets to a non-default value, as the
// upgraded manifest carries it (re-read from disk): card, specs (units included), annotation
// descriptors. The task columns (`unit`, `target_name`, `mode`, ...) are in the expected catalog.
void CheckLegacyKeysSurvive(const manifest::Manifest& m) {
  const manifest::Card& card = m.metadata;
  EXPECT_EQ(card.dataset_id, "legacy/fixture");
  EXPECT_EQ(card.dataset_version, "1.0.0");
  EXPECT_EQ(card.name, "Legacy fixture");
  EXPECT_EQ(card.description, "Every legacy feature timef reads");
  EXPECT_EQ(card.license, manifest::License::kCcBy4_0);
  EXPECT_EQ(card.domains, std::vector<manifest::Domain>{manifest::Domain::kCardiology});
  EXPECT_EQ(card.tags, std::vector<std::string>{"legacy"});
  EXPECT_EQ(card.source_url, "https://example.org/legacy");
  EXPECT_EQ(card.license_url, "https://example.org/legacy/license");
  EXPECT_EQ(card.citation, "Doe et al., Legacy fixture (2024)");
  EXPECT_EQ(card.access, manifest::Access::kCredentialed);
  EXPECT_EQ(card.access_url, "https://example.org/legacy/access");
  EXPECT_TRUE(card.parents.empty());
  EXPECT_FALSE(card.source_revision.has_value());
  EXPECT_FALSE(card.value_encoding.has_value());
  using manifest::Spec;
  auto spec = [](std::string type, std::string name, std::optional<std::string> unit, DType dtype,
                 std::vector<std::string> categories, bool nullable, Modality modality) {
    return Spec{.spec_type = std::move(type),
                .name = std::move(name),
                .unit = std::move(unit),
                .dtype = dtype,
                .categories = std::move(categories),
                .nullable = nullable,
                .modality = modality};
  };
  const std::vector<Spec> specs = {
      spec("ecg", "ECG", "millivolt", DType::kFloat32, {}, false, Modality::kTimeSeries),
      spec("flag", "Valid", "dimensionless", DType::kBool, {}, false, Modality::kTimeSeries),
      // "frobnicate" does not parse: unknown, with a warning.
      spec("label", "Label", std::nullopt, DType::kInt16, {}, false, Modality::kTimeSeries),
      spec("rhythm", "Rhythm", std::nullopt, DType::kEnum, {"AF", "NORM", "PVC"}, true,
           Modality::kTimeSeries),
      spec("text", "Notes", std::nullopt, DType::kStr, {}, false, Modality::kText)};
  ASSERT_EQ(m.schema.time_series_specs.size(), specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const Spec& got = m.schema.time_series_specs[i];
    EXPECT_EQ(got.spec_type, specs[i].spec_type);
    EXPECT_EQ(got.name, specs[i].name) << got.spec_type;
    EXPECT_EQ(got.unit, specs[i].unit) << got.spec_type;
    EXPECT_EQ(got.dtype, specs[i].dtype) << got.spec_type;
    EXPECT_EQ(got.categories, specs[i].categories) << got.spec_type;
    EXPECT_EQ(got.value_shape, specs[i].value_shape) << got.spec_type;
    EXPECT_EQ(got.dimension_names, specs[i].dimension_names) << got.spec_type;
    EXPECT_EQ(got.nullable, specs[i].nullable) << got.spec_type;
    EXPECT_EQ(got.modality, specs[i].modality) << got.spec_type;
  }
  // The descriptor of `gain` keeps its unit and description; `never_used` disappears (§15.3).
  auto gain = std::find_if(m.schema.annotations.begin(), m.schema.annotations.end(),
                           [](const auto& d) { return d.key == "gain"; });
  ASSERT_NE(gain, m.schema.annotations.end());
  EXPECT_EQ(gain->unit, "decibel");
  EXPECT_EQ(gain->description, "Amplifier gain");
  for (const auto& d : m.schema.annotations) EXPECT_NE(d.key, "never_used");
  EXPECT_EQ(m.schema.tasks.size(), 8u);
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
  CheckLegacyKeysSurvive(Reader::Open(result.written.release_dir).manifest());
}

INSTANTIATE_TEST_SUITE_P(Layouts, LegacyFixtureTest,
                         ::testing::Values(Variant{"strings", false, true, true},
                                           Variant{"uuid16", true, true, true},
                                           Variant{"uuid16_shards", true, false, false},
                                           Variant{"strings_shards", false, false, false}),
                         [](const auto& info) { return std::string(info.param.name); });

// Acceptance: the upgraded release re-read through the Reader equals the legacy directory read
// through the Reader (objects, IDs, values bit-exact, text).
TEST_P(LegacyFixtureTest, ReaderOnLegacyEqualsReaderOnUpgrade) {
  ScratchDir scratch;
  const fs::path legacy = scratch.path() / "legacy";
  WriteLegacyFixture(legacy, {.uuid16 = GetParam().uuid16,
                              .shard_prefix_part = GetParam().part_prefix,
                              .write_id_encoding = GetParam().id_encoding});
  const UpgradeResult result = Upgrade(legacy, scratch.path() / "out");
  Reader direct = Reader::Open(legacy);
  Reader upgraded = Reader::Open(result.written.release_dir);
  EXPECT_EQ(direct.path(), legacy);
  direct.Verify();
  const auto a = direct.Read(LoadPlan::AllEager());
  const auto b = upgraded.Read(LoadPlan::AllEager());
  const Json dump_a = model::DumpDataset(*a, {.values = true});
  const Json dump_b = model::DumpDataset(*b, {.values = true});
  EXPECT_EQ(dump_a.dump(), dump_b.dump());
  EXPECT_EQ(direct.manifest().schema, upgraded.manifest().schema);
  // Every count but signal_chunks: the legacy directory is read in place, in its 14 legacy
  // chunks (docs/format.md §15.8); the upgrade wrote each signal's values as one chunk.
  manifest::Counts direct_counts = direct.manifest().counts;
  EXPECT_EQ(direct_counts.signal_chunks, 14);
  EXPECT_EQ(upgraded.manifest().counts.signal_chunks, 8);
  direct_counts.signal_chunks = upgraded.manifest().counts.signal_chunks;
  EXPECT_EQ(direct_counts, upgraded.manifest().counts);
  EXPECT_EQ(direct.manifest().build_env.upgraded_from, upgraded.manifest().build_env.upgraded_from);
  // Values by ID and step windows, both sides.
  for (std::int64_t id = 1; id <= 8; ++id) {
    EXPECT_EQ(*direct.GetSignalValues(id).LoadValues(), *upgraded.GetSignalValues(id).LoadValues())
        << "signal " << id;
    EXPECT_EQ(direct.GetSignalValues(id).ReadSteps(1, 3),
              upgraded.GetSignalValues(id).ReadSteps(1, 3))
        << "signal " << id;
  }
  // The floats of the legacy chunks, in chunk_idx order, bit-exact.
  const auto lead = direct.GetSignalValues(1).LoadValues();
  const auto values = lead->values<float>();
  ASSERT_EQ(values.size(), 7u);
  EXPECT_EQ(values[0], 0.5f);
  EXPECT_TRUE(std::signbit(values[1]) && values[1] == 0.0f);
  EXPECT_TRUE(std::isinf(values[2]));
  EXPECT_EQ(values[4], -3.5f);
  EXPECT_TRUE(std::isnan(values[6]));
  const auto offsets = direct.GetSignal(2)->axis()->LoadOffsets();
  EXPECT_EQ(*offsets, (std::vector<std::int64_t>{0, 5, 17, 30}));
  EXPECT_EQ(direct.ReadTaskTable().num_rows(), 10);
  EXPECT_EQ(direct.ReadAnnotationTable().num_rows(), upgraded.ReadAnnotationTable().num_rows());
}

// Sets an environment variable for one scope and restores the previous value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// Every regular file below `dir`, relative to it, with its size.
std::map<std::string, std::uintmax_t> FilesBelow(const fs::path& dir) {
  std::map<std::string, std::uintmax_t> out;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      out[entry.path().lexically_relative(dir).generic_string()] = entry.file_size();
    }
  }
  return out;
}

std::uintmax_t TotalBytes(const std::map<std::string, std::uintmax_t>& files) {
  std::uintmax_t total = 0;
  for (const auto& [path, size] : files) total += size;
  return total;
}

// Issue 32: opening a legacy directory writes no values anywhere. With TMPDIR and TIMEF_CACHE_DIR
// pointed at fresh directories, an open reader has left nothing in TMPDIR, and in the cache only
// the metadata catalog of docs/format.md §15.8 (manifest.json, control.duckdb and payload files:
// no Parquet file there has a `values` column); it reads the values the upgraded release holds.
// A second open reuses that catalog; a legacy directory whose content changed gets a new one.
TEST(LegacyInPlace, OpeningWritesNoValuesAnywhere) {
  ScratchDir scratch;
  const fs::path legacy = scratch.path() / "legacy";
  WriteLegacyFixture(legacy);
  const UpgradeResult result = Upgrade(legacy, scratch.path() / "out");
  const fs::path tmp = scratch.path() / "tmp";
  const fs::path cache = scratch.path() / "cache";
  fs::create_directories(tmp);
  fs::create_directories(cache);
  ScopedEnv tmpdir("TMPDIR", tmp.string());
  ScopedEnv cache_dir("TIMEF_CACHE_DIR", cache.string());
  const auto legacy_before = FilesBelow(legacy);
  std::map<std::string, std::uintmax_t> cached;
  {
    Reader direct = Reader::Open(legacy);
    Reader upgraded = Reader::Open(result.written.release_dir);
    const auto a = direct.Read(LoadPlan::AllEager());
    const auto in_tmp = FilesBelow(tmp);
    cached = FilesBelow(cache);
    std::cout << "scratch space used by an open legacy reader: TMPDIR " << TotalBytes(in_tmp)
              << " bytes in " << in_tmp.size() << " files, cache " << TotalBytes(cached)
              << " bytes in " << cached.size() << " files (the upgraded release's values shards: ";
    std::uintmax_t shards = 0;
    for (const auto& part : result.written.manifest.files.time_series) shards += part.size;
    std::cout << shards << " bytes)\n";
    EXPECT_TRUE(in_tmp.empty()) << ::testing::PrintToString(in_tmp);
    ASSERT_FALSE(cached.empty());
    for (const auto& [path, size] : cached) {
      const std::string name = fs::path(path).filename().string();
      EXPECT_TRUE(name == "manifest.json" || name == "control.duckdb" ||
                  path.find("/payloads/") != std::string::npos)
          << path;
      EXPECT_EQ(path.find("time_series"), std::string::npos) << path;
      if (fs::path(path).extension() == ".parquet") {
        const auto file = parquet::FileReader::OpenFile(cache / path);
        for (const auto& column : file.columns()) EXPECT_NE(column.name, "values") << path;
      }
    }
    // The values read in place equal those of the upgraded release.
    const auto b = upgraded.Read(LoadPlan::AllEager());
    EXPECT_EQ(model::DumpDataset(*a, {.values = true}).dump(),
              model::DumpDataset(*b, {.values = true}).dump());
    for (std::int64_t id = 1; id <= 8; ++id) {
      EXPECT_EQ(*direct.GetSignalValues(id).LoadValues(),
                *upgraded.GetSignalValues(id).LoadValues())
          << "signal " << id;
    }
  }
  EXPECT_EQ(FilesBelow(legacy), legacy_before) << "the legacy directory was written to";
  // Opened again: the same catalog, nothing new.
  {
    Reader again = Reader::Open(legacy);
    EXPECT_EQ(again.ReadTaskTable().num_rows(), 10);
    EXPECT_EQ(FilesBelow(cache), cached);
  }
  // Another content at the same path: a catalog of its own.
  fs::remove_all(legacy);
  WriteLegacyFixture(legacy, {.uuid16 = true});
  {
    Reader changed = Reader::Open(legacy);
    EXPECT_EQ(changed.ReadTaskTable().num_rows(), 10);
  }
  EXPECT_GT(FilesBelow(cache).size(), cached.size());
  EXPECT_TRUE(FilesBelow(tmp).empty());
}

// Several openers of one legacy content at once (threads here, processes alike): each builds
// in a .part directory of its own and renames it into place, so all of them read, one catalog
// stays, and no .part directory is left.
TEST(LegacyInPlace, ConcurrentOpensShareOneCatalog) {
  ScratchDir scratch;
  const fs::path legacy = scratch.path() / "legacy";
  WriteLegacyFixture(legacy);
  const fs::path cache = scratch.path() / "cache";
  ScopedEnv cache_dir("TIMEF_CACHE_DIR", cache.string());
  std::vector<std::int64_t> tasks(3, -1);
  std::vector<std::string> errors(3);
  {
    std::vector<std::thread> openers;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      openers.emplace_back([&, i] {
        try {
          tasks[i] = Reader::Open(legacy).ReadTaskTable().num_rows();
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
    }
    for (auto& opener : openers) opener.join();
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    EXPECT_EQ(tasks[i], 10) << errors[i];
  }
  std::vector<std::string> entries;
  for (const auto& entry : fs::directory_iterator(cache / "legacy-catalogs")) {
    entries.push_back(entry.path().filename().string());
  }
  ASSERT_EQ(entries.size(), 1u) << ::testing::PrintToString(entries);
  EXPECT_EQ(entries[0].find(".part"), std::string::npos);
}

TEST(LegacyIdCodec, RoundTripsCanonicalUuids) {
  const std::string id = "0123abcd-4567-89ef-0011-2233445566ff";
  const auto bytes = legacy::EncodeUuid16(id, "record_id");
  EXPECT_EQ(static_cast<int>(bytes[0]), 0x01);
  EXPECT_EQ(static_cast<int>(bytes[15]), 0xff);
  EXPECT_EQ(legacy::DecodeUuid16(bytes), id);
  EXPECT_TRUE(legacy::IsCanonicalUuid(id));
}

TEST(LegacyIdCodec, RejectsValuesThatAreNotCanonicalUuids) {
  for (const char* bad : {"rec-1", "0123ABCD-4567-89ef-0011-2233445566ff",
                          "0123abcd4567-89ef-0011-2233445566ff0", ""}) {
    try {
      legacy::EncodeUuid16(bad, "time_series.element.time_series_id");
      ADD_FAILURE() << bad;
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find("time_series.element.time_series_id"),
                std::string::npos);
      EXPECT_NE(std::string(e.what()).find(std::string("\"") + bad + "\""), std::string::npos);
    }
  }
}

TEST(LegacyRecognition, NativeLegacyAndSingleFileLayouts) {
  ScratchDir scratch;
  const fs::path dir = scratch.path() / "r";
  fs::create_directories(dir);
  auto write = [&](const std::string& text) { std::ofstream(dir / "manifest.json") << text; };
  write(R"({"files": {"control": {"path": "control.duckdb"}, "time_series": []}})");
  EXPECT_FALSE(IsLegacyRelease(dir));
  write(R"({"files": {"records": [], "annotations": []}})");
  EXPECT_TRUE(IsLegacyRelease(dir));
  write(R"({"files": {"samples": "samples.parquet"}})");
  try {
    IsLegacyRelease(dir);
    ADD_FAILURE() << "single-file layout accepted";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported legacy layout"), std::string::npos);
  }
  write(R"({"files": {"samples": [], "sample_ids": []}})");
  EXPECT_THROW(IsLegacyRelease(dir), FormatError);
  EXPECT_THROW(Reader::Open(dir), FormatError);
}

TEST(LegacyUpgrade, UnmappableCardValuesWarnOnceAndMap) {
  ScratchDir scratch;
  const fs::path legacy = scratch.path() / "legacy";
  LegacyFixtureOptions options;
  options.edit_manifest = [](std::string text) {
    const std::string from = R"("license": "CC-BY-4.0")";
    text.replace(text.find(from), from.size(), R"("license": "Proprietary-X")");
    const std::string url = R"("license_url": "https://example.org/legacy/license")";
    text.replace(text.find(url), url.size(), R"("license_url": "https://example.org/terms")");
    const std::string domain = R"("cardiology")";
    text.replace(text.find(domain), domain.size(), R"("cardiology", "astrology")");
    return text;
  };
  WriteLegacyFixture(legacy, options);
  const LegacyDataset read = ReadLegacy(legacy, {.version = "2.0.0"});
  EXPECT_EQ(read.card.license, manifest::License::kOther);
  EXPECT_EQ(read.card.license_url, "https://example.org/terms");
  EXPECT_EQ(read.card.domains, std::vector<manifest::Domain>{manifest::Domain::kCardiology});
  EXPECT_EQ(read.card.dataset_version, "2.0.0");
  int license = 0, domain = 0;
  for (const std::string& w : read.warnings) {
    license += w.find("Proprietary-X") != std::string::npos;
    domain += w.find("astrology") != std::string::npos;
  }
  EXPECT_EQ(license, 1);
  EXPECT_EQ(domain, 1);
  // The upgrade at another version may target the legacy root itself.
  const UpgradeResult result = Upgrade(legacy, scratch.path() / "out", {.version = "2.0.0"});
  EXPECT_EQ(result.written.manifest.metadata.dataset_version, "2.0.0");
  EXPECT_EQ(result.written.manifest.metadata.license, manifest::License::kOther);
}

TEST(LegacyUpgrade, RefusesTheLegacyReleaseAsTarget) {
  ScratchDir scratch;
  const fs::path legacy = scratch.path() / "root" / "legacy" / "fixture" / "1.0.0";
  WriteLegacyFixture(legacy);
  EXPECT_THROW(Upgrade(legacy, scratch.path() / "root"), ValidationError);
  const UpgradeResult other = Upgrade(legacy, scratch.path() / "root", {.version = "1.0.1"});
  EXPECT_EQ(other.written.release_dir, scratch.path() / "root" / "legacy" / "fixture" / "1.0.1");
}

// ---- bad input: each §15 FormatError / ValidationError ----

struct BadCase {
  const char* name;
  LegacyFixtureOptions options;
  const char* message;  // a part of the error message
  enum Kind { kFormat, kValidation, kFile } kind = kFormat;
};

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("fixture edit found no '" + from + "'");
  return text.replace(at, from.size(), to);
}

std::vector<BadCase> BadCases() {
  std::vector<BadCase> cases;
  auto sql = [](std::string table, std::string from, std::string to) {
    // Tables with several parts: the parts that hold `from`.
    return [=](const std::string& t, std::string text) {
      return t == table && text.find(from) != std::string::npos ? Replace(std::move(text), from, to)
                                                                : text;
    };
  };
  auto manifest = [](std::string from, std::string to) {
    return [=](std::string text) { return Replace(std::move(text), from, to); };
  };
  cases.push_back(
      {"id_encoding_disagrees",
       {.uuid16 = true,
        .edit_manifest = manifest(R"("record_id": "uuid16")", R"("record_id": "string")")},
       "id_encoding disagrees"});
  cases.push_back({"steps_span_on_annotation",
                   {.edit_sql = sql("annotations", "'seconds'", "'steps'")},
                   "steps-frame span"});
  cases.push_back({"unknown_span_frame",
                   {.edit_sql = sql("annotations", "'seconds'", "'minutes'")},
                   "unknown span frame"});
  cases.push_back({"offsets_disagree_with_endpoints",
                   {.edit_sql = sql("shard/1", "[17, 30]::BIGINT[]", "[17, 31]::BIGINT[]")},
                   "offsets disagree"});
  cases.push_back({"chunk_length_disagrees_with_index",
                   {.edit_sql = sql("shard/0", "[9.0]::FLOAT[]", "[9.0, 9.5]::FLOAT[]")},
                   "n_values"});
  cases.push_back({"task_span_series_in_no_input",
                   {.edit_sql = sql("tasks/forecasting", "AS context_record_ids",
                                    "AS context_record_ids_unused")},
                   "in no input record"});
  cases.push_back({"dotdot_path",
                   {.edit_manifest = manifest(R"("path": "records/part-00000001.parquet")",
                                              R"("path": "records/../../part-00000001.parquet")")},
                   "..",
                   BadCase::kValidation});
  cases.push_back({"missing_part_file",
                   {.edit_manifest = manifest(R"("path": "records/part-00000001.parquet")",
                                              R"("path": "records/part-00000009.parquet")")},
                   "part-00000009",
                   BadCase::kFile});
  cases.push_back({"reference_to_a_signal_annotation",
                   {.edit_sql = sql("tasks/temporal_localization",
                                    "'ann-2'::VARCHAR]::VARCHAR[] AS input_annotation_ids",
                                    "'ann-3'::VARCHAR]::VARCHAR[] AS input_annotation_ids")},
                   "is on no input record"});
  cases.push_back(
      {"zarr_values_backend",
       {.edit_manifest = manifest(R"("values_backend": "parquet")", R"("values_backend": "zarr")")},
       "zarr"});
  cases.push_back(
      {"unsupported_format_version",
       {.edit_manifest = manifest(R"("timef_format_version": 2)", R"("timef_format_version": 7)")},
       "format version"});
  cases.push_back({"time_span_without_end",
                   {.edit_sql = sql("records", "{'start_us': 0, 'end_us': 10000000",
                                    "{'start_us': 0, 'end_us': NULL")},
                   "time_span"});
  cases.push_back(
      {"unknown_access",
       {.edit_manifest = manifest(R"("access": "credentialed")", R"("access": "members-only")")},
       "unknown access \"members-only\""});
  cases.push_back(
      {"spec_unit_value_not_a_string",
       {.edit_manifest = manifest(R"("unit_value": "millivolt")", R"("unit_value": 3)")},
       "/schema/time_series_specs/ecg/unit_value"});
  // A spec with a value_shape: read, then refused by the Parquet-backend upgrade (never flattened
  // or dropped).
  cases.push_back({"value_shape_spec",
                   {.edit_manifest = manifest(
                        "\"value_shape\": [],\n        \"dimension_names\": [],\n        "
                        "\"nullable\": false,\n        \"data_source\"",
                        "\"value_shape\": [2],\n        \"dimension_names\": [\"lead\"],\n        "
                        "\"nullable\": false,\n        \"data_source\"")},
                   "value_shape",
                   BadCase::kValidation});
  cases.push_back(
      {"forecasting_target_unknown",
       {.edit_sql = sql("tasks/forecasting", "AS target_record_id", "AS target_record_id_unused")},
       "target_record_id"});
  return cases;
}

class LegacyBadInputTest : public ::testing::TestWithParam<BadCase> {};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

TEST_P(LegacyBadInputTest, RaisesTheDocumentedError) {
  ScratchDir scratch;
  const fs::path legacy = scratch.path() / "legacy";
  WriteLegacyFixture(legacy, GetParam().options);
  const BadCase& c = GetParam();
  for (int via_reader = 0; via_reader < 2; ++via_reader) {
    try {
      if (via_reader) {
        Reader::Open(legacy);
      } else {
        Upgrade(legacy, scratch.path() / "out");
      }
      ADD_FAILURE() << c.name << ": no error";
    } catch (const FileError& e) {
      EXPECT_EQ(c.kind, BadCase::kFile) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    } catch (const FormatError& e) {
      EXPECT_EQ(c.kind, BadCase::kFormat) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    } catch (const ValidationError& e) {
      EXPECT_EQ(c.kind, BadCase::kValidation) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, LegacyBadInputTest, ::testing::ValuesIn(BadCases()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace timef
