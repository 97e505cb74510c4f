// The state a Reader shares with the lazy handles it hands out: the manifest, the catalog
// session, the locator resolution and the counters, and the parts that read files. Handles hold it
// by shared_ptr, so they stay readable after the Reader is closed or destroyed.
//
// Parts (docs/architecture.md "Reader parts"), each with one job and its own lock: FileSources
// opens every file through the release's byte-range transport (local or remote) and shares what
// it opened; DecodeLanes read Parquet shards (each lane behind its own lock); PayloadFiles reads
// packed text, offsets and Zarr arrays (one lock). Locks are taken lanes first, then PayloadFiles',
// then FileSources' (which calls out to nothing while held).
//
// Threading: the catalog session and the locator index serve the Reader's requests, one thread
// at a time. The file parts are what lazy handles share, from any thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalog/catalog_reader.h"
#include "catalog/hydrate/hydrate.h"
#include "catalog/hydrate/value_resolver.h"
#include "core/locators.h"
#include "manifest/stored_payload.h"
#include "payload/payload_reader.h"
#include "reader/decode_lanes.h"
#include "reader/file_sources.h"
#include "reader/payload_files.h"
#include "reader/payload_sources.h"
#include "reader/signal_index.h"
#include "reader/text_cache.h"
#include "timef/manifest.h"
#include "timef/reader.h"
#include "values/chunk_reader.h"
#include "values/zarr_reader.h"

namespace timef {

// The catalog filter of a task query (IDs checked, input_records turned into inputs and adopted).
// ValidationError for a bad ID or inputs given both ways.
catalog::TaskFilter FilterOf(const TaskQuery& query);

class SignalBatch;

class ReaderState : public std::enable_shared_from_this<ReaderState> {
 public:
  // `transport` opens the release's files (null: local files, memory-mapped); a remote release's
  // names them by URL under `release_dir`.
  ReaderState(std::filesystem::path release_dir, manifest::Manifest manifest, ReaderOptions options,
              ResolvedSources sources = {},
              std::shared_ptr<const parquet::FileOpener> transport = nullptr);

  const std::filesystem::path& release_dir() const { return release_dir_; }
  // A remote release (docs/remote.md): release_dir() is its URL, and its catalog is the local copy
  // `catalog_file` returns (fetched and verified into the cache; called before each (re)open, so a
  // removed copy is fetched again).
  bool remote() const { return static_cast<bool>(catalog_file_); }
  void set_catalog_file(std::function<std::filesystem::path()> catalog_file) {
    catalog_file_ = std::move(catalog_file);
  }
  // The sha256 of a file of this release or a payload source, read through FileSources.
  std::string Checksum(const std::filesystem::path& file) const { return files_->Checksum(file); }
  // A values, payload or Zarr file of this release or a payload source, opened (once) through
  // FileSources: local files memory-mapped, a remote release's through its transport.
  std::shared_ptr<parquet::RandomAccessFile> OpenFile(const std::filesystem::path& file) const {
    return files_->Open(file);
  }
  // A legacy directory read in place (docs/format.md §15.8): release_dir() is the directory the
  // caller opened, whose values shards the catalog's locators name; `files` are the legacy
  // manifest's parts (what Verify hashes); `catalog_dir` holds the metadata catalog (the
  // manifest's control and payload files). Set before the first read.
  struct LegacyOrigin {
    std::filesystem::path dir;
    std::vector<manifest::FilePart> files;
    std::filesystem::path catalog_dir;
  };
  void set_legacy_origin(LegacyOrigin origin) { legacy_ = std::move(origin); }
  const std::optional<LegacyOrigin>& legacy_origin() const { return legacy_; }
  const manifest::Manifest& manifest() const { return manifest_; }
  // The payload sources Open resolved and checked (docs/format.md §11.1), by ref.
  const ResolvedSources& sources() const { return sources_; }

