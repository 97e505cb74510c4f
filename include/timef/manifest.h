// The release manifest (docs/format.md §5): model, writer and validating reader.
//
// A Manifest is plain data. WriteManifest() checks it and renders it in manifest form
// (deterministic: equal manifests give equal bytes); ParseManifest()/ReadManifest() apply every
// shape rule of §5.1–§5.8 and every cross-field rule of §5.9 before returning one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/json.h"
#include "timef/model/parent.h"
#include "timef/model/schema.h"
#include "timef/model/spec.h"
#include "timef/vocabulary.h"

namespace timef::manifest {

// The schema vocabulary, spelled manifest::DType etc. by the codec and its callers.
using ::timef::AnnotationType;
using ::timef::AnnotationValueType;
using ::timef::DType;
using ::timef::Modality;
using ::timef::ParseAnnotationType;
using ::timef::ParseAnnotationValueType;
using ::timef::ParseDType;
using ::timef::ParseModality;
using ::timef::ParseTaskType;
using ::timef::TaskType;
using ::timef::ToString;

// The concepts the manifest shares with the model and the catalog, declared once in the model.
using ::timef::model::AnnotationDescriptor;
using ::timef::model::ParentRelease;
using ::timef::model::Schema;
using ::timef::model::Spec;

inline constexpr int64_t kManifestFormatVersion = 1;
inline constexpr std::string_view kManifestFileName = "manifest.json";
inline constexpr std::string_view kControlFileName = "control.duckdb";

// ---- Enumerations (each serializes by the exact string docs/format.md §5 gives) ----

enum class License {
  kMit,
  kApache2_0,
  kBsd2Clause,
  kBsd3Clause,
  kGpl3_0,
  kLgpl3_0,
  kMpl2_0,
  kCc0_1_0,
  kCcBy4_0,
  kCcBySa4_0,
  kCcByNc4_0,
  kCcByNcSa4_0,
  kOdcBy1_0,
  kOdbl1_0,
  kPhysioNetCredentialedHealthData1_5_0,
  kOther,
};

enum class Domain {
  kHealth,
  kCardiology,
  kRespiratory,
  kSleep,
  kActivity,
  kMotion,
  kEconomics,
  kFinance,
  kEnvironment,
  kEnergy,
  kTransport,
  kObservability,
  kAudio,
  kGeneral,
};

enum class Access { kOpen, kCredentialed, kRestricted };

// Encoding a release's shards of one spec_type carry (manifest `value_encoding`, §7.5).
enum class ValueEncoding { kDictionary, kByteStreamSplit, kPlain };
// The writer override of the card (`metadata.value_encoding`); null in the card means "not set".
enum class ValueEncodingChoice { kAuto, kDictionary, kByteStreamSplit, kPlain };

enum class ValuesBackend { kParquet, kZarr };

const std::string& ToString(License value);
const std::string& ToString(Domain value);
const std::string& ToString(Access value);
const std::string& ToString(ValueEncoding value);
const std::string& ToString(ValueEncodingChoice value);
const std::string& ToString(ValuesBackend value);

// Each returns nullopt for a string that is not exactly one of the documented names.
std::optional<License> ParseLicense(std::string_view text);
std::optional<Domain> ParseDomain(std::string_view text);
std::optional<Access> ParseAccess(std::string_view text);
std::optional<ValueEncoding> ParseValueEncoding(std::string_view text);
std::optional<ValueEncodingChoice> ParseValueEncodingChoice(std::string_view text);
std::optional<ValuesBackend> ParseValuesBackend(std::string_view text);

// ---- The dataset card (§5.2) ----

struct Card {
  std::string dataset_id;
  std::string dataset_version;
  std::string name;
  std::string description;
  // Required. The default `other` needs a license_url, so a card whose license was never set
  // fails validation instead of silently claiming a license.
  License license = License::kOther;
  std::vector<Domain> domains;  // unique, caller order kept
  std::vector<std::string> tags;
  std::optional<std::string> source_url;
  std::optional<std::string> source_revision;
  std::optional<std::string> license_url;  // required when license is `other`
  std::optional<std::string> citation;
  Access access = Access::kOpen;
  std::optional<std::string> access_url;  // required when access is not `open`
  std::vector<ParentRelease> parents;
  std::optional<ValueEncodingChoice> value_encoding;

  // `dataset_id@dataset_version`.
  std::string Ref() const { return dataset_id + "@" + dataset_version; }
  bool operator==(const Card&) const = default;
};

// ---- The derived schema (§5.3) ----
// The model's types (timef/model/schema.h, timef/model/spec.h): one declaration per concept.
// Spec::unit is the manifest's `unit_value`.

// ---- Counts (§5.4) ----

struct Counts {
  int64_t records = 0;
  int64_t sources = 0;
  int64_t signals = 0;
  int64_t axes = 0;
  int64_t annotation_contents = 0;
  int64_t annotation_occurrences = 0;
  int64_t signal_chunks = 0;
  std::map<std::string, int64_t> tasks;            // task type name → count
  std::map<std::string, int64_t> signals_by_spec;  // spec_type → count

