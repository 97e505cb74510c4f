#include "legacy/legacy_catalog.h"

#include <fstream>
#include <string>
#include <system_error>
#include <utility>

#include "catalog/write/model_writer.h"
#include "catalog/write/payload_sink.h"
#include "core/checksum.h"
#include "core/paths.h"
#include "legacy/legacy_manifest.h"
#include "legacy/legacy_read.h"
#include "payload/payload_writer.h"
#include "timef/error.h"
#include "timef/version.h"
#include "timef/write_options.h"

namespace timef::legacy {
namespace fs = std::filesystem;

namespace {

// Changes when what a catalog holds or how it is laid out changes.
constexpr std::string_view kCatalogLayout = "timef legacy metadata catalog 1";

// The cache key of the legacy directory's content (see the header).
std::string CacheKey(const fs::path& legacy_dir, const LegacyManifest& m) {
  Sha256 hash;
  hash.Update(std::string(kCatalogLayout) + "\n" + kVersion + "\n" + m.checksum + "\n");
  for (const manifest::FilePart& part : m.AllFiles()) {
    const fs::path file = legacy_dir / part.path;
    const auto size = ListedFileSize(file);
    std::error_code ec;
    const auto modified = fs::last_write_time(file, ec);
    if (ec) ThrowFileError(ErrorSite{.file = file}, "cannot read its time: " + ec.message(), ec);
    hash.Update(part.path + "\n" + std::to_string(size) + "\n" +
                std::to_string(modified.time_since_epoch().count()) + "\n");
  }
  return hash.Finish().substr(7);  // without "sha256:"
}

// The legacy chunks as locators; offsets and long text to payload files of the catalog directory,
// like a release writer's (docs/format.md §9), so that the catalog's rows are the upgrade's.
class InPlaceSink final : public catalog::PayloadSink {
 public:
  InPlaceSink(const std::map<std::int64_t, std::vector<ChunkLocator>>& chunks, const fs::path& dir)
      : chunks_(chunks), texts_(dir), offsets_(dir) {}

  std::vector<ChunkLocator> Chunks(const model::Signal& signal) override {
    auto found = chunks_.find(*signal.id());
    if (found == chunks_.end()) return {};
    return found->second;
  }
  std::optional<OffsetsLocator> StoreOffsets(const model::TimeAxis& axis) override {
    return offsets_.Add(*axis.LoadOffsets());
  }
  std::optional<TextLocator> PackText(const model::Text& text) override {
    if (text.size() <= kThreshold) return std::nullopt;
    return texts_.AddText(text.Read());
  }
  std::optional<TextLocator> PackTextList(const model::TextList& list) override {
    const std::vector<std::string> elements = list.Read();
    std::int64_t bytes = 0;
    for (const std::string& e : elements) bytes += static_cast<std::int64_t>(e.size());
    if (bytes <= kThreshold) return std::nullopt;
    return texts_.AddTextList(elements);
  }
  std::vector<payload::PayloadFile> Finish() {
    std::vector<payload::PayloadFile> files = texts_.Finish();
    for (auto& f : offsets_.Finish()) files.push_back(std::move(f));
    return files;
  }

