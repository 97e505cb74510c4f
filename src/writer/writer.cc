// WriteRelease: docs/format.md §3.3 steps 1–8 in order. Everything that can be checked without the
// disk is checked first; from the staging directory on, any exception unwinds through StagingDir,
// which removes what was written.
#include "timef/writer.h"

#include <algorithm>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "catalog/audit/audit.h"
#include "catalog/write/model_writer.h"
#include "core/enum_table.h"
#include "payload/payload_writer.h"
#include "timef/error.h"
#include "values/values_writer.h"
#include "writer/audit_facts.h"
#include "writer/manifest_builder.h"
#include "writer/provenance.h"
#include "writer/release_sink.h"
#include "writer/staging.h"
#include "writer/write_options.h"

TIMEF_ENUM_TABLE(timef::WriteStage, {timef::WriteStage::kValues, "values"},
                 {timef::WriteStage::kCatalog, "catalog"}, {timef::WriteStage::kAudit, "audit"},
                 {timef::WriteStage::kChecksums, "checksums"},
                 {timef::WriteStage::kPublish, "publish"}, {timef::WriteStage::kDone, "done"})

namespace timef {
namespace fs = std::filesystem;

const std::string& ToString(WriteStage stage) { return core::EnumNameString(stage); }

namespace {

void Report(const WriteOptions& options, WriteStage stage, std::int64_t done = 0,
            std::int64_t total = 0, std::string shard = {}) {
  if (options.progress) options.progress(WriteProgress{stage, done, total, std::move(shard)});
}

// The card's identity comes from the dataset; a card that says otherwise is a caller mistake.
void JoinCard(manifest::Card& card, const model::Dataset& dataset) {
  auto agree = [](std::string& field, const std::string& value, std::string_view name) {
    if (field.empty()) {
      field = value;
    } else if (field != value) {
      throw ValidationError({.object = "card", .where = std::string(name)},
                            "'" + field + "' differs from the dataset's '" + value + "'");
    }
  };
  agree(card.dataset_id, dataset.dataset_id(), "dataset_id");
  agree(card.dataset_version, dataset.version(), "dataset_version");
  const std::vector<model::ParentRelease>& parents = dataset.parents();
  if (!card.parents.empty() && card.parents != parents) {
    throw ValidationError({.object = "card", .where = "parents"},
                          "differ from the dataset's parents");
  }
  card.parents = parents;
}

std::vector<std::shared_ptr<model::Signal>> AllSignals(const model::Dataset& dataset) {
  std::vector<std::shared_ptr<model::Signal>> out;
  for (const auto& record : dataset.records()) {
    for (auto& signal : record->Signals()) out.push_back(std::move(signal));
  }
  return out;
}

// What this writer cannot store yet is refused before the disk is touched.
void CheckWritable(const model::Dataset& dataset,
                   const std::vector<std::shared_ptr<model::Signal>>& signals,
                   const writer::Provenance* provenance, manifest::ValuesBackend backend) {
  if (!dataset.parents().empty() && provenance == nullptr) {
    throw ValidationError({.object = dataset.Describe(), .where = "parents"},
                          "a dataset with parents is written through timef::Composer, which "
                          "copies the parents' cards and lineage (docs/format.md §5.7)");
  }
  if (provenance != nullptr) {
    if (provenance->parent_cards.size() != dataset.parents().size()) {
      throw ValidationError({.object = dataset.Describe(), .where = "parent_cards"},
                            "one card per parent alias is needed");
    }
    for (const auto& parent : dataset.parents()) {
      auto it = provenance->parent_cards.find(parent.alias);
      if (it == provenance->parent_cards.end() || it->second.Ref() != parent.Ref()) {
        throw ValidationError({.object = dataset.Describe(), .where = "parent_cards"},
                              "no card of " + parent.Ref() + " for alias '" + parent.alias + "'");
      }
    }
  }
  for (const auto& signal : signals) {
    // Values stored by another release are reused, whatever their shape (docs/format.md §10).
    if (dynamic_cast<const StoredChunks*>(signal->values().get()) != nullptr) continue;
    if (!signal->has_values()) {
      throw ValidationError({.object = signal->Describe(), .where = "values"},
                            "no values, loader or values source was set");
    }
    if (backend == manifest::ValuesBackend::kParquet && !signal->spec()->value_shape.empty()) {
      throw ValidationError({.object = signal->Describe(), .where = "spec.value_shape"},
                            "the parquet values backend stores scalar specs only (spec_type '" +
                                signal->spec()->spec_type +
                                "'); write it with values_backend zarr");
    }
    if (backend == manifest::ValuesBackend::kZarr && signal->spec()->dtype == model::DType::kStr) {
      throw ValidationError({.object = signal->Describe(), .where = "spec.dtype"},
                            "the zarr values backend stores no str spec (spec_type '" +
                                signal->spec()->spec_type + "', docs/format.md §8.2)");
    }
  }
}

// A draft manifest with this card, to reject card problems before writing anything.
void CheckCard(const manifest::Card& card) {
  manifest::Manifest draft;
  draft.dataset_id = card.dataset_id;
  draft.metadata = card;
  draft.files.control.checksum = "sha256:" + std::string(64, '0');
  for (const auto& problem : manifest::ValidateManifest(draft)) {
    if (problem.pointer.rfind("/metadata", 0) == 0) {
      throw ValidationError({.object = "card", .where = problem.pointer}, problem.message);
    }
  }
}

void WriteFileDurably(const fs::path& path, const std::string& bytes) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw FileError({.file = path}, "cannot write");
  }
  writer::FsyncPath(path, false);
}

