#include "reader/reader_state.h"

#include <algorithm>
#include <tuple>

#include "catalog/hydrate/lookup.h"
#include "core/checksum.h"
#include "reader/lazy_handles.h"
#include "reader/read_resolver.h"
#include "timef/error.h"
#include "values/zarr_store.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

int CheckedDecodeThreads(int threads) {
  if (threads < 1 || threads > 256) {
    throw ValidationError({.object = "ReaderOptions", .where = "decode_threads"},
                          "decode threads go from 1 to 256, got " + std::to_string(threads));
  }
  return threads;
}

std::uint64_t CheckedDecodeBudget(std::int64_t bytes) {
  if (bytes < 1) {
    throw ValidationError({.object = "ReaderOptions", .where = "decode_budget_bytes"},
                          "must be at least 1, got " + std::to_string(bytes));
  }
  return static_cast<std::uint64_t>(bytes);
}

catalog::CatalogIdentity IdentityOf(const manifest::Manifest& m) {
  return catalog::CatalogIdentity{m.dataset_id, m.metadata.dataset_version, m.metadata.parents};
}

}  // namespace

ReaderState::ReaderState(fs::path release_dir, manifest::Manifest manifest, ReaderOptions options,
                         ResolvedSources sources,
                         std::shared_ptr<const parquet::FileOpener> transport)
    : release_dir_(std::move(release_dir)),
      manifest_(std::move(manifest)),
      options_(std::move(options)),
      sources_(std::move(sources)),
      row_cache_(std::make_shared<catalog::CatalogRowCache>(
          std::max<std::int64_t>(0, options_.catalog_cache_bytes))),
      decode_budget_(std::make_shared<parquet::DecodeBudget>(
          CheckedDecodeBudget(options_.decode_budget_bytes))),
      files_(std::make_shared<FileSources>(std::move(transport))),
      lanes_(CheckedDecodeThreads(options_.decode_threads),
             static_cast<std::size_t>(std::max<std::int64_t>(0, options_.dictionary_cache_bytes)),
             decode_budget_, files_),
      payload_files_(files_, decode_budget_) {
  for (const auto& part : manifest_.files.time_series) {
    own_values_.insert(part.path);
    own_parts_[part.path] = part;
  }
  for (const auto& part : manifest_.files.payloads) {
    own_payloads_[part.path] = part.checksum;
    own_parts_[part.path] = part;
  }
}

catalog::CatalogLease ReaderState::Lease() {
  if (catalog_file_ && (!catalog_ || !catalog_->is_open())) {
    // A remote release: the verified local copy, fetched again if it was removed.
    fs::path file = catalog_file_();
    if (!catalog_) {
      catalog_ = std::make_unique<catalog::CatalogReader>(std::move(file), IdentityOf(manifest_));
    }
  }
  if (!catalog_) {
    catalog_ = std::make_unique<catalog::CatalogReader>(
        MetadataDir() / manifest_.files.control.path, IdentityOf(manifest_));
  }
  if (!catalog_->is_open()) ++catalog_opens_;
  ++catalog_requests_;
  return catalog_->Lease();
}

std::shared_ptr<const catalog::ValueResolver> ReaderState::Resolver(const LoadPlan& plan) {
  return std::make_shared<const ReadResolver>(shared_from_this(), plan);
}

namespace {

// Tasks an all-lazy IterTasks builds per round (docs/format.md "IterTasks batches").
constexpr int64_t kTaskRound = 50000;

bool AllLazy(const LoadPlan& plan) {
  return plan.signal_values == Loading::kLazy && plan.time_offsets == Loading::kLazy &&
         plan.text == Loading::kLazy;
}

}  // namespace

ReaderState::ResolverPair ReaderState::Resolvers(const LoadPlan& plan) {
  std::shared_ptr<const catalog::ValueResolver> requested = Resolver(plan);
  // docs/format.md §11.5: a plan does not reach what a read builds only as from_tasks parents. An
  // all lazy plan needs no second resolver, which lets task batches reuse their records.
  std::shared_ptr<const catalog::ValueResolver> parents_only =
      AllLazy(plan) ? requested : Resolver(LoadPlan::AllLazy());
  return {std::move(requested), std::move(parents_only)};
}

catalog::CatalogHydrator ReaderState::Hydrator(catalog::Connection connection,
                                               const LoadPlan& plan) {
  auto [requested, parents_only] = Resolvers(plan);
  catalog::CatalogHydrator hydrator(std::move(connection), std::move(requested),
                                    std::move(parents_only));
  hydrator.UseRowCache(row_cache_);
  return hydrator;
}

