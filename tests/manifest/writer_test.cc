// The writer: FORMAT.md key order, manifest form, determinism, and refusal to write an invalid
// manifest.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "manifest/manifest_fixtures.h"
#include "timef/error.h"
#include "timef/manifest.h"

namespace timef::manifest {
namespace {

std::vector<std::string> KeysOf(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

using Keys = std::vector<std::string>;

TEST(WriterTest, KeysFollowFormatOrder) {
  Manifest full = testing::FullManifest();
  full.build_env.upgraded_from = UpgradedFrom{2, testing::FakeChecksum("old")};
  std::string bytes = WriteManifest(full);
  testing::RecordProducedManifest("writer_key_order", bytes);
  // Parse with the order-keeping type: what is checked is the order in the bytes.
  Json doc = Json::parse(bytes);
  EXPECT_EQ(KeysOf(doc), (Keys{"timef_format_version", "dataset_id", "metadata", "schema", "counts",
                               "files", "values_backend", "value_encoding", "build_env",
                               "parent_cards", "lineage", "payload_sources"}));
  const Keys card_keys{"dataset_id",      "dataset_version", "name",          "description",
                       "license",         "domains",         "tags",          "source_url",
                       "source_revision", "license_url",     "citation",      "access",
                       "access_url",      "parents",         "value_encoding"};
  EXPECT_EQ(KeysOf(doc["metadata"]), card_keys);
  EXPECT_EQ(KeysOf(doc["parent_cards"]["base"]), card_keys);
  EXPECT_EQ(KeysOf(doc["lineage"]["physionet/ptb-xl@1.0.0"]), card_keys);
  EXPECT_EQ(KeysOf(doc["metadata"]["parents"][0]), (Keys{"alias", "dataset_id", "version"}));
  EXPECT_EQ(KeysOf(doc["schema"]), (Keys{"time_series_specs", "annotations", "tasks"}));
  EXPECT_EQ(KeysOf(doc["schema"]["time_series_specs"][0]),
            (Keys{"spec_type", "name", "unit_value", "dtype", "categories", "value_shape",
                  "dimension_names", "nullable", "modality"}));
  EXPECT_EQ(KeysOf(doc["schema"]["annotations"][0]),
            (Keys{"key", "annotation_type", "value_type", "unit", "description"}));
  EXPECT_EQ(KeysOf(doc["counts"]),
            (Keys{"records", "sources", "signals", "axes", "annotation_contents",
                  "annotation_occurrences", "signal_chunks", "tasks", "signals_by_spec"}));
  EXPECT_EQ(KeysOf(doc["files"]), (Keys{"control", "time_series", "payloads"}));
  EXPECT_EQ(KeysOf(doc["files"]["control"]), (Keys{"path", "checksum", "size"}));
  EXPECT_EQ(KeysOf(doc["build_env"]), (Keys{"producer", "compiler", "libraries", "upgraded_from"}));
  EXPECT_EQ(KeysOf(doc["build_env"]["upgraded_from"]),
            (Keys{"timef_format_version", "manifest_checksum"}));
}

TEST(WriterTest, FreeFormMapsAreSorted) {
  Json doc = Json::parse(WriteManifest(testing::FullManifest()));
  for (const char* pointer :
       {"/value_encoding", "/build_env/libraries", "/counts/tasks", "/counts/signals_by_spec",
        "/parent_cards", "/lineage", "/payload_sources"}) {
    Keys keys = KeysOf(doc[Json::json_pointer(pointer)]);
    EXPECT_GE(keys.size(), 2u) << pointer;
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end())) << pointer;
  }
  // The fixture inserted "zstd" before "duckdb"; the output is sorted anyway.
  EXPECT_EQ(KeysOf(doc["build_env"]["libraries"]), (Keys{"duckdb", "zstd"}));
}

TEST(WriterTest, ManifestForm) {
  std::string bytes = WriteManifest(testing::FullManifest());
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes.back(), '\n');
  EXPECT_EQ(bytes.substr(0, 26), "{\n  \"timef_format_version\"");
  EXPECT_NE(bytes.find("\"name\": \"ECG child — Ωmega\""), std::string::npos);  // raw UTF-8
  EXPECT_NE(bytes.find("Line one.\\nLine two with \\\"quotes\\\", a tab\\tand"), std::string::npos);
  EXPECT_NE(bytes.find("\"size\": 134217728"), std::string::npos);

  std::string minimal = WriteManifest(testing::MinimalManifest());
  EXPECT_NE(minimal.find("\"build_env\": {},"), std::string::npos);
  EXPECT_NE(minimal.find("\"payloads\": []"), std::string::npos);
  EXPECT_NE(minimal.find("\"source_url\": null,"), std::string::npos);
  EXPECT_NE(minimal.find("\n  \"payload_sources\": {}\n}\n"), std::string::npos);
}

