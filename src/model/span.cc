#include "timef/model/span.h"

#include "core/enum_table.h"

namespace timef {

TIMEF_ENUM_TABLE(model::SpanKind, {model::SpanKind::kTimePoint, "time_point"},
                 {model::SpanKind::kTimeInterval, "time_interval"},
                 {model::SpanKind::kStepPoint, "step_point"},
                 {model::SpanKind::kStepInterval, "step_interval"})

}  // namespace timef

namespace timef::model {

AnnotationType AnnotationTypeOf(const AnnotationSpan& span) {
  if (std::holds_alternative<TimePoint>(span)) return AnnotationType::kPoint;
  if (std::holds_alternative<TimeInterval>(span)) return AnnotationType::kInterval;
  return AnnotationType::kStatic;
}

std::string_view SpanTypeName(const AnnotationSpan& span) {
  return ToString(AnnotationTypeOf(span));
}

const std::string& ToString(SpanKind kind) { return core::EnumNameString(kind); }
std::optional<SpanKind> ParseSpanKind(std::string_view text) {
  return core::EnumFromName<SpanKind>(text);
}

int64_t ScopedSpan::start() const {
  switch (kind()) {
    case SpanKind::kTimePoint:
      return std::get<TimePoint>(span).offset_us;
    case SpanKind::kTimeInterval:
      return std::get<TimeInterval>(span).start_us;
    case SpanKind::kStepPoint:
      return std::get<StepPoint>(span).step;
    case SpanKind::kStepInterval:
      return std::get<StepInterval>(span).start;
  }
  return 0;
}

std::optional<int64_t> ScopedSpan::end() const {
  if (const auto* interval = std::get_if<TimeInterval>(&span)) return interval->end_us;
  if (const auto* interval = std::get_if<StepInterval>(&span)) return interval->end;
  return std::nullopt;
}

}  // namespace timef::model
