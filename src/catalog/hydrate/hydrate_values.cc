// HydrateGraph::LoadValues: the signal_chunks rows of a batch, checked (§6.4) and handed to the
// ValueResolver, signal by signal, then the batch as a whole (FinishValues).
#include <string>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/hydrate/chunk_rows.h"
#include "catalog/hydrate/hydrate_graph.h"

namespace timef::catalog {

void HydrateGraph::LoadValues(const std::vector<int64_t>& signal_keys,
                              const ValueResolver& values) {
  if (signal_keys.empty()) return;
  RowStream r = Run({.what = "signal_chunks",
                     .sql = "SELECT sc.signal_key, sc.chunk_index, " + std::string(kChunkColumns) +
                            " FROM signal_chunks sc JOIN {keys} q ON sc.signal_key = q.k "
                            "ORDER BY sc.signal_key, sc.chunk_index",
                     .key_column = 0,
                     .domain = "SELECT signal_key AS k FROM signals"},
                    signal_keys);

  // The chunks of the signal being collected; rows arrive grouped by signal_key.
  int64_t current = 0;
  ChunkSequence chunks;
  auto finish = [&] {
    if (chunks.empty()) return;
    const std::shared_ptr<model::Signal>& signal = Signal(current);
    if (auto source = values.Values(*signal, chunks.Take(*signal->id(), signal->n_values()))) {
      signal->SetValuesSource(std::move(source));
    }
  };
  while (std::optional<Chunk> chunk = r.Next()) {
    auto key = chunk->Int64(0);
    auto index = chunk->Int64(1);
    for (idx_t row = 0; row < chunk->size(); ++row) {
      if (key.Get(row) != current) {
        finish();
        current = key.Get(row);
      }
      chunks.Add(*Signal(current)->id(), index.Get(row), *chunk, row, 2);
    }
  }
  finish();
  values.FinishValues();
}

}  // namespace timef::catalog