TEST(WriterTest, SameManifestSameBytes) {
  Manifest a = testing::FullManifest();
  Manifest b = testing::FullManifest();
  // Same content, maps filled in another order.
  b.counts.tasks.clear();
  b.counts.tasks["forecasting"] = 5;
  b.counts.tasks["classification"] = 21837;
  b.counts.tasks["answer"] = 3;
  ASSERT_EQ(a, b);
  EXPECT_EQ(WriteManifest(a), WriteManifest(b));
  EXPECT_EQ(WriteManifest(a), WriteManifest(a));

  b.counts.tasks["answer"] = 4;
  EXPECT_NE(WriteManifest(a), WriteManifest(b));
}

TEST(WriterTest, SortManifestListsRestoresCanonicalOrder) {
  Manifest sorted = testing::FullManifest();
  Manifest shuffled = sorted;
  std::mt19937 random(7);
  std::shuffle(shuffled.schema.time_series_specs.begin(), shuffled.schema.time_series_specs.end(),
               random);
  std::reverse(shuffled.schema.annotations.begin(), shuffled.schema.annotations.end());
  std::reverse(shuffled.schema.tasks.begin(), shuffled.schema.tasks.end());
  std::reverse(shuffled.files.time_series.begin(), shuffled.files.time_series.end());
  std::reverse(shuffled.files.payloads.begin(), shuffled.files.payloads.end());
  for (auto& [ref, pins] : shuffled.payload_sources) std::reverse(pins.begin(), pins.end());
  ASSERT_NE(shuffled, sorted);
  EXPECT_THROW(WriteManifest(shuffled), ValidationError);  // unsorted lists are not written
  SortManifestLists(shuffled);
  EXPECT_EQ(shuffled, sorted);
}

// Whatever rule a model breaks, the writer refuses it with ValidationError naming the pointer.
struct InvalidModel {
  std::string name;
  void (*mutate)(Manifest&);
  std::string pointer;
  // Out-of-range enums and invalid UTF-8 cannot come from parsed JSON; only the encoder sees them.
  bool found_by_validate = true;
};

void PrintTo(const InvalidModel& c, std::ostream* out) { *out << c.name; }

class WriterRefusesTest : public ::testing::TestWithParam<InvalidModel> {};

TEST_P(WriterRefusesTest, ThrowsValidationError) {
  Manifest manifest = testing::FullManifest();
  GetParam().mutate(manifest);
  EXPECT_EQ(!ValidateManifest(manifest).empty(), GetParam().found_by_validate);
  try {
    WriteManifest(manifest);
    FAIL() << "written";
  } catch (const ValidationError& e) {
    EXPECT_EQ(e.where(), GetParam().pointer) << e.what();
    EXPECT_NE(std::string(e.what()).find(GetParam().pointer), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Models, WriterRefusesTest,
    ::testing::Values(
        InvalidModel{"format_version", [](Manifest& m) { m.format_version = 2; },
                     "/timef_format_version"},
        InvalidModel{"dataset_id", [](Manifest& m) { m.dataset_id = "x"; }, "/dataset_id"},
        InvalidModel{"ids_disagree", [](Manifest& m) { m.dataset_id = "acme/other"; },
                     "/dataset_id"},
        InvalidModel{"license_url", [](Manifest& m) { m.metadata.license_url.reset(); },
                     "/metadata/license_url"},
        InvalidModel{"absolute_path",
                     [](Manifest& m) { m.files.payloads[0].path = "/payloads/x.parquet"; },
                     "/files/payloads/0/path"},
        InvalidModel{"checksum", [](Manifest& m) { m.files.control.checksum = "sha256:"; },
                     "/files/control/checksum"},
        InvalidModel{"negative_size", [](Manifest& m) { m.files.control.size = -1; },
                     "/files/control/size"},
        InvalidModel{"pin_unsorted",
                     [](Manifest& m) {
                       auto& pins = m.payload_sources.at("physionet/ptb-xl@1.0.3");
                       std::swap(pins[0], pins[1]);
                     },
                     "/payload_sources/physionet~1ptb-xl@1.0.3/1/path"},
        InvalidModel{"enum_out_of_range",
                     [](Manifest& m) { m.metadata.license = static_cast<License>(99); },
                     "/metadata/license", false},
        InvalidModel{"invalid_utf8", [](Manifest& m) { m.metadata.tags.push_back("\xff"); },
                     "/metadata/tags/3", false},
        InvalidModel{"parent_card_missing", [](Manifest& m) { m.parent_cards.erase("base"); },
                     "/parent_cards"}),
    [](const ::testing::TestParamInfo<InvalidModel>& info) { return info.param.name; });

}  // namespace
}  // namespace timef::manifest
