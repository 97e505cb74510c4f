// Reading signal_chunks rows (docs/format.md §6.4) the same way wherever they are met: object
// hydration and the reader's locator index.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/duckdb/duckdb_result.h"
#include "core/locators.h"

namespace timef::catalog {

// The SELECT list (prefix `sc.`) that ChunkLocatorAt() reads, in this order.
inline constexpr std::string_view kChunkColumns =
    "sc.payload_source, sc.value_path, sc.chunk_major_index, sc.chunk_minor_index, sc.n_values";

// The chunks of one signal's chunk rows as they arrive in chunk_index order: checks that indexes
// run 0..k-1 without gaps and that the chunks add up to the signal's n_values.
class ChunkSequence {
 public:
  // Appends the kChunkColumns starting at `first` of `row`; FormatError naming the signal when
  // `chunk_index` is not the next index.
  void Add(int64_t signal_id, int64_t chunk_index, const Chunk& chunk, idx_t row, idx_t first);
  // The chunks so far after checking their total against `n_values`; empties the sequence.
  std::vector<ChunkLocator> Take(int64_t signal_id, int64_t n_values);
  bool empty() const { return chunks_.empty(); }

 private:
  std::vector<ChunkLocator> chunks_;
  int64_t total_ = 0;
};

}  // namespace timef::catalog
