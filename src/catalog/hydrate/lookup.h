// ID lookups a reader needs without building objects: record IDs in read order, whether records
// and tasks exist (and the type of given tasks). Unknown IDs raise NotFoundError listing all of
// them (docs/format.md §12), before anything is built.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "timef/error.h"
#include "timef/model.h"

namespace timef::catalog {

// "7, 9, 12" (at most 20, then "… (N in all)"), for NotFoundError messages.
std::string ListIds(std::span<const int64_t> ids);

// The error of every by-ID request that meets unknown IDs, so that each path words it alike:
// "<kind>s: <kind>_id: no [<qualifier> ]<kind> with ID 7, 9" (kind "record", "signal", "task";
// qualifier e.g. a task type).
NotFoundError UnknownIds(std::string_view kind, std::span<const int64_t> ids,
                         std::string_view qualifier = {});

std::vector<int64_t> RecordIdsInReadOrder(Connection& connection);

// Every signal ID of the release in storage order. With `records_first`: records in read order
// (§6.9), a record's signals by where their first chunk lives (the §6.9 tuple; signals without
// values last), ties by signal_id. Without: by where the first chunk lives alone (signals without
// values last), ties by record read order, then signal_id.
std::vector<int64_t> SignalIdsInStorageOrder(Connection& connection, bool records_first);

// NotFoundError naming every ID of `ids` that is not a record.
void CheckRecordIds(Connection& connection, std::span<const int64_t> ids);

// NotFoundError naming every ID that is not a task, or (with `type`) a task of another type.
void CheckTaskIds(Connection& connection, std::span<const int64_t> ids,
                  std::optional<model::TaskType> type);

// The child-local ID of the object of `kind` ("Record", "Signal" or "Task", the import_refs
// kinds) imported from `alias` with the parent's ID `parent_id` (docs/format.md §10), or nullopt.
std::optional<int64_t> LocalIdOfImport(Connection& connection, std::string_view kind,
                                       std::string_view alias, int64_t parent_id);

}  // namespace timef::catalog
