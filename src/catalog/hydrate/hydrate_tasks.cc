// HydrateGraph::LoadTasks: the task half of the graph.
#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/hydrate/cell_site.h"
#include "catalog/hydrate/hydrate_graph.h"
#include "catalog/hydrate/hydrate_text.h"
#include "catalog/hydrate/spec_row.h"
#include "core/json_forms.h"
#include "timef/error.h"

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

// The records holding a set of signals, and the records carrying (directly, or through a source or
// signal) a set of occurrences: what task references to signals and annotations need built.
constexpr std::string_view kRecordsOfSignals =
    "SELECT DISTINCT so.record_key FROM signals g JOIN {keys} q ON g.signal_key = q.k "
    "JOIN sources so ON so.source_key = g.source_key";
constexpr std::string_view kRecordsOfOccurrences =
    "SELECT DISTINCT CASE o.object_type WHEN 'Record' THEN o.object_key "
    "WHEN 'Source' THEN so.record_key ELSE gs.record_key END FROM annotation_occurrences o "
    "JOIN {keys} q ON o.occurrence_key = q.k LEFT JOIN sources so ON so.source_key = o.object_key "
    "LEFT JOIN signals g ON g.signal_key = o.object_key "
    "LEFT JOIN sources gs ON gs.source_key = g.source_key "
    "WHERE o.object_type IN ('Record', 'Source', 'Signal')";

// The {keys} relation when every task is loaded.
constexpr std::string_view kEveryTask = "SELECT task_key AS k FROM tasks";

// A task_targets row read before the records it names are built.
struct TargetRow {
  int64_t task_key = 0;
  model::TargetKind kind = model::TargetKind::kText;
  model::Text text;
  int64_t integer = 0;
  double float_value = 0;
  bool boolean = false;
  int64_t object_key = 0;  // record_key or signal_key
  int64_t span_start = 0;
  std::optional<int64_t> span_end;
  std::vector<int64_t> signal_keys;
  int64_t position = 0;
};

// A task_record_refs or task_annotation_refs row (first = inputs / input_annotations).
struct RefRow {
  int64_t task_key;
  bool first;
  int64_t position;
  int64_t key;
};

// Rows in `key` order. The queries read their tables without ORDER BY (sorting every wide row
// cost DuckDB more than building the tasks from them, issue 37); the rows usually come in the
// order they were written, which is this order already, so the check is all that runs.
template <class Row, class Key>
void SortBy(std::vector<Row>& rows, Key key) {
  auto less = [&key](const Row& a, const Row& b) { return key(a) < key(b); };
  if (!std::is_sorted(rows.begin(), rows.end(), less)) std::sort(rows.begin(), rows.end(), less);
}

// A task's scope without its signals, which are resolved once the records are built.
struct PendingScope {
  int64_t task_key;
  model::ScopedSpan span;
  std::vector<int64_t> signal_keys;
};

std::vector<int64_t> Keys(RowStream result) {
  std::vector<int64_t> keys;
  while (std::optional<Chunk> chunk = result.Next()) {
    auto column = chunk->Int64(0);
    for (idx_t row = 0; row < chunk->size(); ++row) keys.push_back(column.Get(row));
  }
  return keys;
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

}  // namespace

