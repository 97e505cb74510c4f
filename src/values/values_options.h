// Options of the values plane (docs/format.md §7.3–§7.5, §8) with the format's defaults.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "parquet/metadata.h"
#include "timef/manifest.h"

namespace timef::values {

struct ValuesOptions {
  std::int64_t chunk_max_bytes = 1024 * 1024;
  std::int64_t row_group_target_bytes = 4 * 1024 * 1024;
  std::int64_t shard_target_bytes = 128 * 1024 * 1024;
  std::int64_t data_page_target_bytes = 16 * 1024;
  // DECIDE §7.2: the writer offers zstd and uncompressed only.
  parquet::CompressionCodec compression = parquet::CompressionCodec::kZstd;
  int compression_level = 19;  // zstd 1..22
  // Threads compressing pages (with more than one, in the background while the next row group is
  // loaded); the shards are identical for any count.
  int compression_threads = 1;
  // Global override (card `metadata.value_encoding` or writer option); kAuto = the §7.4 rule.
  manifest::ValueEncodingChoice value_encoding = manifest::ValueEncodingChoice::kAuto;
  // DECIDE §7.4: per-spec_type override, wins over `value_encoding` for that spec_type.
  std::map<std::string, manifest::ValueEncoding> value_encoding_by_spec;
  // Where the values go: Parquet shards (§7) or the Zarr v3 store (§8, which ignores the Parquet
  // codec, level, row-group, page and encoding options above).
  manifest::ValuesBackend backend = manifest::ValuesBackend::kParquet;
  // blosc level of the Zarr inner chunks, 0..9 (docs/format.md §8.4).
  int zarr_compression_level = 9;
};

// Throws ValidationError naming the option (sizes ≥ 1, codec zstd/uncompressed, level 1..22,
// Zarr level 0..9).
void ValidateValuesOptions(const ValuesOptions& options);

}  // namespace timef::values
