#include "manifest/manifest_fixtures.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/checksum.h"

namespace timef::testing {

std::string FakeChecksum(std::string_view seed) {
  Sha256 hash;
  hash.Update(seed);
  return hash.Finish();
}

namespace {

manifest::FilePart Part(std::string path, int64_t size) {
  std::string checksum = FakeChecksum(path);
  return manifest::FilePart{std::move(path), std::move(checksum), size};
}

manifest::Card ParentCard(std::string id, std::string version, std::string name) {
  manifest::Card card;
  card.dataset_id = std::move(id);
  card.dataset_version = std::move(version);
  card.name = std::move(name);
  card.description = "Upstream release " + card.name;
  card.license = manifest::License::kCcBy4_0;
  card.domains = {manifest::Domain::kHealth, manifest::Domain::kCardiology};
  return card;
}

}  // namespace

manifest::Manifest MinimalManifest() {
  manifest::Manifest m;
  m.dataset_id = "acme/hello";
  m.metadata.dataset_id = "acme/hello";
  m.metadata.dataset_version = "0.1.0";
  m.metadata.name = "Hello";
  m.metadata.description = "The smallest release: no records yet.";
  m.metadata.license = manifest::License::kMit;
  m.files.control = Part("control.duckdb", 12288);
  return m;
}

manifest::Manifest FullManifest() {
  manifest::Manifest m;
  m.dataset_id = "acme/ecg-child";
  manifest::Card& card = m.metadata;
  card.dataset_id = "acme/ecg-child";
  card.dataset_version = "2.10.0";
  card.name = "ECG child — Ωmega";  // non-ASCII is written raw
  card.description = "Line one.\nLine two with \"quotes\", a tab\tand a backslash \\.";
  card.license = manifest::License::kOther;
  card.license_url = "https://example.org/license";
  card.domains = {manifest::Domain::kCardiology, manifest::Domain::kHealth};
  card.tags = {"ecg", "12-lead", "ecg"};
  card.source_url = "https://example.org/ecg";
  card.source_revision = "r7";
  card.citation = "Doe et al. (2024)";
  card.access = manifest::Access::kCredentialed;
  card.access_url = "https://example.org/access";
  card.parents = {{"ptbxl", "physionet/ptb-xl", "1.0.3"},
                  {"base", "acme/ecg-base", "1.0.0"},
                  {"ptbxl-again", "physionet/ptb-xl", "1.0.3"}};
  card.value_encoding = manifest::ValueEncodingChoice::kAuto;

  manifest::Spec ecg;
  ecg.spec_type = "ecg";
  ecg.name = "ECG";
  ecg.unit = "millivolt";
  ecg.value_shape = {12};
  ecg.dimension_names = {"lead"};
  manifest::Spec label;
  label.spec_type = "label_stream";
  label.name = "Rhythm label";
  label.dtype = DType::kEnum;
  label.categories = {"sinus", "afib", "other"};
  label.modality = Modality::kText;
  manifest::Spec resp;
  resp.spec_type = "resp";
  resp.name = "Respiration";
  resp.unit = "meter / second ** 2";
  resp.dtype = DType::kFloat64;
  resp.nullable = true;
  resp.value_shape = {2, 3};
  m.schema.time_series_specs = {ecg, label, resp};
  m.schema.annotations = {
      {"diagnosis", AnnotationType::kStatic, AnnotationValueType::kStr, std::nullopt,
       "Cardiologist's diagnosis"},
      {"heart_rate", AnnotationType::kInterval, AnnotationValueType::kFloat, "bpm", std::nullopt},
      {"r_peak", AnnotationType::kPoint, std::nullopt, std::nullopt, std::nullopt},
  };
  m.schema.tasks = {TaskType::kAnswer, TaskType::kClassification, TaskType::kForecasting};

  m.counts.records = 21837;
  m.counts.sources = 21837;
  m.counts.signals = 43674;
  m.counts.axes = 21837;
  m.counts.annotation_contents = 71;
  m.counts.annotation_occurrences = 120000;
  m.counts.signal_chunks = 400;
  m.counts.tasks = {{"answer", 3}, {"classification", 21837}, {"forecasting", 5}};
  m.counts.signals_by_spec = {{"ecg", 21837}, {"label_stream", 21830}, {"resp", 7}};

  m.files.control = Part("control.duckdb", 40960);
  m.files.time_series = {Part("time_series/part-00000000.parquet", 134217728),
                         Part("time_series/part-00000001.parquet", 1234)};
  m.files.payloads = {Part("payloads/offsets-00000000.parquet", 0),
                      Part("payloads/text-00000000.parquet", 999)};
  m.value_encoding = {{"ecg", manifest::ValueEncoding::kByteStreamSplit},
                      {"label_stream", manifest::ValueEncoding::kDictionary},
                      {"resp", manifest::ValueEncoding::kPlain}};
  m.build_env.producer = manifest::Producer{"timef", "0.1.0"};
  m.build_env.compiler = "g++ 12.2.0";
  m.build_env.libraries = {{"zstd", "1.5.4"}, {"duckdb", "v1.4.4"}};

  m.parent_cards["ptbxl"] = ParentCard("physionet/ptb-xl", "1.0.3", "PTB-XL");
  m.parent_cards["ptbxl-again"] = m.parent_cards["ptbxl"];
  manifest::Card base = ParentCard("acme/ecg-base", "1.0.0", "ECG base");
  base.parents = {{"ptb", "physionet/ptb-xl", "1.0.0"}};
  m.parent_cards["base"] = base;
  m.lineage["physionet/ptb-xl@1.0.3"] = m.parent_cards["ptbxl"];
  m.lineage["acme/ecg-base@1.0.0"] = base;
  m.lineage["physionet/ptb-xl@1.0.0"] = ParentCard("physionet/ptb-xl", "1.0.0", "PTB-XL");

  m.payload_sources["physionet/ptb-xl@1.0.3"] = {Part("payloads/text-00000000.parquet", 77),
                                                 Part("time_series/part-00000000.parquet", 5000)};
  m.payload_sources["physionet/ptb-xl@1.0.0"] = {Part("time_series/part-00000007.parquet", 1)};
  return m;
}

manifest::Manifest ZarrManifest() {
  manifest::Manifest m = MinimalManifest();
  m.dataset_id = "acme/zarr-release";
  m.metadata.dataset_id = "acme/zarr-release";
  m.metadata.dataset_version = "1.0.0";
  m.metadata.access = manifest::Access::kRestricted;
  m.metadata.access_url = "https://example.org/ask";
  m.values_backend = manifest::ValuesBackend::kZarr;
  manifest::Spec spec;
  spec.spec_type = "accel";
  spec.name = "Acceleration";
  spec.unit = "standard_gravity";
  spec.value_shape = {3};
  m.schema.time_series_specs = {spec};
  m.counts.signals_by_spec = {{"accel", 1}};
  m.files.time_series = {Part("time_series.zarr/accel/c/0/0", 4096),
                         Part("time_series.zarr/accel/zarr.json", 512),
                         Part("time_series.zarr/zarr.json", 128)};
  return m;
}

std::filesystem::path ProducedManifestDir() {
  std::filesystem::path root;
  if (const char* out = std::getenv("TIMEF_TEST_OUT"); out != nullptr && *out != '\0') {
    root = out;
  } else {
    root = std::filesystem::path(TIMEF_BINARY_DIR) / "test-out";
  }
  std::filesystem::path dir = root / "manifests";
  std::filesystem::create_directories(dir);
  return dir;
}

void RecordProducedManifest(std::string_view name, std::string_view bytes) {
  std::filesystem::path dir = ProducedManifestDir();
  std::filesystem::path final_path = dir / (std::string(name) + ".json");
  std::filesystem::path temp_path =
      dir / (std::string(name) + ".json.tmp-" + std::to_string(::getpid()));
  {
    std::ofstream out(temp_path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + temp_path.string());
  }
  std::filesystem::rename(temp_path, final_path);
}

std::string ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream content;
  content << in.rdbuf();
  return std::move(content).str();
}

}  // namespace timef::testing
