// Writes a release's signal values into the Zarr v3 store `time_series.zarr/` under a staging
// directory (docs/format.md §8): a root group, one array per spec_type `[total_steps,
// *value_shape]` with signals appended along axis 0 in (spec_type, name, signal_id) order, a
// `_validity/` bool array per nullable spec, shard files of shard_len steps holding inner chunks
// of chunk_len steps (bytes + blosc zstd bitshuffle) and an index (bytes + crc32c) at the end.
//
// Memory stays bounded by one shard of each array being written plus the one signal being
// appended: each loader is called once and its array is dropped after it is copied into the
// shard buffer. Called through WriteValues (values_writer.h) when options.backend is kZarr.
#pragma once

#include <filesystem>
#include <functional>
#include <vector>

#include "values/values_options.h"
#include "values/values_writer.h"

namespace timef::values {

// ValuesResult::shards lists every store file (group and array zarr.json files and shard files),
// sorted by path; `chunks` holds one locator per 2^30 steps of each signal (value_path = the
// array path, major = first step on axis 0, minor = nullopt); `encodings` stays empty. Errors as
// WriteValues; str specs are a ValidationError.
ValuesResult WriteZarrValues(const std::filesystem::path& release_dir,
                             std::vector<SignalInput> inputs, const ValuesOptions& options,
                             const std::function<void(const ShardEvent&)>& on_shard = {});

}  // namespace timef::values
