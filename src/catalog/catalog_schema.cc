#include "catalog/catalog_schema.h"

#include <array>
#include <string>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

using enum ColumnType;

constexpr std::string_view kObjectSeq = "object_key_sequence";
constexpr std::string_view kAxisSeq = "axis_key_sequence";
constexpr std::string_view kContentSeq = "content_key_sequence";
constexpr std::string_view kOccurrenceSeq = "occurrence_key_sequence";
constexpr std::string_view kTextSeq = "text_key_sequence";

constexpr std::array<std::string_view, 5> kSequences = {kObjectSeq, kAxisSeq, kContentSeq,
                                                        kOccurrenceSeq, kTextSeq};

constexpr ColumnSpec kControlMetadataColumns[] = {
    {"key", kVarchar, true},
    {"value", kVarchar, true},
};
constexpr ColumnSpec kDatasetsColumns[] = {
    {"dataset_key", kBigint, true, kObjectSeq},
    {"dataset_id", kVarchar, true},
    {"dataset_version", kVarchar, true},
};
constexpr ColumnSpec kDatasetParentsColumns[] = {
    {"alias", kVarchar, true},
    {"dataset_id", kVarchar, true},
    {"version", kVarchar, true},
    {"position", kBigint, true},
};
constexpr ColumnSpec kClocksColumns[] = {
    {"clock_id", kBigint, true},
    {"start_time_us", kBigint, false},
};
constexpr ColumnSpec kRecordsColumns[] = {
    {"record_key", kBigint, true, kObjectSeq},
    {"record_id", kBigint, true},
    {"clock_id", kBigint, true},
    {"time_span_start_us", kBigint, false},
    {"time_span_end_us", kBigint, false},
    {"metadata", kJson, true},
    {"read_order", kBigint, true},
};
constexpr ColumnSpec kRecordImportsColumns[] = {
    {"record_id", kBigint, true},
    {"parent_alias", kVarchar, true},
    {"parent_record_id", kBigint, true},
};
constexpr ColumnSpec kSourcesColumns[] = {
    {"source_key", kBigint, true, kObjectSeq},
    {"record_key", kBigint, true},
    {"parent_source_key", kBigint, false},
    {"name", kVarchar, true},
    {"metadata", kJson, true},
};
constexpr ColumnSpec kAxesColumns[] = {
    {"axis_key", kBigint, true, kAxisSeq},
    {"axis_type", kVarchar, true},
    {"period_numerator_us", kBigint, false},
    {"period_denominator", kBigint, false},
    {"start_index", kBigint, false},
    {"offset_us", kBigint, false},
    {"first_us", kBigint, false},
    {"last_us", kBigint, false},
    {"offsets_payload_source", kVarchar, false},
    {"offsets_path", kVarchar, false},
    {"offsets_row", kBigint, false},
    {"offsets_n_values", kBigint, false},
    {"offsets_digest", kVarchar, false},
};
constexpr ColumnSpec kSignalsColumns[] = {
    {"signal_key", kBigint, true, kObjectSeq},
    {"signal_id", kBigint, true},
    {"source_key", kBigint, true},
    {"name", kVarchar, true},
    {"axis_key", kBigint, true},
    {"spec_type", kVarchar, true},
    {"spec_name", kVarchar, true},
    {"unit", kVarchar, false},
    {"dtype", kVarchar, true},
    {"categories", kVarcharList, true},
    {"value_shape", kBigintList, true},
    {"dimension_names", kVarcharList, true},
    {"nullable", kBoolean, true},
    {"n_values", kBigint, true},
    {"metadata", kJson, true},
    {"modality", kVarchar, true},
    {"source_id", kVarchar, false},
};
constexpr ColumnSpec kImportedSignalsColumns[] = {
    {"signal_id", kBigint, true},
    {"parent_alias", kVarchar, true},
    {"parent_signal_id", kBigint, true},
};
constexpr ColumnSpec kSignalChunksColumns[] = {
    {"signal_key", kBigint, true},        {"chunk_index", kBigint, true},
    {"payload_source", kVarchar, false},  {"value_path", kVarchar, true},
    {"chunk_major_index", kBigint, true}, {"chunk_minor_index", kBigint, false},
    {"n_values", kBigint, true},
};
constexpr ColumnSpec kTextPayloadsColumns[] = {
    {"text_key", kBigint, true, kTextSeq},
    {"payload_source", kVarchar, false},
    {"file", kVarchar, true},
    {"row", kBigint, true},
    {"kind", kVarchar, true},
    {"length", kBigint, true},
};
constexpr ColumnSpec kAnnotationContentsColumns[] = {
    {"content_key", kBigint, true, kContentSeq},
    {"name", kVarchar, true},
    {"value_kind", kVarchar, false},
    {"text_value", kVarchar, false},
    {"text_value_text_key", kBigint, false},
    {"integer_value", kBigint, false},
    {"float_value", kDouble, false},
    {"boolean_value", kBoolean, false},
    {"text_list_value", kVarcharList, false},
    {"text_list_value_text_key", kBigint, false},
    {"unit", kVarchar, false},
    {"description", kVarchar, false},
    {"metadata", kJson, true},
};
constexpr ColumnSpec kAnnotationOccurrencesColumns[] = {
    {"occurrence_key", kBigint, true, kOccurrenceSeq},
    {"content_key", kBigint, true},
    {"object_type", kVarchar, true},
    {"object_key", kBigint, true},
    {"span_type", kVarchar, true},
    {"start_us", kBigint, false},
    {"end_us", kBigint, false},
    {"provenance", kJson, false},
    {"confidence", kDouble, false},
    {"metadata", kJson, true},
};
constexpr ColumnSpec kImportedAnnotationsColumns[] = {
    {"occurrence_key", kBigint, true},
    {"parent_alias", kVarchar, true},
};
constexpr ColumnSpec kRegisteredAnnotationsColumns[] = {
    {"occurrence_key", kBigint, true, kOccurrenceSeq},
    {"content_key", kBigint, true},
    {"position", kBigint, true},
    {"span_type", kVarchar, true},
    {"start_us", kBigint, false},
    {"end_us", kBigint, false},
    {"provenance", kJson, false},
    {"confidence", kDouble, false},
    {"metadata", kJson, true},
};
constexpr ColumnSpec kTasksColumns[] = {
    {"task_key", kBigint, true, kObjectSeq},
    {"task_id", kBigint, true},
    {"task_type", kVarchar, true},
    {"prompt", kVarchar, false},
    {"prompt_text_key", kBigint, false},
    {"input_modalities", kVarcharList, true},
    {"split", kVarchar, false},
    {"scope_type", kVarchar, false},
    {"scope_start", kBigint, false},
    {"scope_end", kBigint, false},
    {"scope_signal_keys", kBigintList, false},
    {"has_inline_targets", kBoolean, true},
    {"target_schema", kVarchar, false},
    {"unit", kVarchar, false},
    {"target_name", kVarchar, false},
    {"mode", kVarchar, false},
    {"rationale", kVarchar, false},
    {"rationale_text_key", kBigint, false},
    {"metadata", kJson, true},
};
constexpr ColumnSpec kImportedTasksColumns[] = {
    {"task_id", kBigint, true},
    {"parent_alias", kVarchar, true},
    {"parent_task_id", kBigint, true},
};
constexpr ColumnSpec kTaskTargetsColumns[] = {
    {"task_key", kBigint, true},
    {"position", kBigint, true},
    {"target_kind", kVarchar, true},
    {"text_value", kVarchar, false},
    {"text_value_text_key", kBigint, false},
    {"integer_value", kBigint, false},
    {"float_value", kDouble, false},
    {"boolean_value", kBoolean, false},
    {"record_key", kBigint, false},
    {"signal_key", kBigint, false},
    {"span_start", kBigint, false},
    {"span_end", kBigint, false},
    {"signal_keys", kBigintList, false},
};
constexpr ColumnSpec kTaskRecordRefsColumns[] = {
    {"task_key", kBigint, true},
    {"field", kVarchar, true},
    {"position", kBigint, true},
    {"record_key", kBigint, true},
};
constexpr ColumnSpec kTaskAnnotationRefsColumns[] = {
    {"task_key", kBigint, true},
    {"field", kVarchar, true},
    {"position", kBigint, true},
    {"occurrence_key", kBigint, true},
};
constexpr ColumnSpec kTaskDependenciesColumns[] = {
    {"task_key", kBigint, true},
    {"position", kBigint, true},
    {"parent_task_key", kBigint, true},
};

