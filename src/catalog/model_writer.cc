#include "catalog/model_writer.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

#include "catalog/catalog_writer.h"
#include "core/json_forms.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

using model::Annotatable;
using model::Annotation;

struct SourceRow {
  const model::Source* source;
  int64_t key;
  int64_t record_key;
  std::optional<int64_t> parent_key;
};
struct SignalRow {
  const model::Signal* signal;
  int64_t key;
  int64_t source_key;
  int64_t axis_key;
  std::vector<ChunkLocator> chunks;
};
struct OccurrenceRow {
  const Annotation* annotation;
  int64_t key;
  int64_t content_key;
  std::string_view object_type;
  int64_t object_key;
};

// Every key of §6.7, assigned in one walk before anything touches the file.
struct Plan {
  std::vector<std::pair<const model::Record*, int64_t>> records;
  std::vector<std::optional<int64_t>> clocks;  // clock_id = index + 1
  std::vector<int64_t> record_clock;           // per record
  std::vector<SourceRow> sources;
  std::vector<SignalRow> signals;
  std::vector<std::pair<const model::TimeAxis*, std::optional<OffsetsLocator>>> axes;
  std::vector<std::pair<const model::Task*, int64_t>> tasks;  // by task_id
  std::vector<const model::AnnotationContent*> contents;      // content_key = index + 1
  std::vector<OccurrenceRow> occurrences;
  std::vector<std::pair<const Annotation*, int64_t>> registered;
  // Packed text: text_key = index + 1; the keys below are per plan.tasks / plan.contents index.
  std::vector<std::pair<PackedText, std::string_view>> texts;  // (locator, kind)
  std::vector<std::optional<int64_t>> prompt_keys;
  std::vector<std::optional<int64_t>> rationale_keys;
  std::vector<std::vector<std::optional<int64_t>>> target_keys;  // by target position
  std::vector<std::optional<int64_t>> content_keys;              // text or text-list value

  std::unordered_map<const void*, int64_t> object_key;
  std::unordered_map<const model::TimeAxis*, int64_t> axis_key;
  std::map<std::optional<int64_t>, int64_t> clock_id;
  std::unordered_map<const model::AnnotationContent*, int64_t> content_key;
  std::unordered_map<const Annotation*, int64_t> occurrence_key;
};

class Planner {
 public:
  Planner(const model::Dataset& dataset, const ModelWriteOptions& options)
      : dataset_(dataset), options_(options) {}

  Plan Run() {
    int64_t next = 2;  // dataset_key = 1
    for (const auto& record : dataset_.records()) {
      const int64_t key = next++;
      plan_.records.emplace_back(record.get(), key);
      plan_.object_key[record.get()] = key;
      auto [it, inserted] =
          plan_.clock_id.emplace(record->start_time_us(), plan_.clocks.size() + 1);
      if (inserted) plan_.clocks.push_back(record->start_time_us());
      plan_.record_clock.push_back(it->second);
      for (const auto& root : record->sources()) WalkSource(*root, key, std::nullopt, next);
    }
    std::vector<const model::Task*> tasks;
    for (const auto& task : dataset_.tasks()) tasks.push_back(task.get());
    std::sort(tasks.begin(), tasks.end(),
              [](const model::Task* a, const model::Task* b) { return *a->id() < *b->id(); });
    for (const model::Task* task : tasks) {
      plan_.tasks.emplace_back(task, next);
      plan_.object_key[task] = next++;
    }

    int64_t occurrence = 1;
    AddOccurrences(dataset_, "Dataset", 1, occurrence);
    for (const auto& [record, key] : plan_.records) {
      AddOccurrences(*record, "Record", key, occurrence);
      for (const SourceRow& row : plan_.sources) {
        if (row.record_key != key) continue;
        AddOccurrences(*row.source, "Source", row.key, occurrence);
        for (const auto& signal : row.source->signals()) {
          AddOccurrences(*signal, "Signal", plan_.object_key.at(signal.get()), occurrence);
        }
      }
    }
    for (const auto& [task, key] : plan_.tasks) AddOccurrences(*task, "Task", key, occurrence);
    for (const auto& annotation : dataset_.registered_annotations()) {
      ContentKey(*annotation->content());
      plan_.registered.emplace_back(annotation.get(), occurrence);
      plan_.occurrence_key[annotation.get()] = occurrence++;
    }
    return std::move(plan_);
  }

