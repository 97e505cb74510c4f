// Writes a model::Dataset as one committed TimeF release (docs/format.md §3.3): validate, stage,
// write values shards, payload files and control.duckdb, audit, hash, write manifest.json last,
// fsync, rename into place. Any failure removes the staging directory and publishes nothing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "timef/manifest.h"
#include "timef/model.h"

namespace timef {

// What WriteRelease is doing; reported through WriteOptions::progress.
enum class WriteStage { kValues, kCatalog, kAudit, kChecksums, kPublish, kDone };
const std::string& ToString(WriteStage stage);

struct WriteProgress {
  WriteStage stage = WriteStage::kValues;
  // kValues: Σ n_values × step_bytes written / to write; kChecksums: bytes hashed / to hash.
  std::int64_t bytes_done = 0;
  std::int64_t bytes_total = 0;
  // kValues: the shard just finalized (relative path); empty otherwise.
  std::string shard;
};

// docs/format.md §7.3 defaults.
struct WriteOptions {
  std::int64_t chunk_max_bytes = 1024 * 1024;
  std::int64_t row_group_target_bytes = 4 * 1024 * 1024;
  std::int64_t shard_target_bytes = 128 * 1024 * 1024;
  std::int64_t data_page_target_bytes = 16 * 1024;
  // "zstd" or "uncompressed" (DECIDE, docs/format.md §7.3).
  std::string compression = "zstd";
  int compression_level = 19;
  // Threads that compress values pages (1 = the calling thread alone; more: a row group compresses
  // in the background while the next is loaded, docs/format.md §7). The release's bytes are the
  // same for every count; 2 makes a zstd-19 ECG write about 1.8x faster on two cores.
  int threads = 1;
  // Overrides the card's `metadata.value_encoding` when set.
  std::optional<manifest::ValueEncodingChoice> value_encoding;
  // Per spec_type, wins over the global choice (DECIDE, docs/format.md §7.5).
  std::map<std::string, manifest::ValueEncoding> value_encoding_by_spec;
  // Where the values go (docs/format.md §7, §8): Parquet shards, or the Zarr v3 store
  // `time_series.zarr/`, which also stores N-D specs (value_shape) but no str spec. Zarr uses
  // chunk_max_bytes and shard_target_bytes and ignores the Parquet codec, level, row-group, page
  // and encoding options.
  manifest::ValuesBackend values_backend = manifest::ValuesBackend::kParquet;
  // blosc level (0..9) of the Zarr inner chunks (docs/format.md §8.4).
  int zarr_compression_level = 9;
  // Texts longer than this many UTF-8 bytes (lists: summed element bytes) go to payload files.
  std::int64_t text_pack_threshold_bytes = 256;
  // Re-check the staged catalog with the SQL audit before publishing (docs/format.md §3.3 step 6).
  bool audit = true;
  // Recorded as the manifest's `build_env.upgraded_from` (set by an upgrade from the legacy
  // layout, docs/format.md §15).
  std::optional<manifest::UpgradedFrom> upgraded_from;
  // Called on the thread that called WriteRelease, synchronously (the write waits for it), at the
  // start of each stage and after each values shard and hashed file; never from the compression
  // threads. An exception it throws ends the write like any other failure: it propagates
  // unchanged and nothing is published — except from the kDone call, which comes after the
  // release is published: the exception still propagates, and the release stays committed.
  std::function<void(const WriteProgress&)> progress;
};

struct WriteResult {
  std::filesystem::path release_dir;
  manifest::Manifest manifest;
};

// Writes `dataset` (IDs are assigned first, Dataset::AssignIds) as `<root>/<dataset_id>/<version>`.
// `card` supplies the dataset card; its dataset_id, dataset_version and parents are taken from the
// dataset when empty and must agree with it otherwise. ValidationError for bad input or options
// (before anything touches the disk), an already committed version, or losing a publish race;
// a loader's exception propagates unchanged. In every failure case nothing is published and the
// staging directory is removed.
WriteResult WriteRelease(model::Dataset& dataset, manifest::Card card,
                         const std::filesystem::path& root, const WriteOptions& options = {});

// The same, into an explicit release directory (its parent is created when missing; the staging
// directory is a sibling of it).
WriteResult WriteReleaseTo(model::Dataset& dataset, manifest::Card card,
                           const std::filesystem::path& release_dir,
                           const WriteOptions& options = {});

}  // namespace timef
