#include "reader/parquet_locator.h"

#include <string>

#include "timef/error.h"

namespace timef {

void CheckParquetLocator(const catalog::ChunkLocator& locator, std::string_view signal) {
  if (locator.value_path.starts_with("time_series.zarr/")) {
    throw FormatError({.object = "signal_chunks", .where = "value_path"},
                      "the values of " + std::string(signal) + " are in a Zarr store ('" +
                          locator.value_path +
                          "'); Zarr values (FORMAT.md §8) are not supported by this reader yet");
  }
  if (!locator.minor) {
    throw FormatError({.object = "signal_chunks", .where = "chunk_minor_index"},
                      "a parquet locator of " + std::string(signal) + " has no row index");
  }
}

}  // namespace timef