 private:
  void WalkSource(const model::Source& source, int64_t record_key,
                  std::optional<int64_t> parent_key, int64_t& next) {
    const int64_t key = next++;
    plan_.object_key[&source] = key;
    plan_.sources.push_back({&source, key, record_key, parent_key});
    for (const auto& signal : source.signals()) {
      const int64_t signal_key = next++;
      plan_.object_key[signal.get()] = signal_key;
      SignalRow row{signal.get(), signal_key, key, AxisKey(signal->axis()), {}};
      if (options_.chunks) row.chunks = options_.chunks(*signal);
      plan_.signals.push_back(std::move(row));
    }
    for (const auto& child : source.children()) WalkSource(*child, record_key, key, next);
  }

  int64_t AxisKey(const std::shared_ptr<const model::TimeAxis>& axis) {
    auto it = plan_.axis_key.find(axis.get());
    if (it != plan_.axis_key.end()) return it->second;
    std::optional<OffsetsLocator> locator;
    if (axis->is_irregular()) {
      if (options_.offsets) locator = options_.offsets(*axis);
      if (!locator) {
        throw ValidationError({.object = "axes", .where = "offsets_path"},
                              "irregular axis without an offsets locator (the catalog stores no "
                              "inline offsets)");
      }
    }
    plan_.axes.emplace_back(axis.get(), std::move(locator));
    const int64_t key = static_cast<int64_t>(plan_.axes.size());
    plan_.axis_key[axis.get()] = key;
    return key;
  }

  int64_t ContentKey(const model::AnnotationContent& content) {
    auto [it, inserted] = plan_.content_key.emplace(&content, plan_.contents.size() + 1);
    if (inserted) plan_.contents.push_back(&content);
    return it->second;
  }

  void AddOccurrences(const Annotatable& object, std::string_view type, int64_t object_key,
                      int64_t& next) {
    for (const auto& annotation : object.annotations()) {
      if (plan_.occurrence_key.contains(annotation.get())) {
        throw ValidationError({.object = object.Describe(), .where = "annotations"},
                              "one annotation occurrence attached twice");
      }
      const int64_t content = ContentKey(*annotation->content());
      plan_.occurrences.push_back({annotation.get(), next, content, type, object_key});
      plan_.occurrence_key[annotation.get()] = next++;
    }
  }

  const model::Dataset& dataset_;
  const ModelWriteOptions& options_;
  Plan plan_;
};

// Asks the pack hooks for every text-bearing value in the packing order that model_writer.h
// documents and assigns text keys in that order.
class TextPacker {
 public:
  TextPacker(Plan& plan, const ModelWriteOptions& options) : plan_(plan), options_(options) {}

  void Run() {
    const size_t n = plan_.tasks.size();
    plan_.prompt_keys.assign(n, std::nullopt);
    plan_.rationale_keys.assign(n, std::nullopt);
    plan_.target_keys.assign(n, {});
    plan_.content_keys.assign(plan_.contents.size(), std::nullopt);
    if (!options_.pack_text && !options_.pack_text_list) return;
    for (size_t i = 0; i < n; ++i) {
      const model::Task& t = *plan_.tasks[i].first;
      if (t.prompt()) plan_.prompt_keys[i] = Pack(*t.prompt(), t.Describe(), "prompt");
      if (t.rationale()) plan_.rationale_keys[i] = Pack(*t.rationale(), t.Describe(), "rationale");
    }
    for (size_t i = 0; i < n; ++i) {
      const model::Task& t = *plan_.tasks[i].first;
      if (!t.targets()) continue;
      for (const model::TaskTarget& target : *t.targets()) {
        plan_.target_keys[i].push_back(target.kind() == model::TargetKind::kText
                                           ? Pack(target.text(), t.Describe(), "targets")
                                           : std::nullopt);
      }
    }
    for (size_t i = 0; i < plan_.contents.size(); ++i) {
      const model::AnnotationContent& c = *plan_.contents[i];
      const model::AnnotationValue& v = c.value();
      if (v.kind() == model::ValueKind::kText) {
        plan_.content_keys[i] = Pack(v.text(), c.Describe(), "value");
      } else if (v.kind() == model::ValueKind::kTextList) {
        plan_.content_keys[i] = PackList(v.text_list(), c.Describe());
      }
    }
  }

