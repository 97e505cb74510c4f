// The compact facts a reader needs to read a signal's values without building its record: the
// signal's ID, its record's ID, its Spec and its chunk locators (docs/format.md §6.4), for every
// signal or for given IDs, in one query.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "core/locators.h"
#include "timef/model.h"

namespace timef::catalog {

struct SignalLocatorRow {
  int64_t signal_id = 0;
  int64_t record_id = 0;
  int64_t n_values = 0;
  std::shared_ptr<const model::Spec> spec;  // one object per distinct spec in a call
  std::vector<ChunkLocator> chunks;         // chunk_index order, checked to cover n_values
};

// Calls `row` once per signal, by signal_id: every signal when `ids` is nullopt, else the signals
// among `ids` (unknown IDs are skipped; the caller reports them). FormatError for chunk rows that
// skip an index or do not add up to n_values.
void ForEachSignalLocator(Connection& connection, std::optional<std::span<const int64_t>> ids,
                          const std::function<void(SignalLocatorRow&&)>& row);

}  // namespace timef::catalog