  // The catalog session (opened by the first lease; §6.1 checks on first open).
  catalog::CatalogLease Lease();
  // A hydrator whose ValueResolver builds lazy (or, per `plan`, loaded) values, offsets and text
  // (ReadResolver); what only from_tasks parents reach is resolved all lazy (docs/format.md §11.5).
  catalog::CatalogHydrator Hydrator(catalog::Connection connection, const LoadPlan& plan);
  // The same with `requested` as the resolver of what the read asked for (what only from_tasks
  // parents reach stays all lazy).
  catalog::CatalogHydrator Hydrator(catalog::Connection connection,
                                    std::shared_ptr<const catalog::ValueResolver> requested);
  int decode_threads() const { return options_.decode_threads; }
  // IterTasks' cursor over `filter`, with the same two resolvers. Records are reused across
  // batches only when `plan` loads nothing eagerly, so a stream's memory stays that of a batch
  // when the plan loads values.
  std::unique_ptr<catalog::TaskBatches> TaskBatches(catalog::TaskFilter filter,
                                                    const LoadPlan& plan, int64_t batch_size);
  // The resolver of a read with `plan`, for the table exports.
  std::shared_ptr<const catalog::ValueResolver> Resolver(const LoadPlan& plan);

  // The file a locator names, relative to its storing release: an own file the manifest lists.
  // The one place a locator becomes a file: an own file when payload_source is NULL, else a pin of
  // that payload source, in the source's directory (docs/format.md §9.2). FormatError naming
  // `what` (table.column and object) for a payload_source that is not a payload_sources key, a
  // file neither listed nor pinned, or a Parquet chunk without a row index. A Zarr chunk locator
  // resolves to its array directory once the array's zarr.json is listed (docs/format.md §8.6);
  // ReadChunk checks each further store file it opens the same way.
  std::filesystem::path ResolveFile(const ChunkLocator& locator, const std::string& what) const;
  // The same for the chunks of a hydration, remembered per (payload_source, value_path, has a
  // row index) once it succeeded: a scan resolves the same few shards for every signal. `what`
  // is called only to name a failure.
  std::filesystem::path ResolveChunkFile(const ChunkLocator& locator,
                                         const std::function<std::string()>& what) const;
  std::filesystem::path ResolveFile(const OffsetsLocator& locator, const std::string& what) const;
  std::filesystem::path ResolveFile(const TextLocator& locator, const std::string& what) const;

  // One chunk, or a signal's chunks in order (concatenated), decoded on the first free lane.
  model::ValueArray ReadChunk(const values::ChunkRef& chunk, const model::Spec& spec);
  model::ValueArray ReadSignal(std::span<const values::ChunkRef> chunks, const model::Spec& spec);
  // Starts decoding every handle of `batch` (this state's) in runs on the lanes (DecodeLanes::
  // Start); with `caller_runs_first` the caller decodes the first run before this returns.
  // `batch` must not have been started.
  void StartSignals(SignalBatch& batch, bool caller_runs_first);
  std::string ReadText(const payload::TextRef& ref);
  std::vector<std::string> ReadTextList(const payload::TextRef& ref);
  std::vector<std::int64_t> ReadOffsets(const payload::OffsetsRef& ref);
  // The manifest checksum of a payload file (own when `payload_source` is nullopt, else pinned;
  // "" if unknown): identifies stored text across readers.
  const std::string& PayloadChecksum(const std::optional<std::string>& payload_source,
                                     const std::string& path) const;
  // For a writer reusing stored bytes (manifest/stored_payload.h): the ref of the release storing a
  // locator's file, and that file's pin (its FilePart in the storing release's manifest).
  std::string StoringRef(const std::optional<std::string>& payload_source) const;
  StoredFilePin PinOf(const std::optional<std::string>& payload_source,
                      const std::string& path) const;
  // `locators` with payload_source set to the storing release, and the pins of their files
  // (sorted by release and path, unique).
  std::vector<ChunkLocator> StoredLocators(std::vector<ChunkLocator> locators) const;
  std::vector<StoredFilePin> PinsOf(const std::vector<ChunkLocator>& locators) const;

