#include "timef/model/task_target.h"

#include "core/enum_table.h"
#include "model/checks.h"

namespace timef {

TIMEF_ENUM_TABLE(model::TargetKind, {model::TargetKind::kText, "text"},
                 {model::TargetKind::kInteger, "integer"}, {model::TargetKind::kFloat, "float"},
                 {model::TargetKind::kBoolean, "boolean"}, {model::TargetKind::kRecord, "record"},
                 {model::TargetKind::kSignal, "signal"},
                 {model::TargetKind::kTimePoint, "time_point"},
                 {model::TargetKind::kTimeInterval, "time_interval"},
                 {model::TargetKind::kStepPoint, "step_point"},
                 {model::TargetKind::kStepInterval, "step_interval"})

}  // namespace timef

namespace timef::model {

const std::string& ToString(TargetKind kind) { return core::EnumNameString(kind); }
std::optional<TargetKind> ParseTargetKind(std::string_view text) {
  return core::EnumFromName<TargetKind>(text);
}

TaskTarget TaskTarget::OfText(Text value) { return TaskTarget(std::move(value)); }
TaskTarget TaskTarget::OfInteger(int64_t value) { return TaskTarget(value); }
TaskTarget TaskTarget::OfFloat(double value) { return TaskTarget(value); }
TaskTarget TaskTarget::OfBoolean(bool value) { return TaskTarget(value); }
TaskTarget TaskTarget::OfRecord(std::shared_ptr<Record> record) {
  if (!record) internal::Fail("task target", "record", "a record target must not be null");
  return TaskTarget(std::move(record));
}
TaskTarget TaskTarget::OfSignal(std::shared_ptr<Signal> signal) {
  if (!signal) internal::Fail("task target", "signal", "a signal target must not be null");
  return TaskTarget(std::move(signal));
}
TaskTarget TaskTarget::OfSpan(ScopedSpan span) { return TaskTarget(std::move(span)); }

TargetKind TaskTarget::kind() const {
  if (const auto* span = std::get_if<ScopedSpan>(&value_)) {
    return static_cast<TargetKind>(static_cast<int>(TargetKind::kTimePoint) +
                                   static_cast<int>(span->kind()));
  }
  return static_cast<TargetKind>(value_.index());
}

template <class T>
const T& TaskTarget::Get(TargetKind wanted) const {
  const T* held = std::get_if<T>(&value_);
  if (held == nullptr) {
    internal::Fail("task target", "target_kind",
                   "the target is " + std::string(ToString(kind())) + ", not " +
                       std::string(ToString(wanted)));
  }
  return *held;
}

const Text& TaskTarget::text() const { return Get<Text>(TargetKind::kText); }
int64_t TaskTarget::integer() const { return Get<int64_t>(TargetKind::kInteger); }
double TaskTarget::float_value() const { return Get<double>(TargetKind::kFloat); }
bool TaskTarget::boolean() const { return Get<bool>(TargetKind::kBoolean); }
const std::shared_ptr<Record>& TaskTarget::record() const {
  return Get<std::shared_ptr<Record>>(TargetKind::kRecord);
}
const std::shared_ptr<Signal>& TaskTarget::signal() const {
  return Get<std::shared_ptr<Signal>>(TargetKind::kSignal);
}
const ScopedSpan& TaskTarget::span() const {
  const auto* held = std::get_if<ScopedSpan>(&value_);
  if (held == nullptr) {
    internal::Fail("task target", "target_kind",
                   "the target is " + std::string(ToString(kind())) + ", not a span");
  }
  return *held;
}

}  // namespace timef::model
