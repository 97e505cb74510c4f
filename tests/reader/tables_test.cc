// Reader task/target/annotation tables (docs/format.md §11.6) on the hello-world release:
// every cell against the model objects that hydration builds (an independent path), the filters
// against ReadTasks(), the empty-result schema, the C Data Interface release rules, and DuckDB
// as an independent consumer of the exported stream.
#include <duckdb.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>

#include "core/json_forms.h"
#include "timef/arrow_table.h"
#include "timef/demo.h"
#include "timef/error.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {

namespace fs = std::filesystem;
using model::Annotation;
using model::InputModality;
using model::Split;
using model::TaskType;

class TablesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* out = std::getenv("TIMEF_TEST_OUT");
    const fs::path base = out != nullptr ? fs::path(out) : fs::temp_directory_path();
    root_ = base / ("reader-tables-" + std::to_string(std::random_device{}()));
    fs::remove_all(root_);
    auto dataset = demo::BuildHelloWorld();
    release_ = WriteRelease(*dataset, demo::HelloWorldCard(), root_, demo::HelloWorldWriteOptions())
                   .release_dir;
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  static inline fs::path root_;
  static inline fs::path release_;
};

std::optional<std::string> Str(const std::optional<std::string_view>& v) {
  return v ? std::optional<std::string>(std::string(*v)) : std::nullopt;
}

std::optional<std::string> TextOf(const std::optional<model::Text>& text) {
  return text ? std::optional<std::string>(text->Read()) : std::nullopt;
}

template <class T>
std::vector<int64_t> IdsOf(const std::vector<std::shared_ptr<T>>& objects) {
  std::vector<int64_t> ids;
  for (const auto& o : objects) ids.push_back(*o->id());
  return ids;
}

std::vector<int64_t> SignalIds(const model::ScopedSpan& span) {
  std::vector<int64_t> ids;
  for (const auto& s : span.signals) ids.push_back(*s->id());
  return ids;
}

// A list column holding the scoped signals: NULL (whole record) only when the span names none.
void ExpectSpanSignals(const ArrowTable& t, std::string_view column, int64_t row,
                       const model::ScopedSpan& span) {
  const auto cell = t.Int64List(column, row);
  if (span.signals.empty()) {
    EXPECT_TRUE(!cell || cell->empty()) << column << " row " << row;
  } else {
    ASSERT_TRUE(cell) << column << " row " << row;
    EXPECT_EQ(*cell, SignalIds(span)) << column << " row " << row;
  }
}

std::optional<int64_t> SpanStart(const model::AnnotationSpan& span) {
  if (auto* p = std::get_if<model::TimePoint>(&span)) return p->offset_us;
  if (auto* i = std::get_if<model::TimeInterval>(&span)) return i->start_us;
  return std::nullopt;
}
std::optional<int64_t> SpanEnd(const model::AnnotationSpan& span) {
  if (auto* i = std::get_if<model::TimeInterval>(&span)) return i->end_us;
  return std::nullopt;
}