 private:
  std::optional<int64_t> Pack(const model::Text& text, const std::string& object,
                              std::string_view field) {
    if (!options_.pack_text) return std::nullopt;
    return Add(options_.pack_text(text), text.size(), "text", object, field);
  }

  std::optional<int64_t> PackList(const model::TextList& list, const std::string& object) {
    if (!options_.pack_text_list) return std::nullopt;
    return Add(options_.pack_text_list(list), list.size(), "text_list", object, "value");
  }

  std::optional<int64_t> Add(std::optional<PackedText> packed, int64_t size, std::string_view kind,
                             const std::string& object, std::string_view field) {
    if (!packed) return std::nullopt;
    std::string problem;
    if (packed->file.empty()) problem = "packed text locator without a file";
    if (packed->row < 0) problem = "packed text locator with a negative row";
    if (packed->length != size) {
      problem = "packed " + std::string(kind) + " length " + std::to_string(packed->length) +
                " differs from the value's size " + std::to_string(size);
    }
    if (!problem.empty())
      throw ValidationError({.object = object, .where = std::string(field)}, problem);
    plan_.texts.emplace_back(std::move(*packed), kind);
    return static_cast<int64_t>(plan_.texts.size());
  }

  Plan& plan_;
  const ModelWriteOptions& options_;
};

// K(r) of §6.6: NULL payload_source and NULL minor sort first.
using ReadKey =
    std::tuple<bool, std::string, std::string, int64_t, bool, int64_t>;  // (has_src, src, ...)

ReadKey KeyOf(const ChunkLocator& c) {
  return {c.payload_source.has_value(),
          c.payload_source.value_or(""),
          c.value_path,
          c.major,
          c.minor.has_value(),
          c.minor.value_or(0)};
}

// read_order per record (index into plan.records).
std::vector<int64_t> ReadOrder(const Plan& plan) {
  std::unordered_map<int64_t, std::optional<ReadKey>> best;  // record_key -> K
  std::unordered_map<int64_t, int64_t> source_record;
  for (const SourceRow& s : plan.sources) source_record[s.key] = s.record_key;
  for (const SignalRow& s : plan.signals) {
    auto& k = best[source_record.at(s.source_key)];
    for (const ChunkLocator& c : s.chunks) {
      ReadKey key = KeyOf(c);
      if (!k || key < *k) k = std::move(key);
    }
  }
  std::vector<size_t> order(plan.records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto k_of = [&](size_t i) -> const std::optional<ReadKey>& {
    static const std::optional<ReadKey> kNone;
    auto it = best.find(plan.records[i].second);
    return it == best.end() ? kNone : it->second;
  };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const auto& ka = k_of(a);
    const auto& kb = k_of(b);
    if (ka.has_value() != kb.has_value()) return ka.has_value();  // no chunks last
    if (ka && *ka != *kb) return *ka < *kb;
    return *plan.records[a].first->id() < *plan.records[b].first->id();
  });
  std::vector<int64_t> rank(order.size());
  for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int64_t>(r);
  return rank;
}

std::string Compact(const Json& json) { return WriteCompactJson(json); }

void AppendSpan(Appender& a, const model::AnnotationSpan& span) {
  a.Varchar(model::SpanTypeName(span));
  if (const auto* p = std::get_if<model::TimePoint>(&span)) {
    a.Int64(p->offset_us).Null();
  } else if (const auto* i = std::get_if<model::TimeInterval>(&span)) {
    a.Int64(i->start_us).Int64(i->end_us);
  } else {
    a.Null().Null();
  }
}

void AppendOccurrenceTail(Appender& a, const Annotation& annotation) {
  if (annotation.provenance()) {
    a.Varchar(Compact(*annotation.provenance()));
  } else {
    a.Null();
  }
  a.DoubleOrNull(annotation.confidence()).Varchar(Compact(annotation.metadata()));
}

std::vector<int64_t> SignalKeys(const Plan& plan, const model::ScopedSpan& span) {
  std::vector<int64_t> keys;
  for (const auto& s : span.signals) keys.push_back(plan.object_key.at(s.get()));
  return keys;
}

