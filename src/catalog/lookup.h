// ID lookups a reader needs without building objects: record IDs in read order, which records
// hold given signals, the type of given tasks. Unknown IDs raise NotFoundError listing all of
// them (FORMAT.md §12), before anything is built.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "catalog/duckdb_database.h"
#include "timef/model.h"

namespace timef::catalog {

std::vector<int64_t> RecordIdsInReadOrder(Connection& connection);

// NotFoundError naming every ID of `ids` that is not a record.
void CheckRecordIds(Connection& connection, std::span<const int64_t> ids);

// The record ID holding each signal, in the order of `signal_ids`.
std::vector<int64_t> RecordIdsOfSignals(Connection& connection,
                                        std::span<const int64_t> signal_ids);

// NotFoundError naming every ID that is not a task, or (with `type`) a task of another type.
void CheckTaskIds(Connection& connection, std::span<const int64_t> ids,
                  std::optional<model::TaskType> type);

}  // namespace timef::catalog
