#include "catalog/export/table_export.h"

#include <string>
#include <vector>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/duckdb_statement.h"
#include "catalog/export/arrow_builder.h"
#include "catalog/hydrate/hydrate_text.h"
#include "catalog/task_filter_sql.h"

namespace timef::catalog {
namespace {

// `sel(task_key)`: the tasks a TaskFilter selects, as a CTE, with its binds ($1…): the same
// conditions as CatalogHydrator::Tasks(), so a table and ReadTasks() select the same tasks.
struct SelectedTasks {
  TaskFilterSql conditions;
  std::string cte;

  explicit SelectedTasks(const TaskFilter& f)
      : conditions(f, 1),
        cte("sel AS (SELECT t.task_key FROM tasks t WHERE true" + conditions.conditions() + ")") {}
  void Bind(PreparedStatement& statement) const { conditions.Bind(statement); }
};

// Copies one cell of a result column into a builder column: the value, or NULL.
template <auto kRead, auto kAppend>
void CopyCell(ArrowTableBuilder& b, std::size_t to, const Chunk& c, idx_t column, idx_t row) {
  if (auto v = (c.*kRead)(column).Optional(row)) {
    (b.*kAppend)(to, *v);
  } else {
    b.AppendNull(to);
  }
}
constexpr auto CopyInt64 = CopyCell<&Chunk::Int64, &ArrowTableBuilder::AppendInt64>;
constexpr auto CopyDouble = CopyCell<&Chunk::Double, &ArrowTableBuilder::AppendDouble>;
constexpr auto CopyBool = CopyCell<&Chunk::Bool, &ArrowTableBuilder::AppendBool>;
constexpr auto CopyString = CopyCell<&Chunk::Varchar, &ArrowTableBuilder::AppendString>;
constexpr auto CopyInt64List = CopyCell<&Chunk::Int64List, &ArrowTableBuilder::AppendInt64List>;
constexpr auto CopyStringList = CopyCell<&Chunk::VarcharList, &ArrowTableBuilder::AppendStringList>;

// A text column with a packed sibling: the inline value, else the packed value read through the
// resolver, else NULL (absent).
void CopyText(ArrowTableBuilder& b, std::size_t to, const Chunk& c, idx_t row, idx_t inline_column,
              idx_t key_column, idx_t first_packed, const ValueResolver& values, PackedSite site) {
  if (auto v = c.Varchar(inline_column).Optional(row)) {
    b.AppendString(to, *v);
  } else if (auto packed = PackedTextAt(c, row, key_column, first_packed, values, site)) {
    b.AppendString(to, packed->Read());
  } else {
    b.AppendNull(to);
  }
}

Result Run(Connection& connection, const std::string& sql, const SelectedTasks* tasks,
           std::string_view what) {
  PreparedStatement statement = connection.Prepare(sql, what);
  if (tasks != nullptr) tasks->Bind(statement);
  return statement.Execute();
}

// `<name>(<keys>, ids)`: the signal IDs of a BIGINT[] column of signal keys, one row per
// non-NULL list of a selected task, in list order. `keys` are column names of `table`.
std::string SignalIdsCte(std::string_view name, std::string_view table, std::string_view list,
                         const std::vector<std::string>& keys) {
  std::string inner;
  std::string outer;
  for (const std::string& key : keys) {
    inner += "x." + key + ", ";
    outer += (outer.empty() ? "u." : ", u.") + key;
  }
  const std::string l(list);
  return std::string(name) + " AS (SELECT " + outer +
         ", list(g.signal_id ORDER BY u.i) AS ids FROM (SELECT " + inner + "unnest(x." + l +
         ") AS signal_key, unnest(range(len(x." + l + "))) AS i FROM " + std::string(table) +
         " x JOIN sel ON sel.task_key = x.task_key WHERE x." + l +
         " IS NOT NULL) u JOIN signals g ON g.signal_key = u.signal_key GROUP BY " + outer + ")";
}

}  // namespace

ArrowTable TaskTable(Connection& connection, const TaskFilter& filter, const ValueResolver& text) {
  const SelectedTasks selected(filter);
  const std::string sql =
      "WITH " + selected.cte +
      ", rec AS (SELECT rr.task_key, rr.field, list(r.record_id ORDER BY rr.position) AS ids "
      "FROM task_record_refs rr JOIN sel ON sel.task_key = rr.task_key "
      "JOIN records r ON r.record_key = rr.record_key GROUP BY rr.task_key, rr.field)"
      ", ann AS (SELECT a.task_key, a.field, list(a.occurrence_key ORDER BY a.position) AS ids "
      "FROM task_annotation_refs a JOIN sel ON sel.task_key = a.task_key "
      "GROUP BY a.task_key, a.field)"
      ", dep AS (SELECT d.task_key, list(p.task_id ORDER BY d.position) AS ids "
      "FROM task_dependencies d JOIN sel ON sel.task_key = d.task_key "
      "JOIN tasks p ON p.task_key = d.parent_task_key GROUP BY d.task_key), " +
      SignalIdsCte("scope", "tasks", "scope_signal_keys", {"task_key"}) +
      " SELECT t.task_id, t.task_type, t.split, t.prompt, t.prompt_text_key, t.rationale, "
      "t.rationale_text_key, t.input_modalities, coalesce(ri.ids, []::BIGINT[]), "
      "coalesce(rc.ids, []::BIGINT[]), coalesce(dp.ids, []::BIGINT[]), "
      "coalesce(ain.ids, []::BIGINT[]), coalesce(atg.ids, []::BIGINT[]), t.scope_type, "
      "t.scope_start, t.scope_end, CASE WHEN t.scope_signal_keys IS NULL THEN NULL "
      "ELSE coalesce(sc.ids, []::BIGINT[]) END, t.has_inline_targets, t.target_schema, t.unit, "
      "t.target_name, t.mode, t.metadata, i.parent_alias, i.parent_task_id, " +
      PackedColumns("pp") + ", " + PackedColumns("pr") +
      " FROM tasks t JOIN sel ON sel.task_key = t.task_key "
      "LEFT JOIN rec ri ON ri.task_key = t.task_key AND ri.field = 'inputs' "
      "LEFT JOIN rec rc ON rc.task_key = t.task_key AND rc.field = 'candidate_records' "
      "LEFT JOIN dep dp ON dp.task_key = t.task_key "
      "LEFT JOIN ann ain ON ain.task_key = t.task_key AND ain.field = 'input_annotations' "
      "LEFT JOIN ann atg ON atg.task_key = t.task_key AND atg.field = 'target_annotations' "
      "LEFT JOIN scope sc ON sc.task_key = t.task_key "
      "LEFT JOIN imported_tasks i ON i.task_id = t.task_id "
      "LEFT JOIN text_payloads pp ON pp.text_key = t.prompt_text_key "
      "LEFT JOIN text_payloads pr ON pr.text_key = t.rationale_text_key ORDER BY t.task_id";
  constexpr idx_t kPrompt = 25;
  constexpr idx_t kRationale = kPrompt + kPackedColumnCount;

  ArrowTableBuilder b;
  const std::size_t task_id = b.AddColumn("task_id", ArrowType::kInt64);
  const std::size_t type = b.AddColumn("type", ArrowType::kString);
  const std::size_t split = b.AddColumn("split", ArrowType::kString);
  const std::size_t prompt = b.AddColumn("prompt", ArrowType::kString);
  const std::size_t rationale = b.AddColumn("rationale", ArrowType::kString);
  const std::size_t modalities = b.AddColumn("input_modalities", ArrowType::kStringList);
  const std::size_t inputs = b.AddColumn("input_record_ids", ArrowType::kInt64List);
  const std::size_t candidates = b.AddColumn("candidate_record_ids", ArrowType::kInt64List);
  const std::size_t from_tasks = b.AddColumn("from_task_ids", ArrowType::kInt64List);
  const std::size_t input_annotations =
      b.AddColumn("input_annotation_occurrence_ids", ArrowType::kInt64List);
  const std::size_t target_annotations =
      b.AddColumn("target_annotation_occurrence_ids", ArrowType::kInt64List);
  const std::size_t scope_type = b.AddColumn("scope_type", ArrowType::kString);
  const std::size_t scope_start = b.AddColumn("scope_start", ArrowType::kInt64);
  const std::size_t scope_end = b.AddColumn("scope_end", ArrowType::kInt64);
  const std::size_t scope_signals = b.AddColumn("scope_signal_ids", ArrowType::kInt64List);
  const std::size_t inline_targets = b.AddColumn("has_inline_targets", ArrowType::kBool);
  const std::size_t target_schema = b.AddColumn("target_schema", ArrowType::kString);
  const std::size_t unit = b.AddColumn("unit", ArrowType::kString);
  const std::size_t target_name = b.AddColumn("target_name", ArrowType::kString);
  const std::size_t mode = b.AddColumn("mode", ArrowType::kString);
  const std::size_t metadata = b.AddColumn("metadata", ArrowType::kString);
  const std::size_t parent_alias = b.AddColumn("parent_alias", ArrowType::kString);
  const std::size_t parent_task_id = b.AddColumn("parent_task_id", ArrowType::kInt64);

  Result r = Run(connection, sql, &selected, "tasks");
  while (std::optional<Chunk> chunk = r.Next()) {
    const Chunk& c = *chunk;
    for (idx_t row = 0; row < c.size(); ++row) {
      CopyInt64(b, task_id, c, 0, row);
      CopyString(b, type, c, 1, row);
      CopyString(b, split, c, 2, row);
      CopyText(b, prompt, c, row, 3, 4, kPrompt, text, {"tasks", "prompt_text_key"});
      CopyText(b, rationale, c, row, 5, 6, kRationale, text, {"tasks", "rationale_text_key"});
      CopyStringList(b, modalities, c, 7, row);
      CopyInt64List(b, inputs, c, 8, row);
      CopyInt64List(b, candidates, c, 9, row);
      CopyInt64List(b, from_tasks, c, 10, row);
      CopyInt64List(b, input_annotations, c, 11, row);
      CopyInt64List(b, target_annotations, c, 12, row);
      CopyString(b, scope_type, c, 13, row);
      CopyInt64(b, scope_start, c, 14, row);
      CopyInt64(b, scope_end, c, 15, row);
      CopyInt64List(b, scope_signals, c, 16, row);
      CopyBool(b, inline_targets, c, 17, row);
      CopyString(b, target_schema, c, 18, row);
      CopyString(b, unit, c, 19, row);
      CopyString(b, target_name, c, 20, row);
      CopyString(b, mode, c, 21, row);
      CopyString(b, metadata, c, 22, row);
      CopyString(b, parent_alias, c, 23, row);
      CopyInt64(b, parent_task_id, c, 24, row);
    }
  }
  return b.Finish();
}

ArrowTable TargetTable(Connection& connection, const TaskFilter& filter,
                       const ValueResolver& text) {
  const SelectedTasks selected(filter);
  const std::string sql =
      "WITH " + selected.cte + ", " +
      SignalIdsCte("spans", "task_targets", "signal_keys", {"task_key", "position"}) +
      " SELECT t.task_id, x.position, x.target_kind, x.text_value, x.text_value_text_key, "
      "x.integer_value, x.float_value, x.boolean_value, r.record_id, g.signal_id, x.span_start, "
      "x.span_end, CASE WHEN x.signal_keys IS NULL THEN NULL "
      "ELSE coalesce(s.ids, []::BIGINT[]) END, " +
      PackedColumns("p") +
      " FROM task_targets x JOIN sel ON sel.task_key = x.task_key "
      "JOIN tasks t ON t.task_key = x.task_key "
      "LEFT JOIN records r ON r.record_key = x.record_key "
      "LEFT JOIN signals g ON g.signal_key = x.signal_key "
      "LEFT JOIN spans s ON s.task_key = x.task_key AND s.position = x.position "
      "LEFT JOIN text_payloads p ON p.text_key = x.text_value_text_key "
      "ORDER BY t.task_id, x.position";
  constexpr idx_t kPacked = 13;

  ArrowTableBuilder b;
  const std::size_t task_id = b.AddColumn("task_id", ArrowType::kInt64);
  const std::size_t position = b.AddColumn("position", ArrowType::kInt64);
  const std::size_t kind = b.AddColumn("kind", ArrowType::kString);
  const std::size_t text_value = b.AddColumn("text_value", ArrowType::kString);
  const std::size_t integer_value = b.AddColumn("integer_value", ArrowType::kInt64);
  const std::size_t float_value = b.AddColumn("float_value", ArrowType::kDouble);
  const std::size_t boolean_value = b.AddColumn("boolean_value", ArrowType::kBool);
  const std::size_t record_id = b.AddColumn("record_id", ArrowType::kInt64);
  const std::size_t signal_id = b.AddColumn("signal_id", ArrowType::kInt64);
  const std::size_t span_start = b.AddColumn("span_start", ArrowType::kInt64);
  const std::size_t span_end = b.AddColumn("span_end", ArrowType::kInt64);
  const std::size_t span_signals = b.AddColumn("span_signal_ids", ArrowType::kInt64List);

  Result r = Run(connection, sql, &selected, "task_targets");
  while (std::optional<Chunk> chunk = r.Next()) {
    const Chunk& c = *chunk;
    for (idx_t row = 0; row < c.size(); ++row) {
      CopyInt64(b, task_id, c, 0, row);
      CopyInt64(b, position, c, 1, row);
      CopyString(b, kind, c, 2, row);
      CopyText(b, text_value, c, row, 3, 4, kPacked, text, {"task_targets", "text_value_text_key"});
      CopyInt64(b, integer_value, c, 5, row);
      CopyDouble(b, float_value, c, 6, row);
      CopyBool(b, boolean_value, c, 7, row);
      CopyInt64(b, record_id, c, 8, row);
      CopyInt64(b, signal_id, c, 9, row);
      CopyInt64(b, span_start, c, 10, row);
      CopyInt64(b, span_end, c, 11, row);
      CopyInt64List(b, span_signals, c, 12, row);
    }
  }
  return b.Finish();
}

ArrowTable AnnotationTable(Connection& connection, const ValueResolver& text) {
  const std::string sql =
      "WITH occ AS (SELECT a.occurrence_key, a.content_key, a.object_type, a.object_key, "
      "false AS registered, NULL::BIGINT AS reg_position, a.span_type, a.start_us, a.end_us, "
      "a.provenance, a.confidence, a.metadata FROM annotation_occurrences a UNION ALL SELECT "
      "g.occurrence_key, g.content_key, NULL, NULL, true, g.position, g.span_type, g.start_us, "
      "g.end_us, g.provenance, g.confidence, g.metadata FROM registered_annotations g) "
      "SELECT o.occurrence_key, o.content_key, o.object_type, CASE o.object_type "
      "WHEN 'Record' THEN rec.record_id WHEN 'Signal' THEN sig.signal_id "
      "WHEN 'Task' THEN tk.task_id WHEN 'Source' THEN o.object_key END, CASE o.object_type "
      "WHEN 'Record' THEN rec.record_id WHEN 'Source' THEN srec.record_id "
      "WHEN 'Signal' THEN grec.record_id END, o.registered, o.reg_position, ia.parent_alias, "
      "c.name, c.value_kind, c.text_value, c.text_value_text_key, c.integer_value, "
      "c.float_value, c.boolean_value, c.text_list_value, c.text_list_value_text_key, c.unit, "
      "c.description, c.metadata, o.span_type, o.start_us, o.end_us, o.provenance, "
      "o.confidence, o.metadata, " +
      PackedColumns("pt") + ", " + PackedColumns("pl") +
      " FROM occ o JOIN annotation_contents c ON c.content_key = o.content_key "
      "LEFT JOIN records rec ON o.object_type = 'Record' AND rec.record_key = o.object_key "
      "LEFT JOIN sources so ON o.object_type = 'Source' AND so.source_key = o.object_key "
      "LEFT JOIN records srec ON srec.record_key = so.record_key "
      "LEFT JOIN signals sig ON o.object_type = 'Signal' AND sig.signal_key = o.object_key "
      "LEFT JOIN sources gso ON gso.source_key = sig.source_key "
      "LEFT JOIN records grec ON grec.record_key = gso.record_key "
      "LEFT JOIN tasks tk ON o.object_type = 'Task' AND tk.task_key = o.object_key "
      "LEFT JOIN imported_annotations ia ON ia.occurrence_key = o.occurrence_key "
      "LEFT JOIN text_payloads pt ON pt.text_key = c.text_value_text_key "
      "LEFT JOIN text_payloads pl ON pl.text_key = c.text_list_value_text_key "
      "ORDER BY o.registered, o.reg_position, o.occurrence_key";
  constexpr idx_t kText = 26;
  constexpr idx_t kTextList = kText + kPackedColumnCount;

  ArrowTableBuilder b;
  const std::size_t occurrence_id = b.AddColumn("occurrence_id", ArrowType::kInt64);
  const std::size_t content_id = b.AddColumn("content_id", ArrowType::kInt64);
  const std::size_t object_type = b.AddColumn("object_type", ArrowType::kString);
  const std::size_t object_id = b.AddColumn("object_id", ArrowType::kInt64);
  const std::size_t record_id = b.AddColumn("record_id", ArrowType::kInt64);
  const std::size_t registered = b.AddColumn("registered", ArrowType::kBool);
  const std::size_t registered_position = b.AddColumn("registered_position", ArrowType::kInt64);
  const std::size_t inherited_from = b.AddColumn("inherited_from", ArrowType::kString);
  const std::size_t name = b.AddColumn("name", ArrowType::kString);
  const std::size_t value_kind = b.AddColumn("value_kind", ArrowType::kString);
  const std::size_t text_value = b.AddColumn("text_value", ArrowType::kString);
  const std::size_t integer_value = b.AddColumn("integer_value", ArrowType::kInt64);
  const std::size_t float_value = b.AddColumn("float_value", ArrowType::kDouble);
  const std::size_t boolean_value = b.AddColumn("boolean_value", ArrowType::kBool);
  const std::size_t text_list_value = b.AddColumn("text_list_value", ArrowType::kStringList);
  const std::size_t unit = b.AddColumn("unit", ArrowType::kString);
  const std::size_t description = b.AddColumn("description", ArrowType::kString);
  const std::size_t content_metadata = b.AddColumn("content_metadata", ArrowType::kString);
  const std::size_t span_type = b.AddColumn("span_type", ArrowType::kString);
  const std::size_t span_start = b.AddColumn("span_start_us", ArrowType::kInt64);
  const std::size_t span_end = b.AddColumn("span_end_us", ArrowType::kInt64);
  const std::size_t provenance = b.AddColumn("provenance", ArrowType::kString);
  const std::size_t confidence = b.AddColumn("confidence", ArrowType::kDouble);
  const std::size_t metadata = b.AddColumn("metadata", ArrowType::kString);

  Result r = Run(connection, sql, nullptr, "annotation_occurrences");
  while (std::optional<Chunk> chunk = r.Next()) {
    const Chunk& c = *chunk;
    for (idx_t row = 0; row < c.size(); ++row) {
      CopyInt64(b, occurrence_id, c, 0, row);
      CopyInt64(b, content_id, c, 1, row);
      CopyString(b, object_type, c, 2, row);
      CopyInt64(b, object_id, c, 3, row);
      CopyInt64(b, record_id, c, 4, row);
      CopyBool(b, registered, c, 5, row);
      CopyInt64(b, registered_position, c, 6, row);
      CopyString(b, inherited_from, c, 7, row);
      CopyString(b, name, c, 8, row);
      CopyString(b, value_kind, c, 9, row);
      CopyText(b, text_value, c, row, 10, 11, kText, text,
               {"annotation_contents", "text_value_text_key"});
      CopyInt64(b, integer_value, c, 12, row);
      CopyDouble(b, float_value, c, 13, row);
      CopyBool(b, boolean_value, c, 14, row);
      if (!c.VarcharList(15).IsNull(row)) {
        CopyStringList(b, text_list_value, c, 15, row);
      } else if (auto packed =
                     PackedTextListAt(c, row, 16, kTextList, text,
                                      {"annotation_contents", "text_list_value_text_key"})) {
        b.AppendStringList(text_list_value, packed->Read());
      } else {
        b.AppendNull(text_list_value);
      }
      CopyString(b, unit, c, 17, row);
      CopyString(b, description, c, 18, row);
      CopyString(b, content_metadata, c, 19, row);
      CopyString(b, span_type, c, 20, row);
      CopyInt64(b, span_start, c, 21, row);
      CopyInt64(b, span_end, c, 22, row);
      CopyString(b, provenance, c, 23, row);
      CopyDouble(b, confidence, c, 24, row);
      CopyString(b, metadata, c, 25, row);
    }
  }
  return b.Finish();
}

}  // namespace timef::catalog