  // Index entries of `ids` in their order, indexing what the index lacks first (the whole
  // release in one query when it has at most options.index_all_chunks chunk rows). NotFoundError
  // naming every unknown ID.
  std::vector<const SignalIndex::Entry*> IndexedSignals(std::span<const std::int64_t> ids);
  const SignalIndex& signal_index() const { return signal_index_; }
  // Reader::SignalIds(): one query on the first call, then the kept list (a release does not
  // change, and an epoch loop asks once per epoch).
  std::vector<std::int64_t> SignalIds();

  ReaderCounters counters() const;
  void Close();
  // The catalog row cache of lookups by ID (ReaderOptions::catalog_cache_bytes); thread-safe.
  const std::shared_ptr<catalog::CatalogRowCache>& row_cache() const { return row_cache_; }

 private:
  struct ResolverPair {
    std::shared_ptr<const catalog::ValueResolver> requested;
    std::shared_ptr<const catalog::ValueResolver> parents_only;
  };
  // `requested` for `plan`; `parents_only` all lazy (the same object when `plan` is).
  ResolverPair Resolvers(const LoadPlan& plan);

  // Where the own control and payload files are: release_dir_, or a legacy directory's catalog.
  const std::filesystem::path& MetadataDir() const {
    return legacy_ ? legacy_->catalog_dir : release_dir_;
  }

  enum class StoredFile { kValues, kPayload };
  std::filesystem::path Resolve(const std::optional<std::string>& payload_source,
                                const std::string& path, StoredFile kind, bool missing_row,
                                const std::string& what) const;

  // A Zarr store file's sha256 against its manifest entry, the first time this reader opens it:
  // blosc frames carry no checksum (the shard index does), so a flipped bit in one would decode
  // to wrong values. Parquet pages have their CRC instead. FormatError naming the file.
  model::ValueArray ReadChunkOn(values::ChunkReader& lane, const values::ChunkRef& chunk,
                                const model::Spec& spec);
  model::ValueArray ReadSignalOn(values::ChunkReader& lane,
                                 std::span<const values::ChunkRef> chunks, const model::Spec& spec);

  std::filesystem::path release_dir_;
  std::optional<LegacyOrigin> legacy_;
  manifest::Manifest manifest_;
  ReaderOptions options_;
  std::set<std::string> own_values_;
  std::map<std::string, std::string> own_payloads_;      // path → checksum
  std::map<std::string, manifest::FilePart> own_parts_;  // path → FilePart (values and payloads)
  ResolvedSources sources_;
  std::function<std::filesystem::path()> catalog_file_;
  std::unique_ptr<catalog::CatalogReader> catalog_;
  std::shared_ptr<catalog::CatalogRowCache> row_cache_;
  // ResolveChunkFile's results: [has row index][payload_source][value_path] (found without
  // building a key string). The manifest they were checked against does not change.
  mutable std::mutex resolved_mutex_;
  mutable std::map<std::optional<std::string>,
                   std::map<std::string, std::filesystem::path, std::less<>>>
      resolved_chunks_[2];
  // The decoded buffers of the lanes and of zarr_ (ReaderOptions::decode_budget_bytes).
  std::shared_ptr<parquet::DecodeBudget> decode_budget_;
  // The file parts (see the top of this file).
  std::shared_ptr<FileSources> files_;
  DecodeLanes lanes_;
  PayloadFiles payload_files_;
  std::uint64_t catalog_opens_ = 0;
  std::uint64_t catalog_requests_ = 0;
  // Kept until the reader is destroyed: Close() drops open files, not what was resolved.
  SignalIndex signal_index_;
  std::mutex signal_ids_mutex_;
  std::optional<std::vector<std::int64_t>> signal_ids_;
};

}  // namespace timef