// Every annotation row paired with the model annotation it stands for: rows of one object in
// occurrence order against that object's annotations(), registered rows against the dataset's
// registered annotations. Source rows are matched by the §6.7 key order (records in write order =
// ID order, sources in pre-order).
std::unordered_map<int64_t, const Annotation*> PairAnnotations(const ArrowTable& t,
                                                               const model::Dataset& dataset) {
  std::map<std::pair<std::string, int64_t>, std::vector<int64_t>> rows_of;  // object → rows
  std::vector<int64_t> dataset_rows, registered_rows;
  for (int64_t row = 0; row < t.num_rows(); ++row) {
    if (*t.Bool("registered", row)) {
      registered_rows.push_back(row);
    } else if (*t.String("object_type", row) == "Dataset") {
      EXPECT_FALSE(t.Int64("object_id", row)) << "dataset rows have no object_id";
      dataset_rows.push_back(row);
    } else {
      rows_of[{std::string(*t.String("object_type", row)), *t.Int64("object_id", row)}].push_back(
          row);
    }
  }
  std::unordered_map<int64_t, const Annotation*> out;
  auto pair = [&](const std::vector<int64_t>& rows,
                  const std::vector<std::shared_ptr<Annotation>>& annotations,
                  const std::string& what) {
    ASSERT_EQ(rows.size(), annotations.size()) << what;
    for (size_t i = 0; i < rows.size(); ++i) {
      out[*t.Int64("occurrence_id", rows[i])] = annotations[i].get();
    }
  };
  pair(dataset_rows, dataset.annotations(), "dataset");
  pair(registered_rows, dataset.registered_annotations(), "registered");
  std::vector<std::shared_ptr<model::Record>> records = dataset.records();
  std::sort(records.begin(), records.end(), [](auto& a, auto& b) { return *a->id() < *b->id(); });
  std::vector<const model::Source*> annotated_sources;
  std::function<void(const model::Source&)> walk = [&](const model::Source& source) {
    if (!source.annotations().empty()) annotated_sources.push_back(&source);
    for (const auto& child : source.children()) walk(*child);
  };
  size_t objects = 0;
  for (const auto& record : records) {
    if (!record->annotations().empty()) {
      pair(rows_of[{"Record", *record->id()}], record->annotations(),
           "record " + std::to_string(*record->id()));
      ++objects;
    }
    for (const auto& source : record->sources()) walk(*source);
    for (const auto& signal : record->Signals()) {
      if (signal->annotations().empty()) continue;
      pair(rows_of[{"Signal", *signal->id()}], signal->annotations(),
           "signal " + std::to_string(*signal->id()));
      ++objects;
    }
  }
  for (const auto& task : dataset.tasks()) {
    if (task->annotations().empty()) continue;
    pair(rows_of[{"Task", *task->id()}], task->annotations(),
         "task " + std::to_string(*task->id()));
    ++objects;
  }
  std::vector<int64_t> source_ids;
  for (const auto& [key, rows] : rows_of) {
    if (key.first == "Source") source_ids.push_back(key.second);
  }
  EXPECT_EQ(source_ids.size(), annotated_sources.size());
  for (size_t i = 0; i < source_ids.size() && i < annotated_sources.size(); ++i) {
    pair(rows_of[{"Source", source_ids[i]}], annotated_sources[i]->annotations(),
         "source " + annotated_sources[i]->name());
    ++objects;
  }
  EXPECT_EQ(objects, rows_of.size()) << "every annotated object has its rows";
  return out;
}

void ExpectSameColumns(const ArrowTable& a, const ArrowTable& b) {
  ASSERT_EQ(a.ColumnNames(), b.ColumnNames());
  for (const std::string& name : a.ColumnNames()) {
    EXPECT_EQ(a.ColumnFormat(name), b.ColumnFormat(name)) << name;
    EXPECT_EQ(a.ListElementFormat(name), b.ListElementFormat(name)) << name;
  }
}

