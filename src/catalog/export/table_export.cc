#include "catalog/export/table_export.h"

#include <span>
#include <string>
#include <string_view>
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

// What an export column holds: a DuckDB cell copied as it is, or a text value that is inline or
// packed (then read through the resolver from the text_payloads row joined for it).
enum class Cell { kInt64, kDouble, kBool, kString, kInt64List, kStringList, kText, kTextList };

// One column of an exported table, written once: its Arrow name, what it holds and the SELECT
// expression that gives it. A kText/kTextList column also names its *_text_key expression and the
// alias of the text_payloads row joined on that key.
struct ExportColumn {
  std::string_view name;
  Cell cell;
  std::string_view sql;
  std::string_view text_key = {};
  std::string_view payload_alias = {};
  PackedSite site = {};
};

ArrowType ArrowTypeOf(Cell cell) {
  switch (cell) {
    case Cell::kInt64:
      return ArrowType::kInt64;
    case Cell::kDouble:
      return ArrowType::kDouble;
    case Cell::kBool:
      return ArrowType::kBool;
    case Cell::kString:
    case Cell::kText:
      return ArrowType::kString;
    case Cell::kInt64List:
      return ArrowType::kInt64List;
    case Cell::kStringList:
    case Cell::kTextList:
      return ArrowType::kStringList;
  }
  return ArrowType::kString;
}

// Runs `WITH <with> SELECT <the columns' expressions> <from>` and copies every row into a table
// of `columns`, in order. The select list is made from `columns`: each expression, a text
// column's key right after it, then the packed columns of each text column's payload row.
ArrowTable Export(Connection& connection, std::string_view with,
                  std::span<const ExportColumn> columns, std::string_view from,
                  const SelectedTasks* tasks, std::string_view what, const ValueResolver& text) {
  struct Place {
    idx_t value = 0;
    idx_t key = 0;     // kText/kTextList
    idx_t packed = 0;  // kText/kTextList: the first packed column
  };
  std::vector<Place> places(columns.size());
  std::string select;
  idx_t next = 0;
  auto add = [&](std::string_view expression) {
    select += (select.empty() ? "" : ", ") + std::string(expression);
    return next++;
  };
  for (std::size_t i = 0; i < columns.size(); ++i) {
    places[i].value = add(columns[i].sql);
    if (!columns[i].text_key.empty()) places[i].key = add(columns[i].text_key);
  }
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].payload_alias.empty()) continue;
    places[i].packed = next;
    select += ", " + PackedColumns(columns[i].payload_alias);
    next += kPackedColumnCount;
  }
  const std::string sql = (with.empty() ? "" : "WITH " + std::string(with) + " ") + "SELECT " +
                          select + " " + std::string(from);

  ArrowTableBuilder b;
  for (const ExportColumn& column : columns)
    b.AddColumn(std::string(column.name), ArrowTypeOf(column.cell));
  Result r = Run(connection, sql, tasks, what);
  while (std::optional<Chunk> chunk = r.Next()) {
    const Chunk& c = *chunk;
    for (idx_t row = 0; row < c.size(); ++row) {
      for (std::size_t i = 0; i < columns.size(); ++i) {
        const Place& at = places[i];
        switch (columns[i].cell) {
          case Cell::kInt64:
            CopyInt64(b, i, c, at.value, row);
            break;
          case Cell::kDouble:
            CopyDouble(b, i, c, at.value, row);
            break;
          case Cell::kBool:
            CopyBool(b, i, c, at.value, row);
            break;
          case Cell::kString:
            CopyString(b, i, c, at.value, row);
            break;
          case Cell::kInt64List:
            CopyInt64List(b, i, c, at.value, row);
            break;
          case Cell::kStringList:
            CopyStringList(b, i, c, at.value, row);
            break;
          case Cell::kText:
            CopyText(b, i, c, row, at.value, at.key, at.packed, text, columns[i].site);
            break;
          case Cell::kTextList:
            if (!c.VarcharList(at.value).IsNull(row)) {
              CopyStringList(b, i, c, at.value, row);
            } else if (auto packed =
                           PackedTextListAt(c, row, at.key, at.packed, text, columns[i].site)) {
              b.AppendStringList(i, packed->Read());
            } else {
              b.AppendNull(i);
            }
            break;
        }
      }
    }
  }
  return b.Finish();
}