void WriteRecords(CatalogWriter& w, const model::Dataset& dataset, const Plan& plan) {
  w.Append(CatalogTable::kDatasets)
      .Int64(1)
      .Varchar(dataset.dataset_id())
      .Varchar(dataset.version())
      .EndRow();
  int64_t position = 0;
  for (const auto& parent : dataset.parents()) {
    w.Append(CatalogTable::kDatasetParents)
        .Varchar(parent.alias)
        .Varchar(parent.dataset_id)
        .Varchar(parent.version)
        .Int64(position++)
        .EndRow();
  }
  for (size_t i = 0; i < plan.clocks.size(); ++i) {
    w.Append(CatalogTable::kClocks)
        .Int64(static_cast<int64_t>(i + 1))
        .Int64OrNull(plan.clocks[i])
        .EndRow();
  }
  const std::vector<int64_t> read_order = ReadOrder(plan);
  for (size_t i = 0; i < plan.records.size(); ++i) {
    const model::Record& r = *plan.records[i].first;
    Appender& a = w.Append(CatalogTable::kRecords);
    a.Int64(plan.records[i].second).Int64(*r.id()).Int64(plan.record_clock[i]);
    if (r.time_span()) {
      a.Int64(r.time_span()->start_us).Int64(r.time_span()->end_us);
    } else {
      a.Null().Null();
    }
    a.Varchar(Compact(r.metadata())).Int64(read_order[i]).EndRow();
  }
  std::vector<const model::Record*> imported;
  for (const auto& [r, key] : plan.records) {
    if (r->import_marker()) imported.push_back(r);
  }
  std::sort(imported.begin(), imported.end(), [](auto* a, auto* b) { return *a->id() < *b->id(); });
  for (const model::Record* r : imported) {
    w.Append(CatalogTable::kRecordImports)
        .Int64(*r->id())
        .Varchar(r->import_marker()->alias)
        .Int64(r->import_marker()->parent_id)
        .EndRow();
  }
  for (const SourceRow& s : plan.sources) {
    w.Append(CatalogTable::kSources)
        .Int64(s.key)
        .Int64(s.record_key)
        .Int64OrNull(s.parent_key)
        .Varchar(s.source->name())
        .Varchar(Compact(s.source->metadata()))
        .EndRow();
  }
}

void WriteAxesAndSignals(CatalogWriter& w, const Plan& plan) {
  for (size_t i = 0; i < plan.axes.size(); ++i) {
    const model::TimeAxis& axis = *plan.axes[i].first;
    Appender& a = w.Append(CatalogTable::kAxes);
    a.Int64(static_cast<int64_t>(i + 1)).Varchar(model::ToString(axis.type()));
    if (axis.is_regular()) {
      a.Int64(axis.period_numerator_us())
          .Int64(axis.period_denominator())
          .Int64(axis.start_index())
          .Int64(axis.offset_us());
    } else {
      a.Null().Null().Null().Null();
    }
    if (axis.is_irregular()) {
      const OffsetsLocator& l = *plan.axes[i].second;
      a.Int64(axis.first_us()).Int64(axis.last_us());
      a.VarcharOrNull(l.payload_source).Varchar(l.path).Int64(l.row).Int64(axis.n_values());
      a.Varchar(l.digest);
    } else {
      a.Null().Null().Null().Null().Null().Null().Null();
    }
    a.EndRow();
  }
  for (const SignalRow& s : plan.signals) {
    const model::Signal& g = *s.signal;
    const model::Spec& spec = *g.spec();
    w.Append(CatalogTable::kSignals)
        .Int64(s.key)
        .Int64(*g.id())
        .Int64(s.source_key)
        .Varchar(g.name())
        .Int64(s.axis_key)
        .Varchar(spec.spec_type)
        .Varchar(spec.name)
        .VarcharOrNull(spec.unit)
        .Varchar(model::ToString(spec.dtype))
        .VarcharList(std::span<const std::string>(spec.categories))
        .Int64List(spec.value_shape)
        .VarcharList(std::span<const std::string>(spec.dimension_names))
        .Bool(spec.nullable)
        .Int64(g.n_values())
        .Varchar(Compact(g.metadata()))
        .Varchar(model::ToString(spec.modality))
        .VarcharOrNull(g.source_id())
        .EndRow();
  }
  std::vector<const model::Signal*> imported;
  for (const SignalRow& s : plan.signals) {
    if (s.signal->import_marker()) imported.push_back(s.signal);
  }
  std::sort(imported.begin(), imported.end(), [](auto* a, auto* b) { return *a->id() < *b->id(); });
  for (const model::Signal* s : imported) {
    w.Append(CatalogTable::kImportedSignals)
        .Int64(*s->id())
        .Varchar(s->import_marker()->alias)
        .Int64(s->import_marker()->parent_id)
        .EndRow();
  }
  for (const SignalRow& s : plan.signals) {
    int64_t index = 0;
    for (const ChunkLocator& c : s.chunks) {
      w.Append(CatalogTable::kSignalChunks)
          .Int64(s.key)
          .Int64(index++)
          .VarcharOrNull(c.payload_source)
          .Varchar(c.value_path)
          .Int64(c.major)
          .Int64OrNull(c.minor)
          .Int64(c.n_values)
          .EndRow();
    }
  }
}

