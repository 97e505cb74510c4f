#include "timef/model/span.h"

#include <array>

#include "model/enum_names.h"

namespace timef::model {
namespace {

constexpr std::array<std::string_view, 4> kSpanKindNames = {"time_point", "time_interval",
                                                            "step_point", "step_interval"};
constexpr std::array<std::string_view, 3> kSpanTypeNames = {"static", "point", "interval"};

}  // namespace

std::string_view SpanTypeName(const AnnotationSpan& span) { return kSpanTypeNames[span.index()]; }

std::string_view ToString(SpanKind kind) { return internal::NameOf(kSpanKindNames, kind); }
std::optional<SpanKind> ParseSpanKind(std::string_view text) {
  return internal::ParseName<SpanKind>(kSpanKindNames, text);
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
