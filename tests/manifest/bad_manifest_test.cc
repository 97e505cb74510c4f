// The table of bad manifests: each is a good manifest with one defect, and each must be rejected
// with the error class FORMAT.md names and an error that names the defect's JSON pointer.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "manifest/manifest_fixtures.h"
#include "timef/error.h"
#include "timef/manifest.h"

namespace timef::manifest {
namespace {

using Pointer = Json::json_pointer;

enum class Expect { kManifestError, kValidationError };

struct BadCase {
  std::string name;
  std::function<void(Json&)> mutate;  // applied to the full manifest's JSON
  Expect expect;
  std::string pointer;  // the JSON pointer the error must name
};

void PrintTo(const BadCase& bad, std::ostream* out) { *out << bad.name; }

void Set(Json& doc, const std::string& pointer, Json value) {
  doc[Pointer(pointer)] = std::move(value);
}

void Remove(Json& doc, const std::string& pointer) {
  Pointer target(pointer);
  doc[target.parent_pointer()].erase(target.back());
}

// Changes both copies of the release's dataset id, so only the id rule can fire.
void SetBothIds(Json& doc, const std::string& id) {
  Set(doc, "/dataset_id", id);
  Set(doc, "/metadata/dataset_id", id);
}

std::vector<BadCase> BadCases() {
  constexpr Expect kM = Expect::kManifestError;
  constexpr Expect kV = Expect::kValidationError;
  const std::string own_ref = "acme~1ecg-child@2.10.0";
  const std::string ptbxl_ref = "physionet~1ptb-xl@1.0.3";
  std::vector<BadCase> cases = {
      // Format version.
      {"version_2", [](Json& d) { Set(d, "/timef_format_version", 2); }, kM,
       "/timef_format_version"},
      {"version_0", [](Json& d) { Set(d, "/timef_format_version", 0); }, kM,
       "/timef_format_version"},
      {"version_bool", [](Json& d) { Set(d, "/timef_format_version", true); }, kM,
       "/timef_format_version"},
      {"version_float", [](Json& d) { Set(d, "/timef_format_version", 1.0); }, kM,
       "/timef_format_version"},
      {"version_string", [](Json& d) { Set(d, "/timef_format_version", "1"); }, kM,
       "/timef_format_version"},
      {"version_huge", [](Json& d) { Set(d, "/timef_format_version", uint64_t{1} << 63); }, kM,
       "/timef_format_version"},
      // Missing required keys.
      {"missing_version", [](Json& d) { Remove(d, "/timef_format_version"); }, kM,
       "/timef_format_version"},
      {"missing_dataset_id", [](Json& d) { Remove(d, "/dataset_id"); }, kM, "/dataset_id"},
      {"missing_metadata", [](Json& d) { Remove(d, "/metadata"); }, kM, "/metadata"},
      {"missing_files", [](Json& d) { Remove(d, "/files"); }, kM, "/files"},
      {"missing_control", [](Json& d) { Remove(d, "/files/control"); }, kM, "/files/control"},
      {"missing_card_name", [](Json& d) { Remove(d, "/metadata/name"); }, kM, "/metadata/name"},
      {"missing_card_license", [](Json& d) { Remove(d, "/metadata/license"); }, kM,
       "/metadata/license"},
      {"missing_unit_value_key", [](Json& d) { Remove(d, "/schema/time_series_specs/0/unit_value"); },
       kM, "/schema/time_series_specs/0/unit_value"},
      {"missing_part_size", [](Json& d) { Remove(d, "/files/control/size"); }, kM,
       "/files/control/size"},
      {"missing_parent_version", [](Json& d) { Remove(d, "/metadata/parents/1/version"); }, kM,
       "/metadata/parents/1/version"},
      {"missing_task_type", [](Json& d) { Remove(d, "/schema/tasks/0/task_type"); }, kM,
       "/schema/tasks/0/task_type"},
      // Null where an object, list or string is required.
      {"null_metadata", [](Json& d) { Set(d, "/metadata", nullptr); }, kM, "/metadata"},
      {"null_schema", [](Json& d) { Set(d, "/schema", nullptr); }, kM, "/schema"},
      {"null_counts", [](Json& d) { Set(d, "/counts", nullptr); }, kM, "/counts"},
      {"null_files", [](Json& d) { Set(d, "/files", nullptr); }, kM, "/files"},
      {"null_build_env", [](Json& d) { Set(d, "/build_env", nullptr); }, kM, "/build_env"},
      {"null_parent_cards", [](Json& d) { Set(d, "/parent_cards", nullptr); }, kM,
       "/parent_cards"},
      {"null_payload_sources", [](Json& d) { Set(d, "/payload_sources", nullptr); }, kM,
       "/payload_sources"},
      {"null_time_series_list", [](Json& d) { Set(d, "/files/time_series", nullptr); }, kM,
       "/files/time_series"},
      {"null_tags", [](Json& d) { Set(d, "/metadata/tags", nullptr); }, kM, "/metadata/tags"},
      {"null_card_name", [](Json& d) { Set(d, "/metadata/name", nullptr); }, kM,
       "/metadata/name"},
      {"null_dataset_id", [](Json& d) { Set(d, "/dataset_id", nullptr); }, kM, "/dataset_id"},
      {"null_values_backend", [](Json& d) { Set(d, "/values_backend", nullptr); }, kM,
       "/values_backend"},
      // Unknown keys, top level and nested (cards excepted: see the round-trip tests).
      {"unknown_top_key", [](Json& d) { Set(d, "/extra", 1); }, kM, "/extra"},
      {"unknown_files_key", [](Json& d) { Set(d, "/files/extra", Json::array()); }, kM,
       "/files/extra"},
      {"unknown_counts_key", [](Json& d) { Set(d, "/counts/chunks", 3); }, kM, "/counts/chunks"},
      {"unknown_schema_key", [](Json& d) { Set(d, "/schema/specs", Json::array()); }, kM,
       "/schema/specs"},
      {"unknown_spec_key", [](Json& d) { Set(d, "/schema/time_series_specs/1/data_source", "x"); },
       kM, "/schema/time_series_specs/1/data_source"},
      {"unknown_descriptor_key", [](Json& d) { Set(d, "/schema/annotations/0/kind", "x"); }, kM,
       "/schema/annotations/0/kind"},
      {"unknown_file_part_key", [](Json& d) { Set(d, "/files/time_series/1/mtime", 0); }, kM,
       "/files/time_series/1/mtime"},
      {"unknown_pin_key", [=](Json& d) { Set(d, "/payload_sources/" + ptbxl_ref + "/0/x", 0); },
       kM, "/payload_sources/" + ptbxl_ref + "/0/x"},
      {"unknown_build_env_key", [](Json& d) { Set(d, "/build_env/python", "3.11"); }, kM,
       "/build_env/python"},
      {"unknown_producer_key", [](Json& d) { Set(d, "/build_env/producer/commit", "abc"); }, kM,
       "/build_env/producer/commit"},
      {"unknown_parent_entry_key", [](Json& d) { Set(d, "/metadata/parents/0/note", "x"); }, kM,
       "/metadata/parents/0/note"},
      {"unknown_task_entry_key", [](Json& d) { Set(d, "/schema/tasks/2/weight", 1); }, kM,
       "/schema/tasks/2/weight"},
      // Dataset ids.
      {"id_three_segments", [](Json& d) { SetBothIds(d, "a/b/c"); }, kM, "/dataset_id"},
      {"id_dot_dot", [](Json& d) { SetBothIds(d, "../evil"); }, kM, "/dataset_id"},
      {"id_leading_dot", [](Json& d) { SetBothIds(d, ".x/y"); }, kM, "/dataset_id"},
      {"id_leading_space", [](Json& d) { SetBothIds(d, " a/b"); }, kM, "/dataset_id"},
      {"id_no_slash", [](Json& d) { SetBothIds(d, "ab"); }, kM, "/dataset_id"},
      {"id_empty_name", [](Json& d) { SetBothIds(d, "a/"); }, kM, "/dataset_id"},
      {"card_id_bad", [](Json& d) { Set(d, "/metadata/dataset_id", "a/.b"); }, kM,
       "/metadata/dataset_id"},
      {"parent_id_bad", [](Json& d) { Set(d, "/metadata/parents/0/dataset_id", "ptb"); }, kM,
       "/metadata/parents/0/dataset_id"},
      // Versions.
      {"semver_two_parts", [](Json& d) { Set(d, "/metadata/dataset_version", "1.0"); }, kM,
       "/metadata/dataset_version"},
      {"semver_leading_zero", [](Json& d) { Set(d, "/metadata/dataset_version", "01.0.0"); }, kM,
       "/metadata/dataset_version"},
      {"semver_prerelease", [](Json& d) { Set(d, "/metadata/dataset_version", "1.0.0-rc1"); }, kM,
       "/metadata/dataset_version"},
      {"semver_overflow",
       [](Json& d) { Set(d, "/metadata/dataset_version", "1.0.99999999999999999999"); }, kM,
       "/metadata/dataset_version"},
      {"parent_semver_v", [](Json& d) { Set(d, "/metadata/parents/0/version", "v1.0.3"); }, kM,
       "/metadata/parents/0/version"},
      // Enumerations.
      {"bad_license", [](Json& d) { Set(d, "/metadata/license", "WTFPL"); }, kM,
       "/metadata/license"},
      {"bad_license_case", [](Json& d) { Set(d, "/metadata/license", "mit"); }, kM,
       "/metadata/license"},
      {"bad_domain", [](Json& d) { Set(d, "/metadata/domains/1", "astrology"); }, kM,
       "/metadata/domains/1"},
      {"bad_access", [](Json& d) { Set(d, "/metadata/access", "public"); }, kM,
       "/metadata/access"},
      {"bad_backend", [](Json& d) { Set(d, "/values_backend", "hdf5"); }, kM, "/values_backend"},
      {"bad_encoding", [](Json& d) { Set(d, "/value_encoding/ecg", "delta"); }, kM,
       "/value_encoding/ecg"},
      {"bad_card_encoding", [](Json& d) { Set(d, "/metadata/value_encoding", "zstd"); }, kM,
       "/metadata/value_encoding"},
      {"bad_task_type", [](Json& d) { Set(d, "/schema/tasks/1/task_type", "dance"); }, kM,
       "/schema/tasks/1/task_type"},
      {"bad_counts_task_type", [](Json& d) { Set(d, "/counts/tasks/dance", 1); }, kM,
       "/counts/tasks/dance"},
      {"bad_dtype", [](Json& d) { Set(d, "/schema/time_series_specs/0/dtype", "complex64"); }, kM,
       "/schema/time_series_specs/0/dtype"},
      {"modality_no_input",
       [](Json& d) { Set(d, "/schema/time_series_specs/0/modality", "no_input"); }, kM,
       "/schema/time_series_specs/0/modality"},
      {"bad_annotation_type",
       [](Json& d) { Set(d, "/schema/annotations/2/annotation_type", "span"); }, kM,
       "/schema/annotations/2/annotation_type"},
      {"bad_value_type", [](Json& d) { Set(d, "/schema/annotations/0/value_type", "dict"); }, kM,
       "/schema/annotations/0/value_type"},
      // Card conditions.
      {"license_other_without_url", [](Json& d) { Set(d, "/metadata/license_url", nullptr); }, kM,
       "/metadata/license_url"},
      {"license_other_url_absent", [](Json& d) { Remove(d, "/metadata/license_url"); }, kM,
       "/metadata/license_url"},
      {"credentialed_without_url", [](Json& d) { Set(d, "/metadata/access_url", nullptr); }, kM,
       "/metadata/access_url"},
      {"restricted_without_url",
       [](Json& d) {
         Set(d, "/metadata/access", "restricted");
         Remove(d, "/metadata/access_url");
       },
       kM, "/metadata/access_url"},
      {"blank_name", [](Json& d) { Set(d, "/metadata/name", " \t"); }, kM, "/metadata/name"},
      {"empty_description", [](Json& d) { Set(d, "/metadata/description", ""); }, kM,
       "/metadata/description"},
      {"duplicate_domain", [](Json& d) { Set(d, "/metadata/domains/1", "cardiology"); }, kM,
       "/metadata/domains/1"},
      // FileParts.
      {"absolute_path", [](Json& d) { Set(d, "/files/time_series/1/path", "/etc/passwd"); }, kV,
       "/files/time_series/1/path"},
      {"dotdot_start", [](Json& d) { Set(d, "/files/payloads/0/path", "../other/x.parquet"); }, kV,
       "/files/payloads/0/path"},
      {"dotdot_middle",
       [](Json& d) { Set(d, "/files/time_series/0/path", "time_series/../../x.parquet"); }, kV,
       "/files/time_series/0/path"},
      {"empty_path", [](Json& d) { Set(d, "/files/payloads/1/path", ""); }, kV,
       "/files/payloads/1/path"},
      {"backslash_path", [](Json& d) { Set(d, "/files/payloads/1/path", "payloads\\x.parquet"); },
       kV, "/files/payloads/1/path"},
      {"pin_absolute_path",
       [=](Json& d) { Set(d, "/payload_sources/" + ptbxl_ref + "/1/path", "/abs.parquet"); }, kV,
       "/payload_sources/" + ptbxl_ref + "/1/path"},
      {"checksum_md5", [](Json& d) { Set(d, "/files/control/checksum", "md5:abcdef"); }, kM,
       "/files/control/checksum"},
      {"checksum_uppercase",
       [](Json& d) { Set(d, "/files/control/checksum", "sha256:" + std::string(64, 'A')); }, kM,
       "/files/control/checksum"},
      {"checksum_short",
       [](Json& d) { Set(d, "/files/time_series/0/checksum", "sha256:" + std::string(63, 'a')); },
       kM, "/files/time_series/0/checksum"},
      {"size_negative", [](Json& d) { Set(d, "/files/control/size", -1); }, kM,
       "/files/control/size"},
      {"size_bool", [](Json& d) { Set(d, "/files/payloads/0/size", false); }, kM,
       "/files/payloads/0/size"},
      {"size_fraction", [](Json& d) { Set(d, "/files/payloads/0/size", 1.5); }, kM,
       "/files/payloads/0/size"},
      {"size_string", [](Json& d) { Set(d, "/files/payloads/0/size", "10"); }, kM,
       "/files/payloads/0/size"},
      // Parents.
      {"duplicate_alias", [](Json& d) { Set(d, "/metadata/parents/2/alias", "ptbxl"); }, kM,
       "/metadata/parents/2/alias"},
      {"alias_uppercase", [](Json& d) { Set(d, "/metadata/parents/0/alias", "PTB"); }, kM,
       "/metadata/parents/0/alias"},
      {"alias_digit_first", [](Json& d) { Set(d, "/metadata/parents/1/alias", "1base"); }, kM,
       "/metadata/parents/1/alias"},
      {"parent_is_self",
       [](Json& d) {
         Json self = {{"alias", "zz"}, {"dataset_id", "acme/ecg-child"}, {"version", "2.10.0"}};
         d[Pointer("/metadata/parents")].push_back(self);
       },
       kM, "/metadata/parents/3"},
      {"parent_card_missing", [](Json& d) { Remove(d, "/parent_cards/base"); }, kM,
       "/parent_cards"},
      {"parent_card_extra",
       [](Json& d) { Set(d, "/parent_cards/extra", d[Pointer("/parent_cards/base")]); }, kM,
       "/parent_cards/extra"},
      {"parent_card_alias_bad",
       [](Json& d) { Set(d, "/parent_cards/Extra", d[Pointer("/parent_cards/base")]); }, kM,
       "/parent_cards/Extra"},
      {"parent_card_version_differs",
       [](Json& d) { Set(d, "/parent_cards/ptbxl/dataset_version", "1.0.4"); }, kM,
       "/parent_cards/ptbxl/dataset_version"},
      {"parent_card_license_other",
       [](Json& d) { Set(d, "/parent_cards/base/license", "other"); }, kM,
       "/parent_cards/base/license_url"},
      {"parent_card_duplicate_alias",
       [](Json& d) {
         d[Pointer("/parent_cards/base/parents")].push_back(
             d[Pointer("/parent_cards/base/parents/0")]);
       },
       kM, "/parent_cards/base/parents/1/alias"},
      // Lineage.
      {"lineage_missing_parent", [=](Json& d) { Remove(d, "/lineage/" + ptbxl_ref); }, kM,
       "/lineage"},
      {"lineage_holds_self",
       [=](Json& d) { Set(d, "/lineage/" + own_ref, d[Pointer("/metadata")]); }, kM,
       "/lineage/" + own_ref},
      {"lineage_card_of_other_release",
       [=](Json& d) { Set(d, "/lineage/" + ptbxl_ref + "/dataset_version", "1.0.0"); }, kM,
       "/lineage/" + ptbxl_ref},
      {"lineage_bad_ref", [](Json& d) { Set(d, "/lineage/acme~1x", d[Pointer("/metadata")]); }, kM,
       "/lineage/acme~1x"},
      // Schema rules.
      {"duplicate_spec_type",
       [](Json& d) { Set(d, "/schema/time_series_specs/1/spec_type", "ecg"); }, kM,
       "/schema/time_series_specs/1"},
      {"unsorted_specs", [](Json& d) { Set(d, "/schema/time_series_specs/0/spec_type", "zzz"); },
       kM, "/schema/time_series_specs/1"},
      {"reserved_spec_type",
       [](Json& d) { Set(d, "/schema/time_series_specs/0/spec_type", "_validity"); }, kM,
       "/schema/time_series_specs/0/spec_type"},
      {"categories_without_enum",
       [](Json& d) { Set(d, "/schema/time_series_specs/0/categories", Json::array({"a"})); }, kM,
       "/schema/time_series_specs/0/categories"},
      {"enum_without_categories",
       [](Json& d) { Set(d, "/schema/time_series_specs/1/categories", Json::array()); }, kM,
       "/schema/time_series_specs/1/categories"},
      {"duplicate_category",
       [](Json& d) { Set(d, "/schema/time_series_specs/1/categories/2", "sinus"); }, kM,
       "/schema/time_series_specs/1/categories/2"},
      {"dimension_names_length",
       [](Json& d) { Set(d, "/schema/time_series_specs/2/dimension_names", Json::array({"x"})); },
       kM, "/schema/time_series_specs/2/dimension_names"},
      {"value_shape_zero", [](Json& d) { Set(d, "/schema/time_series_specs/2/value_shape/1", 0); },
       kM, "/schema/time_series_specs/2/value_shape/1"},
      {"unit_not_canonical", [](Json& d) { Set(d, "/schema/time_series_specs/0/unit_value", "mV"); },
       kM, "/schema/time_series_specs/0/unit_value"},
      {"unit_unparsable", [](Json& d) { Set(d, "/schema/annotations/1/unit", "furlong"); }, kM,
       "/schema/annotations/1/unit"},
      {"duplicate_descriptor", [](Json& d) { Set(d, "/schema/annotations/1/key", "diagnosis"); },
       kM, "/schema/annotations/1"},
      {"duplicate_task_type", [](Json& d) { Set(d, "/schema/tasks/1/task_type", "answer"); }, kM,
       "/schema/tasks/1"},
      {"nullable_not_bool", [](Json& d) { Set(d, "/schema/time_series_specs/2/nullable", 1); }, kM,
       "/schema/time_series_specs/2/nullable"},
      // Files rules.
      {"control_not_control_duckdb",
       [](Json& d) { Set(d, "/files/control/path", "catalog.duckdb"); }, kM,
       "/files/control/path"},
      {"path_listed_twice",
       [](Json& d) { Set(d, "/files/payloads/1/path", "time_series/part-00000000.parquet"); }, kM,
       "/files/payloads/1/path"},
      {"duplicate_shard", [](Json& d) {
         Set(d, "/files/time_series/1/path", "time_series/part-00000000.parquet");
       },
       kM, "/files/time_series/1/path"},
      {"unsorted_shards",
       [](Json& d) { Set(d, "/files/time_series/0/path", "time_series/part-00000009.parquet"); },
       kM, "/files/time_series/1/path"},
      {"backend_mismatch",
       [](Json& d) {
         Set(d, "/values_backend", "zarr");
         Set(d, "/value_encoding", Json::object());
       },
       kM, "/files/time_series/0/path"},
      {"parquet_bad_shard_name",
       [](Json& d) { Set(d, "/files/time_series/1/path", "time_series/part-1.parquet"); }, kM,
       "/files/time_series/1/path"},
      {"encoding_key_not_a_spec", [](Json& d) { Set(d, "/value_encoding/eeg", "plain"); }, kM,
       "/value_encoding/eeg"},
      {"encoding_with_zarr",
       [](Json& d) {
         Set(d, "/values_backend", "zarr");
         Set(d, "/files/time_series", Json::array());
       },
       kM, "/value_encoding"},
      // Payload sources.
      {"source_is_self",
       [=](Json& d) {
         Set(d, "/payload_sources/" + own_ref, d[Pointer("/payload_sources/" + ptbxl_ref)]);
       },
       kM, "/payload_sources/" + own_ref},
      {"source_bad_ref",
       [=](Json& d) {
         Set(d, "/payload_sources/ptb-xl", d[Pointer("/payload_sources/" + ptbxl_ref)]);
       },
       kM, "/payload_sources/ptb-xl"},
      {"source_empty_pins", [=](Json& d) { Set(d, "/payload_sources/" + ptbxl_ref, Json::array()); },
       kM, "/payload_sources/" + ptbxl_ref},
      {"pin_control_file",
       [=](Json& d) { Set(d, "/payload_sources/" + ptbxl_ref + "/0/path", "control.duckdb"); }, kM,
       "/payload_sources/" + ptbxl_ref + "/0/path"},
      {"pins_unsorted",
       [=](Json& d) { Set(d, "/payload_sources/" + ptbxl_ref + "/0/path", "zzz/x.parquet"); }, kM,
       "/payload_sources/" + ptbxl_ref + "/1/path"},
      // Counts.
      {"count_negative", [](Json& d) { Set(d, "/counts/records", -5); }, kM, "/counts/records"},
      {"count_float", [](Json& d) { Set(d, "/counts/axes", 2.0); }, kM, "/counts/axes"},
      {"counts_task_not_in_schema", [](Json& d) { Set(d, "/counts/tasks/ts_editing", 2); }, kM,
       "/counts/tasks/ts_editing"},
      {"counts_spec_not_in_schema", [](Json& d) { Set(d, "/counts/signals_by_spec/eeg", 2); }, kM,
       "/counts/signals_by_spec/eeg"},
      // Cross-field identity and build_env.
      {"dataset_id_disagrees", [](Json& d) { Set(d, "/dataset_id", "acme/other"); }, kM,
       "/dataset_id"},
      {"upgraded_from_bad_checksum",
       [](Json& d) {
         Set(d, "/build_env/upgraded_from",
             Json{{"timef_format_version", 2}, {"manifest_checksum", "sha256:zz"}});
       },
       kM, "/build_env/upgraded_from/manifest_checksum"},
      {"libraries_not_strings", [](Json& d) { Set(d, "/build_env/libraries/zstd", 154); }, kM,
       "/build_env/libraries/zstd"},
      {"top_level_array", [](Json& d) { d = Json::array({1}); }, kM, ""},
  };
  return cases;
}

const Json& FullManifestJson() {
  static const Json json = ManifestToJson(testing::FullManifest());
  return json;
}

class BadManifestTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadManifestTest, RejectedWithClassAndPointer) {
  const BadCase& bad = GetParam();
  Json doc = FullManifestJson();
  bad.mutate(doc);
  std::string bytes = doc.dump(2);
  const std::filesystem::path file = "bad/manifest.json";
  try {
    ParseManifest(bytes, file);
    FAIL() << "accepted:\n" << bytes;
  } catch (const ValidationError& e) {
    EXPECT_EQ(bad.expect, Expect::kValidationError) << e.what();
    EXPECT_EQ(e.where(), bad.pointer) << e.what();
    EXPECT_EQ(e.path(), file);
    EXPECT_NE(std::string(e.what()).find(bad.pointer), std::string::npos) << e.what();
  } catch (const ManifestError& e) {
    EXPECT_EQ(bad.expect, Expect::kManifestError) << e.what();
    EXPECT_EQ(e.where(), bad.pointer) << e.what();
    EXPECT_EQ(e.path(), file);
    EXPECT_NE(std::string(e.what()).find("bad/manifest.json: " + bad.pointer), std::string::npos)
        << e.what();
  }
  // The gathering check reports the same problem among its findings.
  ManifestCheck check = CheckManifest(bytes);
  EXPECT_FALSE(check.manifest.has_value());
  bool found = false;
  for (const ManifestProblem& problem : check.problems) found |= problem.pointer == bad.pointer;
  EXPECT_TRUE(found) << bad.name;
}

INSTANTIATE_TEST_SUITE_P(Table, BadManifestTest, ::testing::ValuesIn(BadCases()),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                           return info.param.name;
                         });

