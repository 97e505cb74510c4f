// Good manifests: write → parse gives the same model, parse → write gives the same bytes. Every
// manifest written here is also left in ProducedManifestDir() for the JSON Schema test.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "manifest/manifest_fixtures.h"
#include "timef/error.h"
#include "timef/manifest.h"

namespace timef::manifest {
namespace {

using testing::RecordProducedManifest;

struct GoodCase {
  std::string name;
  Manifest manifest;
};

std::vector<GoodCase> GoodManifests() {
  std::vector<GoodCase> cases;
  cases.push_back({"minimal", testing::MinimalManifest()});
  cases.push_back({"full", testing::FullManifest()});
  cases.push_back({"zarr", testing::ZarrManifest()});

  Manifest upgraded = testing::FullManifest();
  upgraded.build_env.upgraded_from = UpgradedFrom{2, testing::FakeChecksum("legacy manifest")};
  upgraded.metadata.value_encoding = std::nullopt;
  cases.push_back({"upgraded", upgraded});

  Manifest only_producer = testing::MinimalManifest();
  only_producer.build_env.producer = Producer{"timef", "9.9.9"};
  only_producer.metadata.license = License::kPhysioNetCredentialedHealthData1_5_0;
  only_producer.metadata.access = Access::kCredentialed;
  only_producer.metadata.access_url = "";  // present, if empty: the rule asks only for non-null
  cases.push_back({"only_producer", only_producer});

  Manifest edge = testing::MinimalManifest();
  edge.dataset_id = "A_b/-x.y";
  edge.metadata.dataset_id = edge.dataset_id;
  edge.metadata.dataset_version = "9223372036854775807.0.10";
  edge.metadata.tags = {"", "tab\there", "quote\"", "nul\x01"};
  edge.files.control.size = 0;
  edge.files.payloads = {
      FilePart{"payloads/o~/x.parquet", testing::FakeChecksum("x"), int64_t{9223372036854775807}}};
  edge.payload_sources["a/b@0.0.0"] = {
      FilePart{"time_series/part-00000000.parquet", testing::FakeChecksum("y"), 1}};
  cases.push_back({"edge_values", edge});
  return cases;
}

void PrintTo(const GoodCase& c, std::ostream* out) { *out << c.name; }

class GoodManifestTest : public ::testing::TestWithParam<GoodCase> {};

TEST_P(GoodManifestTest, WriteParseWriteIsIdentity) {
  const GoodCase& good = GetParam();
  std::string bytes = WriteManifest(good.manifest);
  RecordProducedManifest(good.name, bytes);
  EXPECT_TRUE(ValidateManifest(good.manifest).empty());

  Manifest parsed = ParseManifest(bytes, good.name + ".json");
  EXPECT_EQ(parsed, good.manifest);
  EXPECT_EQ(WriteManifest(parsed), bytes);
}

INSTANTIATE_TEST_SUITE_P(Models, GoodManifestTest, ::testing::ValuesIn(GoodManifests()),
                         [](const ::testing::TestParamInfo<GoodCase>& info) {
                           return info.param.name;
                         });

std::vector<std::filesystem::path> ExampleFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(TIMEF_SOURCE_DIR) / "examples" / "manifest")) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ExampleManifestsTest, EachParsesAndRewritesToTheSameBytes) {
  std::vector<std::filesystem::path> files = ExampleFiles();
  ASSERT_GE(files.size(), 3u);
  bool saw_hello = false;
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    saw_hello |= file.filename() == "hello.json";
    std::string bytes = testing::ReadFileBytes(file);
    Manifest manifest = ReadManifest(file);
    EXPECT_EQ(WriteManifest(manifest), bytes);
    EXPECT_EQ(ParseManifest(WriteManifest(manifest)), manifest);
  }
  EXPECT_TRUE(saw_hello);
}

TEST(ExampleManifestsTest, ChildExampleCarriesItsParent) {
  Manifest child = ReadManifest(std::filesystem::path(TIMEF_SOURCE_DIR) /
                                "examples/manifest/child-with-parent.json");
  ASSERT_EQ(child.metadata.parents.size(), 1u);
  EXPECT_EQ(child.metadata.parents[0].Ref(), "physionet/ptb-xl@1.0.3");
  EXPECT_EQ(child.parent_cards.at("ptbxl").name, "PTB-XL");
  EXPECT_EQ(child.payload_sources.at("physionet/ptb-xl@1.0.3").size(), 3u);
  EXPECT_EQ(child.metadata.access, Access::kCredentialed);
}