TEST_F(TablesTest, TaskTableMatchesHydratedTasks) {
  Reader reader = Reader::Open(release_);
  const auto dataset = reader.Read();
  const ArrowTable annotations = reader.ReadAnnotationTable();
  const auto by_occurrence = PairAnnotations(annotations, *dataset);
  const ArrowTable t = reader.ReadTaskTable();

  const auto& tasks = dataset->tasks();
  ASSERT_EQ(t.num_rows(), static_cast<int64_t>(tasks.size()));
  ASSERT_GE(tasks.size(), 8u);
  bool packed_prompt_or_rationale = false, absent_split = false, scoped = false, imported = false;
  std::set<std::string> non_empty;  // list columns some task fills (the demo covers them all)
  for (int64_t row = 0; row < t.num_rows(); ++row) {
    const model::Task& task = *tasks[row];
    SCOPED_TRACE("task " + std::to_string(*task.id()));
    EXPECT_EQ(t.Int64("task_id", row), task.id());
    EXPECT_EQ(t.String("type", row), model::ToString(task.type()));
    EXPECT_EQ(
        Str(t.String("split", row)),
        task.split() ? std::optional<std::string>(model::ToString(*task.split())) : std::nullopt);
    absent_split |= !task.split().has_value();
    EXPECT_EQ(Str(t.String("prompt", row)), TextOf(task.prompt()));
    EXPECT_EQ(Str(t.String("rationale", row)), TextOf(task.rationale()));
    for (const auto* text : {&task.prompt(), &task.rationale()}) {
      if (*text && (*text)->size() > 256) packed_prompt_or_rationale = true;
    }
    std::vector<std::string> modalities;
    for (InputModality m : task.InputModalities()) modalities.emplace_back(model::ToString(m));
    EXPECT_EQ(t.StringList("input_modalities", row), modalities);
    EXPECT_EQ(t.Int64List("input_record_ids", row), IdsOf(task.inputs()));
    EXPECT_EQ(t.Int64List("candidate_record_ids", row), IdsOf(task.candidate_records()));
    EXPECT_EQ(t.Int64List("from_task_ids", row), IdsOf(task.from_tasks()));
    for (auto [column, list] :
         {std::pair{"input_annotation_occurrence_ids", &task.input_annotations()},
          std::pair{"target_annotation_occurrence_ids", &task.target_annotations()}}) {
      const auto ids = t.Int64List(column, row);
      ASSERT_TRUE(ids) << column;
      ASSERT_EQ(ids->size(), list->size()) << column;
      for (size_t i = 0; i < ids->size(); ++i) {
        EXPECT_EQ(by_occurrence.at((*ids)[i]), (*list)[i].get()) << column << " " << i;
      }
    }
    if (task.scope()) {
      scoped = true;
      EXPECT_EQ(t.String("scope_type", row), model::ToString(task.scope()->kind()));
      EXPECT_EQ(t.Int64("scope_start", row), task.scope()->start());
      EXPECT_EQ(t.Int64("scope_end", row), task.scope()->end());
      ExpectSpanSignals(t, "scope_signal_ids", row, *task.scope());
    } else {
      for (const char* c : {"scope_type", "scope_start", "scope_end", "scope_signal_ids"}) {
        EXPECT_TRUE(t.IsNull(c, row)) << c;
      }
    }
    for (const char* c : {"input_record_ids", "candidate_record_ids", "from_task_ids",
                          "input_annotation_occurrence_ids", "target_annotation_occurrence_ids",
                          "scope_signal_ids"}) {
      if (auto ids = t.Int64List(c, row); ids && !ids->empty()) non_empty.insert(c);
    }
    EXPECT_EQ(t.Bool("has_inline_targets", row), task.has_inline_targets());
    EXPECT_EQ(Str(t.String("target_schema", row)), task.target_schema());
    EXPECT_EQ(Str(t.String("unit", row)), task.unit());
    EXPECT_EQ(Str(t.String("target_name", row)), task.target_name());
    EXPECT_EQ(
        Str(t.String("mode", row)),
        task.mode() ? std::optional<std::string>(model::ToString(*task.mode())) : std::nullopt);
    EXPECT_EQ(t.String("metadata", row), WriteCompactJson(task.metadata()));
    if (task.import_marker()) {
      imported = true;
      EXPECT_EQ(t.String("parent_alias", row), task.import_marker()->alias);
      EXPECT_EQ(t.Int64("parent_task_id", row), task.import_marker()->parent_id);
    } else {
      EXPECT_TRUE(t.IsNull("parent_alias", row));
      EXPECT_TRUE(t.IsNull("parent_task_id", row));
    }
  }
  EXPECT_TRUE(packed_prompt_or_rationale) << "hello-world packs a long prompt or rationale";
  EXPECT_TRUE(absent_split);
  EXPECT_TRUE(scoped);
  EXPECT_FALSE(imported) << "hello-world imports nothing";
  EXPECT_EQ(non_empty.size(), 6u);
}

TEST_F(TablesTest, PackedTextIsReadThroughThePayloadFiles) {
  Reader reader = Reader::Open(release_);
  const ArrowTable t = reader.ReadTaskTable();
  EXPECT_GT(reader.counters().payload_values_read, 0u);
  Reader annotations_reader = Reader::Open(release_);
  annotations_reader.ReadAnnotationTable();
  EXPECT_GT(annotations_reader.counters().payload_values_read, 0u);
}

