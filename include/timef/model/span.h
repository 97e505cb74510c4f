// Spans (docs/format.md §6.4): where on a record's timeline an annotation or a task's scope/target
// sits. Time spans hold offsets in µs from the record's zero; intervals are half-open [start, end).
// Step spans hold step indices of one signal (tasks only).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "timef/vocabulary.h"

namespace timef::model {

class Signal;

struct StaticSpan {
  bool operator==(const StaticSpan&) const = default;
};
struct TimePoint {
  int64_t offset_us = 0;
  bool operator==(const TimePoint&) const = default;
};
struct TimeInterval {
  int64_t start_us = 0;
  int64_t end_us = 0;  // exclusive; start_us ≤ end_us
  bool operator==(const TimeInterval&) const = default;
};
struct StepPoint {
  int64_t step = 0;
  bool operator==(const StepPoint&) const = default;
};
struct StepInterval {
  int64_t start = 0;
  int64_t end = 0;  // exclusive; start ≤ end
  bool operator==(const StepInterval&) const = default;
};

// An annotation occurrence's span: static (the whole object), a time point or a time interval.
using AnnotationSpan = std::variant<StaticSpan, TimePoint, TimeInterval>;

using ::timef::AnnotationType;

// The annotation type of a span's alternative.
AnnotationType AnnotationTypeOf(const AnnotationSpan& span);
// ToString(AnnotationTypeOf(span)): static, point or interval (the catalog's span_type).
std::string_view SpanTypeName(const AnnotationSpan& span);

// A task scope or span target. Time spans optionally name the signals they concern (empty = the
// whole record); step spans name exactly one signal.
enum class SpanKind { kTimePoint, kTimeInterval, kStepPoint, kStepInterval };

// Catalog names: time_point, time_interval, step_point, step_interval.
const std::string& ToString(SpanKind kind);
std::optional<SpanKind> ParseSpanKind(std::string_view text);

struct ScopedSpan {
  std::variant<TimePoint, TimeInterval, StepPoint, StepInterval> span;
  std::vector<std::shared_ptr<Signal>> signals;

  SpanKind kind() const { return static_cast<SpanKind>(span.index()); }
  bool is_time() const {
    return kind() == SpanKind::kTimePoint || kind() == SpanKind::kTimeInterval;
  }
  bool is_step() const { return !is_time(); }
  // The catalog's (start, end) pair: end is nullopt for a point.
  int64_t start() const;
  std::optional<int64_t> end() const;

  // Signals compare by identity.
  bool operator==(const ScopedSpan&) const = default;
};

}  // namespace timef::model
