#include "values/values_options.h"

#include <string>

#include "timef/error.h"

namespace timef::values {
namespace {

[[noreturn]] void Reject(const std::string& option, const std::string& problem) {
  throw ValidationError(ErrorSite{std::nullopt, "values options", option}, problem);
}

void Check(const write_option::Number& option, std::int64_t value) {
  if (!option.Contains(value)) Reject(std::string(option.name), option.Problem(value));
}

}  // namespace

void ValidateValuesOptions(const ValuesOptions& options) {
  Check(write_option::chunk_max_bytes, options.chunk_max_bytes);
  Check(write_option::row_group_target_bytes, options.row_group_target_bytes);
  Check(write_option::shard_target_bytes, options.shard_target_bytes);
  Check(write_option::data_page_target_bytes, options.data_page_target_bytes);
  if (options.compression != parquet::CompressionCodec::kZstd &&
      options.compression != parquet::CompressionCodec::kUncompressed) {
    Reject("compression", "the values plane writes zstd or uncompressed shards, not " +
                              parquet::ToString(options.compression));
  }
  if (options.compression == parquet::CompressionCodec::kZstd) {
    Check(write_option::compression_level, options.compression_level);
  }
  Check(write_option::zarr_compression_level, options.zarr_compression_level);
  Check(write_option::threads, options.compression_threads);
}

}  // namespace timef::values
