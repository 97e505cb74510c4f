// The task, target and annotation tables of a catalog as Arrow tables (docs/format.md §11
// "Tables"), built without model objects. Filters run in DuckDB; IDs are the dataset-assigned
// record, signal and task IDs; packed text is resolved to its string through the text hooks.
#pragma once

#include "catalog/duckdb_database.h"
#include "catalog/hydrate.h"
#include "timef/arrow_table.h"

namespace timef::catalog {

// One row per task matching `filter`, by task_id. `text` must set the text hook (prompt,
// rationale); the string of each packed value is read through it.
ArrowTable TaskTable(Connection& connection, const TaskFilter& filter, const HydrateOptions& text);

// One row per inline target of the tasks matching `filter`, by (task_id, position).
ArrowTable TargetTable(Connection& connection, const TaskFilter& filter,
                       const HydrateOptions& text);

// One row per annotation occurrence, then per registered annotation: occurrences by
// occurrence_key (attach order), registered annotations by position. `text` must set the text
// and text_list hooks.
ArrowTable AnnotationTable(Connection& connection, const HydrateOptions& text);

}  // namespace timef::catalog