using enum CatalogTable;
constexpr TableSpec kTables[] = {
    {kControlMetadata, "control_metadata", kControlMetadataColumns},
    {kDatasets, "datasets", kDatasetsColumns},
    {kDatasetParents, "dataset_parents", kDatasetParentsColumns},
    {kClocks, "clocks", kClocksColumns},
    {kRecords, "records", kRecordsColumns},
    {kRecordImports, "record_imports", kRecordImportsColumns},
    {kSources, "sources", kSourcesColumns},
    {kAxes, "axes", kAxesColumns},
    {kSignals, "signals", kSignalsColumns},
    {kImportedSignals, "imported_signals", kImportedSignalsColumns},
    {kSignalChunks, "signal_chunks", kSignalChunksColumns},
    {kTextPayloads, "text_payloads", kTextPayloadsColumns},
    {kAnnotationContents, "annotation_contents", kAnnotationContentsColumns},
    {kAnnotationOccurrences, "annotation_occurrences", kAnnotationOccurrencesColumns},
    {kImportedAnnotations, "imported_annotations", kImportedAnnotationsColumns},
    {kRegisteredAnnotations, "registered_annotations", kRegisteredAnnotationsColumns},
    {kTasks, "tasks", kTasksColumns},
    {kImportedTasks, "imported_tasks", kImportedTasksColumns},
    {kTaskTargets, "task_targets", kTaskTargetsColumns},
    {kTaskRecordRefs, "task_record_refs", kTaskRecordRefsColumns},
    {kTaskAnnotationRefs, "task_annotation_refs", kTaskAnnotationRefsColumns},
    {kTaskDependencies, "task_dependencies", kTaskDependenciesColumns},
};

