// The suite's workloads. Each runs inside its own child process (suite/child.h) and returns its
// raw samples as JSON: {"timef": [...], "duckdb": [...], "raw_mmap": [...], "extra": {...}} —
// peers are measured in the same process, interleaved with timef, so they see the same noise.
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "corpus/corpus.h"
#include "timef/json.h"
#include "timef/manifest.h"
#include "timef/writer.h"

namespace timef::bench {

struct SuiteOptions {
  CorpusSize size = CorpusSize::kSmall;
  bool quick = false;
  std::vector<CorpusKind> corpora = {CorpusKind::kEcg, CorpusKind::kTsqa, CorpusKind::kLong,
                                     CorpusKind::kTasks};
  std::uint64_t seed = 20240601;
  int repeats = 5;        // timed repetitions of every read workload
  int write_repeats = 3;  // timed writes (each into a fresh directory)
  int duckdb_threads = 1;
  int random_reads = 1'000;
  // Passes over the random IDs for the object variant (GetSignal per read hydrates the whole
  // record through the catalog, so one pass of 1,000 reads already takes a while).
  int random_by_id_passes = 1;
  int batches = 16;
  int batch_size = 64;
  double window_seconds = 30;
  int long_windows_per_record = 128;
  // At most this many windows (a seeded sample of them) per corpus.
  int max_windows = 500;
  WriteOptions write_options;
  // ReaderOptions::decode_threads of every read workload (--threads); with more than one, `scan`
  // reads with the values loaded in batches of 64 records, decoded on these threads while the
  // caller consumes the batch before (docs/architecture.md "Decode lanes").
  int decode_threads = 1;
  std::filesystem::path work_dir;  // scratch: releases and raw stores
  // Bench-only (--compare-catalog-block-size): after a corpus's read workloads, its catalog is
  // copied into a file with these DuckDB blocks, the catalog workloads run again on it, then on
  // the written catalog restored (the library's own choice is not a knob). 0 = off.
  std::int64_t compare_catalog_block_size = 0;
  // --workloads: only these read/compose workloads (and the DuckDB write peer only with "write");
  // empty = all. The timef write always runs: every other workload reads what it wrote.
  std::set<std::string> workloads;
  bool Wants(const std::string& workload) const {
    return workloads.empty() || workloads.contains(workload);
  }
};

// Where one corpus lives in the scratch directory.
struct CorpusPaths {
  std::filesystem::path release;  // the timef release
  std::filesystem::path raw;      // the raw mmap store
};
CorpusPaths PathsFor(const SuiteOptions& options, CorpusKind kind);

// ---- writes (workloads_write.cc): one call = one timed write in the calling process ----
// {"seconds", "value_bytes", "files": {...}}: builds the corpus and writes the release.
Json TimefWriteOnce(const SuiteOptions& options, CorpusKind kind);
// {"seconds", "bytes"}: writes the raw store of the same corpus.
Json RawWriteOnce(const SuiteOptions& options, CorpusKind kind);
// {"seconds", "bytes"}: DuckDB (options.duckdb_threads threads) writes the values of the release
// at options.release as one Parquet file with COPY ... (FORMAT parquet, COMPRESSION zstd,
// COMPRESSION_LEVEL = the suite's level); the values are loaded into memory first, untimed.
Json DuckDbWriteOnce(const SuiteOptions& options, CorpusKind kind);
// {"seconds"}: only generates every signal's values (the loaders' share of both writes).
Json GenerateOnce(const SuiteOptions& options, CorpusKind kind);
// Bytes per file kind and per encoding of the written release, from its manifest and footers.
Json MeasureSizes(const SuiteOptions& options, CorpusKind kind);
// {"manifest", "control", "time_series": {"files", "bytes"}, "payloads": {...}}: the release's own
// files (payload sources not included).
Json FileKinds(const manifest::Manifest& m, const std::filesystem::path& release);

// ---- composition (workloads_compose.cc), ECG: the written corpus is the parent ----
// Rows for `results`: "edit" and "derive" (s, peer parent_write: the corpus write samples
// `parent_write_seconds`), each with the bytes it wrote in extra; "scan_via_child" (MB/s, peer
// via_parent: the same full pass through the parent, interleaved).
std::vector<Json> ComposeWorkloads(const SuiteOptions& options, CorpusKind kind,
                                   const Json& parent_write_seconds);

// ---- reads (workloads_read.cc) ----
Json OpenWorkload(const SuiteOptions& options, CorpusKind kind);
Json ScanWorkload(const SuiteOptions& options, CorpusKind kind);
// A values-only epoch: Reader::SignalIds(), then GetSignalValues + LoadValues of 256 signals at a
// time (decoded on the reader's decode threads), sum; checked bit for bit afterwards, untimed.
Json ScanValuesWorkload(const SuiteOptions& options, CorpusKind kind);
enum class SeriesPath {
  kIndex,   // Reader::GetSignalValues(id).LoadValues(): the compact locator index, no record built
  kObject,  // Reader::GetSignal(id)->LoadValues(): hydrates the signal's whole record first
  kHandle,  // LoadValues() on signals hydrated before timing
  kInto,    // Reader::GetSignalValues(id).LoadValuesInto(buffer): kIndex into a buffer kept across
            // reads (the raw peer copies into a kept buffer too)
};
Json RandomSeriesWorkload(const SuiteOptions& options, CorpusKind kind, SeriesPath path);
// Reader::GetRecord(id) of random records (built lazily).
Json RandomRecordWorkload(const SuiteOptions& options, CorpusKind kind);
// kIndex: GetSignalValues(64 IDs) + LoadValues; kObject: GetSignals(64 IDs) (records built);
// kInto: GetSignalValues(64 IDs) + LoadValuesInto one buffer kept across batches.
Json BatchedRandomWorkload(const SuiteOptions& options, CorpusKind kind, SeriesPath path);
Json WindowWorkload(const SuiteOptions& options, CorpusKind kind);
Json VerifyWorkload(const SuiteOptions& options, CorpusKind kind);

// ---- the ECG corpus on Zarr against Parquet (workloads_zarr.cc) ----
// zarr_write: {"timef": seconds per write, "extra": values bytes of both backends}; the read
// workloads return the Zarr samples as "timef" and the Parquet release's as peer "parquet".
Json ZarrWriteWorkload(const SuiteOptions& options, CorpusKind kind);
Json ZarrScanWorkload(const SuiteOptions& options, CorpusKind kind);
Json ZarrRandomSeriesWorkload(const SuiteOptions& options, CorpusKind kind);
Json ZarrWindowWorkload(const SuiteOptions& options, CorpusKind kind);

// ---- tasks (workloads_tasks.cc) ----
// `iterate`: false = ReadTasks (one call), true = IterTasks batch by batch.
Json TaskHydrationWorkload(const SuiteOptions& options, CorpusKind kind, bool iterate);

// Rewrites `release`'s control.duckdb with DuckDB blocks of `block_size` bytes (COPY FROM
// DATABASE into a new file) and updates the manifest's control size and checksum.
void ReblockCatalog(const std::filesystem::path& release, std::int64_t block_size);

}  // namespace timef::bench
