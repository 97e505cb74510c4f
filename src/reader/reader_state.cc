#include "reader/reader_state.h"

#include "catalog/lookup.h"
#include "reader/lazy_handles.h"
#include "timef/error.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

catalog::CatalogIdentity IdentityOf(const manifest::Manifest& m) {
  catalog::CatalogIdentity identity{m.dataset_id, m.metadata.dataset_version, {}};
  for (const auto& p : m.metadata.parents) {
    identity.parents.push_back(catalog::ParentRow{p.alias, p.dataset_id, p.version});
  }
  return identity;
}

}  // namespace

ReaderState::ReaderState(fs::path release_dir, manifest::Manifest manifest, ReaderOptions options)
    : release_dir_(std::move(release_dir)), manifest_(std::move(manifest)), options_(options) {
  for (const auto& part : manifest_.files.time_series) own_values_.insert(part.path);
  for (const auto& part : manifest_.files.payloads) own_payloads_[part.path] = part.checksum;
}

catalog::CatalogLease ReaderState::Lease() {
  if (!catalog_) {
    catalog_ = std::make_unique<catalog::CatalogReader>(release_dir_ / manifest_.files.control.path,
                                                        IdentityOf(manifest_));
  }
  if (!catalog_->is_open()) ++catalog_opens_;
  ++catalog_requests_;
  return catalog_->Lease();
}

fs::path ReaderState::ResolveOwn(const std::optional<std::string>& payload_source,
                                 const std::string& path, bool values_file,
                                 const std::string& what) const {
  if (payload_source) {
    // This reader resolves own files only; a locator naming another release needs the payload
    // source to be listed in the manifest, which Open() refuses for now.
    throw FormatError(
        {.file = release_dir_ / manifest::kControlFileName, .where = what},
        "payload_source '" + *payload_source + "' is not a key of the manifest's payload_sources");
  }
  const bool listed = values_file ? own_values_.contains(path) : own_payloads_.contains(path);
  if (!listed) {
    throw FormatError({.file = release_dir_ / manifest::kControlFileName, .where = what},
                      "locator names '" + path + "', which the manifest does not list in files." +
                          (values_file ? "time_series" : "payloads"));
  }
  return release_dir_ / path;
}

model::ValueArray ReaderState::ReadChunk(const values::ChunkRef& chunk, const model::Spec& spec) {
  std::lock_guard lock(files_mutex_);
  return chunks_.Read(chunk, spec);
}

std::string ReaderState::CacheKey(const std::string& file, std::int64_t row, bool list) {
  return file + (list ? "|L|" : "|T|") + std::to_string(row);
}

const std::vector<std::string>* ReaderState::FindCached(const std::string& file, std::int64_t row,
                                                        bool list) {
  auto found = text_index_.find(CacheKey(file, row, list));
  if (found == text_index_.end()) return nullptr;
  text_cache_.splice(text_cache_.begin(), text_cache_, found->second);
  return &text_cache_.front().value;
}

void ReaderState::Cache(const std::string& file, std::int64_t row, bool list,
                        std::vector<std::string> value) {
  std::int64_t bytes = 0;
  for (const std::string& s : value) bytes += static_cast<std::int64_t>(s.size()) + 32;
  text_cache_.push_front(CachedText{file, row, list, std::move(value), bytes});
  text_index_[CacheKey(file, row, list)] = text_cache_.begin();
  text_cache_bytes_ += bytes;
  while (text_cache_.size() > 1 && text_cache_bytes_ > kTextCacheBytes) {
    const CachedText& old = text_cache_.back();
    text_cache_bytes_ -= old.bytes;
    text_index_.erase(CacheKey(old.file, old.row, old.list));
    text_cache_.pop_back();
  }
}

std::string ReaderState::ReadText(const payload::TextRef& ref) {
  std::lock_guard lock(files_mutex_);
  if (const auto* hit = FindCached(ref.name, ref.row, false)) return hit->front();
  std::string value = payloads_.ReadText(ref);
  Cache(ref.name, ref.row, false, {value});
  return value;
}

std::vector<std::string> ReaderState::ReadTextList(const payload::TextRef& ref) {
  std::lock_guard lock(files_mutex_);
  if (const auto* hit = FindCached(ref.name, ref.row, true)) return *hit;
  std::vector<std::string> value = payloads_.ReadTextList(ref);
  Cache(ref.name, ref.row, true, value);
  return value;
}

std::vector<std::int64_t> ReaderState::ReadOffsets(const payload::OffsetsRef& ref) {
  std::lock_guard lock(files_mutex_);
  return payloads_.ReadOffsets(ref);
}

const std::string& ReaderState::PayloadChecksum(const std::string& path) const {
  static const std::string kNone;
  auto it = own_payloads_.find(path);
  return it == own_payloads_.end() ? kNone : it->second;
}

ReaderCounters ReaderState::counters() const {
  std::lock_guard lock(files_mutex_);
  const values::ChunkReaderStats v = chunks_.stats();
  const payload::PayloadReaderStats p = payloads_.stats();
  return ReaderCounters{.catalog_opens = catalog_opens_,
                        .catalog_requests = catalog_requests_,
                        .signals_indexed = signal_index_.size(),
                        .values_files_opened = v.files_opened,
                        .chunks_read = v.chunks_read,
                        .data_pages_decoded = v.pages.data_pages_decoded,
                        .payload_files_opened = p.files_opened,
                        .payload_values_read = p.values_read};
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
    const SignalIndex::Resolve resolve = [this](const catalog::ChunkLocator& l) {
      return ResolveOwn(l.payload_source, l.value_path, true, "signal_chunks.value_path");
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
  std::lock_guard lock(files_mutex_);
  chunks_.Clear();
  payloads_.Clear();
  text_cache_.clear();
  text_index_.clear();
  text_cache_bytes_ = 0;
}

}  // namespace timef