constexpr ExportColumn kTaskColumns[] = {
    {"task_id", Cell::kInt64, "t.task_id"},
    {"type", Cell::kString, "t.task_type"},
    {"split", Cell::kString, "t.split"},
    {"prompt", Cell::kText, "t.prompt", "t.prompt_text_key", "pp", {"tasks", "prompt_text_key"}},
    {"rationale",
     Cell::kText,
     "t.rationale",
     "t.rationale_text_key",
     "pr",
     {"tasks", "rationale_text_key"}},
    {"input_modalities", Cell::kStringList, "t.input_modalities"},
    {"input_record_ids", Cell::kInt64List, "coalesce(ri.ids, []::BIGINT[])"},
    {"candidate_record_ids", Cell::kInt64List, "coalesce(rc.ids, []::BIGINT[])"},
    {"from_task_ids", Cell::kInt64List, "coalesce(dp.ids, []::BIGINT[])"},
    {"input_annotation_occurrence_ids", Cell::kInt64List, "coalesce(ain.ids, []::BIGINT[])"},
    {"target_annotation_occurrence_ids", Cell::kInt64List, "coalesce(atg.ids, []::BIGINT[])"},
    {"scope_type", Cell::kString, "t.scope_type"},
    {"scope_start", Cell::kInt64, "t.scope_start"},
    {"scope_end", Cell::kInt64, "t.scope_end"},
    {"scope_signal_ids", Cell::kInt64List,
     "CASE WHEN t.scope_signal_keys IS NULL THEN NULL ELSE coalesce(sc.ids, []::BIGINT[]) END"},
    {"has_inline_targets", Cell::kBool, "t.has_inline_targets"},
    {"target_schema", Cell::kString, "t.target_schema"},
    {"unit", Cell::kString, "t.unit"},
    {"target_name", Cell::kString, "t.target_name"},
    {"mode", Cell::kString, "t.mode"},
    {"metadata", Cell::kString, "t.metadata"},
    {"parent_alias", Cell::kString, "i.parent_alias"},
    {"parent_task_id", Cell::kInt64, "i.parent_task_id"},
};

constexpr ExportColumn kTargetColumns[] = {
    {"task_id", Cell::kInt64, "t.task_id"},
    {"position", Cell::kInt64, "x.position"},
    {"kind", Cell::kString, "x.target_kind"},
    {"text_value",
     Cell::kText,
     "x.text_value",
     "x.text_value_text_key",
     "p",
     {"task_targets", "text_value_text_key"}},
    {"integer_value", Cell::kInt64, "x.integer_value"},
    {"float_value", Cell::kDouble, "x.float_value"},
    {"boolean_value", Cell::kBool, "x.boolean_value"},
    {"record_id", Cell::kInt64, "r.record_id"},
    {"signal_id", Cell::kInt64, "g.signal_id"},
    {"span_start", Cell::kInt64, "x.span_start"},
    {"span_end", Cell::kInt64, "x.span_end"},
    {"span_signal_ids", Cell::kInt64List,
     "CASE WHEN x.signal_keys IS NULL THEN NULL ELSE coalesce(s.ids, []::BIGINT[]) END"},
};

constexpr ExportColumn kAnnotationColumns[] = {
    {"occurrence_id", Cell::kInt64, "o.occurrence_key"},
    {"content_id", Cell::kInt64, "o.content_key"},
    {"object_type", Cell::kString, "o.object_type"},
    {"object_id", Cell::kInt64,
     "CASE o.object_type WHEN 'Record' THEN rec.record_id WHEN 'Signal' THEN sig.signal_id "
     "WHEN 'Task' THEN tk.task_id WHEN 'Source' THEN o.object_key END"},
    {"record_id", Cell::kInt64,
     "CASE o.object_type WHEN 'Record' THEN rec.record_id WHEN 'Source' THEN srec.record_id "
     "WHEN 'Signal' THEN grec.record_id END"},
    {"registered", Cell::kBool, "o.registered"},
    {"registered_position", Cell::kInt64, "o.reg_position"},
    {"inherited_from", Cell::kString, "ia.parent_alias"},
    {"name", Cell::kString, "c.name"},
    {"value_kind", Cell::kString, "c.value_kind"},
    {"text_value",
     Cell::kText,
     "c.text_value",
     "c.text_value_text_key",
     "pt",
     {"annotation_contents", "text_value_text_key"}},
    {"integer_value", Cell::kInt64, "c.integer_value"},
    {"float_value", Cell::kDouble, "c.float_value"},
    {"boolean_value", Cell::kBool, "c.boolean_value"},
    {"text_list_value",
     Cell::kTextList,
     "c.text_list_value",
     "c.text_list_value_text_key",
     "pl",
     {"annotation_contents", "text_list_value_text_key"}},
    {"unit", Cell::kString, "c.unit"},
    {"description", Cell::kString, "c.description"},
    {"content_metadata", Cell::kString, "c.metadata"},
    {"span_type", Cell::kString, "o.span_type"},
    {"span_start_us", Cell::kInt64, "o.start_us"},
    {"span_end_us", Cell::kInt64, "o.end_us"},
    {"provenance", Cell::kString, "o.provenance"},
    {"confidence", Cell::kDouble, "o.confidence"},
    {"metadata", Cell::kString, "o.metadata"},
};

}  // namespace

