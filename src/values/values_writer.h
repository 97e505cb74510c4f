// Writes the values of a release's signals into Parquet shards `time_series/part-NNNNNNNN.parquet`
// under a staging directory, following docs/format.md §7.1–§7.5: signals sorted by (spec_type,
// name, signal_id), chunks of at most chunk_max_bytes, row groups at row_group_target_bytes, shards
// rotated at shard_target_bytes and on every spec_type change, one value encoding per spec_type
// decided (measured or forced) before its first shard opens, pages cut at row boundaries, page
// index, statistics and CRC on every page.
//
// Memory stays bounded by the row-group budget (plus the one signal being chunked, and the 4 MiB
// measurement window): each loader is called exactly once, its array is dropped as soon as its
// chunks are buffered, and buffered chunks are dropped when their row group is written. A signal
// given in pieces is never whole in memory: each piece is cut into the current chunk, and each
// completed chunk goes straight on to its row group (str: gathered first, see model/values.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/locators.h"
#include "timef/manifest.h"
#include "timef/model.h"
#include "values/values_options.h"

namespace timef::values {

// One signal whose values this release stores.
struct SignalInput {
  std::int64_t signal_id = 0;
  std::string name;
  std::shared_ptr<const model::Spec> spec;  // Parquet: scalar (value_shape empty); Zarr: not str
  std::int64_t n_values = 0;                // timesteps
  // Returns the conformed values (dtype of the spec, n_values steps, enum as codes). Called once.
  std::function<std::shared_ptr<const model::ValueArray>()> load;
  // Instead of `load` (when `load` is empty): hands the conformed values in pieces of whole steps,
  // in order, to the sink (model::PieceLoader; the writer passes Signal::VisitValues). Called
  // once. The pieces are checked like a loaded array, and must add up to n_values steps.
  std::function<void(const model::PieceSink&)> pieces;
};

struct ShardInfo {
  std::string path;  // relative to the release
  std::string spec_type;
  std::int64_t bytes = 0;
  std::int64_t row_groups = 0;
  std::int64_t rows = 0;
};

// Reported after each shard is closed and fsynced.
struct ShardEvent {
  const ShardInfo& shard;
  std::int64_t values_bytes_done;   // Σ n_values × step_bytes written so far
  std::int64_t values_bytes_total;  // the same over every input
};

struct ValuesResult {
  // signal_id → where each chunk landed, in order: own release (payload_source nullopt),
  // major = row group, minor = row in it.
  std::map<std::int64_t, std::vector<ChunkLocator>> chunks;
  std::vector<ShardInfo> shards;                             // sorted by path
  std::map<std::string, manifest::ValueEncoding> encodings;  // spec_type → encoding written
};

// Writes every input's values under `release_dir` (the staging directory; `time_series/` is
// created when at least one shard is written). With options.backend kZarr this is
// WriteZarrValues (zarr_writer.h), which writes `time_series.zarr/` instead. Throws ValidationError
// for bad input or options (before any file is written where it can be known up front), whatever a
// loader throws, and FileError for I/O failures. On failure files already written stay: the caller
// removes the staging directory.
ValuesResult WriteValues(const std::filesystem::path& release_dir, std::vector<SignalInput> inputs,
                         const ValuesOptions& options,
                         const std::function<void(const ShardEvent&)>& on_shard = {});

// Bytes one timestep counts in the §7.2 budgets (str: over the whole signal's values).
std::int64_t StepBytes(const model::Spec& spec, const model::ValueArray& values);

}  // namespace timef::values
