// C4 unique keys, C5 public IDs, C6 references, C7 enumerations, C8 JSON cells.
#include <string>
#include <vector>

#include "catalog/audit/audit_probe.h"
#include "catalog/duckdb/duckdb_result.h"
#include "core/enum_table.h"
#include "core/json_forms.h"
#include "timef/model.h"
#include "timef/units.h"

namespace timef::catalog::audit {
namespace {

struct KeyColumn {
  const char* table;
  const char* column;  // a column or a composite expression
  const char* label;   // how the message names it
  bool storage_key;    // a table's storage key, which must also be positive (§4)
};

// Every key of §14 C4. The shared spaces (object keys, occurrence keys) are checked as unions
// below, after each table on its own.
constexpr KeyColumn kKeys[] = {
    {"datasets", "dataset_key", "datasets.dataset_key", true},
    {"records", "record_key", "records.record_key", true},
    {"sources", "source_key", "sources.source_key", true},
    {"signals", "signal_key", "signals.signal_key", true},
    {"tasks", "task_key", "tasks.task_key", true},
    {"clocks", "clock_id", "clocks.clock_id", true},
    {"axes", "axis_key", "axes.axis_key", true},
    {"annotation_contents", "content_key", "annotation_contents.content_key", true},
    {"annotation_occurrences", "occurrence_key", "annotation_occurrences.occurrence_key", true},
    {"registered_annotations", "occurrence_key", "registered_annotations.occurrence_key", true},
    {"text_payloads", "text_key", "text_payloads.text_key", true},
    {"signal_chunks", "signal_key || '#' || chunk_index", "signal_chunks.(signal_key, chunk_index)",
     false},
    {"task_targets", "task_key || '#' || position", "task_targets.(task_key, position)", false},
    {"task_record_refs", "task_key || '#' || field || '#' || position",
     "task_record_refs.(task_key, field, position)", false},
    {"task_annotation_refs", "task_key || '#' || field || '#' || position",
     "task_annotation_refs.(task_key, field, position)", false},
    {"task_dependencies", "task_key || '#' || position", "task_dependencies.(task_key, position)",
     false},
    {"registered_annotations", "position", "registered_annotations.position", false},
};

struct Reference {
  const char* where;  // table.column, for the message
  const char* sql;    // dangling values
};

// §14 C6: every reference resolves. Each query returns the dangling values.
constexpr Reference kReferences[] = {
    {"records.clock_id",
     "SELECT r.clock_id FROM records r ANTI JOIN clocks c ON c.clock_id = r.clock_id"},
    {"sources.record_key",
     "SELECT s.record_key FROM sources s ANTI JOIN records r ON r.record_key = s.record_key"},
    {"sources.parent_source_key",
     "SELECT s.parent_source_key FROM sources s ANTI JOIN sources p "
     "ON p.source_key = s.parent_source_key WHERE s.parent_source_key IS NOT NULL"},
    {"signals.source_key",
     "SELECT g.source_key FROM signals g ANTI JOIN sources s ON s.source_key = g.source_key"},
    {"signals.axis_key",
     "SELECT g.axis_key FROM signals g ANTI JOIN axes a ON a.axis_key = g.axis_key"},
    {"signal_chunks.signal_key",
     "SELECT c.signal_key FROM signal_chunks c ANTI JOIN signals g ON g.signal_key = c.signal_key"},
    {"annotation_contents.text_value_text_key",
     "SELECT c.text_value_text_key FROM annotation_contents c ANTI JOIN text_payloads p "
     "ON p.text_key = c.text_value_text_key WHERE c.text_value_text_key IS NOT NULL"},
    {"annotation_contents.text_list_value_text_key",
     "SELECT c.text_list_value_text_key FROM annotation_contents c ANTI JOIN text_payloads p "
     "ON p.text_key = c.text_list_value_text_key WHERE c.text_list_value_text_key IS NOT NULL"},
    {"annotation_occurrences.content_key",
     "SELECT o.content_key FROM annotation_occurrences o ANTI JOIN annotation_contents c "
     "ON c.content_key = o.content_key"},
    {"registered_annotations.content_key",
     "SELECT o.content_key FROM registered_annotations o ANTI JOIN annotation_contents c "
     "ON c.content_key = o.content_key"},
    {"imported_annotations.occurrence_key",
     "SELECT i.occurrence_key FROM imported_annotations i ANTI JOIN ("
     "SELECT occurrence_key FROM annotation_occurrences UNION ALL "
     "SELECT occurrence_key FROM registered_annotations) o ON o.occurrence_key = i.occurrence_key"},
    {"tasks.prompt_text_key",
     "SELECT t.prompt_text_key FROM tasks t ANTI JOIN text_payloads p "
     "ON p.text_key = t.prompt_text_key WHERE t.prompt_text_key IS NOT NULL"},
    {"tasks.rationale_text_key",
     "SELECT t.rationale_text_key FROM tasks t ANTI JOIN text_payloads p "
     "ON p.text_key = t.rationale_text_key WHERE t.rationale_text_key IS NOT NULL"},
    {"tasks.scope_signal_keys",
     "SELECT k FROM (SELECT unnest(scope_signal_keys) AS k FROM tasks) x "
     "ANTI JOIN signals g ON g.signal_key = x.k"},
    {"task_targets.task_key",
     "SELECT x.task_key FROM task_targets x ANTI JOIN tasks t ON t.task_key = x.task_key"},
    {"task_targets.text_value_text_key",
     "SELECT x.text_value_text_key FROM task_targets x ANTI JOIN text_payloads p "
     "ON p.text_key = x.text_value_text_key WHERE x.text_value_text_key IS NOT NULL"},
    {"task_targets.record_key",
     "SELECT x.record_key FROM task_targets x ANTI JOIN records r ON r.record_key = x.record_key "
     "WHERE x.record_key IS NOT NULL"},
    {"task_targets.signal_key",
     "SELECT x.signal_key FROM task_targets x ANTI JOIN signals g ON g.signal_key = x.signal_key "
     "WHERE x.signal_key IS NOT NULL"},
    {"task_targets.signal_keys",
     "SELECT k FROM (SELECT unnest(signal_keys) AS k FROM task_targets) x "
     "ANTI JOIN signals g ON g.signal_key = x.k"},
    {"task_record_refs.task_key",
     "SELECT x.task_key FROM task_record_refs x ANTI JOIN tasks t ON t.task_key = x.task_key"},
    {"task_record_refs.record_key",
     "SELECT x.record_key FROM task_record_refs x ANTI JOIN records r "
     "ON r.record_key = x.record_key"},
    {"task_annotation_refs.task_key",
     "SELECT x.task_key FROM task_annotation_refs x ANTI JOIN tasks t ON t.task_key = x.task_key"},
    {"task_annotation_refs.occurrence_key",
     "SELECT x.occurrence_key FROM task_annotation_refs x ANTI JOIN ("
     "SELECT occurrence_key FROM annotation_occurrences UNION ALL "
     "SELECT occurrence_key FROM registered_annotations) o ON o.occurrence_key = x.occurrence_key"},
    {"task_dependencies.task_key",
     "SELECT x.task_key FROM task_dependencies x ANTI JOIN tasks t ON t.task_key = x.task_key"},
    {"task_dependencies.parent_task_key",
     "SELECT x.parent_task_key FROM task_dependencies x ANTI JOIN tasks t "
     "ON t.task_key = x.parent_task_key"},
};

struct Enumeration {
  const char* table;
  const char* column;
  const char* key;  // identifies the offending row in the message
  std::vector<std::string> values;
  bool nullable;
};

// A marker's value_kind is NULL, so the column holds every other ValueKind name.
std::vector<std::string> StoredValueKinds() {
  std::vector<std::string> names = core::EnumNames<model::ValueKind>();
  std::erase(names, std::string(model::ToString(model::ValueKind::kMarker)));
  return names;
}

// The model's enumerations are stored by their names (one table each, core/enum_table.h).
const std::vector<Enumeration>& Enumerations() {
  using core::EnumNames;
  static const std::vector<Enumeration> list = {
      {"axes", "axis_type", "axis_key", EnumNames<model::AxisType>(), false},
      {"signals", "dtype", "signal_id", EnumNames<DType>(), false},
      {"signals", "modality", "signal_id", EnumNames<Modality>(), false},
      {"text_payloads", "kind", "text_key", {"text", "text_list"}, false},
      {"annotation_contents", "value_kind", "content_key", StoredValueKinds(), true},
      {"annotation_occurrences",
       "object_type",
       "occurrence_key",
       {"Dataset", "Record", "Source", "Signal", "Task"},
       false},
      {"annotation_occurrences", "span_type", "occurrence_key", EnumNames<AnnotationType>(), false},
      {"registered_annotations", "span_type", "occurrence_key", EnumNames<AnnotationType>(), false},
      {"tasks", "task_type", "task_id", EnumNames<TaskType>(), false},
      {"tasks", "split", "task_id", EnumNames<model::Split>(), true},
      {"tasks", "scope_type", "task_id", EnumNames<model::SpanKind>(), true},
      {"tasks", "mode", "task_id", EnumNames<model::LocalizationMode>(), true},
      {"task_targets", "target_kind", "task_key", EnumNames<model::TargetKind>(), false},
      {"task_record_refs", "field", "task_key", {"inputs", "candidate_records"}, false},
      {"task_annotation_refs",
       "field",
       "task_key",
       {"input_annotations", "target_annotations"},
       false},
  };
  return list;
}

struct JsonColumn {
  const char* table;
  const char* column;
  const char* key;
  bool object;  // metadata cells hold an object
};

constexpr JsonColumn kJsonColumns[] = {
    {"records", "metadata", "record_id", true},
    {"sources", "metadata", "source_key", true},
    {"signals", "metadata", "signal_id", true},
    {"annotation_contents", "metadata", "content_key", true},
    {"annotation_occurrences", "provenance", "occurrence_key", false},
    {"annotation_occurrences", "metadata", "occurrence_key", true},
    {"registered_annotations", "provenance", "occurrence_key", false},
    {"registered_annotations", "metadata", "occurrence_key", true},
    {"tasks", "metadata", "task_id", true},
};

}  // namespace

void CheckC4(const Context& ctx) {
  ProbeBatch batch(ctx, "C4");
  for (const KeyColumn& k : kKeys) {
    if (!k.storage_key) continue;
    batch.Add(
        k.label, "keys that are not positive",
        std::string("SELECT ") + k.column + " FROM " + k.table + " WHERE " + k.column + " <= 0");
  }
  for (const KeyColumn& k : kKeys) {
    batch.Add(k.label, "duplicate keys",
              std::string("SELECT ") + k.column + " AS k FROM " + k.table +
                  " GROUP BY k HAVING count(*) > 1");
  }
  batch.Add("object_key_sequence", "keys shared by two objects",
            "SELECT k FROM (SELECT dataset_key AS k FROM datasets UNION ALL "
            "SELECT record_key FROM records UNION ALL SELECT source_key FROM sources UNION ALL "
            "SELECT signal_key FROM signals UNION ALL SELECT task_key FROM tasks) "
            "GROUP BY k HAVING count(*) > 1");
  batch.Add("occurrence_key_sequence", "keys shared by an occurrence and a registered annotation",
            "SELECT o.occurrence_key FROM annotation_occurrences o "
            "SEMI JOIN registered_annotations g ON g.occurrence_key = o.occurrence_key");
  batch.Run();
}

void CheckC5(const Context& ctx) {
  ProbeBatch batch(ctx, "C5");
  for (const char* kind : {"record", "signal", "task"}) {
    std::string table = std::string(kind) + "s";
    std::string column = std::string(kind) + "_id";
    batch.Add(table + "." + column, "IDs that are not positive",
              "SELECT " + column + " FROM " + table + " WHERE " + column + " <= 0");
    batch.Add(table + "." + column, "duplicate IDs",
              "SELECT " + column + " FROM " + table + " GROUP BY 1 HAVING count(*) > 1");
  }
  batch.Run();
}

void CheckC6(const Context& ctx) {
  ProbeBatch batch(ctx, "C6");
  for (const Reference& r : kReferences) batch.Add(r.where, "dangling references", r.sql);
  batch.Run();
}

void CheckC7(const Context& ctx) {
  ProbeBatch batch(ctx, "C7");
  for (const Enumeration& e : Enumerations()) {
    std::string condition = std::string(e.column) + " NOT IN (" + SqlList(e.values) + ")";
    if (!e.nullable) condition = e.column + std::string(" IS NULL OR ") + condition;
    batch.Add(std::string(e.table) + "." + e.column, "rows with a value outside the list",
              std::string("SELECT ") + e.key + " || ': ' || coalesce(" + e.column +
                  ", 'NULL') FROM " + e.table + " WHERE " + condition);
  }
  batch.Add("tasks.input_modalities", "rows with a value outside the list",
            "SELECT task_id || ': ' || m FROM (SELECT task_id, unnest(input_modalities) AS m "
            "FROM tasks) WHERE m IS NULL OR m NOT IN ('audio', 'image', 'no_input', 'text', "
            "'time_series')");
  batch.Run();
  // Stored units must be canonical (§5.4); the distinct spellings are few, so they are parsed here.
  for (const char* table : {"signals", "annotation_contents", "tasks"}) {
    std::vector<std::string> bad;
    for (const Row& row : Rows(ctx,
                               std::string("SELECT DISTINCT unit FROM ") + table +
                                   " WHERE unit IS NOT NULL ORDER BY 1",
                               table)) {
      if (!IsCanonicalUnit(*row[0])) bad.push_back("'" + *row[0] + "'");
    }
    FailIfAny(ctx, "C7", std::string(table) + ".unit", "units that are not canonical", bad);
  }
}

void CheckC8(const Context& ctx) {
  // DuckDB's JSON type accepts duplicate keys, so every cell is parsed with the strict parser of
  // §2.5: one streaming query per JSON column.
  for (const JsonColumn& j : kJsonColumns) {
    std::vector<std::string> bad;
    int64_t count = 0;
    Result result =
        ctx.connection.Query(std::string("SELECT ") + j.key + ", " + j.column + " FROM " + j.table +
                                 " WHERE " + j.column + " IS NOT NULL ORDER BY 1",
                             j.table);
    while (auto chunk = result.Next()) {
      auto key = chunk->Int64(0);
      auto text = chunk->Varchar(1);
      for (idx_t row = 0; row < chunk->size(); ++row) {
        std::string problem;
        std::optional<Json> value = ParseJsonStrict(text.Get(row), &problem);
        if (value && j.object && !value->is_object()) problem = "not an object";
        if (!value || !problem.empty()) {
          ++count;
          if (bad.size() < kMaxExamples)
            bad.push_back(std::to_string(key.Get(row)) + ": " + problem);
        }
      }
    }
    if (count > 0) {
      Fail(ctx, "C8", std::string(j.table) + "." + j.column, count,
           j.object ? "cells that are not strict JSON objects" : "cells that are not strict JSON",
           bad);
    }
  }
}

}  // namespace timef::catalog::audit