TEST_F(TablesTest, TargetTableMatchesHydratedTargets) {
  Reader reader = Reader::Open(release_);
  const auto dataset = reader.Read();
  const ArrowTable t = reader.ReadTargetTable();
  std::set<std::string> kinds;
  int64_t row = 0;
  bool long_text = false;
  for (const auto& task : dataset->tasks()) {
    if (!task->targets()) continue;
    for (size_t position = 0; position < task->targets()->size(); ++position, ++row) {
      ASSERT_LT(row, t.num_rows());
      const model::TaskTarget& target = (*task->targets())[position];
      SCOPED_TRACE("task " + std::to_string(*task->id()) + " target " + std::to_string(position));
      EXPECT_EQ(t.Int64("task_id", row), task->id());
      EXPECT_EQ(t.Int64("position", row), static_cast<int64_t>(position));
      const std::string kind(model::ToString(target.kind()));
      kinds.insert(kind);
      EXPECT_EQ(t.String("kind", row), kind);
      using K = model::TargetKind;
      std::set<std::string> set;
      switch (target.kind()) {
        case K::kText:
          EXPECT_EQ(t.String("text_value", row), target.text().Read());
          long_text |= target.text().size() > 256;
          set = {"text_value"};
          break;
        case K::kInteger:
          EXPECT_EQ(t.Int64("integer_value", row), target.integer());
          set = {"integer_value"};
          break;
        case K::kFloat:
          EXPECT_EQ(t.Double("float_value", row), target.float_value());
          set = {"float_value"};
          break;
        case K::kBoolean:
          EXPECT_EQ(t.Bool("boolean_value", row), target.boolean());
          set = {"boolean_value"};
          break;
        case K::kRecord:
          EXPECT_EQ(t.Int64("record_id", row), target.record()->id());
          set = {"record_id"};
          break;
        case K::kSignal:
          EXPECT_EQ(t.Int64("signal_id", row), target.signal()->id());
          set = {"signal_id"};
          break;
        default:
          EXPECT_EQ(t.Int64("span_start", row), target.span().start());
          EXPECT_EQ(t.Int64("span_end", row), target.span().end());
          ExpectSpanSignals(t, "span_signal_ids", row, target.span());
          set = {"span_start", "span_end", "span_signal_ids"};
      }
      for (const char* c : {"text_value", "integer_value", "float_value", "boolean_value",
                            "record_id", "signal_id", "span_start", "span_end"}) {
        if (!set.contains(c)) {
          EXPECT_TRUE(t.IsNull(c, row)) << c << " is NULL for " << kind;
        }
      }
    }
  }
  EXPECT_EQ(row, t.num_rows());
  EXPECT_TRUE(long_text) << "hello-world packs a long text target";
  EXPECT_GE(kinds.size(), 5u) << "hello-world covers many target kinds";
  bool span_signals = false;
  for (int64_t r = 0; r < t.num_rows(); ++r) {
    if (auto ids = t.Int64List("span_signal_ids", r); ids && !ids->empty()) span_signals = true;
  }
  EXPECT_TRUE(span_signals) << "some span target names its signals";
}