// The staged directory must hold exactly the listed files (docs/format.md §3.1), e.g. no .wal;
// ValidationError otherwise (a writer-side check, §14 L1).
void CheckStagedFiles(const fs::path& dir, const std::set<std::string>& listed) {
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_directory()) continue;
    const std::string rel = fs::relative(entry.path(), dir).generic_string();
    if (!listed.contains(rel)) {
      throw ValidationError({.file = entry.path()}, "staged file is not listed in the manifest");
    }
  }
}

// The values shards' checksums (step 7). With more than one write thread they are computed on a
// thread of their own from the moment the shards are closed, while the catalog is written and
// audited on the calling thread; with one, on the calling thread when Take asks. Progress is
// reported by Take, on the calling thread. Destroy (join) it before the directory it reads: an
// unwinding write stops it between two files.
class ShardChecksums {
 public:
  ShardChecksums(const fs::path& dir, std::vector<std::string> paths, bool background)
      : dir_(dir), paths_(std::move(paths)) {
    if (!background || paths_.empty()) return;
    thread_ = std::jthread([this](std::stop_token stop) {
      try {
        for (const std::string& path : paths_) {
          if (stop.stop_requested()) return;
          parts_.push_back(writer::HashFiles(dir_, {path}, nullptr).front());
        }
      } catch (...) {
        failure_ = std::current_exception();
      }
    });
  }
  ShardChecksums(const ShardChecksums&) = delete;
  ShardChecksums& operator=(const ShardChecksums&) = delete;

  // The parts in the order of `paths`; `hashed(bytes)` as HashFiles reports.
  std::vector<manifest::FilePart> Take(const std::function<void(std::int64_t)>& hashed) {
    if (!thread_.joinable()) return writer::HashFiles(dir_, paths_, hashed);
    thread_.join();
    if (failure_) std::rethrow_exception(failure_);
    std::int64_t done = 0;
    for (const manifest::FilePart& part : parts_) done += part.size;
    if (hashed) hashed(done);
    return std::move(parts_);
  }

 private:
  const fs::path& dir_;
  const std::vector<std::string> paths_;
  std::vector<manifest::FilePart> parts_;  // written by the thread, read after joining it
  std::exception_ptr failure_;
  std::jthread thread_;  // last: joined first
};

}  // namespace

