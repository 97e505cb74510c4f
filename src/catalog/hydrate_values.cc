// HydrateGraph::LoadValues: the signal_chunks rows of a batch, checked (§6.4) and handed to the
// values hook.
#include <string>

#include "catalog/duckdb_result.h"
#include "catalog/hydrate_graph.h"
#include "timef/error.h"

namespace timef::catalog {

void HydrateGraph::LoadValues(const std::vector<int64_t>& signal_keys) {
  if (!options_->values || signal_keys.empty()) return;
  Result r =
      Run("SELECT sc.signal_key, sc.chunk_index, sc.payload_source, sc.value_path, "
          "sc.chunk_major_index, sc.chunk_minor_index, sc.n_values FROM signal_chunks sc "
          "JOIN {keys} q ON sc.signal_key = q.k ORDER BY sc.signal_key, sc.chunk_index",
          signal_keys, "signal_chunks");

  // The chunks of the signal being collected; rows arrive grouped by signal_key.
  int64_t current = 0;
  int64_t total = 0;
  std::vector<ChunkLocator> chunks;
  auto finish = [&] {
    if (chunks.empty()) return;
    const std::shared_ptr<model::Signal>& signal = Signal(current);
    if (total != signal->n_values()) {
      throw FormatError({.object = "signal_chunks", .where = "n_values"},
                        "signal " + std::to_string(*signal->id()) + ": chunks hold " +
                            std::to_string(total) + " values, signals.n_values is " +
                            std::to_string(signal->n_values()));
    }
    if (auto source = options_->values(*signal, std::move(chunks))) {
      signal->SetValuesSource(std::move(source));
    }
    chunks.clear();
    total = 0;
  };
  while (std::optional<Chunk> chunk = r.Next()) {
    auto key = chunk->Int64(0);
    auto index = chunk->Int64(1);
    auto source = chunk->Varchar(2);
    auto path = chunk->Varchar(3);
    auto major = chunk->Int64(4);
    auto minor = chunk->Int64(5);
    auto n_values = chunk->Int64(6);
    for (idx_t row = 0; row < chunk->size(); ++row) {
      if (key.Get(row) != current) {
        finish();
        current = key.Get(row);
      }
      if (index.Get(row) != static_cast<int64_t>(chunks.size())) {
        throw FormatError({.object = "signal_chunks", .where = "chunk_index"},
                          "signal " + std::to_string(*Signal(current)->id()) + ": chunk_index " +
                              std::to_string(index.Get(row)) + " where " +
                              std::to_string(chunks.size()) +
                              " was expected (indexes run 0..k-1 without gaps)");
      }
      ChunkLocator locator;
      if (auto s = source.Optional(row)) locator.payload_source = std::string(*s);
      locator.value_path = path.Get(row);
      locator.major = major.Get(row);
      locator.minor = minor.Optional(row);
      locator.n_values = n_values.Get(row);
      total += locator.n_values;
      chunks.push_back(std::move(locator));
    }
  }
  finish();
}

}  // namespace timef::catalog