void WriteTextPayloads(CatalogWriter& w, const Plan& plan) {
  int64_t text_key = 1;
  for (const auto& [packed, kind] : plan.texts) {
    w.Append(CatalogTable::kTextPayloads)
        .Int64(text_key++)
        .VarcharOrNull(packed.payload_source)
        .Varchar(packed.file)
        .Int64(packed.row)
        .Varchar(kind)
        .Int64(packed.length)
        .EndRow();
  }
}

void WriteAnnotations(CatalogWriter& w, const Plan& plan) {
  for (size_t i = 0; i < plan.contents.size(); ++i) {
    const model::AnnotationContent& c = *plan.contents[i];
    const model::AnnotationValue& v = c.value();
    Appender& a = w.Append(CatalogTable::kAnnotationContents);
    a.Int64(static_cast<int64_t>(i + 1)).Varchar(c.name());
    if (v.kind() == model::ValueKind::kMarker) {
      a.Null();
    } else {
      a.Varchar(model::ToString(v.kind()));
    }
    const std::optional<int64_t>& text_key = plan.content_keys[i];
    const bool is_text = v.kind() == model::ValueKind::kText;
    a.VarcharOrNull(is_text && !text_key ? std::optional(v.text().Read()) : std::nullopt);
    a.Int64OrNull(is_text ? text_key : std::nullopt);
    a.Int64OrNull(v.kind() == model::ValueKind::kInteger ? std::optional(v.integer())
                                                         : std::nullopt);
    a.DoubleOrNull(v.kind() == model::ValueKind::kFloat ? std::optional(v.float_value())
                                                        : std::nullopt);
    a.BoolOrNull(v.kind() == model::ValueKind::kBoolean ? std::optional(v.boolean())
                                                        : std::nullopt);
    const bool is_list = v.kind() == model::ValueKind::kTextList;
    if (is_list && !text_key) {
      const std::vector<std::string> list = v.text_list().Read();
      a.VarcharList(std::span<const std::string>(list));
    } else {
      a.Null();
    }
    a.Int64OrNull(is_list ? text_key : std::nullopt)
        .VarcharOrNull(c.unit())
        .VarcharOrNull(c.description());
    a.Varchar(Compact(c.metadata())).EndRow();
  }
  for (const OccurrenceRow& o : plan.occurrences) {
    Appender& a = w.Append(CatalogTable::kAnnotationOccurrences);
    a.Int64(o.key).Int64(o.content_key).Varchar(o.object_type).Int64(o.object_key);
    AppendSpan(a, o.annotation->span());
    AppendOccurrenceTail(a, *o.annotation);
    a.EndRow();
  }
  std::vector<std::pair<int64_t, const Annotation*>> inherited;
  for (const OccurrenceRow& o : plan.occurrences) {
    if (o.annotation->inherited()) inherited.emplace_back(o.key, o.annotation);
  }
  for (const auto& [a, key] : plan.registered) {
    if (a->inherited()) inherited.emplace_back(key, a);
  }
  for (const auto& [key, a] : inherited) {
    w.Append(CatalogTable::kImportedAnnotations).Int64(key).Varchar(*a->inherited_from()).EndRow();
  }
  int64_t position = 0;
  for (const auto& [annotation, key] : plan.registered) {
    Appender& a = w.Append(CatalogTable::kRegisteredAnnotations);
    a.Int64(key).Int64(plan.content_key.at(annotation->content().get())).Int64(position++);
    AppendSpan(a, annotation->span());
    AppendOccurrenceTail(a, *annotation);
    a.EndRow();
  }
}

void AppendScope(Appender& a, const Plan& plan, const std::optional<model::ScopedSpan>& scope) {
  if (!scope) {
    a.Null().Null().Null().Null();
    return;
  }
  a.Varchar(model::ToString(scope->kind())).Int64(scope->start()).Int64OrNull(scope->end());
  if (scope->signals.empty()) {
    a.Null();
  } else {
    a.Int64List(SignalKeys(plan, *scope));
  }
}

