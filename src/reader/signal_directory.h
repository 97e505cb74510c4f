// The part of a reader that finds signals by ID without hydration (docs/format.md §11.5,
// docs/architecture.md "Reader parts"): the compact locator index (SignalIndex), filled from the
// catalog on demand (the whole release in one query when it has at most
// ReaderOptions::index_all_chunks chunk rows, else the IDs asked for), and the release's signal
// IDs in read order, queried once.
//
// Ownership: owned by the ReaderState; it uses the ReaderState's ReaderCatalog for leases and its
// LocatorResolver to resolve each chunk file once (both outlive it). Lifetime: what it indexed is
// kept until the reader is destroyed (Close() drops open files, not what was resolved; a release
// does not change). Threading: thread-safe; one mutex guards the index and the ID list, and is
// held while the catalog is queried to fill them (lock order: this mutex, then ReaderCatalog's;
// LocatorResolver' takes only its own). What it returns are copies, valid after the lock is let go.
// Errors: NotFoundError naming every unknown ID; the catalog's errors; FormatError from resolving
// a chunk's file or from a locator the index cannot hold (SignalIndex::Add).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "reader/locator_resolver.h"
#include "reader/reader_catalog.h"
#include "reader/signal_index.h"
#include "timef/model.h"
#include "timef/reader.h"
#include "values/chunk_reader.h"

namespace timef {

class SignalDirectory {
 public:
  // `signal_chunks` is the manifest's count of signal_chunks rows; `index_all_chunks` the
  // ReaderOptions threshold up to which the first miss indexes the whole release.
  SignalDirectory(ReaderCatalog& catalog, const LocatorResolver& files, std::int64_t signal_chunks,
                  std::int64_t index_all_chunks);

  // One indexed signal, copied out of the index.
  struct Signal {
    std::int64_t record_id = 0;
    std::int64_t n_values = 0;
    std::shared_ptr<const model::Spec> spec;
    std::vector<values::ChunkRef> chunks;  // in order; empty when the signal has no values
  };
  // The signals `ids` name, in their order, indexing what the index lacks first. NotFoundError
  // naming every unknown ID.
  std::vector<Signal> Signals(std::span<const std::int64_t> ids);
  // The record of each signal `ids` name, in their order; the same indexing and errors.
  std::vector<std::int64_t> RecordIds(std::span<const std::int64_t> ids);
  // Reader::SignalIds(order): one query per order on its first call, then the kept list (a
  // release does not change, and an epoch loop asks once per epoch).
  std::vector<std::int64_t> SignalIds(SignalOrder order);
  // Signals indexed so far (ReaderCounters::signals_indexed).
  std::size_t size() const;

 private:
  // Index entries of `ids` in their order, indexing what is missing first. REQUIRES mutex_.
  std::vector<const SignalIndex::Entry*> IndexedLocked(std::span<const std::int64_t> ids);

  ReaderCatalog& catalog_;
  const LocatorResolver& files_;
  const std::int64_t signal_chunks_;
  const std::int64_t index_all_chunks_;
  mutable std::mutex mutex_;  // guards everything below
  SignalIndex index_;
  std::optional<std::vector<std::int64_t>> signal_ids_[2];  // by SignalOrder
};

}  // namespace timef
