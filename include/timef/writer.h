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
#include "timef/write_options.h"

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

// How WriteRelease writes. Plain data, copied by the writer; `progress` is called as it says.
struct WriteOptions {
  // One field per option of timef/write_options.h, with its default there; the type, range and
  // doc of each are declared in that one list (chunk_max_bytes, row_group_target_bytes,
  // shard_target_bytes, data_page_target_bytes, compression_level, threads,
  // zarr_compression_level, text_pack_threshold_bytes, compression, values_backend, audit).
  // WriteRelease checks them (ValidationError naming the option) before touching the disk.
#define TIMEF_WRITE_OPTION_FIELD(name, type, default_value, ...) type name = default_value;
  TIMEF_WRITE_NUMBER_OPTIONS(TIMEF_WRITE_OPTION_FIELD)
  TIMEF_WRITE_CHOICE_OPTIONS(TIMEF_WRITE_OPTION_FIELD)
#undef TIMEF_WRITE_OPTION_FIELD
  // Overrides the card's `metadata.value_encoding` when set.
  std::optional<manifest::ValueEncodingChoice> value_encoding;
  // Per spec_type, wins over the global choice (DECIDE, docs/format.md §7.5).
  std::map<std::string, manifest::ValueEncoding> value_encoding_by_spec;
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
// Threading: the write runs on the calling thread, which also calls every loader, piece loader
// and `options.progress`; with options.threads > 1 it starts compression threads of its own and
// joins them before it returns or throws. It assigns IDs to and reads `dataset`, so no other thread
// may use the dataset or its objects during the call. Writes of different datasets or versions may
// run at once, in threads or processes; of writers racing for one version exactly one commits.
// Ownership: nothing of `dataset` or `options` is kept after the call.
WriteResult WriteRelease(model::Dataset& dataset, manifest::Card card,
                         const std::filesystem::path& root, const WriteOptions& options = {});

// The same, into an explicit release directory (its parent is created when missing; the staging
// directory is a sibling of it).
WriteResult WriteReleaseTo(model::Dataset& dataset, manifest::Card card,
                           const std::filesystem::path& release_dir,
                           const WriteOptions& options = {});

}  // namespace timef