void WriteTaskRows(CatalogWriter& w, const Plan& plan) {
  for (size_t i = 0; i < plan.tasks.size(); ++i) {
    const auto& [t, key] = plan.tasks[i];
    const std::optional<int64_t>& prompt_key = plan.prompt_keys[i];
    const std::optional<int64_t>& rationale_key = plan.rationale_keys[i];
    Appender& a = w.Append(CatalogTable::kTasks);
    a.Int64(key).Int64(*t->id()).Varchar(model::ToString(t->type()));
    a.VarcharOrNull(t->prompt() && !prompt_key ? std::optional(t->prompt()->Read()) : std::nullopt)
        .Int64OrNull(prompt_key);
    std::vector<std::string> modalities;
    for (auto m : t->InputModalities()) modalities.emplace_back(model::ToString(m));
    a.VarcharList(std::span<const std::string>(modalities));
    a.VarcharOrNull(t->split() ? std::optional(model::ToString(*t->split())) : std::nullopt);
    AppendScope(a, plan, t->scope());
    a.Bool(t->has_inline_targets());
    a.VarcharOrNull(t->target_schema()).VarcharOrNull(t->unit()).VarcharOrNull(t->target_name());
    a.VarcharOrNull(t->mode() ? std::optional(model::ToString(*t->mode())) : std::nullopt);
    a.VarcharOrNull(t->rationale() && !rationale_key ? std::optional(t->rationale()->Read())
                                                     : std::nullopt)
        .Int64OrNull(rationale_key);
    a.Varchar(Compact(t->metadata())).EndRow();
  }
  std::vector<const model::Task*> imported;
  for (const auto& [t, key] : plan.tasks) {
    if (t->import_marker()) imported.push_back(t);
  }
  for (const model::Task* t : imported) {  // plan.tasks is in task_id order
    w.Append(CatalogTable::kImportedTasks)
        .Int64(*t->id())
        .Varchar(t->import_marker()->alias)
        .Int64(t->import_marker()->parent_id)
        .EndRow();
  }
}

void WriteTargets(CatalogWriter& w, const Plan& plan) {
  using model::TargetKind;
  for (size_t i = 0; i < plan.tasks.size(); ++i) {
    const auto& [t, key] = plan.tasks[i];
    if (!t->targets()) continue;
    const std::vector<std::optional<int64_t>>& text_keys = plan.target_keys[i];
    int64_t position = 0;
    for (const model::TaskTarget& target : *t->targets()) {
      const TargetKind kind = target.kind();
      std::optional<int64_t> text_key;
      if (!text_keys.empty()) text_key = text_keys[static_cast<size_t>(position)];
      Appender& a = w.Append(CatalogTable::kTaskTargets);
      a.Int64(key).Int64(position++).Varchar(model::ToString(kind));
      a.VarcharOrNull(kind == TargetKind::kText && !text_key ? std::optional(target.text().Read())
                                                             : std::nullopt)
          .Int64OrNull(text_key);
      a.Int64OrNull(kind == TargetKind::kInteger ? std::optional(target.integer()) : std::nullopt);
      a.DoubleOrNull(kind == TargetKind::kFloat ? std::optional(target.float_value())
                                                : std::nullopt);
      a.BoolOrNull(kind == TargetKind::kBoolean ? std::optional(target.boolean()) : std::nullopt);
      a.Int64OrNull(kind == TargetKind::kRecord
                        ? std::optional(plan.object_key.at(target.record().get()))
                        : std::nullopt);
      a.Int64OrNull(kind == TargetKind::kSignal
                        ? std::optional(plan.object_key.at(target.signal().get()))
                        : std::nullopt);
      const bool is_span = kind >= TargetKind::kTimePoint;
      if (is_span) {
        const model::ScopedSpan& span = target.span();
        a.Int64(span.start()).Int64OrNull(span.end());
        if (span.signals.empty()) {
          a.Null();
        } else {
          a.Int64List(SignalKeys(plan, span));
        }
      } else {
        a.Null().Null().Null();
      }
      a.EndRow();
    }
  }
}