  bool operator==(const Counts&) const = default;
};

// ---- Files (§5.5) ----

struct FilePart {
  std::string path;      // relative to the root of the release that stores the file (§2.2)
  std::string checksum;  // sha256:<64 lowercase hex>
  int64_t size = 0;      // bytes, >= 0

  bool operator==(const FilePart&) const = default;
};

struct Files {
  FilePart control{std::string(kControlFileName), "", 0};
  std::vector<FilePart> time_series;  // sorted by path
  std::vector<FilePart> payloads;     // sorted by path

  bool operator==(const Files&) const = default;
};

// ---- Build environment (§5.6), provenance only ----

struct Producer {
  std::string name;
  std::string version;
  bool operator==(const Producer&) const = default;
};

struct UpgradedFrom {
  int64_t timef_format_version = 0;
  std::string manifest_checksum;
  bool operator==(const UpgradedFrom&) const = default;
};

// Every key is optional; the writer emits only the ones that hold something, so an empty
// BuildEnv is written as {}.
struct BuildEnv {
  std::optional<Producer> producer;
  std::optional<std::string> compiler;
  std::map<std::string, std::string> libraries;  // name → version
  std::optional<UpgradedFrom> upgraded_from;

  bool operator==(const BuildEnv&) const = default;
};

// ---- The manifest ----

struct Manifest {
  int64_t format_version = kManifestFormatVersion;  // `timef_format_version`
  std::string dataset_id;
  Card metadata;
  Schema schema;
  Counts counts;
  Files files;
  ValuesBackend values_backend = ValuesBackend::kParquet;
  std::map<std::string, ValueEncoding> value_encoding;  // spec_type → encoding
  BuildEnv build_env;
  std::map<std::string, Card> parent_cards;                      // alias → parent's card
  std::map<std::string, Card> lineage;                           // ref → ancestor's card
  std::map<std::string, std::vector<FilePart>> payload_sources;  // ref → pins, sorted by path

  // This release's reference, `dataset_id@metadata.dataset_version`.
  std::string Ref() const { return dataset_id + "@" + metadata.dataset_version; }
  bool operator==(const Manifest&) const = default;
};

// Sorts what docs/format.md §5 keeps sorted (specs, annotations, task types, files lists, pins), so
// a builder can fill the lists in any order before writing.
void SortManifestLists(Manifest& manifest);

// ---- Validation ----

// One problem found in a manifest. `pointer` is the JSON pointer of the offending value ("" for
// the whole document).
struct ManifestProblem {
  // kPath: a path that breaks §2.2 (ValidationError on read); kManifest: anything else.
  enum class Kind { kManifest, kPath };
  Kind kind = Kind::kManifest;
  std::string pointer;
  std::string message;
};

// Every problem of a manifest model: value rules of §5.1–§5.8 (patterns, ranges, sort order) and
// the cross-field rules of §5.9. Empty when the manifest may be written.
std::vector<ManifestProblem> ValidateManifest(const Manifest& manifest);

// The result of checking manifest bytes without throwing for content problems.
struct ManifestCheck {
  std::optional<Manifest> manifest;  // set exactly when `problems` is empty
  std::vector<ManifestProblem> problems;
};

// Parses and checks `bytes`, gathering as many problems as it can: all JSON shape problems
// (types, missing and unknown keys, enums), then, if there were none, every value and
// cross-field problem.
ManifestCheck CheckManifest(std::string_view bytes);

// ---- Writer ----

// The manifest as a JSON value with keys in docs/format.md §5.1 order, all twelve top-level keys
// present. Throws ValidationError naming the first problem's JSON pointer when ValidateManifest()
// finds any.
Json ManifestToJson(const Manifest& manifest);

// ManifestToJson() rendered in manifest form (§2.5): the bytes of manifest.json.
std::string WriteManifest(const Manifest& manifest);

// ---- Reader ----

// Parses and validates manifest bytes (§5.9 steps 2–4). `path` only names the file in errors.
// Throws ManifestError naming `path` and the JSON pointer, or ValidationError for a bad path
// (§2.2).
Manifest ParseManifest(std::string_view bytes, const std::filesystem::path& path =
                                                   std::filesystem::path(kManifestFileName));

// Reads the file and parses it; FileError (code no_such_file_or_directory) when it is missing.
Manifest ReadManifest(const std::filesystem::path& path);

// Reads a whole file into a string; FileError naming the path when it is missing or unreadable.
std::string ReadManifestBytes(const std::filesystem::path& path);
}  // namespace timef::manifest
