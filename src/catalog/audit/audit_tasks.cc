// T1 task rules, T2 answers, T3 from_tasks and positions, X1 packed text, P1 import tables.
#include <algorithm>
#include <string>
#include <vector>

#include "catalog/audit/audit_probe.h"

namespace timef::catalog::audit {
namespace {

const std::vector<std::string> kTargetColumns = {
    "text_value", "text_value_text_key", "integer_value", "float_value", "boolean_value",
    "record_key", "signal_key",          "span_start",    "span_end",    "signal_keys"};

std::string OtherTargetsNull(const std::vector<std::string>& keep) {
  return AllNullExcept(kTargetColumns, keep);
}

// The record a time span resolves to must be the task's single input record, or, when the span
// names signals, the one record those signals share, which must be an input (§14 T1).
// `spans` yields (task_key, label, keys) for every time span; keys NULL = whole input record.
std::string UnresolvedTimeSpans(const std::string& spans) {
  return "WITH spans AS (" + spans +
         "), inputs AS (SELECT task_key, count(*) AS n FROM task_record_refs "
         "WHERE field = 'inputs' GROUP BY task_key), "
         "scoped AS (SELECT x.label, count(DISTINCT src.record_key) AS n, "
         "min(src.record_key) AS record_key FROM (SELECT label, unnest(keys) AS signal_key "
         "FROM spans) x JOIN signals g ON g.signal_key = x.signal_key "
         "JOIN sources src ON src.source_key = g.source_key GROUP BY x.label) "
         "SELECT p.label FROM spans p LEFT JOIN inputs i ON i.task_key = p.task_key "
         "LEFT JOIN scoped s ON s.label = p.label WHERE " +
         Violates(
             "CASE WHEN p.keys IS NULL THEN i.n = 1 ELSE s.n = 1 AND EXISTS (SELECT 1 FROM "
             "task_record_refs r WHERE r.task_key = p.task_key AND r.field = 'inputs' AND "
             "r.record_key = s.record_key) END");
}

}  // namespace

void CheckT1(const Context& ctx) {
  ProbeBatch batch(ctx, "T1");
  batch.Add("tasks.input_modalities", "tasks whose modalities are empty, unsorted or repeated",
            "SELECT task_id FROM tasks WHERE len(input_modalities) = 0 OR "
            "input_modalities <> list_sort(list_distinct(input_modalities))");
  batch.Add("tasks.input_modalities", "tasks with a prompt but without the text modality",
            "SELECT task_id FROM tasks WHERE (prompt IS NOT NULL OR prompt_text_key IS NOT NULL) "
            "AND NOT list_contains(input_modalities, 'text')");
  batch.Add(
      "tasks.input_modalities", "no_input tasks with other modalities or inputs",
      "SELECT t.task_id FROM tasks t WHERE list_contains(t.input_modalities, 'no_input') AND "
      "(t.input_modalities <> ['no_input', 'text'] OR EXISTS (SELECT 1 FROM task_record_refs x "
      "WHERE x.task_key = t.task_key AND x.field = 'inputs'))");
  batch.Add(
      "tasks.scope_type", "tasks whose scope columns break the rule",
      "SELECT task_id FROM tasks WHERE " +
          Violates("CASE scope_type "
                   "WHEN 'time_point' THEN scope_start IS NOT NULL AND scope_end IS NULL AND "
                   "(scope_signal_keys IS NULL OR len(scope_signal_keys) > 0) "
                   "WHEN 'time_interval' THEN scope_start <= scope_end AND "
                   "(scope_signal_keys IS NULL OR len(scope_signal_keys) > 0) "
                   "WHEN 'step_point' THEN scope_start >= 0 AND scope_end IS NULL AND "
                   "len(scope_signal_keys) = 1 "
                   "WHEN 'step_interval' THEN 0 <= scope_start AND scope_start <= scope_end "
                   "AND len(scope_signal_keys) = 1 "
                   "ELSE scope_type IS NULL AND scope_start IS NULL AND scope_end IS NULL AND "
                   "scope_signal_keys IS NULL END"));
  batch.Add("tasks.scope_signal_keys", "time scopes that do not resolve to one input record",
            UnresolvedTimeSpans("SELECT task_key, CAST(task_id AS VARCHAR) AS label, "
                                "scope_signal_keys AS keys FROM tasks "
                                "WHERE scope_type IN ('time_point', 'time_interval')"));
  batch.Add("tasks", "tasks with config columns of another task type",
            "SELECT task_id FROM tasks WHERE (target_schema IS NOT NULL AND task_type <> "
            "'classification') OR ((unit IS NOT NULL OR target_name IS NOT NULL) AND task_type <> "
            "'scalar_prediction') OR (mode IS NOT NULL AND task_type <> 'temporal_localization')");
  const std::string target_rule =
      "CASE x.target_kind "
      "WHEN 'text' THEN " +
      ExactlyOne("text_value", "text_value_text_key") + " AND " +
      OtherTargetsNull({"text_value", "text_value_text_key"}) +
      " WHEN 'integer' THEN integer_value IS NOT NULL AND " + OtherTargetsNull({"integer_value"}) +
      " WHEN 'float' THEN float_value IS NOT NULL AND " + OtherTargetsNull({"float_value"}) +
      " WHEN 'boolean' THEN boolean_value IS NOT NULL AND " + OtherTargetsNull({"boolean_value"}) +
      " WHEN 'record' THEN x.record_key IS NOT NULL AND " + OtherTargetsNull({"record_key"}) +
      " WHEN 'signal' THEN x.signal_key IS NOT NULL AND " + OtherTargetsNull({"signal_key"}) +
      " WHEN 'time_point' THEN span_start IS NOT NULL AND (signal_keys IS NULL OR "
      "len(signal_keys) > 0) AND " +
      OtherTargetsNull({"span_start", "signal_keys"}) +
      " WHEN 'time_interval' THEN span_start <= span_end AND (signal_keys IS NULL OR "
      "len(signal_keys) > 0) AND " +
      OtherTargetsNull({"span_start", "span_end", "signal_keys"}) +
      " WHEN 'step_point' THEN span_start >= 0 AND len(signal_keys) = 1 AND " +
      OtherTargetsNull({"span_start", "signal_keys"}) +
      " WHEN 'step_interval' THEN 0 <= span_start AND span_start <= span_end AND "
      "len(signal_keys) = 1 AND " +
      OtherTargetsNull({"span_start", "span_end", "signal_keys"}) + " END";
  batch.Add("task_targets", "targets whose columns do not match their kind",
            "SELECT t.task_id || '#' || x.position FROM task_targets x JOIN tasks t "
            "ON t.task_key = x.task_key WHERE " +
                Violates(target_rule));
  batch.Add("task_targets.signal_keys", "time targets that do not resolve to one input record",
            UnresolvedTimeSpans("SELECT x.task_key, t.task_id || '#' || x.position AS label, "
                                "x.signal_keys AS keys FROM task_targets x JOIN tasks t "
                                "ON t.task_key = x.task_key "
                                "WHERE x.target_kind IN ('time_point', 'time_interval')"));
  batch.Run();
}

void CheckT2(const Context& ctx) {
  ProbeBatch batch(ctx, "T2");
  batch.Add("tasks.has_inline_targets",
            "tasks answered by target annotations that have target rows or no target annotation",
            "SELECT t.task_id FROM tasks t WHERE NOT t.has_inline_targets AND ("
            "EXISTS (SELECT 1 FROM task_targets x WHERE x.task_key = t.task_key) OR NOT EXISTS ("
            "SELECT 1 FROM task_annotation_refs a WHERE a.task_key = t.task_key "
            "AND a.field = 'target_annotations'))");
  batch.Add(
      "tasks.has_inline_targets", "tasks with inline targets that also have target annotations",
      "SELECT t.task_id FROM tasks t WHERE t.has_inline_targets AND EXISTS (SELECT 1 FROM "
      "task_annotation_refs a WHERE a.task_key = t.task_key AND a.field = 'target_annotations')");
  batch.Add(
      "task_targets.record_key", "ts_correspondence record targets outside candidate_records",
      "SELECT t.task_id || '#' || x.position FROM task_targets x JOIN tasks t "
      "ON t.task_key = x.task_key WHERE t.task_type = 'ts_correspondence' AND "
      "x.target_kind = 'record' AND NOT EXISTS (SELECT 1 FROM task_record_refs c WHERE "
      "c.task_key = x.task_key AND c.field = 'candidate_records' AND c.record_key = x.record_key)");
  batch.Run();
}

void CheckT3(const Context& ctx) {
  ProbeBatch batch(ctx, "T3");
  batch.Add("task_dependencies.parent_task_key", "tasks that derive from themselves",
            "SELECT t.task_id FROM task_dependencies d JOIN tasks t ON t.task_key = d.task_key "
            "WHERE d.parent_task_key = d.task_key");
  // UNION keeps each (task, ancestor) pair once, so the walk ends on cycles and on shared
  // ancestors alike.
  batch.Add("task_dependencies.parent_task_key", "tasks on a from_tasks cycle",
            "WITH RECURSIVE up(start, ancestor) AS ("
            "  SELECT task_key, parent_task_key FROM task_dependencies "
            "  UNION SELECT up.start, d.parent_task_key FROM up "
            "  JOIN task_dependencies d ON d.task_key = up.ancestor) "
            "SELECT DISTINCT t.task_id FROM up JOIN tasks t ON t.task_key = up.start "
            "WHERE up.start = up.ancestor");
  struct Positions {
    const char* table;
    const char* group;
  };
  for (const Positions& p :
       {Positions{"task_targets", "task_key"}, Positions{"task_record_refs", "task_key, field"},
        Positions{"task_annotation_refs", "task_key, field"},
        Positions{"task_dependencies", "task_key"}}) {
    batch.Add(std::string(p.table) + ".position", "lists whose positions do not run 0..n-1",
              std::string("SELECT t.task_id FROM (SELECT task_key FROM ") + p.table + " GROUP BY " +
                  p.group +
                  " HAVING min(position) <> 0 OR max(position) <> count(*) - 1) x "
                  "JOIN tasks t ON t.task_key = x.task_key");
  }
  batch.Run();
}

void CheckX1(const Context& ctx) {
  ProbeBatch batch(ctx, "X1");
  struct Pair {
    const char* table;
    const char* key;
    const char* inline_column;
    const char* packed_column;
    const char* kind;
  };
  for (const Pair& p :
       {Pair{"tasks", "task_id", "prompt", "prompt_text_key", "text"},
        Pair{"tasks", "task_id", "rationale", "rationale_text_key", "text"},
        Pair{"task_targets", "task_key || '#' || position", "text_value", "text_value_text_key",
             "text"},
        Pair{"annotation_contents", "content_key", "text_value", "text_value_text_key", "text"},
        Pair{"annotation_contents", "content_key", "text_list_value", "text_list_value_text_key",
             "text_list"}}) {
    std::string where = std::string(p.table) + "." + p.packed_column;
    batch.Add(where, "rows with both the inline and the packed value",
              std::string("SELECT ") + p.key + " FROM " + p.table + " WHERE " + p.inline_column +
                  " IS NOT NULL AND " + p.packed_column + " IS NOT NULL");
    batch.Add(where, std::string("packed keys whose kind is not ") + p.kind,
              std::string("SELECT x.") + p.packed_column + " FROM " + p.table +
                  " x JOIN text_payloads y ON y.text_key = x." + p.packed_column +
                  " WHERE y.kind <> '" + p.kind + "'");
  }
  batch.Add("text_payloads", "packed texts with a negative row or length",
            "SELECT text_key FROM text_payloads WHERE \"row\" < 0 OR length < 0");
  batch.Run();
}

void CheckP1(const Context& ctx) {
  ProbeBatch batch(ctx, "P1");
  struct Import {
    const char* table;
    const char* local;
    const char* parent;
    const char* objects;
  };
  for (const Import& i : {Import{"record_imports", "record_id", "parent_record_id", "records"},
                          Import{"imported_signals", "signal_id", "parent_signal_id", "signals"},
                          Import{"imported_tasks", "task_id", "parent_task_id", "tasks"}}) {
    const std::string t = i.table;
    const std::string local = i.local;
    batch.Add(t + "." + local, "local IDs that name no object",
              "SELECT x." + local + " FROM " + t + " x ANTI JOIN " + i.objects + " o ON o." +
                  local + " = x." + local);
    batch.Add(t + "." + local, "local IDs imported more than once",
              "SELECT " + local + " FROM " + t + " GROUP BY 1 HAVING count(*) > 1");
    batch.Add(t + ".parent_alias", "aliases missing from dataset_parents",
              "SELECT x.parent_alias FROM " + t +
                  " x ANTI JOIN dataset_parents p "
                  "ON p.alias = x.parent_alias");
    batch.Add(t + "." + i.parent, "(alias, parent ID) pairs imported more than once",
              "SELECT parent_alias || ':' || " + std::string(i.parent) + " FROM " + t +
                  " GROUP BY parent_alias, " + i.parent + " HAVING count(*) > 1");
  }
  batch.Add("imported_annotations.parent_alias", "aliases missing from dataset_parents",
            "SELECT x.parent_alias FROM imported_annotations x ANTI JOIN dataset_parents p "
            "ON p.alias = x.parent_alias");
  batch.Add("imported_annotations.occurrence_key", "occurrences marked more than once",
            "SELECT occurrence_key FROM imported_annotations GROUP BY 1 HAVING count(*) > 1");
  batch.Run();
}

}  // namespace timef::catalog::audit