ArrowTable TaskTable(Connection& connection, const TaskFilter& filter, const ValueResolver& text) {
  const SelectedTasks selected(filter);
  const std::string with =
      selected.cte +
      ", rec AS (SELECT rr.task_key, rr.field, list(r.record_id ORDER BY rr.position) AS ids "
      "FROM task_record_refs rr JOIN sel ON sel.task_key = rr.task_key "
      "JOIN records r ON r.record_key = rr.record_key GROUP BY rr.task_key, rr.field)"
      ", ann AS (SELECT a.task_key, a.field, list(a.occurrence_key ORDER BY a.position) AS ids "
      "FROM task_annotation_refs a JOIN sel ON sel.task_key = a.task_key "
      "GROUP BY a.task_key, a.field)"
      ", dep AS (SELECT d.task_key, list(p.task_id ORDER BY d.position) AS ids "
      "FROM task_dependencies d JOIN sel ON sel.task_key = d.task_key "
      "JOIN tasks p ON p.task_key = d.parent_task_key GROUP BY d.task_key), " +
      SignalIdsCte("scope", "tasks", "scope_signal_keys", {"task_key"});
  return Export(
      connection, with, kTaskColumns,
      "FROM tasks t JOIN sel ON sel.task_key = t.task_key "
      "LEFT JOIN rec ri ON ri.task_key = t.task_key AND ri.field = 'inputs' "
      "LEFT JOIN rec rc ON rc.task_key = t.task_key AND rc.field = 'candidate_records' "
      "LEFT JOIN dep dp ON dp.task_key = t.task_key "
      "LEFT JOIN ann ain ON ain.task_key = t.task_key AND ain.field = 'input_annotations' "
      "LEFT JOIN ann atg ON atg.task_key = t.task_key AND atg.field = "
      "'target_annotations' "
      "LEFT JOIN scope sc ON sc.task_key = t.task_key "
      "LEFT JOIN imported_tasks i ON i.task_id = t.task_id "
      "LEFT JOIN text_payloads pp ON pp.text_key = t.prompt_text_key "
      "LEFT JOIN text_payloads pr ON pr.text_key = t.rationale_text_key "
      "ORDER BY t.task_id",
      &selected, "tasks", text);
}

ArrowTable TargetTable(Connection& connection, const TaskFilter& filter,
                       const ValueResolver& text) {
  const SelectedTasks selected(filter);
  const std::string with =
      selected.cte + ", " +
      SignalIdsCte("spans", "task_targets", "signal_keys", {"task_key", "position"});
  return Export(connection, with, kTargetColumns,
                "FROM task_targets x JOIN sel ON sel.task_key = x.task_key "
                "JOIN tasks t ON t.task_key = x.task_key "
                "LEFT JOIN records r ON r.record_key = x.record_key "
                "LEFT JOIN signals g ON g.signal_key = x.signal_key "
                "LEFT JOIN spans s ON s.task_key = x.task_key AND s.position = x.position "
                "LEFT JOIN text_payloads p ON p.text_key = x.text_value_text_key "
                "ORDER BY t.task_id, x.position",
                &selected, "task_targets", text);
}

ArrowTable AnnotationTable(Connection& connection, const ValueResolver& text) {
  return Export(
      connection,
      "occ AS (SELECT a.occurrence_key, a.content_key, a.object_type, a.object_key, "
      "false AS registered, NULL::BIGINT AS reg_position, a.span_type, a.start_us, a.end_us, "
      "a.provenance, a.confidence, a.metadata FROM annotation_occurrences a UNION ALL SELECT "
      "g.occurrence_key, g.content_key, NULL, NULL, true, g.position, g.span_type, g.start_us, "
      "g.end_us, g.provenance, g.confidence, g.metadata FROM registered_annotations g)",
      kAnnotationColumns,
      "FROM occ o JOIN annotation_contents c ON c.content_key = o.content_key "
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
      "ORDER BY o.registered, o.reg_position, o.occurrence_key",
      nullptr, "annotation_occurrences", text);
}

}  // namespace timef::catalog
