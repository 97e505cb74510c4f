// ID lookups a reader needs without building objects: record IDs in read order, whether records
// and tasks exist (and the type of given tasks). Unknown IDs raise NotFoundError listing all of
// them (FORMAT.md §12), before anything is built.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "catalog/duckdb_database.h"
#include "timef/model.h"

namespace timef::catalog {

// "7, 9, 12" (at most 20, then "… (N in all)"), for NotFoundError messages.
std::string ListIds(std::span<const int64_t> ids);

std::vector<int64_t> RecordIdsInReadOrder(Connection& connection);

// NotFoundError naming every ID of `ids` that is not a record.
void CheckRecordIds(Connection& connection, std::span<const int64_t> ids);

// NotFoundError naming every ID that is not a task, or (with `type`) a task of another type.
void CheckTaskIds(Connection& connection, std::span<const int64_t> ids,
                  std::optional<model::TaskType> type);

}  // namespace timef::catalog