TEST_F(TablesTest, AnnotationTableMatchesHydratedAnnotations) {
  Reader reader = Reader::Open(release_);
  const auto dataset = reader.Read();
  const ArrowTable t = reader.ReadAnnotationTable();
  const auto by_occurrence = PairAnnotations(t, *dataset);
  ASSERT_EQ(static_cast<int64_t>(by_occurrence.size()), t.num_rows()) << "occurrence_id unique";
  std::map<int64_t, const model::AnnotationContent*> content_of;
  std::map<const model::AnnotationContent*, int64_t> id_of_content;
  std::set<std::string> value_kinds, object_types;
  for (int64_t row = 0; row < t.num_rows(); ++row) {
    const Annotation& a = *by_occurrence.at(*t.Int64("occurrence_id", row));
    const model::AnnotationContent& c = *a.content();
    SCOPED_TRACE("occurrence " + std::to_string(*t.Int64("occurrence_id", row)) + " " + a.key());
    // One content, one content_id (and the other way round).
    const int64_t content_id = *t.Int64("content_id", row);
    EXPECT_EQ(content_of.emplace(content_id, &c).first->second, &c);
    EXPECT_EQ(id_of_content.emplace(&c, content_id).first->second, content_id);
    if (auto type = t.String("object_type", row)) object_types.emplace(*type);
    EXPECT_EQ(t.String("name", row), c.name());
    using V = model::ValueKind;
    const V kind = c.value().kind();
    value_kinds.emplace(model::ToString(kind));
    EXPECT_EQ(
        Str(t.String("value_kind", row)),
        kind == V::kMarker ? std::nullopt : std::optional<std::string>(model::ToString(kind)));
    EXPECT_EQ(
        Str(t.String("text_value", row)),
        kind == V::kText ? std::optional<std::string>(c.value().text().Read()) : std::nullopt);
    EXPECT_EQ(t.Int64("integer_value", row),
              kind == V::kInteger ? std::optional<int64_t>(c.value().integer()) : std::nullopt);
    if (kind == V::kFloat) {
      EXPECT_EQ(t.Double("float_value", row), c.value().float_value());
    } else {
      EXPECT_TRUE(t.IsNull("float_value", row));
    }
    EXPECT_EQ(t.Bool("boolean_value", row),
              kind == V::kBoolean ? std::optional<bool>(c.value().boolean()) : std::nullopt);
    EXPECT_EQ(t.StringList("text_list_value", row),
              kind == V::kTextList ? std::optional(c.value().text_list().Read()) : std::nullopt);
    EXPECT_EQ(Str(t.String("unit", row)), c.unit());
    EXPECT_EQ(Str(t.String("description", row)), c.description());
    EXPECT_EQ(t.String("content_metadata", row), WriteCompactJson(c.metadata()));
    EXPECT_EQ(t.String("span_type", row), model::SpanTypeName(a.span()));
    EXPECT_EQ(t.Int64("span_start_us", row), SpanStart(a.span()));
    EXPECT_EQ(t.Int64("span_end_us", row), SpanEnd(a.span()));
    EXPECT_EQ(Str(t.String("provenance", row)),
              a.provenance() ? std::optional(WriteCompactJson(*a.provenance())) : std::nullopt);
    EXPECT_EQ(t.Double("confidence", row), a.confidence());
    EXPECT_EQ(t.String("metadata", row), WriteCompactJson(a.metadata()));
    EXPECT_EQ(Str(t.String("inherited_from", row)), a.inherited_from());
  }
  // record_id: the record of a Record/Source/Signal row, NULL elsewhere.
  std::map<int64_t, int64_t> record_of_signal;
  for (const auto& record : dataset->records()) {
    for (const auto& signal : record->Signals()) record_of_signal[*signal->id()] = *record->id();
  }
  for (int64_t row = 0; row < t.num_rows(); ++row) {
    const auto type = t.String("object_type", row);
    if (type == "Record") {
      EXPECT_EQ(t.Int64("record_id", row), t.Int64("object_id", row));
    }
    if (type == "Signal") {
      EXPECT_EQ(t.Int64("record_id", row), record_of_signal.at(*t.Int64("object_id", row)));
    }
    if (type == "Source") {
      EXPECT_TRUE(t.Int64("record_id", row));
    }
    if (!type || type == "Dataset" || type == "Task") {
      EXPECT_TRUE(t.IsNull("record_id", row));
    }
    EXPECT_EQ(t.IsNull("registered_position", row), !*t.Bool("registered", row));
  }
  EXPECT_EQ(object_types, (std::set<std::string>{"Dataset", "Record", "Source", "Signal", "Task"}));
  EXPECT_EQ(value_kinds.size(), 6u) << "every value kind, the marker included";
  EXPECT_FALSE(dataset->registered_annotations().empty());
}

