// A task's typed inline answer (docs/format.md §6.7).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "timef/model/span.h"
#include "timef/model/text.h"

namespace timef::model {

class Record;
class Signal;

enum class TargetKind {
  kText,
  kInteger,
  kFloat,
  kBoolean,
  kRecord,
  kSignal,
  kTimePoint,
  kTimeInterval,
  kStepPoint,
  kStepInterval,
};

// Catalog names: text, integer, float, boolean, record, signal, time_point, time_interval,
// step_point, step_interval.
const std::string& ToString(TargetKind kind);
std::optional<TargetKind> ParseTargetKind(std::string_view text);

// One target of a task (docs/format.md §6.4 task_targets): a value (text, integer, float,
// boolean), an object (record, signal) or a span. A value type: copies share the record or signal
// they name (std::shared_ptr) and a lazy text's source. Threading as for the model objects
// (annotation.h): const access from many threads is safe, mutation needs exclusive access.
// OfRecord/OfSignal throw ValidationError for a null object; an accessor of another kind throws
// ValidationError naming target_kind (spans are checked with their task, Dataset::Validate).
class TaskTarget {
 public:
  static TaskTarget OfText(Text value);
  static TaskTarget OfInteger(int64_t value);
  static TaskTarget OfFloat(double value);
  static TaskTarget OfBoolean(bool value);
  static TaskTarget OfRecord(std::shared_ptr<Record> record);
  static TaskTarget OfSignal(std::shared_ptr<Signal> signal);
  // Time spans may name signals (empty = the whole input record); step spans name exactly one.
  static TaskTarget OfSpan(ScopedSpan span);

  TargetKind kind() const;
  // Each accessor throws ValidationError when the kind differs.
  const Text& text() const;
  int64_t integer() const;
  double float_value() const;
  bool boolean() const;
  const std::shared_ptr<Record>& record() const;
  const std::shared_ptr<Signal>& signal() const;
  const ScopedSpan& span() const;

  // Records and signals compare by identity.
  bool operator==(const TaskTarget&) const = default;

 private:
  template <class T>
  explicit TaskTarget(T value) : value_(std::move(value)) {}
  template <class T>
  const T& Get(TargetKind wanted) const;

  std::variant<Text, int64_t, double, bool, std::shared_ptr<Record>, std::shared_ptr<Signal>,
               ScopedSpan>
      value_;
};

}  // namespace timef::model
