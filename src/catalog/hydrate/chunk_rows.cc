#include "catalog/hydrate/chunk_rows.h"

#include <utility>

#include "timef/error.h"

namespace timef::catalog {

void ChunkSequence::Add(int64_t signal_id, int64_t chunk_index, const Chunk& c, idx_t row,
                        idx_t first) {
  if (chunk_index != static_cast<int64_t>(chunks_.size())) {
    throw FormatError({.object = "signal_chunks", .where = "chunk_index"},
                      "signal " + std::to_string(signal_id) + ": chunk_index " +
                          std::to_string(chunk_index) + " where " + std::to_string(chunks_.size()) +
                          " was expected (indexes run 0..k-1 without gaps)");
  }
  ChunkLocator locator;
  if (auto source = c.Varchar(first).Optional(row)) locator.payload_source = std::string(*source);
  locator.value_path = c.Varchar(first + 1).Get(row);
  locator.major = c.Int64(first + 2).Get(row);
  locator.minor = c.Int64(first + 3).Optional(row);
  locator.n_values = c.Int64(first + 4).Get(row);
  total_ += locator.n_values;
  chunks_.push_back(std::move(locator));
}

std::vector<ChunkLocator> ChunkSequence::Take(int64_t signal_id, int64_t n_values) {
  if (total_ != n_values) {
    throw FormatError({.object = "signal_chunks", .where = "n_values"},
                      "signal " + std::to_string(signal_id) + ": chunks hold " +
                          std::to_string(total_) + " values, signals.n_values is " +
                          std::to_string(n_values));
  }
  total_ = 0;
  return std::exchange(chunks_, {});
}

}  // namespace timef::catalog