// Only the required keys: every other key takes its FORMAT.md default.
constexpr std::string_view kMinimalWithDefaults = R"({
  "files": {"control": {"size": 5, "checksum": "sha256:0000000000000000000000000000000000000000000000000000000000000000", "path": "control.duckdb"}},
  "metadata": {"license": "MIT", "description": "d", "name": "n", "dataset_version": "1.2.3", "dataset_id": "o/n"},
  "dataset_id": "o/n",
  "timef_format_version": 1
})";

TEST(DefaultsTest, AbsentKeysTakeTheirDefaults) {
  Manifest manifest = ParseManifest(kMinimalWithDefaults);
  EXPECT_EQ(manifest.values_backend, ValuesBackend::kParquet);
  EXPECT_EQ(manifest.schema, Schema{});
  EXPECT_EQ(manifest.counts, Counts{});
  EXPECT_EQ(manifest.build_env, BuildEnv{});
  EXPECT_TRUE(manifest.files.time_series.empty());
  EXPECT_TRUE(manifest.files.payloads.empty());
  EXPECT_TRUE(manifest.value_encoding.empty());
  EXPECT_TRUE(manifest.parent_cards.empty());
  EXPECT_TRUE(manifest.lineage.empty());
  EXPECT_TRUE(manifest.payload_sources.empty());
  EXPECT_EQ(manifest.metadata.access, Access::kOpen);
  EXPECT_FALSE(manifest.metadata.value_encoding.has_value());
  EXPECT_FALSE(manifest.metadata.source_url.has_value());
  EXPECT_TRUE(manifest.metadata.domains.empty());

  // The writer spells every default out; that form is a fixed point.
  std::string written = WriteManifest(manifest);
  RecordProducedManifest("defaults_expanded", written);
  Json top = Json::parse(written);
  std::vector<std::string> keys;
  for (const auto& [key, value] : top.items()) keys.push_back(key);
  EXPECT_EQ(keys.size(), 12u);
  EXPECT_EQ(ParseManifest(written), manifest);
  EXPECT_EQ(WriteManifest(ParseManifest(written)), written);
}

TEST(DefaultsTest, SpecDefaultsApply) {
  Json doc = Json::parse(kMinimalWithDefaults);
  doc["schema"] = {
      {"time_series_specs", {{{"spec_type", "x"}, {"name", "X"}, {"unit_value", nullptr}}}}};
  Manifest manifest = ParseManifest(doc.dump());
  ASSERT_EQ(manifest.schema.time_series_specs.size(), 1u);
  const Spec& spec = manifest.schema.time_series_specs[0];
  EXPECT_EQ(spec.dtype, DType::kFloat32);
  EXPECT_EQ(spec.modality, Modality::kTimeSeries);
  EXPECT_FALSE(spec.nullable);
  EXPECT_FALSE(spec.unit.has_value());
  EXPECT_TRUE(spec.value_shape.empty());
  RecordProducedManifest("spec_defaults", WriteManifest(manifest));
}

TEST(UnknownCardKeysTest, DroppedInMetadataParentCardsAndLineage) {
  Manifest full = testing::FullManifest();
  std::string canonical = WriteManifest(full);
  Json doc = Json::parse(canonical);
  doc["metadata"]["yaml_schema_version"] = 3;
  doc["metadata"]["future"] = {{"nested", {1, 2, 3}}, {"flag", nullptr}};
  doc["parent_cards"]["base"]["newer_field"] = "x";
  doc["lineage"]["physionet/ptb-xl@1.0.0"]["another"] = Json::array();

  Manifest parsed = ParseManifest(doc.dump(2));
  EXPECT_EQ(parsed, full);
  std::string rewritten = WriteManifest(parsed);
  EXPECT_EQ(rewritten, canonical);
  EXPECT_EQ(rewritten.find("yaml_schema_version"), std::string::npos);
  EXPECT_EQ(rewritten.find("newer_field"), std::string::npos);
}

TEST(UnknownCardKeysTest, NestedCardObjectsStayStrict) {
  // Room for newer cards is at the card's own level: a parent entry is still exactly 3 keys.
  Json doc = Json::parse(WriteManifest(testing::FullManifest()));
  doc["parent_cards"]["base"]["parents"][0]["extra"] = 1;
  try {
    ParseManifest(doc.dump());
    FAIL() << "accepted";
  } catch (const ManifestError& e) {
    EXPECT_EQ(e.where(), "/parent_cards/base/parents/0/extra");
  }
}

}  // namespace
}  // namespace timef::manifest
