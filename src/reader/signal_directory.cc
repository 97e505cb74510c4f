#include "reader/signal_directory.h"

#include "catalog/hydrate/lookup.h"
#include "catalog/hydrate/signal_locators.h"

namespace timef {

SignalDirectory::SignalDirectory(ReaderCatalog& catalog, const LocatorResolver& files,
                                 std::int64_t signal_chunks, std::int64_t index_all_chunks)
    : catalog_(catalog),
      files_(files),
      signal_chunks_(signal_chunks),
      index_all_chunks_(index_all_chunks) {}

std::vector<const SignalIndex::Entry*> SignalDirectory::IndexedLocked(
    std::span<const std::int64_t> ids) {
  std::vector<std::int64_t> missing;
  if (!index_.complete()) {
    for (std::int64_t id : ids) {
      if (!index_.Find(id)) missing.push_back(id);
    }
  }
  if (!missing.empty()) {
    const SignalIndex::Resolve resolve = [this](const ChunkLocator& l) {
      return files_.ResolveFile(l, "signal_chunks.value_path");
    };
    auto add = [&](catalog::SignalLocatorRow&& row) { index_.Add(std::move(row), resolve); };
    catalog::CatalogLease lease = catalog_.Lease();
    if (signal_chunks_ <= index_all_chunks_) {
      catalog::ForEachSignalLocator(lease.connection(), std::nullopt, add);
      index_.set_complete();
    } else {
      catalog::ForEachSignalLocator(lease.connection(), missing, add);
    }
  }
  std::vector<const SignalIndex::Entry*> out;
  out.reserve(ids.size());
  std::vector<std::int64_t> unknown;
  for (std::int64_t id : ids) {
    out.push_back(index_.Find(id));
    if (!out.back()) unknown.push_back(id);
  }
  if (!unknown.empty()) {
    throw catalog::UnknownIds("signal", unknown);
  }
  return out;
}

std::vector<SignalDirectory::Signal> SignalDirectory::Signals(std::span<const std::int64_t> ids) {
  std::lock_guard lock(mutex_);
  std::vector<Signal> out;
  out.reserve(ids.size());
  for (const SignalIndex::Entry* entry : IndexedLocked(ids)) {
    Signal& signal = out.emplace_back();
    signal.record_id = entry->record_id;
    signal.n_values = entry->n_values;
    signal.spec = index_.spec(*entry);
    if (entry->n_chunks > 0) signal.chunks = index_.ChunkRefs(*entry);
  }
  return out;
}

std::vector<std::int64_t> SignalDirectory::RecordIds(std::span<const std::int64_t> ids) {
  std::lock_guard lock(mutex_);
  std::vector<std::int64_t> out;
  out.reserve(ids.size());
  for (const SignalIndex::Entry* entry : IndexedLocked(ids)) out.push_back(entry->record_id);
  return out;
}

std::vector<std::int64_t> SignalDirectory::SignalIds(SignalOrder order) {
  std::lock_guard lock(mutex_);
  auto& ids = signal_ids_[order == SignalOrder::kRecords ? 0 : 1];
  if (!ids) {
    catalog::CatalogLease lease = catalog_.Lease();
    ids = catalog::SignalIdsInStorageOrder(lease.connection(), order == SignalOrder::kRecords);
  }
  return *ids;
}

std::size_t SignalDirectory::size() const {
  std::lock_guard lock(mutex_);
  return index_.size();
}

}  // namespace timef
