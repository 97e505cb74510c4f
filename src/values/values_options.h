// Options of the values plane (docs/format.md §7.3–§7.5, §8) with the format's defaults.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "parquet/metadata.h"
#include "timef/manifest.h"
#include "timef/write_options.h"

namespace timef::values {

// The write options the values plane uses (their defaults, ranges and docs: timef/write_options.h),
// with the codec parsed and the encoding choice resolved.
struct ValuesOptions {
  std::int64_t chunk_max_bytes = write_option::chunk_max_bytes.default_value;
  std::int64_t row_group_target_bytes = write_option::row_group_target_bytes.default_value;
  std::int64_t shard_target_bytes = write_option::shard_target_bytes.default_value;
  std::int64_t data_page_target_bytes = write_option::data_page_target_bytes.default_value;
  // DECIDE §7.2: the writer offers zstd and uncompressed only.
  parquet::CompressionCodec compression = parquet::CompressionCodec::kZstd;
  int compression_level = static_cast<int>(write_option::compression_level.default_value);
  // write_option::threads.
  int compression_threads = static_cast<int>(write_option::threads.default_value);
  // Global override (card `metadata.value_encoding` or writer option); kAuto = the §7.4 rule.
  manifest::ValueEncodingChoice value_encoding = manifest::ValueEncodingChoice::kAuto;
  // DECIDE §7.4: per-spec_type override, wins over `value_encoding` for that spec_type.
  std::map<std::string, manifest::ValueEncoding> value_encoding_by_spec;
  // Where the values go: Parquet shards (§7) or the Zarr v3 store (§8, which ignores the Parquet
  // codec, level, row-group, page and encoding options above).
  manifest::ValuesBackend backend = manifest::ValuesBackend::kParquet;
  int zarr_compression_level = static_cast<int>(write_option::zarr_compression_level.default_value);
};

// Throws ValidationError naming the option for a value outside its write_option range (the zstd
// level only with zstd) or a codec other than zstd/uncompressed.
void ValidateValuesOptions(const ValuesOptions& options);

}  // namespace timef::values