TEST_F(TablesTest, FiltersSelectTheTasksReadTasksSelects) {
  Reader reader = Reader::Open(release_);
  const int64_t all = reader.ReadTaskTable().num_rows();
  std::vector<TaskQuery> queries;
  for (Split split : {Split::kTrain, Split::kValidation, Split::kTest}) {
    queries.push_back({.split = split});
  }
  for (int type = 0; type <= static_cast<int>(TaskType::kTsCorrespondence); ++type) {
    queries.push_back({.type = static_cast<TaskType>(type)});
  }
  queries.push_back({.required_modalities = {InputModality::kTimeSeries}});
  queries.push_back({.required_modalities = {InputModality::kText, InputModality::kTimeSeries}});
  queries.push_back({.supported_modalities = {InputModality::kText}});
  queries.push_back({.supported_modalities = {InputModality::kText, InputModality::kNoInput}});
  queries.push_back({.inputs = std::vector<std::int64_t>{demo::kEcgRecordId}});
  queries.push_back(
      {.inputs = std::vector<std::int64_t>{demo::kVitalsRecordId, demo::kDiaryRecordId}});
  queries.push_back({.inputs = std::vector<std::int64_t>{demo::kEcgRecordId},
                     .split = Split::kTrain,
                     .required_modalities = {InputModality::kText}});
  bool narrowed = false;
  for (const TaskQuery& query : queries) {
    const std::vector<int64_t> expected = IdsOf(reader.ReadTasks(query));
    const ArrowTable tasks = reader.ReadTaskTable(query);
    std::vector<int64_t> got;
    for (int64_t row = 0; row < tasks.num_rows(); ++row)
      got.push_back(*tasks.Int64("task_id", row));
    EXPECT_EQ(got, expected);
    narrowed |= !got.empty() && static_cast<int64_t>(got.size()) < all;
    // The target table holds exactly the inline targets of those tasks.
    std::vector<int64_t> expected_targets;
    for (const auto& task : reader.ReadTasks(query)) {
      if (!task->targets()) continue;
      expected_targets.insert(expected_targets.end(), task->targets()->size(), *task->id());
    }
    const ArrowTable targets = reader.ReadTargetTable(query);
    std::vector<int64_t> target_tasks;
    for (int64_t row = 0; row < targets.num_rows(); ++row) {
      target_tasks.push_back(*targets.Int64("task_id", row));
    }
    EXPECT_EQ(target_tasks, expected_targets);
  }
  EXPECT_TRUE(narrowed) << "some filter selects a proper, non-empty subset";
}

TEST_F(TablesTest, EmptyResultsKeepTheSchema) {
  Reader reader = Reader::Open(release_);
  const ArrowTable all = reader.ReadTaskTable();
  const ArrowTable none = reader.ReadTaskTable({.inputs = std::vector<std::int64_t>{987654321}});
  EXPECT_EQ(none.num_rows(), 0);
  ExpectSameColumns(all, none);
  const ArrowTable no_targets =
      reader.ReadTargetTable({.inputs = std::vector<std::int64_t>{987654321}});
  EXPECT_EQ(no_targets.num_rows(), 0);
  ExpectSameColumns(reader.ReadTargetTable(), no_targets);
  EXPECT_EQ(all.ColumnFormat("task_id"), "l");
  EXPECT_EQ(all.ColumnFormat("prompt"), "U");
  EXPECT_EQ(all.ColumnFormat("input_record_ids"), "+L");
  EXPECT_EQ(all.ListElementFormat("input_record_ids"), "l");
  EXPECT_EQ(all.ListElementFormat("input_modalities"), "U");
  EXPECT_THROW(reader.ReadTaskTable({.inputs = std::vector<std::int64_t>{0}}), ValidationError);
}

TEST_F(TablesTest, TypedAccessorsRejectWrongTypesAndRows) {
  Reader reader = Reader::Open(release_);
  const ArrowTable t = reader.ReadTaskTable();
  EXPECT_THROW(t.String("task_id", 0), ValidationError);
  EXPECT_THROW(t.Int64List("input_modalities", 0), ValidationError);
  EXPECT_THROW(t.Int64("task_id", t.num_rows()), ValidationError);
  EXPECT_THROW(t.Int64("no_such_column", 0), ValidationError);
}