catalog::CatalogHydrator ReaderState::Hydrator(
    catalog::Connection connection, std::shared_ptr<const catalog::ValueResolver> requested) {
  catalog::CatalogHydrator hydrator(std::move(connection), std::move(requested),
                                    Resolver(LoadPlan::AllLazy()));
  hydrator.UseRowCache(row_cache_);
  return hydrator;
}

std::unique_ptr<catalog::TaskBatches> ReaderState::TaskBatches(catalog::TaskFilter filter,
                                                               const LoadPlan& plan,
                                                               int64_t batch_size) {
  auto [requested, parents_only] = Resolvers(plan);
  catalog::HydrateBatching batching{.task_batch = batch_size};
  if (AllLazy(plan)) {
    // Lazy tasks are small (no values, text behind handles): rounds of kTaskRound.
    batching.task_round = kTaskRound;
  } else {
    batching.task_record_cache = 0;
  }
  return std::make_unique<catalog::TaskBatches>(std::move(requested), std::move(parents_only),
                                                std::move(filter), batching);
}

fs::path ReaderState::Resolve(const std::optional<std::string>& payload_source,
                              const std::string& path, StoredFile kind, bool missing_row,
                              const std::string& what) const {
  const bool values_file = kind == StoredFile::kValues;
  const char* list = values_file ? "time_series" : "payloads";
  const ResolvedSource* source = nullptr;
  auto problem = [&]() -> std::string {
    if (payload_source) {
      auto it = sources_.find(*payload_source);
      if (it == sources_.end()) {
        return "payload_source '" + *payload_source +
               "' is not a key of the manifest's payload_sources";
      }
      source = &it->second;
    }
    if (values_file && missing_row) {
      return "the Parquet locator of '" + path + "' has no row index (chunk_minor_index)";
    }
    if (source != nullptr) {
      const auto& pinned = values_file ? source->values : source->payloads;
      if (pinned.contains(path)) return "";
      return "locator names '" + path + "' of " + source->ref +
             ", which the manifest does not pin (payload_sources, a files." + list +
             " entry of the source)";
    }
    if (values_file ? own_values_.contains(path) : own_payloads_.contains(path)) return "";
    return "locator names '" + path + "', which the manifest does not list in files." + list;
  }();
  if (!problem.empty()) {
    throw FormatError({.file = release_dir_ / manifest::kControlFileName, .where = what}, problem);
  }
  if (source != nullptr) return source->dir / path;
  return (values_file ? release_dir_ : MetadataDir()) / path;
}

fs::path ReaderState::ResolveFile(const ChunkLocator& locator, const std::string& what) const {
  if (locator.value_path.starts_with(values::zarr::kStorePrefix)) {
    // docs/format.md §8.6: a Zarr locator names an array; its zarr.json must be listed (or
    // pinned), and every other file is checked when the read needs it.
    if (locator.minor) {
      throw FormatError({.file = release_dir_ / manifest::kControlFileName, .where = what},
                        "the Zarr locator of '" + locator.value_path +
                            "' has a row index (chunk_minor_index must be NULL)");
    }
    return Resolve(locator.payload_source, locator.value_path + "/zarr.json", StoredFile::kValues,
                   false, what)
        .parent_path();
  }
  return Resolve(locator.payload_source, locator.value_path, StoredFile::kValues,
                 !locator.minor.has_value(), what);
}

fs::path ReaderState::ResolveChunkFile(const ChunkLocator& locator,
                                       const std::function<std::string()>& what) const {
  auto& by_source = resolved_chunks_[locator.minor.has_value() ? 1 : 0];
  {
    std::lock_guard lock(resolved_mutex_);
    if (auto source = by_source.find(locator.payload_source); source != by_source.end()) {
      if (auto hit = source->second.find(std::string_view(locator.value_path));
          hit != source->second.end()) {
        return hit->second;
      }
    }
  }
  fs::path file = ResolveFile(locator, what());
  std::lock_guard lock(resolved_mutex_);
  by_source[locator.payload_source].emplace(locator.value_path, file);
  return file;
}

fs::path ReaderState::ResolveFile(const OffsetsLocator& locator, const std::string& what) const {
  return Resolve(locator.payload_source, locator.path, StoredFile::kPayload, false, what);
}

fs::path ReaderState::ResolveFile(const TextLocator& locator, const std::string& what) const {
  return Resolve(locator.payload_source, locator.file, StoredFile::kPayload, false, what);
}

model::ValueArray ReaderState::ReadChunk(const values::ChunkRef& chunk, const model::Spec& spec) {
  return lanes_.OnAnyLane(
      [&](values::ChunkReader& lane) { return ReadChunkOn(lane, chunk, spec); });
}

