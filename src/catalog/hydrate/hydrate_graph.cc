#include "catalog/hydrate/hydrate_graph.h"

#include <algorithm>
#include <string>
#include <utility>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/hydrate/cell_site.h"
#include "catalog/hydrate/hydrate_text.h"
#include "catalog/hydrate/spec_row.h"
#include "core/json_forms.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

// The key domains of the record queries (KeyedQuery::domain).
constexpr std::string_view kRecordKeys = "SELECT record_key AS k FROM records";
constexpr std::string_view kAnnotatedKeys =
    "SELECT DISTINCT object_key AS k FROM annotation_occurrences";

[[noreturn]] void BadEnum(std::string_view column, std::string_view value) {
  UnknownCellValue(column, value);
}

template <class T>
T Parsed(std::optional<T> parsed, std::string_view column, std::string_view value) {
  return ParsedCell(std::move(parsed), column, value);
}

// The (start, end) of a stored span kind as a ScopedSpan without signals.

model::AnnotationSpan AnnotationSpanOf(std::string_view table, std::string_view type,
                                       std::optional<int64_t> start, std::optional<int64_t> end) {
  const std::string column = std::string(table) + ".span_type";
  switch (Parsed(ParseAnnotationType(type), column, type)) {
    case AnnotationType::kStatic:
      return model::StaticSpan{};
    case AnnotationType::kPoint:
      if (start) return model::TimePoint{*start};
      break;
    case AnnotationType::kInterval:
      if (start && end) return model::TimeInterval{*start, *end};
      break;
  }
  BadEnum(column, type);
}

// Occurrence columns shared by annotation_occurrences and registered_annotations queries:
// 0 occurrence_key, 1 object_key (or position), 2 span_type, 3 start_us, 4 end_us, 5 provenance,
// 6 confidence, 7 metadata, 8 inherited alias, 9.. content columns.
constexpr std::string_view kOccurrenceColumns =
    "o.occurrence_key, {second}, o.span_type, o.start_us, o.end_us, o.provenance, o.confidence, "
    "o.metadata, ia.parent_alias, c.content_key, c.name, c.value_kind, c.text_value, "
    "c.text_value_text_key, c.integer_value, c.float_value, c.boolean_value, c.text_list_value, "
    "c.text_list_value_text_key, c.unit, c.description, c.metadata, ";

// The content's text_payloads row: at most one of its two text keys is set.
constexpr std::string_view kContentPayloadJoin =
    " LEFT JOIN text_payloads tp ON tp.text_key = "
    "coalesce(c.text_value_text_key, c.text_list_value_text_key) ";

std::string OccurrenceSelect(std::string_view second) {
  std::string columns(kOccurrenceColumns);
  columns.replace(columns.find("{second}"), 8, second);
  return "SELECT " + columns + PackedColumns("tp");
}

}  // namespace

HydrateGraph::HydrateGraph(Connection& connection, const ValueResolver& requested,
                           const ValueResolver& parents_only, CatalogRowCache* cache)
    : connection_(&connection), cache_(cache), requested_(requested), parents_only_(parents_only) {
  RowStream result = Run(
      {.what = "datasets", .sql = "SELECT dataset_key, dataset_id, dataset_version FROM datasets"},
      {});
  std::optional<Chunk> chunk = result.Next();
  if (!chunk || chunk->size() != 1) {
    throw FormatError({.object = "datasets"}, "expected exactly one row");
  }
  dataset_key_ = chunk->Int64(0).Get(0);
  dataset_ = std::make_unique<model::Dataset>(std::string(chunk->Varchar(1).Get(0)),
                                              std::string(chunk->Varchar(2).Get(0)));
}

RowStream HydrateGraph::Run(std::string_view sql, const std::vector<int64_t>& keys,
                            std::string_view what, std::string_view every_key) {
  KeyedQuery query{.what = what, .sql = std::string(sql), .key_column = 0};
  if (every_key.empty()) return RunKeyed(*connection_, nullptr, query, keys);
  return Run(std::move(query), keys, every_key);
}