TEST(BadManifestTableTest, HasAtLeastFortyDistinctCases) {
  std::vector<BadCase> cases = BadCases();
  EXPECT_GE(cases.size(), 40u);
  std::set<std::string> names;
  for (const auto& bad : cases) EXPECT_TRUE(names.insert(bad.name).second) << bad.name;
}

// Defects that only raw text can carry.
struct RawCase {
  std::string name;
  std::string text;
  std::string pointer;
};

void PrintTo(const RawCase& bad, std::ostream* out) { *out << bad.name; }

class RawBadManifestTest : public ::testing::TestWithParam<RawCase> {};

TEST_P(RawBadManifestTest, RejectedAsManifestError) {
  const RawCase& bad = GetParam();
  try {
    ParseManifest(bad.text, "raw.json");
    FAIL() << "accepted: " << bad.text;
  } catch (const ManifestError& e) {
    EXPECT_EQ(e.where(), bad.pointer) << e.what();
    EXPECT_EQ(e.path(), std::filesystem::path("raw.json"));
  }
}

std::string WithText(std::string_view find, std::string_view replace) {
  std::string text = WriteManifest(testing::FullManifest());
  size_t at = text.find(find);
  if (at == std::string::npos) throw std::logic_error("fixture lacks " + std::string(find));
  text.replace(at, find.size(), replace);
  return text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, RawBadManifestTest,
    ::testing::Values(
        RawCase{"duplicate_top_key",
                WithText("\"dataset_id\": \"acme/ecg-child\",",
                         "\"dataset_id\": \"acme/ecg-child\", \"dataset_id\": \"acme/x\","),
                "/dataset_id"},
        RawCase{"duplicate_card_key", WithText("\"citation\":", "\"tags\": [], \"citation\":"),
                "/metadata/tags"},
        RawCase{"version_one_point_zero",
                WithText("\"timef_format_version\": 1,", "\"timef_format_version\": 1.0,"),
                "/timef_format_version"},
        RawCase{"version_exponent",
                WithText("\"timef_format_version\": 1,", "\"timef_format_version\": 1e0,"),
                "/timef_format_version"},
        RawCase{"trailing_garbage", WithText("\n}\n", "\n} x"), ""},
        RawCase{"byte_order_mark", "\xEF\xBB\xBF" + WriteManifest(testing::MinimalManifest()), ""},
        RawCase{"invalid_utf8", WithText("ECG child", "ECG \xC3\x28 child"), ""},
        RawCase{"empty_document", "", ""}),
    [](const ::testing::TestParamInfo<RawCase>& info) { return info.param.name; });

}  // namespace
}  // namespace timef::manifest