namespace {

WriteResult Write(model::Dataset& dataset, manifest::Card card, const fs::path& release_dir,
                  const WriteOptions& options, const writer::Provenance* provenance) {
  // 1. Validate everything the caller gave, once: the schema comes out of the validation.
  const values::ValuesOptions values_options =
      writer::ToValuesOptions(options, card.value_encoding);
  const payload::PayloadOptions payload_options = writer::ToPayloadOptions(options);
  JoinCard(card, dataset);
  CheckCard(card);
  dataset.AssignIds();
  const model::Schema schema = dataset.Validate();
  const std::vector<std::shared_ptr<model::Signal>> signals = AllSignals(dataset);
  CheckWritable(dataset, signals, provenance, options.values_backend);

  // 2. Never overwrite a committed version.
  if (writer::HoldsCommittedRelease(release_dir)) {
    throw ValidationError({.file = release_dir}, "already holds a committed version");
  }

  // 3. Stage.
  writer::StagingDir staging(release_dir);
  const fs::path& dir = staging.path();
  // Whatever failed, a staging directory removed under the writer (docs/format.md §10.5) is
  // named as such: the filesystem's own error would not say why the file is missing.
  try {
    // 4. Values, then (while the catalog is written) payloads.
    Report(options, WriteStage::kValues);
    // Values a reader stores in another release are reused, not written (docs/format.md §10).
    writer::StoredReuse reuse(dataset.Ref());
    std::vector<values::SignalInput> inputs;
    inputs.reserve(signals.size());
    for (const auto& signal : signals) {
      if (reuse.TakeChunks(*signal)) continue;
      values::SignalInput input{.signal_id = *signal->id(),
                                .name = signal->name(),
                                .spec = signal->spec(),
                                .n_values = signal->n_values()};
      if (signal->has_piecewise_values()) {
        input.pieces = [signal](const model::PieceSink& emit) { signal->VisitValues(emit); };
      } else {
        input.load = [signal] { return signal->LoadValues(); };
      }
      inputs.push_back(std::move(input));
    }
    values::ValuesResult stored = values::WriteValues(
        dir, std::move(inputs), values_options, [&](const values::ShardEvent& event) {
          Report(options, WriteStage::kValues, event.values_bytes_done, event.values_bytes_total,
                 event.shard.path);
        });

    std::vector<std::string> time_series_paths;
    for (const values::ShardInfo& shard : stored.shards) time_series_paths.push_back(shard.path);
    ShardChecksums shard_checksums(dir, time_series_paths, options.threads > 1);

    // 5. The catalog (deleted by WriteCatalog itself on error; the staging removal covers the
    // rest).
    Report(options, WriteStage::kCatalog);
    writer::ReleasePayloadSink sink(stored, reuse, dir, payload_options,
                                    options.text_pack_threshold_bytes);
    const fs::path control = dir / manifest::kControlFileName;
    const catalog::ModelWriteSummary summary = catalog::WriteCatalog(control, dataset, sink);
    const std::vector<payload::PayloadFile> payload_files = sink.Finish();

    // 6. The manifest without checksums, then the writer-side checks of §14 on the staged files
    // against it: the audit checks the catalog against what will be published.
    manifest::Manifest m;
    m.dataset_id = dataset.dataset_id();
    m.metadata = card;
    m.schema = schema;
    m.counts = summary.counts;
    m.values_backend = options.values_backend;
    m.value_encoding = stored.encodings;
    m.build_env = writer::CurrentBuildEnv();
    m.build_env.upgraded_from = options.upgraded_from;
    m.payload_sources = reuse.PayloadSources();
    if (provenance != nullptr) {
      m.parent_cards = provenance->parent_cards;
      m.lineage = provenance->lineage;
    }
    std::vector<std::string> payload_paths;
    for (const payload::PayloadFile& f : payload_files) payload_paths.push_back(f.path);
    std::sort(payload_paths.begin(), payload_paths.end());
    for (const std::string& path : time_series_paths) m.files.time_series.push_back({path, "", 0});
    for (const std::string& path : payload_paths) m.files.payloads.push_back({path, "", 0});

    std::set<std::string> listed(time_series_paths.begin(), time_series_paths.end());
    listed.insert(payload_paths.begin(), payload_paths.end());
    listed.insert(std::string(manifest::kControlFileName));
    CheckStagedFiles(dir, listed);
    if (options.audit) {
      Report(options, WriteStage::kAudit);
      // The audit raises FormatError on a committed release; here the data being written breaks
      // an invariant, which is a ValidationError (docs/format.md §3.3 step 6, §14).
      try {
        catalog::Audit(control, writer::AuditFactsOf(m), options.threads);
      } catch (const catalog::AuditError& e) {
        throw ValidationError({.file = e.path(), .object = e.object(), .where = e.where()},
                              e.problem());
      }
    }

    // 7. Hash, manifest last.
    std::int64_t hash_total = 0;
    for (const std::string& path : listed) {
      hash_total += static_cast<std::int64_t>(fs::file_size(dir / path));
    }
    std::int64_t hash_base = 0;
    auto hashed = [&](std::int64_t done) {
      Report(options, WriteStage::kChecksums, hash_base + done, hash_total);
    };
    m.files.control =
        writer::HashFiles(dir, {std::string(manifest::kControlFileName)}, hashed).front();
    hash_base += m.files.control.size;
    m.files.time_series = shard_checksums.Take(hashed);
    for (const auto& part : m.files.time_series) hash_base += part.size;
    m.files.payloads = writer::HashFiles(dir, payload_paths, hashed);
    manifest::SortManifestLists(m);
    WriteFileDurably(dir / manifest::kManifestFileName, manifest::WriteManifest(m));

    // 8. Publish.
    Report(options, WriteStage::kPublish);
    staging.Publish();
    Report(options, WriteStage::kDone);
    return WriteResult{release_dir, std::move(m)};
  } catch (...) {
    staging.CheckPresent();
    throw;
  }
}

}  // namespace

WriteResult WriteReleaseTo(model::Dataset& dataset, manifest::Card card,
                           const fs::path& release_dir, const WriteOptions& options) {
  return Write(dataset, std::move(card), release_dir, options, nullptr);
}

namespace writer {

WriteResult WriteChildReleaseTo(model::Dataset& dataset, manifest::Card card,
                                const fs::path& release_dir, const WriteOptions& options,
                                const Provenance& provenance) {
  return Write(dataset, std::move(card), release_dir, options, &provenance);
}

}  // namespace writer

WriteResult WriteRelease(model::Dataset& dataset, manifest::Card card, const fs::path& root,
                         const WriteOptions& options) {
  return WriteReleaseTo(dataset, std::move(card), root / dataset.dataset_id() / dataset.version(),
                        options);
}

}  // namespace timef
