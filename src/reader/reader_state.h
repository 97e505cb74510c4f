// The state a Reader shares with the lazy handles and streams it hands out: a thin composition of
// the reader's parts (docs/architecture.md "Reader parts"), each with one job and its own lock.
// Handles hold it by shared_ptr, so they stay readable after the Reader is closed or destroyed.
//
// Parts: LocatorResolver turns catalog locators into the release's files (and pins), with the
// legacy origin of a legacy directory; ReaderCatalog holds the catalog session, the row cache and
// the factory of hydrators and resolvers; SignalDirectory the signal index and ID list;
// FileSources opens every file through the release's byte-range transport (local or remote) and
// shares what it opened; DecodeLanes read Parquet shards (each lane behind its own lock);
// PayloadFiles reads packed text, offsets and Zarr arrays. Locks are taken SignalDirectory's, then
// ReaderCatalog's; and lanes first, then PayloadFiles', then FileSources'; LocatorResolver's is
// taken alone. ReaderState itself has no lock and nothing mutable of its own.
//
// Ownership and lifetime: it owns every part; the parts that refer to others (SignalDirectory,
// the lanes, PayloadFiles) are declared after what they use. Close() closes the catalog and drops
// open files, caches and the row cache; what was resolved and indexed stays. Threading: every
// part is thread-safe, so it may be used from any thread; a Reader still uses it one thread at a
// time (include/timef/reader.h). Errors: the parts'.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "catalog/hydrate/hydrate.h"
#include "parquet/decode_budget.h"
#include "payload/payload_reader.h"
#include "reader/decode_lanes.h"
#include "reader/file_sources.h"
#include "reader/locator_resolver.h"
#include "reader/payload_files.h"
#include "reader/payload_sources.h"
#include "reader/reader_catalog.h"
#include "reader/signal_directory.h"
#include "timef/manifest.h"
#include "timef/reader.h"
#include "values/chunk_reader.h"

namespace timef {

// The catalog filter of a task query (IDs checked, input_records turned into inputs and adopted).
// ValidationError for a bad ID or inputs given both ways.
catalog::TaskFilter FilterOf(const TaskQuery& query);

class LazySignalValues;
class SignalBatch;

class ReaderState : public std::enable_shared_from_this<ReaderState> {
 public:
  // `transport` opens the release's files (null: local files, memory-mapped); a remote release's
  // names them by URL under `release_dir`. `legacy`: a legacy directory read in place, whose
  // metadata catalog is elsewhere (LegacyOrigin).
  ReaderState(std::filesystem::path release_dir, manifest::Manifest manifest, ReaderOptions options,
              ResolvedSources sources = {},
              std::shared_ptr<const parquet::FileOpener> transport = nullptr,
              std::optional<LegacyOrigin> legacy = std::nullopt);

  const manifest::Manifest& manifest() const { return manifest_; }
  int decode_threads() const { return options_.decode_threads; }

  // The parts (see the top of this file).
  const LocatorResolver& locators() const { return locators_; }
  ReaderCatalog& catalog() { return catalog_; }
  SignalDirectory& signals() { return signals_; }

  // The sha256 of a file of this release or a payload source, read through FileSources.
  std::string Checksum(const std::filesystem::path& file) const { return files_->Checksum(file); }
  // A values, payload or Zarr file of this release or a payload source, opened (once) through
  // FileSources: local files memory-mapped, a remote release's through its transport.
  std::shared_ptr<parquet::RandomAccessFile> OpenFile(const std::filesystem::path& file) const {
    return files_->Open(file);
  }

  // One chunk, or a signal's chunks in order (concatenated), decoded on the first free lane. A
  // Zarr store file is resolved through LocatorResolver and its sha256 checked against its pin the
  // first time this reader opens it (PayloadFiles::ReadZarr).
  model::ValueArray ReadChunk(const values::ChunkRef& chunk, const model::Spec& spec);
  model::ValueArray ReadSignal(std::span<const values::ChunkRef> chunks, const model::Spec& spec);
  // ReadSignal into a caller's buffers (checked by the caller, model::CheckValueBuffers, for the
  // signal's n_values; FormatError naming the file when the chunks hold another count), on the
  // first free lane. Returns the null steps; `validity`, when not empty, marks them.
  std::int64_t ReadSignalInto(std::span<const values::ChunkRef> chunks, const model::Spec& spec,
                              model::ScalarSpan out, std::span<std::uint8_t> validity);
  // Starts decoding every handle of `batch` (this state's) in runs on the lanes (DecodeLanes::
  // Start); with `caller_runs_first` the caller decodes the first run before this returns.
  // Each run first hands the page ranges of its chunks to their files' Prefetch (PrefetchPages),
  // so that a remote release fetches a run's pages in a few requests. `batch` must not have been
  // started.
  void StartSignals(SignalBatch& batch, bool caller_runs_first);
  std::string ReadText(const payload::TextRef& ref);
  std::vector<std::string> ReadTextList(const payload::TextRef& ref);
  std::vector<std::int64_t> ReadOffsets(const payload::OffsetsRef& ref);

  // Gathered from the parts.
  ReaderCounters counters() const;
  void Close();

 private:
  // Announces to each Parquet shard that prefetches (a remote one) the page ranges the lane will
  // read for `signals`' chunks (values::ChunkReader::PageRange), and returns the holds that keep
  // the fetched bytes until the caller drops them. A hint only: a failure (of the fetch, or a
  // defect of a shard's metadata) is dropped, and the reads then fetch their own ranges and raise
  // their own errors, as they would without it.
  std::vector<parquet::RandomAccessFile::PrefetchHold> PrefetchPages(
      values::ChunkReader& lane, std::span<const std::shared_ptr<const LazySignalValues>> signals);
  model::ValueArray ReadChunkOn(values::ChunkReader& lane, const values::ChunkRef& chunk,
                                const model::Spec& spec);
  model::ValueArray ReadSignalOn(values::ChunkReader& lane,
                                 std::span<const values::ChunkRef> chunks, const model::Spec& spec);
  std::int64_t ReadSignalIntoOn(values::ChunkReader& lane, std::span<const values::ChunkRef> chunks,
                                const model::Spec& spec, model::ScalarSpan out,
                                std::span<std::uint8_t> validity);

  const manifest::Manifest manifest_;
  const ReaderOptions options_;
  LocatorResolver locators_;
  ReaderCatalog catalog_;
  SignalDirectory signals_;
  // The decoded buffers of the lanes and of PayloadFiles' Zarr reader
  // (ReaderOptions::decode_budget_bytes).
  std::shared_ptr<parquet::DecodeBudget> decode_budget_;
  std::shared_ptr<FileSources> files_;
  DecodeLanes lanes_;
  PayloadFiles payload_files_;
};

}  // namespace timef
