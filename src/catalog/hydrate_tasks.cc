// HydrateGraph::LoadTasks: the task half of the graph.
#include <algorithm>
#include <string>

#include "catalog/duckdb_result.h"
#include "catalog/hydrate_graph.h"
#include "timef/error.h"
#include "timef/json.h"

namespace timef::catalog {
namespace {

// Every task reachable from the requested ones through from_tasks or a reference to an
// occurrence carried by a task.
constexpr std::string_view kClosure =
    "WITH RECURSIVE closure(task_key) AS ("
    " SELECT k FROM {keys} UNION"
    " SELECT e.next FROM closure c JOIN ("
    "  SELECT task_key, parent_task_key AS next FROM task_dependencies"
    "  UNION ALL SELECT r.task_key, o.object_key FROM task_annotation_refs r"
    "  JOIN annotation_occurrences o ON o.occurrence_key = r.occurrence_key"
    "  WHERE o.object_type = 'Task') e ON e.task_key = c.task_key) ";

// The records a set of tasks reaches: record refs, record targets, the records holding signals
// named by targets and scopes, and the records carrying referenced occurrences.
constexpr std::string_view kRecordsOfTasks =
    "SELECT record_key FROM task_record_refs WHERE task_key IN (SELECT k FROM {keys}) "
    "UNION SELECT record_key FROM task_targets WHERE task_key IN (SELECT k FROM {keys}) "
    "AND record_key IS NOT NULL "
    "UNION SELECT sr.record_key FROM signal_refs sr WHERE sr.signal_key IN ("
    " SELECT signal_key FROM task_targets WHERE task_key IN (SELECT k FROM {keys})"
    " UNION SELECT unnest(signal_keys) FROM task_targets WHERE task_key IN (SELECT k FROM {keys})"
    " UNION SELECT unnest(scope_signal_keys) FROM tasks WHERE task_key IN (SELECT k FROM {keys})"
    " UNION SELECT o.object_key FROM task_annotation_refs r JOIN annotation_occurrences o"
    "  ON o.occurrence_key = r.occurrence_key WHERE o.object_type = 'Signal'"
    "  AND r.task_key IN (SELECT k FROM {keys})) "
    "UNION SELECT CASE o.object_type WHEN 'Record' THEN o.object_key ELSE s.record_key END "
    "FROM task_annotation_refs r JOIN annotation_occurrences o "
    "ON o.occurrence_key = r.occurrence_key LEFT JOIN sources s ON s.source_key = o.object_key "
    "WHERE o.object_type IN ('Record', 'Source') AND r.task_key IN (SELECT k FROM {keys})";

std::vector<int64_t> Keys(Result result) {
  std::vector<int64_t> keys;
  while (std::optional<Chunk> chunk = result.Next()) {
    auto column = chunk->Int64(0);
    for (idx_t row = 0; row < chunk->size(); ++row) keys.push_back(column.Get(row));
  }
  return keys;
}

template <class T>
T ParseOr(std::optional<T> parsed, std::string_view column, std::string_view value) {
  if (!parsed) {
    throw FormatError({.object = "catalog", .where = std::string(column)},
                      "unknown value '" + std::string(value) + "'");
  }
  return *parsed;
}

model::ScopedSpan SpanOf(model::SpanKind kind, int64_t start, std::optional<int64_t> end) {
  model::ScopedSpan span;
  switch (kind) {
    case model::SpanKind::kTimePoint:
      span.span = model::TimePoint{start};
      break;
    case model::SpanKind::kTimeInterval:
      span.span = model::TimeInterval{start, end.value_or(start)};
      break;
    case model::SpanKind::kStepPoint:
      span.span = model::StepPoint{start};
      break;
    case model::SpanKind::kStepInterval:
      span.span = model::StepInterval{start, end.value_or(start)};
      break;
  }
  return span;
}

Json ParseJsonCell(std::string_view text, std::string_view column) {
  std::string problem;
  std::optional<Json> json = ParseJsonStrict(text, &problem);
  if (!json) throw FormatError({.object = "catalog", .where = std::string(column)}, problem);
  return std::move(*json);
}

}  // namespace

void HydrateGraph::LoadTasks(const std::vector<int64_t>& task_keys) {
  if (task_keys.empty()) return;
  std::vector<int64_t> keys;
  for (int64_t key : Keys(Run(std::string(kClosure) + "SELECT task_key FROM closure ORDER BY 1",
                              task_keys, "task_dependencies"))) {
    if (!tasks_.contains(key)) keys.push_back(key);
  }
  if (keys.empty()) return;
  LoadRecords(Keys(Run(kRecordsOfTasks, keys, "task_record_refs")));
  LoadDatasetAnnotations();
  LoadRegistered();

  std::unordered_map<int64_t, std::vector<model::TaskTarget>> targets;  // inline answers
  {
    Result r = Run(
        "SELECT t.task_key, t.task_id, t.task_type, t.prompt, t.prompt_text_key, "
        "t.input_modalities, t.split, t.scope_type, t.scope_start, t.scope_end, "
        "t.scope_signal_keys, t.has_inline_targets, t.target_schema, t.unit, t.target_name, "
        "t.mode, t.rationale, t.rationale_text_key, t.metadata, i.parent_alias, i.parent_task_id "
        "FROM tasks t JOIN {keys} q ON t.task_key = q.k "
        "LEFT JOIN imported_tasks i ON i.task_id = t.task_id ORDER BY t.task_id",
        keys, "tasks");
    while (std::optional<Chunk> chunk = r.Next()) {
      const Chunk& c = *chunk;
      for (idx_t row = 0; row < c.size(); ++row) {
        std::string_view type_text = c.Varchar(2).Get(row);
        auto task = std::make_shared<model::Task>(
            ParseOr(model::ParseTaskType(type_text), "tasks.task_type", type_text));
        task->set_id(c.Int64(1).Get(row));
        if (!c.Int64(4).IsNull(row) || !c.Int64(17).IsNull(row)) {
          throw FormatError({.object = "tasks", .where = "prompt_text_key"},
                            "packed task text is not supported yet");
        }
        if (auto prompt = c.Varchar(3).Optional(row)) task->set_prompt(std::string(*prompt));
        std::vector<model::InputModality> modalities;
        for (const std::string& m : c.VarcharList(5).Get(row)) {
          modalities.push_back(ParseOr(model::ParseInputModality(m), "tasks.input_modalities", m));
        }
        task->set_input_modalities(std::move(modalities));
        if (auto split = c.Varchar(6).Optional(row)) {
          task->set_split(ParseOr(model::ParseSplit(*split), "tasks.split", *split));
        }
        if (auto scope_type = c.Varchar(7).Optional(row)) {
          model::ScopedSpan scope =
              SpanOf(ParseOr(model::ParseSpanKind(*scope_type), "tasks.scope_type", *scope_type),
                     c.Int64(8).Get(row), c.Int64(9).Optional(row));
          if (!c.Int64List(10).IsNull(row)) {
            for (int64_t key : c.Int64List(10).Get(row)) scope.signals.push_back(Signal(key));
          }
          task->set_scope(std::move(scope));
        }
        if (c.Bool(11).Get(row)) task->set_targets(std::vector<model::TaskTarget>{});
        if (auto v = c.Varchar(12).Optional(row)) task->set_target_schema(std::string(*v));
        if (auto v = c.Varchar(13).Optional(row)) task->set_unit(*v);
        if (auto v = c.Varchar(14).Optional(row)) task->set_target_name(std::string(*v));
        if (auto v = c.Varchar(15).Optional(row)) {
          task->set_mode(ParseOr(model::ParseLocalizationMode(*v), "tasks.mode", *v));
        }
        if (auto v = c.Varchar(16).Optional(row)) task->set_rationale(std::string(*v));
        task->set_metadata(ParseJsonCell(c.Varchar(18).Get(row), "tasks.metadata"));
        if (auto alias = c.Varchar(19).Optional(row)) {
          task->set_import_marker(model::ImportMarker{std::string(*alias), c.Int64(20).Get(row)});
        }
        const int64_t key = c.Int64(0).Get(row);
        objects_[key] = task.get();
        tasks_[key] = std::move(task);
      }
    }
  }
  LoadOccurrences(keys);
  {
    Result r = Run(
        "SELECT t.task_key, t.target_kind, t.text_value, t.text_value_text_key, t.integer_value, "
        "t.float_value, t.boolean_value, t.record_key, t.signal_key, t.span_start, t.span_end, "
        "t.signal_keys FROM task_targets t JOIN {keys} q ON t.task_key = q.k "
        "ORDER BY t.task_key, t.position",
        keys, "task_targets");
    while (std::optional<Chunk> chunk = r.Next()) {
      const Chunk& c = *chunk;
      for (idx_t row = 0; row < c.size(); ++row) {
        std::string_view kind_text = c.Varchar(1).Get(row);
        const model::TargetKind kind =
            ParseOr(model::ParseTargetKind(kind_text), "task_targets.target_kind", kind_text);
        if (!c.Int64(3).IsNull(row)) {
          throw FormatError({.object = "task_targets", .where = "text_value_text_key"},
                            "packed target text is not supported yet");
        }
        std::optional<model::TaskTarget> target;
        switch (kind) {
          case model::TargetKind::kText:
            target = model::TaskTarget::OfText(std::string(c.Varchar(2).Get(row)));
            break;
          case model::TargetKind::kInteger:
            target = model::TaskTarget::OfInteger(c.Int64(4).Get(row));
            break;
          case model::TargetKind::kFloat:
            target = model::TaskTarget::OfFloat(c.Double(5).Get(row));
            break;
          case model::TargetKind::kBoolean:
            target = model::TaskTarget::OfBoolean(c.Bool(6).Get(row));
            break;
          case model::TargetKind::kRecord:
            target = model::TaskTarget::OfRecord(records_.at(c.Int64(7).Get(row)));
            break;
          case model::TargetKind::kSignal:
            target = model::TaskTarget::OfSignal(Signal(c.Int64(8).Get(row)));
            break;
          default: {
            const auto span_kind = static_cast<model::SpanKind>(
                static_cast<int>(kind) - static_cast<int>(model::TargetKind::kTimePoint));
            model::ScopedSpan span =
                SpanOf(span_kind, c.Int64(9).Get(row), c.Int64(10).Optional(row));
            if (!c.Int64List(11).IsNull(row)) {
              for (int64_t key : c.Int64List(11).Get(row)) span.signals.push_back(Signal(key));
            }
            target = model::TaskTarget::OfSpan(std::move(span));
          }
        }
        targets[c.Int64(0).Get(row)].push_back(std::move(*target));
      }
    }
    for (auto& [key, list] : targets) tasks_.at(key)->set_targets(std::move(list));
  }
  {
    Result r =
        Run("SELECT t.task_key, t.field, t.record_key FROM task_record_refs t "
            "JOIN {keys} q ON t.task_key = q.k ORDER BY t.task_key, t.field, t.position",
            keys, "task_record_refs");
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        model::Task& task = *tasks_.at(chunk->Int64(0).Get(row));
        const auto& record = records_.at(chunk->Int64(2).Get(row));
        if (chunk->Varchar(1).Get(row) == "inputs") {
          task.AddInput(record);
        } else {
          task.AddCandidateRecord(record);
        }
      }
    }
  }
  {
    Result r =
        Run("SELECT t.task_key, t.field, t.occurrence_key FROM task_annotation_refs t "
            "JOIN {keys} q ON t.task_key = q.k ORDER BY t.task_key, t.field, t.position",
            keys, "task_annotation_refs");
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        model::Task& task = *tasks_.at(chunk->Int64(0).Get(row));
        auto it = occurrences_.find(chunk->Int64(2).Get(row));
        if (it == occurrences_.end()) {
          throw FormatError({.object = "task_annotation_refs", .where = "occurrence_key"},
                            "unknown occurrence " + std::to_string(chunk->Int64(2).Get(row)));
        }
        if (chunk->Varchar(1).Get(row) == "input_annotations") {
          task.AddInputAnnotation(it->second);
        } else {
          task.AddTargetAnnotation(it->second);
        }
      }
    }
  }
  {
    Result r =
        Run("SELECT t.task_key, t.parent_task_key FROM task_dependencies t "
            "JOIN {keys} q ON t.task_key = q.k ORDER BY t.task_key, t.position",
            keys, "task_dependencies");
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        tasks_.at(chunk->Int64(0).Get(row))->AddFromTask(tasks_.at(chunk->Int64(1).Get(row)));
      }
    }
  }
}

}  // namespace timef::catalog