 private:
  static constexpr std::int64_t kThreshold = write_option::text_pack_threshold_bytes.default_value;
  const std::map<std::int64_t, std::vector<ChunkLocator>>& chunks_;
  payload::TextPayloadWriter texts_;
  payload::OffsetsPayloadWriter offsets_;
};

manifest::FilePart Part(const fs::path& dir, const std::string& path) {
  return {path, FileChecksum(dir / path), static_cast<std::int64_t>(fs::file_size(dir / path))};
}

// Builds the catalog into `dir` (which exists and is empty).
void Build(const fs::path& legacy_dir, const fs::path& dir) {
  LegacyRead read = ReadLegacyWithChunks(legacy_dir);
  model::Dataset& dataset = *read.legacy.dataset;
  // Every chunk is read and checked once, as the upgrade's write would (a chunk whose length is
  // not the index's, a values leaf of another type, ...), so that what the upgrade refuses is
  // refused here too; the values are dropped signal by signal.
  for (const auto& record : dataset.records()) {
    for (const auto& signal : record->Signals()) {
      if (!signal->spec()->value_shape.empty()) {
        throw ValidationError({.object = signal->Describe(), .where = "spec.value_shape"},
                              "a legacy Parquet values plane is read as scalar specs only "
                              "(spec_type '" +
                                  signal->spec()->spec_type + "')");
      }
      signal->LoadValues();
    }
  }
  const model::Schema schema = dataset.Validate();
  InPlaceSink sink(read.chunks, dir);
  const catalog::ModelWriteSummary summary =
      catalog::WriteCatalog(dir / manifest::kControlFileName, dataset, sink);
  const std::vector<payload::PayloadFile> payloads = sink.Finish();

  manifest::Manifest m;
  m.dataset_id = dataset.dataset_id();
  m.metadata = read.legacy.card;
  m.schema = schema;
  m.counts = summary.counts;
  m.values_backend = manifest::ValuesBackend::kParquet;
  m.build_env.upgraded_from = read.legacy.upgraded_from;
  m.files.control = Part(dir, std::string(manifest::kControlFileName));
  for (const payload::PayloadFile& f : payloads) m.files.payloads.push_back(Part(dir, f.path));
  // files.time_series stays empty here: the values parts are the legacy directory's, added when
  // the catalog is opened.
  manifest::SortManifestLists(m);
  const std::string bytes = manifest::WriteManifest(m);
  const fs::path file = dir / manifest::kManifestFileName;
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw FileError(ErrorSite{.file = file}, "cannot write the legacy catalog's manifest");
}

// The catalog's manifest when every file it lists is there with its size; nullopt otherwise.
std::optional<manifest::Manifest> Load(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / manifest::kManifestFileName, ec)) return std::nullopt;
  try {
    manifest::Manifest m = manifest::ReadManifest(dir / manifest::kManifestFileName);
    std::vector<const manifest::FilePart*> parts{&m.files.control};
    for (const auto& p : m.files.payloads) parts.push_back(&p);
    for (const manifest::FilePart* part : parts) {
      const auto size = fs::file_size(dir / part->path, ec);
      if (ec || static_cast<std::int64_t>(size) != part->size) return std::nullopt;
    }
    return m;
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

LegacyCatalog OpenLegacyCatalog(const fs::path& legacy_dir, const fs::path& cache_dir) {
  const LegacyManifest legacy = ReadLegacyManifest(legacy_dir);
  const fs::path root = cache_dir / "legacy-catalogs";
  const fs::path dir = root / CacheKey(legacy_dir, legacy);
  std::optional<manifest::Manifest> m = Load(dir);
  if (!m) {
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec) ThrowFileError(ErrorSite{.file = root}, "cannot create the cache directory", ec);
    const fs::path part = ScratchPartOf(dir);
    const RemoveOnExit remove_part(part);
    fs::create_directory(part, ec);
    if (ec) ThrowFileError(ErrorSite{.file = part}, "cannot create the catalog directory", ec);
    Build(legacy_dir, part);
    // One found incomplete or unreadable is replaced; one another process published meanwhile
    // is kept (the rename below then fails, and that one is used).
    if (fs::exists(dir, ec) && !Load(dir)) fs::remove_all(dir, ec);
    fs::rename(part, dir, ec);
    // A process that renamed its catalog first wins; that one is used.
    m = Load(dir);
    if (!m) {
      throw FileError(ErrorSite{.file = dir}, "cannot publish the legacy catalog" +
                                                  (ec ? ": " + ec.message() : std::string()));
    }
  }
  m->files.time_series = legacy.time_series;
  manifest::SortManifestLists(*m);
  return {dir, std::move(*m), legacy.AllFiles()};
}

}  // namespace timef::legacy
