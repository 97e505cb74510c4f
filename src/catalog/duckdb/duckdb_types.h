// Mapping between DuckDB logical types and the column kinds of docs/format.md §6.1.
#pragma once

#include <duckdb.h>

#include <string>
#include <string_view>

#include "catalog/duckdb/duckdb_result.h"

namespace timef::catalog {

// kOther for every type outside docs/format.md §6.1.
ColumnKind ClassifyType(duckdb_logical_type type);
// DuckDB's spelling of the type for messages ("BIGINT", "VARCHAR[]", "JSON", "INTEGER", ...).
std::string LogicalTypeName(duckdb_logical_type type);
std::string_view ColumnKindName(ColumnKind kind);

}  // namespace timef::catalog
