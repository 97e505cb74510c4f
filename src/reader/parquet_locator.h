// What this reader decodes: Parquet chunk locators (FORMAT.md §7.5). A Zarr locator (§8) is
// refused by name before its file is resolved, so that a Zarr release reads as "not supported
// yet" rather than as a broken Parquet file.
#pragma once

#include <string_view>

#include "catalog/model_writer.h"

namespace timef {

// FormatError naming signal_chunks for a Zarr locator (value_path in time_series.zarr/) or a
// Parquet locator without a row index. `signal` describes the signal, for the message.
void CheckParquetLocator(const catalog::ChunkLocator& locator, std::string_view signal);

}  // namespace timef