model::ValueArray ReaderState::ReadSignal(std::span<const values::ChunkRef> chunks,
                                          const model::Spec& spec) {
  return lanes_.OnAnyLane(
      [&](values::ChunkReader& lane) { return ReadSignalOn(lane, chunks, spec); });
}

void ReaderState::StartSignals(SignalBatch& batch, bool caller_runs_first) {
  std::vector<std::int64_t> weights;
  weights.reserve(batch.signals_.size());
  for (const auto& signal : batch.signals_) {
    std::int64_t values = 0;
    for (const values::ChunkRef& chunk : signal->chunks()) values += chunk.locator.n_values;
    weights.push_back(values);
  }
  batch.values_.assign(batch.signals_.size(), nullptr);
  lanes_.Start(
      weights,
      [this, &batch](values::ChunkReader& lane, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          const LazySignalValues& signal = *batch.signals_[i];
          batch.values_[i] = std::make_shared<const model::ValueArray>(
              ReadSignalOn(lane, signal.chunks(), signal.spec()));
        }
      },
      caller_runs_first, batch.job_);
}

model::ValueArray ReaderState::ReadSignalOn(values::ChunkReader& lane,
                                            std::span<const values::ChunkRef> chunks,
                                            const model::Spec& spec) {
  if (chunks.size() == 1) return ReadChunkOn(lane, chunks[0], spec);
  std::vector<model::ValueArray> parts;
  parts.reserve(chunks.size());
  for (const values::ChunkRef& chunk : chunks) parts.push_back(ReadChunkOn(lane, chunk, spec));
  return values::ConcatValues(spec.dtype, parts);
}

model::ValueArray ReaderState::ReadChunkOn(values::ChunkReader& lane, const values::ChunkRef& chunk,
                                           const model::Spec& spec) {
  if (!chunk.zarr()) return lane.Read(chunk, spec);
  const ChunkLocator& l = chunk.locator;
  const std::string what = "Zarr store file of '" + l.value_path + "'";
  return payload_files_.ReadZarr(
      chunk, spec,
      [&](const std::string& relative) {
        return Resolve(l.payload_source, relative, StoredFile::kValues, false, what);
      },
      [&](const std::string& relative) { return PinOf(l.payload_source, relative); });
}

std::string ReaderState::ReadText(const payload::TextRef& ref) {
  return payload_files_.ReadText(ref);
}

std::vector<std::string> ReaderState::ReadTextList(const payload::TextRef& ref) {
  return payload_files_.ReadTextList(ref);
}

std::vector<std::int64_t> ReaderState::ReadOffsets(const payload::OffsetsRef& ref) {
  return payload_files_.ReadOffsets(ref);
}

const std::string& ReaderState::PayloadChecksum(const std::optional<std::string>& payload_source,
                                                const std::string& path) const {
  static const std::string kNone;
  if (payload_source) {
    auto source = sources_.find(*payload_source);
    if (source == sources_.end()) return kNone;
    auto pin = source->second.payloads.find(path);
    return pin == source->second.payloads.end() ? kNone : pin->second.checksum;
  }
  auto it = own_payloads_.find(path);
  return it == own_payloads_.end() ? kNone : it->second;
}

std::string ReaderState::StoringRef(const std::optional<std::string>& payload_source) const {
  return payload_source ? *payload_source : manifest_.Ref();
}

StoredFilePin ReaderState::PinOf(const std::optional<std::string>& payload_source,
                                 const std::string& path) const {
  // Resolve() accepted the locator before a handle was built, so the file is listed or pinned.
  if (payload_source) {
    const ResolvedSource& source = sources_.at(*payload_source);
    auto it = source.values.find(path);
    if (it == source.values.end()) it = source.payloads.find(path);
    return StoredFilePin{*payload_source, it->second};
  }
  return StoredFilePin{manifest_.Ref(), own_parts_.at(path)};
}

std::vector<ChunkLocator> ReaderState::StoredLocators(std::vector<ChunkLocator> locators) const {
  for (ChunkLocator& l : locators) l.payload_source = StoringRef(l.payload_source);
  return locators;
}