// Counts release callbacks by wrapping a producer's release.
struct ReleaseSpy {
  static inline int calls = 0;
  static inline void (*array_release)(ArrowArray*) = nullptr;
  static void Array(ArrowArray* a) {
    ++calls;
    a->release = array_release;
    a->release(a);
  }
};

TEST_F(TablesTest, StreamFollowsTheReleaseRules) {
  Reader reader = Reader::Open(release_);
  ArrowTable table = reader.ReadTaskTable();
  const int64_t rows = table.num_rows();
  const int64_t columns = table.num_columns();
  ArrowArrayStream stream{};
  table.ExportStream(&stream);
  EXPECT_TRUE(table.exported());
  EXPECT_EQ(table.num_rows(), 0);
  EXPECT_THROW(table.ExportStream(&stream), ValidationError);
  ASSERT_NE(stream.release, nullptr);

  // get_schema hands out an independent copy each time.
  for (int i = 0; i < 2; ++i) {
    ArrowSchema schema{};
    ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
    EXPECT_STREQ(schema.format, "+s");
    EXPECT_EQ(schema.n_children, columns);
    EXPECT_STREQ(schema.children[0]->name, "task_id");
    schema.release(&schema);
    EXPECT_EQ(schema.release, nullptr) << "release marks the schema released";
  }
  ArrowArray batch{};
  ASSERT_EQ(stream.get_next(&stream, &batch), 0);
  ASSERT_NE(batch.release, nullptr);
  EXPECT_EQ(batch.length, rows);
  ArrowArray end{};
  end.release = &ReleaseSpy::Array;  // must be overwritten with NULL
  ASSERT_EQ(stream.get_next(&stream, &end), 0);
  EXPECT_EQ(end.release, nullptr) << "end of stream";
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);

  // A consumer may move a child out; releasing the parent must then leave it alone.
  ArrowArray moved = *batch.children[0];
  batch.children[0]->release = nullptr;
  ReleaseSpy::calls = 0;
  ReleaseSpy::array_release = batch.release;
  batch.release = &ReleaseSpy::Array;
  batch.release(&batch);
  EXPECT_EQ(ReleaseSpy::calls, 1);
  EXPECT_EQ(batch.release, nullptr);
  EXPECT_EQ(static_cast<const int64_t*>(moved.buffers[1])[0], 1) << "moved child still valid";
  moved.release(&moved);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

TEST_F(TablesTest, ReleasingAnUnreadStreamFreesTheBatch) {
  Reader reader = Reader::Open(release_);
  ArrowTable table = reader.ReadAnnotationTable();
  ArrowArrayStream stream{};
  table.ExportStream(&stream);
  stream.release(&stream);  // never read: the stream owns schema and batch (ASan: no leak)
  EXPECT_EQ(stream.release, nullptr);

  ArrowTable other = reader.ReadTargetTable();
  ArrowSchema schema{};
  ArrowArray array{};
  other.Export(&schema, &array);
  EXPECT_TRUE(other.exported());
  ASSERT_NE(schema.release, nullptr);
  ASSERT_NE(array.release, nullptr);
  ArrowTable adopted(schema, array);  // back into RAII ownership
  EXPECT_EQ(adopted.num_rows(), reader.ReadTargetTable().num_rows());
}

