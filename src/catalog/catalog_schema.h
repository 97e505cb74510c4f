// The catalog schema of docs/format.md §6.2, §6.3 and §6.8 as data: the DDL, the reader's
// first-access checks and the audit all derive from these tables.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace timef::catalog {

class Connection;

inline constexpr int64_t kSchemaVersion = 1;

enum class ColumnType { kBigint, kDouble, kBoolean, kVarchar, kJson, kVarcharList, kBigintList };

// DuckDB's spelling, as duckdb_columns().data_type shows it: "BIGINT", "JSON", "VARCHAR[]", ...
std::string_view SqlTypeName(ColumnType type);

// A column as the open catalog declares it.
struct ColumnInfo {
  std::string type;  // DuckDB's spelling (SqlTypeName)
  bool nullable = true;
};

// relation (table or view of the main schema) -> column -> info.
using Relations =
    std::map<std::string, std::map<std::string, ColumnInfo, std::less<>>, std::less<>>;

// Every column of the main schema's tables and views, from one walk over duckdb_columns(). Used by
// the reader's first-access checks and by the audit.
Relations ReadRelations(Connection& connection);

struct ColumnSpec {
  std::string_view name;
  ColumnType type;
  bool not_null;
  std::string_view key_sequence = {};  // non-empty: DEFAULT nextval('<sequence>')
};

// The tables of §6.3, in creation order.
enum class CatalogTable {
  kControlMetadata,
  kDatasets,
  kDatasetParents,
  kClocks,
  kRecords,
  kRecordImports,
  kSources,
  kAxes,
  kSignals,
  kImportedSignals,
  kSignalChunks,
  kTextPayloads,
  kAnnotationContents,
  kAnnotationOccurrences,
  kImportedAnnotations,
  kRegisteredAnnotations,
  kTasks,
  kImportedTasks,
  kTaskTargets,
  kTaskRecordRefs,
  kTaskAnnotationRefs,
  kTaskDependencies,
};

struct TableSpec {
  CatalogTable id;
  std::string_view name;
  std::span<const ColumnSpec> columns;
};

struct ViewColumnSpec {
  std::string_view name;
  ColumnType type;
};

struct ViewSpec {
  std::string_view name;
  std::span<const ViewColumnSpec> columns;
  std::string_view select;  // the view's SELECT
};

// All tables in §6.3 order.
std::span<const TableSpec> CatalogTables();
const TableSpec& TableSpecOf(CatalogTable table);
std::string_view TableName(CatalogTable table);
// The sequences of §6.2, in creation order.
std::span<const std::string_view> KeySequences();
// The views of §6.5, in creation order.
std::span<const ViewSpec> CatalogViews();

// The high-water marks stored in control_metadata (§4, §6.3).
struct HighWaterMarks {
  int64_t max_record_id = 0;
  int64_t max_signal_id = 0;
  int64_t max_task_id = 0;
};

// The schema statements in order: sequences, tables, views, control_metadata rows.
std::vector<std::string> SchemaStatements(const HighWaterMarks& marks);

// Runs SchemaStatements() in one transaction.
void CreateSchema(Connection& connection, const HighWaterMarks& marks);

// A SQL string literal ('...' with quotes doubled).
std::string SqlQuote(std::string_view text);

}  // namespace timef::catalog