constexpr ViewColumnSpec kSignalRefsColumns[] = {
    {"signal_key", kBigint},
    {"signal_id", kBigint},
    {"record_key", kBigint},
};
constexpr ViewColumnSpec kAnnotationRefsColumns[] = {
    {"occurrence_key", kBigint}, {"content_key", kBigint}, {"object_type", kVarchar},
    {"object_key", kBigint},     {"object_id", kBigint},   {"registered", kBoolean},
    {"inherited", kBoolean},
};
constexpr ViewColumnSpec kImportRefsColumns[] = {
    {"kind", kVarchar},
    {"local_id", kBigint},
    {"parent_alias", kVarchar},
    {"parent_id", kBigint},
};

// object_id: the public ID for Record/Signal/Task, the storage key for a Source, NULL for the
// dataset. Joins (not scalar subqueries) so that a view over a corrupt catalog still answers.
constexpr std::string_view kAnnotationRefsSelect =
    "SELECT o.occurrence_key, o.content_key, o.object_type, o.object_key, "
    "CASE o.object_type WHEN 'Record' THEN r.record_id WHEN 'Signal' THEN s.signal_id "
    "WHEN 'Task' THEN t.task_id WHEN 'Source' THEN o.object_key END AS object_id, "
    "false AS registered, "
    "o.occurrence_key IN (SELECT occurrence_key FROM imported_annotations) AS inherited "
    "FROM annotation_occurrences o "
    "LEFT JOIN records r ON o.object_type = 'Record' AND r.record_key = o.object_key "
    "LEFT JOIN signals s ON o.object_type = 'Signal' AND s.signal_key = o.object_key "
    "LEFT JOIN tasks t ON o.object_type = 'Task' AND t.task_key = o.object_key "
    "UNION ALL "
    "SELECT g.occurrence_key, g.content_key, CAST(NULL AS VARCHAR), CAST(NULL AS BIGINT), "
    "CAST(NULL AS BIGINT), true, "
    "g.occurrence_key IN (SELECT occurrence_key FROM imported_annotations) "
    "FROM registered_annotations g";

constexpr ViewSpec kViews[] = {
    {"signal_refs", kSignalRefsColumns,
     "SELECT s.signal_key, s.signal_id, src.record_key FROM signals s "
     "JOIN sources src ON src.source_key = s.source_key"},
    {"annotation_refs", kAnnotationRefsColumns, kAnnotationRefsSelect},
    {"import_refs", kImportRefsColumns,
     "SELECT CAST('Record' AS VARCHAR) AS kind, record_id AS local_id, parent_alias, "
     "parent_record_id AS parent_id FROM record_imports "
     "UNION ALL SELECT 'Signal', signal_id, parent_alias, parent_signal_id FROM imported_signals "
     "UNION ALL SELECT 'Task', task_id, parent_alias, parent_task_id FROM imported_tasks"},
};