// DuckDB as an independent Arrow consumer: it imports the schema and the batch taken from the
// exported stream (duckdb_schema_from_arrow / duckdb_data_chunk_from_arrow, which takes the batch
// over and releases it with the chunk) and the test reads DuckDB's vectors. Not duckdb_arrow_scan:
// it never releases the schemas it asks for (duckdb/duckdb#16050) and expects the stream to apply
// column projections itself.
TEST_F(TablesTest, DuckDbConsumesTheExportedStream) {
  Reader reader = Reader::Open(release_);
  const auto tasks = reader.ReadTasks();
  int64_t id_sum = 0, inputs = 0, modalities = 0, prompt_bytes = 0, prompts = 0;
  for (const auto& task : tasks) {
    id_sum += *task->id();
    inputs += static_cast<int64_t>(task->inputs().size());
    modalities += static_cast<int64_t>(task->InputModalities().size());
    if (task->prompt()) {
      prompt_bytes += task->prompt()->size();
      ++prompts;
    }
  }
  ArrowTable table = reader.ReadTaskTable();
  const auto task_id = static_cast<idx_t>(table.ColumnIndex("task_id"));
  const auto prompt = static_cast<idx_t>(table.ColumnIndex("prompt"));
  const auto input_ids = static_cast<idx_t>(table.ColumnIndex("input_record_ids"));
  const auto input_modalities = static_cast<idx_t>(table.ColumnIndex("input_modalities"));
  ArrowArrayStream stream{};
  table.ExportStream(&stream);
  ArrowSchema schema{};
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  ArrowArray batch{};
  ASSERT_EQ(stream.get_next(&stream, &batch), 0);

  duckdb_database db = nullptr;
  duckdb_connection conn = nullptr;
  ASSERT_EQ(duckdb_open(nullptr, &db), DuckDBSuccess);
  ASSERT_EQ(duckdb_connect(db, &conn), DuckDBSuccess);
  duckdb_arrow_converted_schema converted = nullptr;
  duckdb_error_data error = duckdb_schema_from_arrow(conn, &schema, &converted);
  ASSERT_FALSE(duckdb_error_data_has_error(error)) << duckdb_error_data_message(error);
  duckdb_destroy_error_data(&error);
  duckdb_data_chunk chunk = nullptr;
  error = duckdb_data_chunk_from_arrow(conn, &batch, converted, &chunk);
  ASSERT_FALSE(duckdb_error_data_has_error(error)) << duckdb_error_data_message(error);
  duckdb_destroy_error_data(&error);

  const idx_t rows = duckdb_data_chunk_get_size(chunk);
  EXPECT_EQ(rows, tasks.size());
  EXPECT_EQ(duckdb_data_chunk_get_column_count(chunk), static_cast<idx_t>(schema.n_children));
  int64_t got_ids = 0, got_inputs = 0, got_modalities = 0, got_bytes = 0, got_prompts = 0;
  {
    const auto* ids = static_cast<const int64_t*>(
        duckdb_vector_get_data(duckdb_data_chunk_get_vector(chunk, task_id)));
    duckdb_vector prompt_vector = duckdb_data_chunk_get_vector(chunk, prompt);
    auto* texts = static_cast<duckdb_string_t*>(duckdb_vector_get_data(prompt_vector));
    uint64_t* valid = duckdb_vector_get_validity(prompt_vector);
    const auto* input_lists = static_cast<const duckdb_list_entry*>(
        duckdb_vector_get_data(duckdb_data_chunk_get_vector(chunk, input_ids)));
    const auto* modality_lists = static_cast<const duckdb_list_entry*>(
        duckdb_vector_get_data(duckdb_data_chunk_get_vector(chunk, input_modalities)));
    for (idx_t row = 0; row < rows; ++row) {
      got_ids += ids[row];
      got_inputs += static_cast<int64_t>(input_lists[row].length);
      got_modalities += static_cast<int64_t>(modality_lists[row].length);
      if (duckdb_validity_row_is_valid(valid, row)) {
        got_bytes += duckdb_string_t_length(texts[row]);
        ++got_prompts;
      }
    }
  }
  EXPECT_EQ(got_ids, id_sum);
  EXPECT_EQ(got_inputs, inputs);
  EXPECT_EQ(got_modalities, modalities);
  EXPECT_EQ(got_bytes, prompt_bytes);
  EXPECT_EQ(got_prompts, prompts);

  duckdb_destroy_data_chunk(&chunk);  // releases the batch DuckDB took over
  duckdb_destroy_arrow_converted_schema(&converted);
  schema.release(&schema);
  duckdb_disconnect(&conn);
  duckdb_close(&db);
  stream.release(&stream);
}

}  // namespace
}  // namespace timef
