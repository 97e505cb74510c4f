#include "timef/model/dump.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <span>
#include <string_view>
#include <unordered_map>

#include "model/checks.h"
#include "timef/model/dataset.h"

namespace timef::model {
namespace {

Json Number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0 && std::signbit(value)) return "-0";
  return value;
}

template <class T>
Json Optional(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json TextJson(const std::optional<Text>& text) { return text ? Json(text->Read()) : Json(nullptr); }

// `bits` as `digits` lowercase hex digits (zero-padded), written into `buffer`.
std::string_view HexDigits(uint64_t bits, int digits, char (&buffer)[24]) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i, bits >>= 4) buffer[i] = kDigits[bits & 0xf];
  return std::string_view(buffer, static_cast<size_t>(digits));
}

// Numbers as one string of space-separated tokens (floats as their bit patterns in hex, integers in
// decimal), not an array of one JSON value each: a float array of n values would otherwise cost n
// heap-allocated strings, which made dumping values most of a round-trip test's time. Strings stay
// an array (a token list could not hold a space).
Json ValuesJson(const ValueArray& array) {
  Json data;
  std::visit(
      [&](const auto& values) {
        using T = typename std::decay_t<decltype(values)>::value_type;
        if constexpr (std::is_same_v<T, std::string>) {
          data = values;
        } else {
          std::string tokens;
          tokens.reserve(values.size() * (sizeof(T) * 2 + 1));
          char buffer[24];
          for (const T& value : values) {
            if (!tokens.empty()) tokens += ' ';
            if constexpr (std::is_same_v<T, float>) {
              tokens += HexDigits(std::bit_cast<uint32_t>(value), 8, buffer);
            } else if constexpr (std::is_same_v<T, double>) {
              tokens += HexDigits(std::bit_cast<uint64_t>(value), 16, buffer);
            } else {
              const auto [end, ec] =
                  std::to_chars(buffer, buffer + sizeof buffer, static_cast<int64_t>(value));
              tokens.append(buffer, end);
            }
          }
          data = std::move(tokens);
        }
      },
      array.data());
  return Json{{"dtype", ToString(array.dtype())},
              {"data", std::move(data)},
              {"validity", array.validity()}};
}

class Dumper {
 public:
  explicit Dumper(const DumpOptions& options) : options_(options) {}

