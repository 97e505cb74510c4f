// Options of the payload files (docs/format.md §9): DECIDE — they reuse the values plane's budgets.
#pragma once

#include <cstdint>
#include <string>

#include "parquet/writer_options.h"

namespace timef::payload {

// The write options the payload files use: the file-series options the values shards share
// (parquet::FileSeriesOptions; the writer checks them with the values plane's,
// values::ValidateValuesOptions).
using PayloadOptions = parquet::FileSeriesOptions;

// A payload file written into the staging directory.
struct PayloadFile {
  std::string path;  // relative to the release, e.g. "payloads/text-00000000.parquet"
  std::int64_t bytes = 0;
  std::int64_t rows = 0;
};

}  // namespace timef::payload