RowStream HydrateGraph::Run(KeyedQuery query, const std::vector<int64_t>& keys,
                            std::string_view every_key) {
  if (every_key.empty()) return RunKeyed(*connection_, cache_, query, keys);
  query.domain = every_key;
  // Streamed: a whole task table is read once, in order, with no other statement in between;
  // materializing it first was a third of its query (issue 37).
  return RowStream(connection_->Stream(query.WholeSql(), query.what));
}

std::shared_ptr<model::Signal> HydrateGraph::Signal(int64_t key) const {
  auto it = signals_.find(key);
  if (it == signals_.end()) {
    throw FormatError({.object = "signals", .where = "signal_key"},
                      "reference to unknown signal key " + std::to_string(key));
  }
  return it->second;
}

std::shared_ptr<model::Record> HydrateGraph::Record(int64_t key) const {
  auto it = records_.find(key);
  if (it == records_.end()) {
    throw FormatError({.object = "records", .where = "record_key"},
                      "reference to unknown record key " + std::to_string(key));
  }
  return it->second;
}

void HydrateGraph::LoadRecords(const std::vector<int64_t>& record_keys,
                               const ValueResolver& values) {
  std::vector<int64_t> keys;
  for (int64_t key : record_keys) {
    if (!records_.contains(key)) keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (keys.empty()) return;

  std::vector<int64_t> object_keys = keys;
  std::vector<int64_t> signal_keys;
  {
    RowStream r =
        Run({.what = "records",
             .sql = "SELECT r.record_key, r.record_id, c.start_time_us, r.time_span_start_us, "
                    "r.time_span_end_us, r.metadata, i.parent_alias, i.parent_record_id FROM "
                    "records r JOIN {keys} q ON r.record_key = q.k JOIN clocks c ON c.clock_id = "
                    "r.clock_id LEFT JOIN record_imports i ON i.record_id = r.record_id",
             .key_column = 0,
             .domain = kRecordKeys},
            keys);
    while (std::optional<Chunk> chunk = r.Next()) {
      auto key = chunk->Int64(0);
      auto id = chunk->Int64(1);
      auto start = chunk->Int64(2);
      auto span_start = chunk->Int64(3);
      auto span_end = chunk->Int64(4);
      auto metadata = chunk->Varchar(5);
      auto alias = chunk->Varchar(6);
      auto parent_id = chunk->Int64(7);
      for (idx_t row = 0; row < chunk->size(); ++row) {
        auto record = std::make_shared<model::Record>();
        record->set_id(id.Get(row));
        record->set_read_from_dataset(dataset_->dataset_id());
        record->set_start_time_us(start.Optional(row));
        if (!span_start.IsNull(row)) {
          record->set_time_span(model::TimeInterval{span_start.Get(row), span_end.Get(row)});
        }
        SetMetadataCell(*record, metadata.Get(row), "records.metadata");
        if (!alias.IsNull(row)) {
          record->set_import_marker(
              model::ImportMarker{std::string(alias.Get(row)), parent_id.Get(row)});
        }
        objects_[key.Get(row)] = record.get();
        records_[key.Get(row)] = std::move(record);
      }
    }
  }
  {
    // Built first and linked afterwards in sibling order (name, source_key).
    struct Link {
      int64_t key;
      int64_t record_key;
      std::optional<int64_t> parent;
    };
    std::vector<Link> links;
    RowStream r = Run({.what = "sources",
                       .sql = "SELECT s.source_key, s.record_key, s.parent_source_key, s.name, "
                              "s.metadata FROM sources s JOIN {keys} q ON s.record_key = q.k "
                              "ORDER BY s.name, s.source_key",
                       .key_column = 1,
                       .domain = kRecordKeys},
                      keys);
    while (std::optional<Chunk> chunk = r.Next()) {
      auto key = chunk->Int64(0);
      auto record = chunk->Int64(1);
      auto parent = chunk->Int64(2);
      auto name = chunk->Varchar(3);
      auto metadata = chunk->Varchar(4);
      for (idx_t row = 0; row < chunk->size(); ++row) {
        auto source = std::make_shared<model::Source>(std::string(name.Get(row)));
        SetMetadataCell(*source, metadata.Get(row), "sources.metadata");
        objects_[key.Get(row)] = source.get();
        object_keys.push_back(key.Get(row));
        sources_[key.Get(row)] = std::move(source);
        links.push_back({key.Get(row), record.Get(row), parent.Optional(row)});
      }
    }
    for (const Link& link : links) {
      const auto& source = sources_.at(link.key);
      if (link.parent) {
        auto parent = sources_.find(*link.parent);
        if (parent == sources_.end()) {
          throw FormatError({.object = "sources", .where = "parent_source_key"},
                            "unknown parent source " + std::to_string(*link.parent));
        }
        parent->second->AddChild(source);
      } else {
        records_.at(link.record_key)->AddSource(source);
      }
    }
  }
  {
    // Column 31, the record key, is what the row cache selects by.
    RowStream r = Run(
        {.what = "signals",
         .sql = "SELECT s.signal_key, s.signal_id, s.source_key, s.name, s.axis_key, " +
                std::string(kSpecColumns) +
                ", s.n_values, s.metadata, s.source_id, a.axis_type, a.period_numerator_us, "
                "a.period_denominator, a.start_index, a.offset_us, a.first_us, a.last_us, "
                "a.offsets_payload_source, a.offsets_path, a.offsets_row, a.offsets_n_values, "
                "a.offsets_digest, i.parent_alias, i.parent_signal_id, so.record_key FROM signals "
                "s JOIN sources so ON so.source_key = s.source_key JOIN {keys} q ON "
                "so.record_key = q.k JOIN axes a ON a.axis_key = s.axis_key LEFT JOIN "
                "imported_signals i ON i.signal_id = s.signal_id ORDER BY s.signal_id",
         .key_column = 31,
         .domain = kRecordKeys},
        keys);
    while (std::optional<Chunk> chunk = r.Next()) {
      const Chunk& c = *chunk;
      for (idx_t row = 0; row < c.size(); ++row) {
        model::Spec spec = SpecAt(c, row, 5);
        std::shared_ptr<const model::Spec>& cached = specs_[spec.spec_type];
        if (!cached || !(*cached == spec)) cached = model::Spec::Make(std::move(spec));

        const int64_t axis_key = c.Int64(4).Get(row);
        std::shared_ptr<const model::TimeAxis>& axis = axes_[axis_key];
        if (!axis) {
          std::string_view type = c.Varchar(17).Get(row);
          switch (Parsed(model::ParseAxisType(type), "axes.axis_type", type)) {
            case model::AxisType::kRegular:
              axis = model::TimeAxis::Regular(c.Int64(18).Get(row), c.Int64(19).Get(row),
                                              c.Int64(20).Get(row), c.Int64(21).Get(row));
              break;
            case model::AxisType::kOrdinal:
              axis = model::TimeAxis::Ordinal();
              break;
            case model::AxisType::kIrregular: {
              OffsetsLocator locator;
              if (auto source = c.Varchar(24).Optional(row)) {
                locator.payload_source = std::string(*source);
              }
              locator.path = c.Varchar(25).Get(row);
              locator.row = c.Int64(26).Get(row);
              locator.n_values = c.Int64(27).Get(row);
              locator.digest = c.Varchar(28).Get(row);
              const int64_t first_us = c.Int64(22).Get(row);
              const int64_t last_us = c.Int64(23).Get(row);
              axis = model::TimeAxis::IrregularLazy(locator.n_values, first_us, last_us,
                                                    values.Offsets(locator, first_us, last_us));
              break;
            }
          }
        }
        auto signal = std::make_shared<model::Signal>(std::string(c.Varchar(3).Get(row)), cached,
                                                      axis, c.Int64(14).Get(row));
        signal->set_id(c.Int64(1).Get(row));
        signal->set_read_from_dataset(dataset_->dataset_id());
        SetMetadataCell(*signal, c.Varchar(15).Get(row), "signals.metadata");
        if (auto label = c.Varchar(16).Optional(row)) signal->set_source_id(std::string(*label));
        if (auto alias = c.Varchar(29).Optional(row)) {
          signal->set_import_marker(model::ImportMarker{std::string(*alias), c.Int64(30).Get(row)});
        }
        const int64_t key = c.Int64(0).Get(row);
        sources_.at(c.Int64(2).Get(row))->AddSignal(signal);
        objects_[key] = signal.get();
        object_keys.push_back(key);
        signal_keys.push_back(key);
        signals_[key] = std::move(signal);
      }
    }
  }
  LoadValues(signal_keys, values);
  LoadOccurrences(object_keys, values);
}

std::shared_ptr<const model::AnnotationContent> HydrateGraph::Content(const Chunk& c, size_t row,
                                                                      int first,
                                                                      const ValueResolver& values) {
  const int64_t key = c.Int64(first).Get(row);
  std::shared_ptr<const model::AnnotationContent>& cached = contents_[key];
  if (cached) return cached;
  model::AnnotationValue value;
  if (auto kind_text = c.Varchar(first + 2).Optional(row)) {
    const auto kind = model::ParseValueKind(*kind_text);
    switch (Parsed(kind, "annotation_contents.value_kind", *kind_text)) {
      case model::ValueKind::kMarker:
        BadEnum("annotation_contents.value_kind", *kind_text);
      case model::ValueKind::kText:
        if (auto packed = PackedTextAt(c, row, first + 4, first + 13, values,
                                       {"annotation_contents", "text_value_text_key"})) {
          value = model::AnnotationValue::OfText(std::move(*packed));
        } else {
          value = model::AnnotationValue::OfText(std::string(c.Varchar(first + 3).Get(row)));
        }
        break;
      case model::ValueKind::kInteger:
        value = model::AnnotationValue::OfInteger(c.Int64(first + 5).Get(row));
        break;
      case model::ValueKind::kFloat:
        value = model::AnnotationValue::OfFloat(c.Double(first + 6).Get(row));
        break;
      case model::ValueKind::kBoolean:
        value = model::AnnotationValue::OfBoolean(c.Bool(first + 7).Get(row));
        break;
      case model::ValueKind::kTextList:
        if (auto packed = PackedTextListAt(c, row, first + 9, first + 13, values,
                                           {"annotation_contents", "text_list_value_text_key"})) {
          value = model::AnnotationValue::OfTextList(std::move(*packed));
        } else {
          value = model::AnnotationValue::OfTextList(c.VarcharList(first + 8).Get(row));
        }
        break;
    }
  }
  auto content =
      std::make_shared<model::AnnotationContent>(std::string(c.Varchar(first + 1).Get(row)), value);
  if (auto unit = c.Varchar(first + 10).Optional(row)) content->set_unit(*unit);
  if (auto description = c.Varchar(first + 11).Optional(row)) {
    content->set_description(std::string(*description));
  }
  content->set_metadata(
      ParseJsonCell(c.Varchar(first + 12).Get(row), "annotation_contents.metadata"));
  cached = std::move(content);
  return cached;
}

namespace {

constexpr std::string_view kOccurrences = "annotation_occurrences";
constexpr std::string_view kRegistered = "registered_annotations";

// `table` is annotation_occurrences or registered_annotations, for messages.
std::shared_ptr<model::Annotation> MakeOccurrence(
    std::string_view table, const Chunk& c, idx_t row,
    std::shared_ptr<const model::AnnotationContent> content) {
  auto occurrence = std::make_shared<model::Annotation>(
      std::move(content), AnnotationSpanOf(table, c.Varchar(2).Get(row), c.Int64(3).Optional(row),
                                           c.Int64(4).Optional(row)));
  if (auto provenance = c.Varchar(5).Optional(row)) {
    occurrence->set_provenance(ParseJsonCell(*provenance, std::string(table) + ".provenance"));
  }
  occurrence->set_confidence(c.Double(6).Optional(row));
  if (c.Varchar(7).Get(row) != "{}") {
    occurrence->set_metadata(
        ParseJsonCell(c.Varchar(7).Get(row), std::string(table) + ".metadata"));
  }
  if (auto alias = c.Varchar(8).Optional(row)) occurrence->set_inherited_from(std::string(*alias));
  return occurrence;
}

}  // namespace

void HydrateGraph::LoadOccurrences(const std::vector<int64_t>& object_keys,
                                   const ValueResolver& values, std::string_view every_key) {
  if (object_keys.empty()) return;
  KeyedQuery query{
      .what = "annotation_occurrences",
      .sql = OccurrenceSelect("o.object_key") +
             " FROM annotation_occurrences o JOIN {keys} q ON o.object_key = q.k "
             "JOIN annotation_contents c ON c.content_key = o.content_key " +
             std::string(kContentPayloadJoin) +
             "LEFT JOIN imported_annotations ia ON ia.occurrence_key = o.occurrence_key "
             "ORDER BY o.occurrence_key",
      .key_column = 1,
      .domain = kAnnotatedKeys};
  RowStream r = Run(std::move(query), object_keys, every_key);
  while (std::optional<Chunk> chunk = r.Next()) {
    for (idx_t row = 0; row < chunk->size(); ++row) {
      auto occurrence = MakeOccurrence(kOccurrences, *chunk, row, Content(*chunk, row, 9, values));
      const int64_t object = chunk->Int64(1).Get(row);
      model::Annotatable* target = nullptr;
      if (object == dataset_key_) {
        target = dataset_.get();
      } else if (auto task = tasks_.find(object); task != tasks_.end()) {
        target = task->second.get();
        task_occurrences_.push_back(chunk->Int64(0).Get(row));
      } else {
        target = objects_.at(object);
      }
      target->AddAnnotation(occurrence);
      occurrences_[chunk->Int64(0).Get(row)] = std::move(occurrence);
    }
  }
}

void HydrateGraph::ForgetTasks() {
  tasks_.clear();
  for (int64_t key : task_occurrences_) occurrences_.erase(key);
  task_occurrences_.clear();
}

void HydrateGraph::LoadDatasetAnnotations() {
  if (dataset_annotations_loaded_) return;
  dataset_annotations_loaded_ = true;
  LoadOccurrences({dataset_key_}, requested_);
}

void HydrateGraph::LoadRegistered() {
  if (registered_loaded_) return;
  registered_loaded_ = true;
  Result r = connection_->Query(
      OccurrenceSelect("o.position") +
          " FROM registered_annotations o "
          "JOIN annotation_contents c ON c.content_key = o.content_key " +
          std::string(kContentPayloadJoin) +
          "LEFT JOIN imported_annotations ia ON ia.occurrence_key = o.occurrence_key "
          "ORDER BY o.position",
      "registered_annotations");
  while (std::optional<Chunk> chunk = r.Next()) {
    for (idx_t row = 0; row < chunk->size(); ++row) {
      auto occurrence =
          MakeOccurrence(kRegistered, *chunk, row, Content(*chunk, row, 9, requested_));
      occurrences_[chunk->Int64(0).Get(row)] = occurrence;
      registered_.push_back(std::move(occurrence));
    }
  }
}

}  // namespace timef::catalog