void WriteTaskRefs(CatalogWriter& w, const Plan& plan) {
  for (const auto& [t, key] : plan.tasks) {
    // Rows sorted by (task_key, field, position): "candidate_records" < "inputs".
    for (const auto& [field, refs] :
         {std::pair<std::string_view, const std::vector<std::shared_ptr<model::Record>>*>{
              "candidate_records", &t->candidate_records()},
          {"inputs", &t->inputs()}}) {
      int64_t position = 0;
      for (const auto& r : *refs) {
        w.Append(CatalogTable::kTaskRecordRefs)
            .Int64(key)
            .Varchar(field)
            .Int64(position++)
            .Int64(plan.object_key.at(r.get()))
            .EndRow();
      }
    }
  }
  for (const auto& [t, key] : plan.tasks) {
    for (const auto& [field, refs] :
         {std::pair<std::string_view, const std::vector<std::shared_ptr<Annotation>>*>{
              "input_annotations", &t->input_annotations()},
          {"target_annotations", &t->target_annotations()}}) {
      int64_t position = 0;
      for (const auto& r : *refs) {
        auto it = plan.occurrence_key.find(r.get());
        if (it == plan.occurrence_key.end()) {
          throw ValidationError({.object = t->Describe(), .where = std::string(field)},
                                "references an annotation that no object carries and that is "
                                "not registered");
        }
        w.Append(CatalogTable::kTaskAnnotationRefs)
            .Int64(key)
            .Varchar(field)
            .Int64(position++)
            .Int64(it->second)
            .EndRow();
      }
    }
  }
  for (const auto& [t, key] : plan.tasks) {
    int64_t position = 0;
    for (const auto& parent : t->from_tasks()) {
      w.Append(CatalogTable::kTaskDependencies)
          .Int64(key)
          .Int64(position++)
          .Int64(plan.object_key.at(parent.get()))
          .EndRow();
    }
  }
}

ModelWriteSummary Summarize(const Plan& plan, const model::Dataset& dataset) {
  ModelWriteSummary s;
  s.high_water = dataset.HighWater();
  AuditCounts& c = s.counts;
  c.records = static_cast<int64_t>(plan.records.size());
  c.sources = static_cast<int64_t>(plan.sources.size());
  c.signals = static_cast<int64_t>(plan.signals.size());
  c.axes = static_cast<int64_t>(plan.axes.size());
  c.annotation_contents = static_cast<int64_t>(plan.contents.size());
  c.annotation_occurrences = static_cast<int64_t>(plan.occurrences.size());
  std::set<std::string> values;
  std::set<std::string> payloads;
  for (const SignalRow& row : plan.signals) {
    ++c.signals_by_spec[row.signal->spec()->spec_type];
    for (const ChunkLocator& chunk : row.chunks) {
      if (chunk.payload_source) continue;  // §5.5: counts only the chunks this release stores
      ++c.signal_chunks;
      values.insert(chunk.value_path);
    }
  }
  for (const auto& [axis, locator] : plan.axes) {
    if (locator && !locator->payload_source) payloads.insert(locator->path);
  }
  for (const auto& [packed, kind] : plan.texts) {
    if (!packed.payload_source) payloads.insert(packed.file);
  }
  for (const auto& [t, key] : plan.tasks) ++c.tasks[std::string(model::ToString(t->type()))];
  s.time_series_paths.assign(values.begin(), values.end());
  s.payload_paths.assign(payloads.begin(), payloads.end());
  return s;
}

}  // namespace

ModelWriteSummary WriteCatalog(const std::filesystem::path& path, model::Dataset& dataset,
                               const ModelWriteOptions& options) {
  dataset.AssignIds();
  dataset.Validate();
  Plan plan = Planner(dataset, options).Run();
  TextPacker(plan, options).Run();
  ModelWriteSummary summary = Summarize(plan, dataset);
  const model::IdHighWater& hw = summary.high_water;
  CatalogWriter writer =
      CatalogWriter::Create(path, HighWaterMarks{.max_record_id = hw.max_record_id,
                                                 .max_signal_id = hw.max_signal_id,
                                                 .max_task_id = hw.max_task_id});
  WriteRecords(writer, dataset, plan);
  WriteAxesAndSignals(writer, plan);
  WriteTextPayloads(writer, plan);
  WriteAnnotations(writer, plan);
  WriteTaskRows(writer, plan);
  WriteTargets(writer, plan);
  WriteTaskRefs(writer, plan);
  writer.Finish();
  return summary;
}

}  // namespace timef::catalog
