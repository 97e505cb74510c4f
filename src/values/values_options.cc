#include "values/values_options.h"

#include <string>

#include "timef/error.h"

namespace timef::values {
namespace {

[[noreturn]] void Reject(const std::string& option, const std::string& problem) {
  throw ValidationError(ErrorSite{std::nullopt, "values options", option}, problem);
}

void RequirePositive(const char* option, std::int64_t value) {
  if (value < 1) Reject(option, "must be at least 1, got " + std::to_string(value));
}

}  // namespace

void ValidateValuesOptions(const ValuesOptions& options) {
  RequirePositive("chunk_max_bytes", options.chunk_max_bytes);
  RequirePositive("row_group_target_bytes", options.row_group_target_bytes);
  RequirePositive("shard_target_bytes", options.shard_target_bytes);
  RequirePositive("data_page_target_bytes", options.data_page_target_bytes);
  if (options.compression != parquet::CompressionCodec::kZstd &&
      options.compression != parquet::CompressionCodec::kUncompressed) {
    Reject("compression", "the values plane writes zstd or uncompressed shards, not " +
                              parquet::ToString(options.compression));
  }
  if (options.compression == parquet::CompressionCodec::kZstd &&
      (options.compression_level < 1 || options.compression_level > 22)) {
    Reject("compression_level",
           "zstd level must be 1..22, got " + std::to_string(options.compression_level));
  }
  if (options.zarr_compression_level < 0 || options.zarr_compression_level > 9) {
    Reject("zarr_compression_level",
           "blosc level must be 0..9, got " + std::to_string(options.zarr_compression_level));
  }
  if (options.compression_threads < 1 || options.compression_threads > 256) {
    Reject("threads", "must be 1..256, got " + std::to_string(options.compression_threads));
  }
}

}  // namespace timef::values