void HydrateGraph::LoadTasks(const std::vector<int64_t>& task_keys, std::string_view key_relation) {
  if (task_keys.empty()) return;
  // Every task of the release (ReadTasks, ReadDataset): its closure is itself, and each query below
  // reads the task tables whole instead of joining a bound list of every key. Binding 200,000 keys
  // six times was a third of ReadTasks (issue 14); a count is worth asking only for a long list.
  // A caller's `key_relation` (an IterTasks round: a range of task IDs) stands in for the list
  // the same way when its closure adds no task (issue 37).
  constexpr size_t kLongKeyList = 4096;
  const auto size = static_cast<int64_t>(task_keys.size());
  bool every_task = false;
  std::string_view relation;
  if (tasks_.empty() && task_keys.size() >= kLongKeyList) {
    every_task =
        size == Keys(RowStream(connection_->Query("SELECT count(*) FROM tasks", "tasks"))).front();
    if (every_task) {
      relation = kEveryTask;
    } else if (!key_relation.empty() &&
               size == Keys(Run(std::string(kClosure) + "SELECT count(*) FROM closure", task_keys,
                                "task_dependencies", key_relation))
                           .front()) {
      relation = key_relation;
    }
  }
  // Every key of `keys` is requested (no from_tasks parent outside them).
  const bool closed = !relation.empty();
  std::vector<int64_t> keys;
  if (closed) {
    keys = task_keys;
    std::sort(keys.begin(), keys.end());
  } else {
    for (int64_t key : Keys(Run(std::string(kClosure) + "SELECT task_key FROM closure ORDER BY 1",
                                task_keys, "task_dependencies"))) {
      if (!tasks_.contains(key)) keys.push_back(key);
    }
  }
  if (keys.empty()) return;
  auto run = [&](std::string_view sql, std::string_view what) {
    return Run(sql, keys, what, relation);
  };
  // The join that limits a task table `t` to the keys: none when every task is read.
  const std::string join_keys = every_task ? " " : " JOIN {keys} q ON t.task_key = q.k ";
  tasks_.reserve(tasks_.size() + keys.size());

  // The requested tasks and what they reference are resolved by `requested_` (the read's load
  // plan); tasks built only as from_tasks parents, and what only they reach, by `parents_only_`.
  // Per group: [0] = reached from a requested task, [1] = reached only through parents.
  // (With every key requested there is no second group, and no set to build.)
  std::unordered_set<int64_t> requested;
  if (!closed) requested.insert(task_keys.begin(), task_keys.end());
  auto group = [&](int64_t task_key) { return closed || requested.contains(task_key) ? 0 : 1; };
  const ValueResolver* const resolver_of[2] = {&requested_, &parents_only_};

  // Rows first: they name the records, signals and occurrences to build, so that the records are
  // built in one LoadRecords call per group without a separate query over every reference table.
  std::vector<int64_t> record_keys[2];
  std::vector<int64_t> signal_keys[2];
  std::vector<int64_t> occurrence_keys[2];
  std::vector<int64_t> task_groups[2];
  std::vector<PendingScope> scopes;
  {
    constexpr idx_t kPrompt = 21;  // first joined text_payloads column of the prompt
    constexpr idx_t kRationale = kPrompt + kPackedColumnCount;
    RowStream r =
        run("SELECT t.task_key, t.task_id, t.task_type, t.prompt, t.prompt_text_key, "
            "t.input_modalities, t.split, t.scope_type, t.scope_start, t.scope_end, "
            "t.scope_signal_keys, t.has_inline_targets, t.target_schema, t.unit, t.target_name, "
            "t.mode, t.rationale, t.rationale_text_key, t.metadata, i.parent_alias, "
            "i.parent_task_id, " +
                PackedColumns("pp") + ", " + PackedColumns("pr") + " FROM tasks t" + join_keys +
                "LEFT JOIN imported_tasks i ON i.task_id = t.task_id "
                "LEFT JOIN text_payloads pp ON pp.text_key = t.prompt_text_key "
                "LEFT JOIN text_payloads pr ON pr.text_key = t.rationale_text_key",
            "tasks");
    while (std::optional<Chunk> chunk = r.Next()) {
      const Chunk& c = *chunk;
      auto task_key = c.Int64(0);
      auto task_id = c.Int64(1);
      auto task_type = c.Varchar(2);
      auto prompt = c.Varchar(3);
      auto input_modalities = c.VarcharList(5);
      auto split = c.Varchar(6);
      auto scope_type = c.Varchar(7);
      auto scope_start = c.Int64(8);
      auto scope_end = c.Int64(9);
      auto scope_signals = c.Int64List(10);
      auto has_inline_targets = c.Bool(11);
      auto target_schema = c.Varchar(12);
      auto unit = c.Varchar(13);
      auto target_name = c.Varchar(14);
      auto mode = c.Varchar(15);
      auto rationale = c.Varchar(16);
      auto metadata = c.Varchar(18);
      auto alias = c.Varchar(19);
      auto parent_id = c.Int64(20);
      for (idx_t row = 0; row < c.size(); ++row) {
        const int64_t key = task_key.Get(row);
        const ValueResolver& values = *resolver_of[group(key)];
        task_groups[group(key)].push_back(key);
        std::string_view type_text = task_type.Get(row);
        auto task = std::make_shared<model::Task>(
            ParsedCell(model::ParseTaskType(type_text), "tasks.task_type", type_text));
        task->set_id(task_id.Get(row));
        task->set_read_from_dataset(dataset_->dataset_id());
        if (auto v = prompt.Optional(row)) {
          task->set_prompt(std::string(*v));
        } else {
          task->set_prompt(PackedTextAt(c, row, 4, kPrompt, values, {"tasks", "prompt_text_key"}));
        }
        std::vector<model::InputModality> modalities;
        for (const std::string& m : input_modalities.Get(row)) {
          modalities.push_back(
              ParsedCell(model::ParseInputModality(m), "tasks.input_modalities", m));
        }
        task->set_input_modalities(std::move(modalities));
        if (auto v = split.Optional(row)) {
          task->set_split(ParsedCell(model::ParseSplit(*v), "tasks.split", *v));
        }
        if (auto v = scope_type.Optional(row)) {
          PendingScope scope{key,
                             SpanOf(ParsedCell(model::ParseSpanKind(*v), "tasks.scope_type", *v),
                                    scope_start.Get(row), scope_end.Optional(row)),
                             {}};
          if (!scope_signals.IsNull(row)) scope.signal_keys = scope_signals.Get(row);
          std::vector<int64_t>& to = signal_keys[group(key)];
          to.insert(to.end(), scope.signal_keys.begin(), scope.signal_keys.end());
          scopes.push_back(std::move(scope));
        }
        if (has_inline_targets.Get(row)) task->set_targets(std::vector<model::TaskTarget>{});
        if (auto v = target_schema.Optional(row)) task->set_target_schema(std::string(*v));
        if (auto v = unit.Optional(row)) task->set_unit(*v);
        if (auto v = target_name.Optional(row)) task->set_target_name(std::string(*v));
        if (auto v = mode.Optional(row)) {
          task->set_mode(ParsedCell(model::ParseLocalizationMode(*v), "tasks.mode", *v));
        }
        if (auto v = rationale.Optional(row)) {
          task->set_rationale(std::string(*v));
        } else {
          task->set_rationale(
              PackedTextAt(c, row, 17, kRationale, values, {"tasks", "rationale_text_key"}));
        }
        SetMetadataCell(*task, metadata.Get(row), "tasks.metadata");
        if (auto v = alias.Optional(row)) {
          task->set_import_marker(model::ImportMarker{std::string(*v), parent_id.Get(row)});
        }
        tasks_[key] = std::move(task);
      }
    }
  }
  std::vector<TargetRow> target_rows;
  {
    RowStream r = run(
        "SELECT t.task_key, t.target_kind, t.text_value, t.text_value_text_key, t.integer_value, "
        "t.float_value, t.boolean_value, t.record_key, t.signal_key, t.span_start, t.span_end, "
        "t.signal_keys, " +
            PackedColumns("p") + ", t.position FROM task_targets t" + join_keys +
            "LEFT JOIN text_payloads p ON p.text_key = t.text_value_text_key",
        "task_targets");
    while (std::optional<Chunk> chunk = r.Next()) {
      const Chunk& c = *chunk;
      for (idx_t row = 0; row < c.size(); ++row) {
        std::string_view kind_text = c.Varchar(1).Get(row);
        TargetRow t;
        t.task_key = c.Int64(0).Get(row);
        t.position = c.Int64(18).Get(row);
        const int g = group(t.task_key);
        t.kind =
            ParsedCell(model::ParseTargetKind(kind_text), "task_targets.target_kind", kind_text);
        switch (t.kind) {
          case model::TargetKind::kText:
            if (auto packed = PackedTextAt(c, row, 3, 12, *resolver_of[g],
                                           {"task_targets", "text_value_text_key"})) {
              t.text = std::move(*packed);
            } else {
              t.text = std::string(c.Varchar(2).Get(row));
            }
            break;
          case model::TargetKind::kInteger:
            t.integer = c.Int64(4).Get(row);
            break;
          case model::TargetKind::kFloat:
            t.float_value = c.Double(5).Get(row);
            break;
          case model::TargetKind::kBoolean:
            t.boolean = c.Bool(6).Get(row);
            break;
          case model::TargetKind::kRecord:
            t.object_key = c.Int64(7).Get(row);
            record_keys[g].push_back(t.object_key);
            break;
          case model::TargetKind::kSignal:
            t.object_key = c.Int64(8).Get(row);
            signal_keys[g].push_back(t.object_key);
            break;
          default:
            t.span_start = c.Int64(9).Get(row);
            t.span_end = c.Int64(10).Optional(row);
            if (!c.Int64List(11).IsNull(row)) t.signal_keys = c.Int64List(11).Get(row);
            signal_keys[g].insert(signal_keys[g].end(), t.signal_keys.begin(), t.signal_keys.end());
        }
        target_rows.push_back(std::move(t));
      }
    }
    SortBy(target_rows, [](const TargetRow& t) { return std::pair(t.task_key, t.position); });
  }
  std::vector<RefRow> record_refs;
  {
    RowStream r = run(
        "SELECT t.task_key, t.field, t.record_key, t.position FROM task_record_refs t" + join_keys,
        "task_record_refs");
    while (std::optional<Chunk> chunk = r.Next()) {
      auto task_key = chunk->Int64(0);
      auto field = chunk->Varchar(1);
      auto record_key = chunk->Int64(2);
      auto position = chunk->Int64(3);
      for (idx_t row = 0; row < chunk->size(); ++row) {
        record_refs.push_back({task_key.Get(row), field.Get(row) == "inputs", position.Get(row),
                               record_key.Get(row)});
        record_keys[group(task_key.Get(row))].push_back(record_key.Get(row));
      }
    }
    // Each field's list in position order (the two fields are separate lists).
    SortBy(record_refs,
           [](const RefRow& r) { return std::tuple(r.task_key, r.first, r.position); });
  }
  std::vector<RefRow> annotation_refs;
  {
    RowStream r =
        run("SELECT t.task_key, t.field, t.occurrence_key, t.position FROM task_annotation_refs "
            "t" +
                join_keys,
            "task_annotation_refs");
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        annotation_refs.push_back({chunk->Int64(0).Get(row),
                                   chunk->Varchar(1).Get(row) == "input_annotations",
                                   chunk->Int64(3).Get(row), chunk->Int64(2).Get(row)});
        occurrence_keys[group(chunk->Int64(0).Get(row))].push_back(chunk->Int64(2).Get(row));
      }
    }
    SortBy(annotation_refs,
           [](const RefRow& r) { return std::tuple(r.task_key, r.first, r.position); });
  }

  // The records each group needs: referenced directly, or holding a referenced signal or
  // occurrence.
  for (int g : {0, 1}) {
    std::vector<int64_t>& signals = signal_keys[g];
    std::sort(signals.begin(), signals.end());
    signals.erase(std::unique(signals.begin(), signals.end()), signals.end());
    std::erase_if(signals, [this](int64_t key) { return signals_.contains(key); });
    if (!signals.empty()) {
      for (int64_t key : Keys(Run(kRecordsOfSignals, signals, "signals"))) {
        record_keys[g].push_back(key);
      }
    }
    std::vector<int64_t>& occurrences = occurrence_keys[g];
    std::sort(occurrences.begin(), occurrences.end());
    occurrences.erase(std::unique(occurrences.begin(), occurrences.end()), occurrences.end());
    std::erase_if(occurrences, [this](int64_t key) { return occurrences_.contains(key); });
    if (!occurrences.empty()) {
      for (int64_t key : Keys(Run(kRecordsOfOccurrences, occurrences, "annotation_occurrences"))) {
        record_keys[g].push_back(key);
      }
    }
  }
  // What a requested task reaches is built first, so an object both groups use is resolved by
  // `requested_`.
  // With every task requested, group 0 is every task and group 1 is empty.
  LoadOccurrences(task_groups[0], requested_, relation);
  LoadRecords(record_keys[0], requested_);
  LoadDatasetAnnotations();
  LoadRegistered();
  LoadOccurrences(task_groups[1], parents_only_);
  std::erase_if(record_keys[1], [this](int64_t key) { return records_.contains(key); });
  if (!record_keys[1].empty() && &parents_only_ != &requested_) built_parents_only_records_ = true;
  LoadRecords(record_keys[1], parents_only_);

  for (PendingScope& scope : scopes) {
    for (int64_t key : scope.signal_keys) scope.span.signals.push_back(Signal(key));
    tasks_.at(scope.task_key)->set_scope(std::move(scope.span));
  }
  // Inline answers: target_rows are in (task_key, position) order, one run per task.
  for (size_t begin = 0; begin < target_rows.size();) {
    const int64_t task_key = target_rows[begin].task_key;
    size_t end = begin;
    while (end < target_rows.size() && target_rows[end].task_key == task_key) ++end;
    std::vector<model::TaskTarget> targets;
    targets.reserve(end - begin);
    for (; begin < end; ++begin) {
      TargetRow& t = target_rows[begin];
      std::optional<model::TaskTarget> target;
      switch (t.kind) {
        case model::TargetKind::kText:
          target = model::TaskTarget::OfText(std::move(t.text));
          break;
        case model::TargetKind::kInteger:
          target = model::TaskTarget::OfInteger(t.integer);
          break;
        case model::TargetKind::kFloat:
          target = model::TaskTarget::OfFloat(t.float_value);
          break;
        case model::TargetKind::kBoolean:
          target = model::TaskTarget::OfBoolean(t.boolean);
          break;
        case model::TargetKind::kRecord:
          target = model::TaskTarget::OfRecord(Record(t.object_key));
          break;
        case model::TargetKind::kSignal:
          target = model::TaskTarget::OfSignal(Signal(t.object_key));
          break;
        default: {
          const auto span_kind = static_cast<model::SpanKind>(
              static_cast<int>(t.kind) - static_cast<int>(model::TargetKind::kTimePoint));
          model::ScopedSpan span = SpanOf(span_kind, t.span_start, t.span_end);
          for (int64_t key : t.signal_keys) span.signals.push_back(Signal(key));
          target = model::TaskTarget::OfSpan(std::move(span));
        }
      }
      targets.push_back(std::move(*target));
    }
    tasks_.at(task_key)->set_targets(std::move(targets));
  }
  for (const RefRow& ref : record_refs) {
    model::Task& task = *tasks_.at(ref.task_key);
    if (ref.first) {
      task.AddInput(Record(ref.key));
    } else {
      task.AddCandidateRecord(Record(ref.key));
    }
  }
  for (const RefRow& ref : annotation_refs) {
    model::Task& task = *tasks_.at(ref.task_key);
    auto it = occurrences_.find(ref.key);
    if (it == occurrences_.end()) {
      throw FormatError({.object = "task_annotation_refs", .where = "occurrence_key"},
                        "unknown occurrence " + std::to_string(ref.key));
    }
    if (ref.first) {
      task.AddInputAnnotation(it->second);
    } else {
      task.AddTargetAnnotation(it->second);
    }
  }
  {
    struct Dependency {
      int64_t task_key;
      int64_t position;
      int64_t parent_key;
    };
    std::vector<Dependency> dependencies;
    RowStream r =
        run("SELECT t.task_key, t.parent_task_key, t.position FROM task_dependencies t" + join_keys,
            "task_dependencies");
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        dependencies.push_back(
            {chunk->Int64(0).Get(row), chunk->Int64(2).Get(row), chunk->Int64(1).Get(row)});
      }
    }
    SortBy(dependencies, [](const Dependency& d) { return std::pair(d.task_key, d.position); });
    for (const Dependency& d : dependencies) {
      tasks_.at(d.task_key)->AddFromTask(tasks_.at(d.parent_key));
    }
  }
}

}  // namespace timef::catalog