std::string Quoted(std::string_view identifier) {
  std::string out = "\"";
  for (char c : identifier) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

}  // namespace

std::string_view SqlTypeName(ColumnType type) {
  switch (type) {
    case kBigint:
      return "BIGINT";
    case kDouble:
      return "DOUBLE";
    case kBoolean:
      return "BOOLEAN";
    case kVarchar:
      return "VARCHAR";
    case kJson:
      return "JSON";
    case kVarcharList:
      return "VARCHAR[]";
    case kBigintList:
      return "BIGINT[]";
  }
  return "?";
}

std::span<const TableSpec> CatalogTables() { return kTables; }

const TableSpec& TableSpecOf(CatalogTable table) { return kTables[static_cast<size_t>(table)]; }

std::string_view TableName(CatalogTable table) { return TableSpecOf(table).name; }

std::span<const std::string_view> KeySequences() { return kSequences; }

std::span<const ViewSpec> CatalogViews() { return kViews; }

std::string SqlQuote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::vector<std::string> SchemaStatements(const HighWaterMarks& marks) {
  std::vector<std::string> out;
  for (std::string_view sequence : kSequences) {
    out.push_back("CREATE SEQUENCE " + Quoted(sequence) + " START 1");
  }
  for (const TableSpec& table : kTables) {
    std::string sql = "CREATE TABLE " + Quoted(table.name) + " (";
    for (size_t i = 0; i < table.columns.size(); ++i) {
      const ColumnSpec& c = table.columns[i];
      if (i > 0) sql += ", ";
      sql += Quoted(c.name) + " " + std::string(SqlTypeName(c.type));
      if (c.not_null) sql += " NOT NULL";
      if (!c.key_sequence.empty()) sql += " DEFAULT nextval(" + SqlQuote(c.key_sequence) + ")";
    }
    out.push_back(sql + ")");
  }
  for (const ViewSpec& view : kViews) {
    std::string sql = "CREATE VIEW " + Quoted(view.name) + " (";
    for (size_t i = 0; i < view.columns.size(); ++i) {
      if (i > 0) sql += ", ";
      sql += Quoted(view.columns[i].name);
    }
    out.push_back(sql + ") AS " + std::string(view.select));
  }
  out.push_back(
      "INSERT INTO control_metadata (\"key\", \"value\") VALUES "
      "('schema_version', " +
      SqlQuote(std::to_string(kSchemaVersion)) +
      "), "
      "('max_record_id', " +
      SqlQuote(std::to_string(marks.max_record_id)) +
      "), "
      "('max_signal_id', " +
      SqlQuote(std::to_string(marks.max_signal_id)) +
      "), "
      "('max_task_id', " +
      SqlQuote(std::to_string(marks.max_task_id)) + ")");
  return out;
}

void CreateSchema(Connection& connection, const HighWaterMarks& marks) {
  if (marks.max_record_id < 0 || marks.max_signal_id < 0 || marks.max_task_id < 0) {
    throw ValidationError(ErrorSite{.file = connection.path(), .where = "control_metadata"},
                          "high-water marks must be >= 0");
  }
  Transaction transaction(connection);
  for (const std::string& statement : SchemaStatements(marks)) {
    connection.Execute(statement, "schema");
  }
  transaction.Commit();
}

Relations ReadRelations(Connection& connection) {
  Result result = connection.Query(
      "SELECT table_name, column_name, data_type, is_nullable FROM duckdb_columns() "
      "WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal",
      "duckdb_columns()");
  Relations out;
  while (auto chunk = result.Next()) {
    VarcharColumn table = chunk->Varchar(0);
    VarcharColumn column = chunk->Varchar(1);
    VarcharColumn type = chunk->Varchar(2);
    auto nullable = chunk->Bool(3);
    for (idx_t row = 0; row < chunk->size(); ++row) {
      out[std::string(table.Get(row))][std::string(column.Get(row))] =
          ColumnInfo{std::string(type.Get(row)), nullable.Get(row)};
    }
  }
  return out;
}

}  // namespace timef::catalog
