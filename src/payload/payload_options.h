// Options of the payload files (docs/format.md §9): DECIDE — they reuse the values plane's budgets.
#pragma once

#include <cstdint>
#include <string>

#include "parquet/metadata.h"

namespace timef::payload {

struct PayloadOptions {
  std::int64_t row_group_target_bytes = 4 * 1024 * 1024;
  std::int64_t shard_target_bytes = 128 * 1024 * 1024;
  std::int64_t data_page_target_bytes = 16 * 1024;
  parquet::CompressionCodec compression = parquet::CompressionCodec::kZstd;
  int compression_level = 19;
};

// A payload file written into the staging directory.
struct PayloadFile {
  std::string path;  // relative to the release, e.g. "payloads/text-00000000.parquet"
  std::int64_t bytes = 0;
  std::int64_t rows = 0;
};

}  // namespace timef::payload