  Json Run(const Dataset& dataset) {
    std::vector<const Record*> records = ById(dataset.records());
    std::vector<const Task*> tasks;
    for (const auto& task : dataset.tasks()) tasks.push_back(task.get());
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const Task* a, const Task* b) { return a->id() < b->id(); });

    // Occurrence paths first, so that task references can name any occurrence.
    IndexOccurrences(dataset, "dataset");
    for (size_t i = 0; i < dataset.registered_annotations().size(); ++i) {
      occurrence_paths_[dataset.registered_annotations()[i].get()] =
          "registered[" + std::to_string(i) + "]";
    }
    IndexRecords(records);
    for (const Task* task : tasks) IndexOccurrences(*task, "task " + std::to_string(Id(*task)));

    Json out = Json::object();
    out["dataset_id"] = dataset.dataset_id();
    out["version"] = dataset.version();
    Json parents = Json::array();
    for (const auto& parent : dataset.parents()) {
      parents.push_back({{"alias", parent.alias},
                         {"dataset_id", parent.dataset_id},
                         {"version", parent.version}});
    }
    out["parents"] = parents;
    out["annotations"] = Occurrences(dataset);
    Json registered = Json::array();
    for (const auto& annotation : dataset.registered_annotations()) {
      registered.push_back(Occurrence(*annotation));
    }
    out["registered_annotations"] = registered;
    out["records"] = RecordList(records);
    Json task_list = Json::array();
    for (const Task* task : tasks) task_list.push_back(TaskJson(*task));
    out["tasks"] = task_list;
    out["axes"] = axes_;
    out["contents"] = contents_;
    return out;
  }

  Json RunRecords(std::span<const std::shared_ptr<Record>> list) {
    std::vector<const Record*> records = ById(list);
    IndexRecords(records);
    Json out = Json::object();
    out["records"] = RecordList(records);
    out["axes"] = axes_;
    out["contents"] = contents_;
    return out;
  }

 private:
  void IndexRecords(const std::vector<const Record*>& records) {
    for (const Record* record : records) {
      const std::string path = "record " + std::to_string(Id(*record));
      IndexOccurrences(*record, path);
      for (const Source* source : SortedSources(record->sources())) IndexSource(*source, path);
    }
  }

  Json RecordList(const std::vector<const Record*>& records) {
    Json list = Json::array();
    for (const Record* record : records) list.push_back(RecordJson(*record));
    return list;
  }

  static std::vector<const Record*> ById(std::span<const std::shared_ptr<Record>> list) {
    std::vector<const Record*> records;
    for (const auto& record : list) records.push_back(record.get());
    std::stable_sort(records.begin(), records.end(),
                     [](const Record* a, const Record* b) { return a->id() < b->id(); });
    return records;
  }

  template <class T>
  static int64_t Id(const T& object) {
    if (!object.id()) {
      internal::Fail(object.Describe(), "id", "dumping needs assigned IDs (Dataset::AssignIds)");
    }
    return *object.id();
  }

  static std::vector<const Source*> SortedSources(
      const std::vector<std::shared_ptr<Source>>& sources) {
    std::vector<const Source*> sorted;
    for (const auto& source : sources) sorted.push_back(source.get());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Source* a, const Source* b) { return a->name() < b->name(); });
    return sorted;
  }

  static std::vector<const Signal*> SortedSignals(const Source& source) {
    std::vector<const Signal*> sorted;
    for (const auto& signal : source.signals()) sorted.push_back(signal.get());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Signal* a, const Signal* b) { return a->id() < b->id(); });
    return sorted;
  }

  void IndexOccurrences(const Annotatable& owner, const std::string& path) {
    for (size_t i = 0; i < owner.annotations().size(); ++i) {
      occurrence_paths_[owner.annotations()[i].get()] =
          path + " annotations[" + std::to_string(i) + "]";
    }
  }

  void IndexSource(const Source& source, const std::string& path) {
    const std::string here = path + " / " + source.name();
    IndexOccurrences(source, here);
    for (const Signal* signal : SortedSignals(source)) {
      IndexOccurrences(*signal, "signal " + std::to_string(Id(*signal)));
    }
    for (const Source* child : SortedSources(source.children())) IndexSource(*child, here);
  }

  Json Import(const std::optional<ImportMarker>& marker) {
    if (!marker) return nullptr;
    return {{"alias", marker->alias}, {"parent_id", marker->parent_id}};
  }

  size_t ContentIndex(const AnnotationContent& content) {
    auto [it, inserted] = content_index_.emplace(&content, contents_.size());
    if (!inserted) return it->second;
    const AnnotationValue& value = content.value();
    Json rendered;
    switch (value.kind()) {
      case ValueKind::kMarker:
        rendered = nullptr;
        break;
      case ValueKind::kText:
        rendered = value.text().Read();
        break;
      case ValueKind::kInteger:
        rendered = value.integer();
        break;
      case ValueKind::kFloat:
        rendered = Number(value.float_value());
        break;
      case ValueKind::kBoolean:
        rendered = value.boolean();
        break;
      case ValueKind::kTextList:
        rendered = value.text_list().Read();
        break;
    }
    contents_.push_back({{"name", content.name()},
                         {"value_kind", ToString(value.kind())},
                         {"value", rendered},
                         {"unit", Optional(content.unit())},
                         {"description", Optional(content.description())},
                         {"metadata", content.metadata()}});
    return it->second;
  }

  Json Occurrence(const Annotation& occurrence) {
    Json span = {{"type", SpanTypeName(occurrence.span())}};
    if (const auto* point = std::get_if<TimePoint>(&occurrence.span())) {
      span["start_us"] = point->offset_us;
    } else if (const auto* interval = std::get_if<TimeInterval>(&occurrence.span())) {
      span["start_us"] = interval->start_us;
      span["end_us"] = interval->end_us;
    }
    return {{"content", ContentIndex(*occurrence.content())},
            {"span", span},
            {"provenance", occurrence.provenance() ? *occurrence.provenance() : Json(nullptr)},
            {"confidence", occurrence.confidence() ? Number(*occurrence.confidence()) : nullptr},
            {"metadata", occurrence.metadata()},
            {"inherited_from", Optional(occurrence.inherited_from())}};
  }

  Json Occurrences(const Annotatable& owner) {
    Json out = Json::array();
    for (const auto& occurrence : owner.annotations()) out.push_back(Occurrence(*occurrence));
    return out;
  }

  size_t AxisIndex(const TimeAxis& axis) {
    auto [it, inserted] = axis_index_.emplace(&axis, axes_.size());
    if (!inserted) return it->second;
    Json rendered = {{"type", ToString(axis.type())}};
    if (axis.is_regular()) {
      rendered["period_numerator_us"] = axis.period_numerator_us();
      rendered["period_denominator"] = axis.period_denominator();
      rendered["start_index"] = axis.start_index();
      rendered["offset_us"] = axis.offset_us();
    } else if (axis.is_irregular()) {
      rendered["n_values"] = axis.n_values();
      rendered["first_us"] = axis.first_us();
      rendered["last_us"] = axis.last_us();
      if (options_.values) rendered["offsets_us"] = *axis.LoadOffsets();
    }
    axes_.push_back(rendered);
    return it->second;
  }

  Json SpecJson(const Spec& spec) {
    return {{"spec_type", spec.spec_type},
            {"name", spec.name},
            {"unit", Optional(spec.unit)},
            {"dtype", ToString(spec.dtype)},
            {"categories", spec.categories},
            {"value_shape", spec.value_shape},
            {"dimension_names", spec.dimension_names},
            {"nullable", spec.nullable},
            {"modality", ToString(spec.modality)}};
  }

  Json SignalJson(const Signal& signal) {
    Json out = {{"signal_id", Id(signal)},           {"name", signal.name()},
                {"spec", SpecJson(*signal.spec())},  {"axis", AxisIndex(*signal.axis())},
                {"n_values", signal.n_values()},     {"source_id", Optional(signal.source_id())},
                {"metadata", signal.metadata()},     {"import", Import(signal.import_marker())},
                {"annotations", Occurrences(signal)}};
    if (options_.values) {
      out["values"] = signal.has_values() ? ValuesJson(*signal.LoadValues()) : Json(nullptr);
    }
    return out;
  }

  Json SourceJson(const Source& source) {
    Json signals = Json::array();
    for (const Signal* signal : SortedSignals(source)) signals.push_back(SignalJson(*signal));
    Json children = Json::array();
    for (const Source* child : SortedSources(source.children())) {
      children.push_back(SourceJson(*child));
    }
    return {{"name", source.name()},
            {"metadata", source.metadata()},
            {"annotations", Occurrences(source)},
            {"signals", signals},
            {"children", children}};
  }

  Json RecordJson(const Record& record) {
    Json sources = Json::array();
    for (const Source* source : SortedSources(record.sources())) {
      sources.push_back(SourceJson(*source));
    }
    Json span = nullptr;
    if (record.time_span()) span = {record.time_span()->start_us, record.time_span()->end_us};
    return {{"record_id", Id(record)},
            {"import", Import(record.import_marker())},
            {"start_time_us", Optional(record.start_time_us())},
            {"time_span", span},
            {"metadata", record.metadata()},
            {"annotations", Occurrences(record)},
            {"sources", sources}};
  }

  Json SpanJson(const ScopedSpan& span) {
    Json signals = Json::array();
    for (const auto& signal : span.signals) signals.push_back(Id(*signal));
    return {{"kind", ToString(span.kind())},
            {"start", span.start()},
            {"end", Optional(span.end())},
            {"signals", signals}};
  }

  Json TargetJson(const TaskTarget& target) {
    Json value;
    switch (target.kind()) {
      case TargetKind::kText:
        value = target.text().Read();
        break;
      case TargetKind::kInteger:
        value = target.integer();
        break;
      case TargetKind::kFloat:
        value = Number(target.float_value());
        break;
      case TargetKind::kBoolean:
        value = target.boolean();
        break;
      case TargetKind::kRecord:
        value = Id(*target.record());
        break;
      case TargetKind::kSignal:
        value = Id(*target.signal());
        break;
      default:
        value = SpanJson(target.span());
        break;
    }
    return {{"kind", ToString(target.kind())}, {"value", value}};
  }

  Json RefList(const std::vector<std::shared_ptr<Annotation>>& refs) {
    Json out = Json::array();
    for (const auto& ref : refs) {
      auto it = occurrence_paths_.find(ref.get());
      out.push_back(it == occurrence_paths_.end() ? Json("unattached " + ref->key())
                                                  : Json(it->second));
    }
    return out;
  }

  Json TaskJson(const Task& task) {
    Json inputs = Json::array();
    for (const auto& record : task.inputs()) inputs.push_back(Id(*record));
    Json candidates = Json::array();
    for (const auto& record : task.candidate_records()) candidates.push_back(Id(*record));
    Json targets = nullptr;
    if (task.targets()) {
      targets = Json::array();
      for (const auto& target : *task.targets()) targets.push_back(TargetJson(target));
    }
    Json modalities = Json::array();
    for (InputModality modality : task.InputModalities()) modalities.push_back(ToString(modality));
    Json from = Json::array();
    for (const auto& parent : task.from_tasks()) from.push_back(Id(*parent));
    return {{"task_id", Id(task)},
            {"task_type", ToString(task.type())},
            {"import", Import(task.import_marker())},
            {"inputs", inputs},
            {"targets", targets},
            {"prompt", TextJson(task.prompt())},
            {"rationale", TextJson(task.rationale())},
            {"split", task.split() ? Json(ToString(*task.split())) : Json(nullptr)},
            {"input_modalities", modalities},
            {"scope", task.scope() ? SpanJson(*task.scope()) : Json(nullptr)},
            {"input_annotations", RefList(task.input_annotations())},
            {"target_annotations", RefList(task.target_annotations())},
            {"from_tasks", from},
            {"annotations", Occurrences(task)},
            {"metadata", task.metadata()},
            {"target_schema", Optional(task.target_schema())},
            {"unit", Optional(task.unit())},
            {"target_name", Optional(task.target_name())},
            {"mode", task.mode() ? Json(ToString(*task.mode())) : Json(nullptr)},
            {"candidate_records", candidates}};
  }

  const DumpOptions& options_;
  std::unordered_map<const Annotation*, std::string> occurrence_paths_;
  std::unordered_map<const AnnotationContent*, size_t> content_index_;
  std::unordered_map<const TimeAxis*, size_t> axis_index_;
  Json contents_ = Json::array();
  Json axes_ = Json::array();
};

}  // namespace

Json DumpDataset(const Dataset& dataset, const DumpOptions& options) {
  return Dumper(options).Run(dataset);
}

Json DumpRecords(std::span<const std::shared_ptr<Record>> records, const DumpOptions& options) {
  return Dumper(options).RunRecords(records);
}

}  // namespace timef::model
