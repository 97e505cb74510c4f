// Options of the values plane (docs/format.md §7.3–§7.5, §8) with the format's defaults.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "parquet/writer_options.h"
#include "timef/manifest.h"
#include "timef/write_options.h"

namespace timef::values {

// The write options the values plane uses (their defaults, ranges and docs: timef/write_options.h),
// with the codec parsed and the encoding choice resolved: the file-series options it shares with
// the payload files (parquet::FileSeriesOptions: row group, shard and page targets, codec and
// level) and its own below.
struct ValuesOptions : parquet::FileSeriesOptions {
  std::int64_t chunk_max_bytes = write_option::chunk_max_bytes.default_value;
  // write_option::threads.
  int compression_threads = static_cast<int>(write_option::threads.default_value);
  // Global override (card `metadata.value_encoding` or writer option); kAuto = the §7.4 rule.
  manifest::ValueEncodingChoice value_encoding = manifest::ValueEncodingChoice::kAuto;
  // DECIDE §7.4: per-spec_type override, wins over `value_encoding` for that spec_type.
  std::map<std::string, manifest::ValueEncoding> value_encoding_by_spec;
  // Where the values go: Parquet shards (§7) or the Zarr v3 store (§8, which ignores the Parquet
  // codec, level, row-group and page options of FileSeriesOptions and the encoding options).
  manifest::ValuesBackend backend = manifest::ValuesBackend::kParquet;
  int zarr_compression_level = static_cast<int>(write_option::zarr_compression_level.default_value);
};

// Throws ValidationError naming the option for a value outside its write_option range (the zstd
// level only with zstd) or a codec other than zstd/uncompressed.
void ValidateValuesOptions(const ValuesOptions& options);

}  // namespace timef::values
