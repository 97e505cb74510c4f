// The task, target and annotation tables of a catalog as Arrow tables (docs/format.md §11
// "Tables"), built without model objects. Filters run in DuckDB; IDs are the dataset-assigned
// record, signal and task IDs; packed text is resolved to its string through a ValueResolver.
#pragma once

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/hydrate/hydrate.h"
#include "catalog/hydrate/value_resolver.h"
#include "timef/arrow_table.h"

namespace timef::catalog {

// One row per task matching `filter`, by task_id. The string of each packed prompt or rationale is
// read through text.Text().
ArrowTable TaskTable(Connection& connection, const TaskFilter& filter, const ValueResolver& text);

// One row per inline target of the tasks matching `filter`, by (task_id, position); packed text
// through text.Text().
ArrowTable TargetTable(Connection& connection, const TaskFilter& filter, const ValueResolver& text);

// One row per annotation occurrence, then per registered annotation: occurrences by
// occurrence_key (attach order), registered annotations by position. Packed values are read
// through text.Text() and text.TextList().
ArrowTable AnnotationTable(Connection& connection, const ValueResolver& text);

}  // namespace timef::catalog