std::vector<StoredFilePin> ReaderState::PinsOf(const std::vector<ChunkLocator>& locators) const {
  std::vector<StoredFilePin> pins;
  const ChunkLocator* previous = nullptr;
  for (const ChunkLocator& l : locators) {
    // Chunks of one signal mostly share a file: skip repeats before sorting.
    if (previous && previous->payload_source == l.payload_source &&
        previous->value_path == l.value_path) {
      continue;
    }
    previous = &l;
    if (l.value_path.starts_with(values::zarr::kStorePrefix)) {
      // A Zarr array is pinned as every file of it and of its validity array (docs/format.md
      // §8.6): the files its storing release lists under those prefixes.
      const std::map<std::string, manifest::FilePart>& listed =
          l.payload_source ? sources_.at(*l.payload_source).values : own_parts_;
      const std::string release = StoringRef(l.payload_source);
      const std::string store(values::zarr::kStorePrefix);
      const std::string validity = values::zarr::ValidityPathOf(l.value_path) + "/";
      bool uses_validity = false;
      for (const std::string& prefix : {l.value_path + "/", validity}) {
        for (auto it = listed.lower_bound(prefix);
             it != listed.end() && it->first.starts_with(prefix); ++it) {
          pins.push_back(StoredFilePin{release, it->second});
          uses_validity |= prefix == validity;
        }
      }
      // And the groups above them (the §5.8 DECIDE: root, and _validity when used).
      for (const std::string& group : {store + "zarr.json", store + "_validity/zarr.json"}) {
        if (group.ends_with("_validity/zarr.json") && !uses_validity) continue;
        if (auto it = listed.find(group); it != listed.end()) {
          pins.push_back(StoredFilePin{release, it->second});
        }
      }
      continue;
    }
    pins.push_back(PinOf(l.payload_source, l.value_path));
  }
  auto key = [](const StoredFilePin& p) { return std::tie(p.release, p.part.path); };
  std::sort(pins.begin(), pins.end(),
            [&](const auto& a, const auto& b) { return key(a) < key(b); });
  pins.erase(std::unique(pins.begin(), pins.end(),
                         [&](const auto& a, const auto& b) { return key(a) == key(b); }),
             pins.end());
  return pins;
}

ReaderCounters ReaderState::counters() const {
  const values::ChunkReaderStats v = lanes_.stats();
  const values::ZarrReaderStats z = payload_files_.zarr_stats();
  const payload::PayloadReaderStats p = payload_files_.payload_stats();
  // Zarr: files are zarr.json and shard files, and an inner chunk counts as a decoded page.
  return ReaderCounters{.catalog_opens = catalog_opens_,
                        .catalog_requests = catalog_requests_,
                        .signals_indexed = signal_index_.size(),
                        .values_files_opened = v.files_opened + z.files_opened,
                        .chunks_read = v.chunks_read + z.chunks_read,
                        .data_pages_decoded = v.pages.data_pages_decoded + z.inner_chunks_decoded,
                        .data_pages_resumed = v.pages.data_pages_resumed,
                        .dictionary_pages_decoded = v.pages.dictionary_pages_decoded,
                        .dictionary_cache_hits = v.dictionaries.hits,
                        .catalog_cache_loads = row_cache_->loads(),
                        .payload_files_opened = p.files_opened,
                        .payload_values_read = p.values_read,
                        .decode_budget_peak = decode_budget_->peak()};
}

std::vector<std::int64_t> ReaderState::SignalIds() {
  std::lock_guard lock(signal_ids_mutex_);
  if (!signal_ids_) {
    catalog::CatalogLease lease = Lease();
    signal_ids_ = catalog::SignalIdsInReadOrder(lease.connection());
  }
  return *signal_ids_;
}

std::vector<const SignalIndex::Entry*> ReaderState::IndexedSignals(
    std::span<const std::int64_t> ids) {
  std::vector<std::int64_t> missing;
  if (!signal_index_.complete()) {
    for (std::int64_t id : ids) {
      if (!signal_index_.Find(id)) missing.push_back(id);
    }
  }
  if (!missing.empty()) {
    const SignalIndex::Resolve resolve = [this](const ChunkLocator& l) {
      return ResolveFile(l, "signal_chunks.value_path");
    };
    auto add = [&](catalog::SignalLocatorRow&& row) { signal_index_.Add(std::move(row), resolve); };
    catalog::CatalogLease lease = Lease();
    if (manifest_.counts.signal_chunks <= options_.index_all_chunks) {
      catalog::ForEachSignalLocator(lease.connection(), std::nullopt, add);
      signal_index_.set_complete();
    } else {
      catalog::ForEachSignalLocator(lease.connection(), missing, add);
    }
  }
  std::vector<const SignalIndex::Entry*> out;
  out.reserve(ids.size());
  std::vector<std::int64_t> unknown;
  for (std::int64_t id : ids) {
    out.push_back(signal_index_.Find(id));
    if (!out.back()) unknown.push_back(id);
  }
  if (!unknown.empty()) {
    throw catalog::UnknownIds("signal", unknown);
  }
  return out;
}

void ReaderState::Close() {
  if (catalog_) catalog_->Close();
  row_cache_->Clear();
  lanes_.Clear();
  payload_files_.Clear();
  files_->Close();
}

}  // namespace timef
