// Records, their source trees, signals, and every annotation occurrence.
#include <algorithm>
#include <cstdint>

#include "model/checks.h"
#include "model/validator.h"

namespace timef::model::internal {
namespace {

std::string Bounds(int64_t start, std::optional<int64_t> end) {
  std::string out(end ? "[" : "point ");
  out += std::to_string(start);
  if (end) {
    out += ", ";
    out += std::to_string(*end);
    out += ')';
  }
  return out;
}

// [first sample, last sample + one sample period) µs of a non-ordinal signal: the period of a
// regular axis (rounded up to whole µs), the mean spacing of an irregular one; at least 1 µs.
std::optional<std::pair<int64_t, int64_t>> SampleRange(const Signal& signal) {
  const TimeAxis& axis = *signal.axis();
  auto window = axis.Window(signal.n_values());
  if (!window) return std::nullopt;
  int64_t period = 1;
  if (axis.is_regular()) {
    const int64_t num = axis.period_numerator_us();
    const int64_t den = axis.period_denominator();
    period = den > 0 ? (num + den - 1) / den : 1;
  } else if (signal.n_values() > 1) {
    period = (window->second - window->first) / (signal.n_values() - 1);
  }
  period = std::max<int64_t>(period, 1);
  int64_t end = 0;
  if (__builtin_add_overflow(window->second, period, &end)) end = INT64_MAX;
  return std::make_pair(window->first, end);
}

}  // namespace

void Validator::IndexRecord(const Record& record, size_t index) {
  std::string name = RecordName(record, index);
  if (records_.contains(&record)) {
    Fail(name, "records[" + std::to_string(index) + "]",
         "the record appears more than once in the dataset");
  }
  CheckIdUnique(record.id(), "record", name);
  CheckImport(record.import_marker(), "record", name);
  RecordInfo& info = records_[&record];
  info.name = name;
  info.has_timeline = record.time_span().has_value();
  const auto& roots = record.sources();
  for (size_t i = 0; i < roots.size(); ++i) {
    IndexSource(*roots[i], record, name, nullptr, "sources[" + std::to_string(i) + "]");
  }
}

void Validator::IndexSource(const Source& source, const Record& record,
                            const std::string& record_name, const Source* parent,
                            const std::string& where) {
  const std::string name = source.Describe() + " of " + record_name;
  if (auto it = sources_.find(&source); it != sources_.end()) {
    Fail(name, "parent",
         "the source appears twice in the source trees (also in " + it->second +
             "); a source has one parent and belongs to one record");
  }
  if (parent == nullptr && source.parent() != nullptr) {
    Fail(name, "parent",
         "a root source has no parent, but it is a child of " + source.parent()->Describe());
  }
  sources_.emplace(&source, record_name);
  RecordInfo& info = records_.at(&record);
  for (const auto& signal : source.signals()) {
    const std::string signal_name = SignalName(*signal, record_name);
    if (auto it = signal_record_.find(signal.get()); it != signal_record_.end()) {
      Fail(signal_name, "source",
           "the signal appears twice (also in " + records_.at(it->second).name + ")");
    }
    signal_record_.emplace(signal.get(), &record);
    signal_names_.emplace(signal.get(), signal_name);
    CheckIdUnique(signal->id(), "signal", signal_name);
    CheckImport(signal->import_marker(), "signal", signal_name);
    if (!signal->axis()->is_ordinal()) info.has_timeline = true;
    if (auto range = SampleRange(*signal)) {
      if (!info.signal_extent) {
        info.signal_extent = range;
      } else {
        info.signal_extent->first = std::min(info.signal_extent->first, range->first);
        info.signal_extent->second = std::max(info.signal_extent->second, range->second);
      }
    }
  }
  const auto& children = source.children();
  for (size_t i = 0; i < children.size(); ++i) {
    IndexSource(*children[i], record, record_name, &source,
                where + ".children[" + std::to_string(i) + "]");
  }
}

void Validator::CheckRecord(const Record& record) {
  const std::string& name = NameOf(&record);
  CheckOccurrences(record, name, SpanContext{&record, nullptr});
  std::vector<const Source*> pending;
  for (auto it = record.sources().rbegin(); it != record.sources().rend(); ++it) {
    pending.push_back(it->get());
  }
  while (!pending.empty()) {
    const Source* source = pending.back();
    pending.pop_back();
    CheckOccurrences(*source, source->Describe() + " of " + name, SpanContext{&record, nullptr});
    for (const auto& signal : source->signals()) CheckSignal(*signal, record);
    for (auto it = source->children().rbegin(); it != source->children().rend(); ++it) {
      pending.push_back(it->get());
    }
  }
}

void Validator::CheckSignal(const Signal& signal, const Record& record) {
  const std::string& name = signal_names_.at(&signal);
  if (signal.source_id()) CheckUtf8(*signal.source_id(), name, "source_id");
  const auto& span = record.time_span();
  if (span) {
    if (auto window = signal.axis()->Window(signal.n_values())) {
      if (window->first < span->start_us || window->second >= span->end_us) {
        Fail(name, "axis",
             "its samples at [" + std::to_string(window->first) + ", " +
                 std::to_string(window->second) + "] µs fall outside " + NameOf(&record) +
                 "'s time span [" + std::to_string(span->start_us) + ", " +
                 std::to_string(span->end_us) + ")");
      }
    }
  }
  CheckOccurrences(signal, name, SpanContext{&record, &signal});
}

void Validator::CheckOccurrences(const Annotatable& owner, const std::string& owner_name,
                                 const SpanContext& context) {
  const auto& occurrences = owner.annotations();
  for (size_t i = 0; i < occurrences.size(); ++i) {
    CheckOccurrence(*occurrences[i], owner_name, "annotations[" + std::to_string(i) + "]", context);
  }
}

void Validator::CheckOccurrence(const Annotation& occurrence, const std::string& owner_name,
                                const std::string& where, const SpanContext& context) {
  if (auto it = occurrences_.find(&occurrence); it != occurrences_.end()) {
    Fail(owner_name, where,
         "this occurrence of " + occurrence.Describe() + " is already attached to " + it->second +
             "; attach a new occurrence of the same content instead");
  }
  occurrences_.emplace(&occurrence, owner_name);
  CheckContent(*occurrence.content(), owner_name, where + ".content");
  if (occurrence.inherited_from()) {
    CheckAlias(*occurrence.inherited_from(), owner_name, where + ".inherited_from");
  }
  const AnnotationSpan& span = occurrence.span();
  if (std::holds_alternative<StaticSpan>(span)) return;
  const std::string span_where = where + ".span";
  if (context.record == nullptr) {
    Fail(owner_name, span_where,
         "annotations of this object are static, got a " + std::string(SpanTypeName(span)) +
             " span");
  }
  if (context.signal != nullptr) {
    if (context.signal->axis()->is_ordinal()) {
      Fail(owner_name, span_where,
           "a time span needs a timeline, but the signal's axis is ordinal");
    }
  } else if (!records_.at(context.record).has_timeline) {
    Fail(owner_name, span_where,
         "a time span needs a timeline, but " + NameOf(context.record) +
             " has no time span and only ordinal signals");
  }
  if (const auto* point = std::get_if<TimePoint>(&span)) {
    CheckSpanInExtent(*context.record, occurrence, point->offset_us, std::nullopt, owner_name,
                      span_where);
  } else {
    const auto& interval = std::get<TimeInterval>(span);
    if (interval.start_us > interval.end_us) {
      Fail(owner_name, span_where,
           "interval start " + std::to_string(interval.start_us) + " > end " +
               std::to_string(interval.end_us));
    }
    CheckSpanInExtent(*context.record, occurrence, interval.start_us, interval.end_us, owner_name,
                      span_where);
  }
}

void Validator::CheckContent(const AnnotationContent& content, const std::string& owner_name,
                             const std::string& where) {
  if (!contents_.insert(&content).second) return;
  const AnnotationValue& value = content.value();
  if (value.kind() == ValueKind::kText) {
    if (const std::string* text = value.text().inline_value()) {
      CheckUtf8(*text, owner_name, where + ".value");
    }
  } else if (value.kind() == ValueKind::kTextList) {
    if (const auto* list = value.text_list().inline_value()) {
      for (size_t i = 0; i < list->size(); ++i) {
        CheckUtf8((*list)[i], owner_name, where + ".value[" + std::to_string(i) + "]");
      }
    }
  }
}

void Validator::CheckSpanInExtent(const Record& record, const Annotation& occurrence, int64_t start,
                                  std::optional<int64_t> end, const std::string& object,
                                  const std::string& where) {
  std::pair<int64_t, int64_t> extent;
  std::string what;
  if (const auto& window = record.time_span()) {
    extent = {window->start_us, window->end_us};
    what = "time span";
  } else if (const auto& signals = records_.at(&record).signal_extent) {
    extent = *signals;
    what = "extent (no time span: its signals' samples, to one sample period after the last)";
  } else {
    return;  // no timeline: refused before (a time span needs a timeline)
  }
  const bool inside = end ? (start >= extent.first && *end <= extent.second)
                          : (start >= extent.first && start < extent.second);
  if (!inside) {
    Fail(object, where,
         occurrence.Describe() + ": the span " + Bounds(start, end) + " lies outside " +
             NameOf(&record) + "'s " + what + " [" + std::to_string(extent.first) + ", " +
             std::to_string(extent.second) +
             ") µs (spans are µs offsets from the record start; a unit slip?)");
  }
}

void Validator::CheckTimeInWindow(const Record& record, int64_t start, std::optional<int64_t> end,
                                  const std::string& object, const std::string& where) {
  const auto& window = record.time_span();
  if (!window) return;
  bool inside = end ? (start >= window->start_us && *end <= window->end_us)
                    : (start >= window->start_us && start < window->end_us);
  if (!inside) {
    Fail(object, where,
         "the span " + Bounds(start, end) + " lies outside " + NameOf(&record) + "'s time span [" +
             std::to_string(window->start_us) + ", " + std::to_string(window->end_us) + ")");
  }
}

}  // namespace timef::model::internal
