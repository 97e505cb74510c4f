// Options of the payload files (docs/format.md §9): DECIDE — they reuse the values plane's budgets.
#pragma once

#include <cstdint>
#include <string>

#include "parquet/metadata.h"
#include "timef/write_options.h"

namespace timef::payload {

// The write options the payload files use (defaults, ranges, docs: timef/write_options.h; the
// writer checks them with the values plane's, values::ValidateValuesOptions).
struct PayloadOptions {
  std::int64_t row_group_target_bytes = write_option::row_group_target_bytes.default_value;
  std::int64_t shard_target_bytes = write_option::shard_target_bytes.default_value;
  std::int64_t data_page_target_bytes = write_option::data_page_target_bytes.default_value;
  parquet::CompressionCodec compression = parquet::CompressionCodec::kZstd;
  int compression_level = static_cast<int>(write_option::compression_level.default_value);
};

// A payload file written into the staging directory.
struct PayloadFile {
  std::string path;  // relative to the release, e.g. "payloads/text-00000000.parquet"
  std::int64_t bytes = 0;
  std::int64_t rows = 0;
};

}  // namespace timef::payload
