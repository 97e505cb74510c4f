#include "timef/model/time_axis.h"

#include <cstdint>
#include <numeric>

#include "core/enum_table.h"
#include "model/checks.h"
#include "timef/error.h"

namespace timef {

TIMEF_ENUM_TABLE(model::AxisType, {model::AxisType::kRegular, "regular"},
                 {model::AxisType::kIrregular, "irregular"}, {model::AxisType::kOrdinal, "ordinal"})

}  // namespace timef

namespace timef::model {
namespace {

const std::string kRegular = "regular time axis";
const std::string kIrregular = "irregular time axis";

}  // namespace

const std::string& ToString(AxisType type) { return core::EnumNameString(type); }
std::optional<AxisType> ParseAxisType(std::string_view text) {
  return core::EnumFromName<AxisType>(text);
}

std::shared_ptr<const TimeAxis> TimeAxis::Regular(int64_t period_numerator_us,
                                                  int64_t period_denominator, int64_t start_index,
                                                  int64_t offset_us) {
  if (period_denominator <= 0) {
    internal::Fail(kRegular, "period_denominator",
                   "must be > 0, got " + std::to_string(period_denominator));
  }
  if (period_numerator_us < period_denominator) {
    internal::Fail(kRegular, "period",
                   "the period must be ≥ 1 µs, got " + std::to_string(period_numerator_us) + "/" +
                       std::to_string(period_denominator) + " µs");
  }
  if (start_index < 0) {
    internal::Fail(kRegular, "start_index", "must be ≥ 0, got " + std::to_string(start_index));
  }
  int64_t divisor = std::gcd(period_numerator_us, period_denominator);
  auto axis = std::make_shared<TimeAxis>(Private{}, AxisType::kRegular);
  axis->period_numerator_us_ = period_numerator_us / divisor;
  axis->period_denominator_ = period_denominator / divisor;
  axis->start_index_ = start_index;
  axis->offset_us_ = offset_us;
  return axis;
}

std::shared_ptr<const TimeAxis> TimeAxis::RegularFromRate(int64_t rate_numerator_hz,
                                                          int64_t rate_denominator,
                                                          int64_t start_index, int64_t offset_us) {
  if (rate_numerator_hz <= 0 || rate_denominator <= 0) {
    internal::Fail(kRegular, "rate",
                   "a sampling rate must be positive, got " + std::to_string(rate_numerator_hz) +
                       "/" + std::to_string(rate_denominator) + " Hz");
  }
  int64_t numerator = 0;
  if (__builtin_mul_overflow(rate_denominator, int64_t{1'000'000}, &numerator)) {
    internal::Fail(kRegular, "rate", "the period does not fit int64");
  }
  return Regular(numerator, rate_numerator_hz, start_index, offset_us);
}

std::shared_ptr<const TimeAxis> TimeAxis::Irregular(std::vector<int64_t> offsets_us) {
  if (offsets_us.empty()) internal::Fail(kIrregular, "offsets", "needs at least one offset");
  if (offsets_us.front() < 0) {
    internal::Fail(kIrregular, "offsets[0]",
                   "offsets must be ≥ 0, got " + std::to_string(offsets_us.front()));
  }
  for (size_t i = 1; i < offsets_us.size(); ++i) {
    if (offsets_us[i] < offsets_us[i - 1]) {
      internal::Fail(kIrregular, "offsets[" + std::to_string(i) + "]",
                     "offsets must be non-decreasing: " + std::to_string(offsets_us[i]) +
                         " follows " + std::to_string(offsets_us[i - 1]));
    }
  }
  auto axis = std::make_shared<TimeAxis>(Private{}, AxisType::kIrregular);
  axis->n_values_ = static_cast<int64_t>(offsets_us.size());
  axis->first_us_ = offsets_us.front();
  axis->last_us_ = offsets_us.back();
  axis->offsets_ = std::make_shared<const std::vector<int64_t>>(std::move(offsets_us));
  return axis;
}

std::shared_ptr<const TimeAxis> TimeAxis::IrregularLazy(int64_t n_values, int64_t first_us,
                                                        int64_t last_us,
                                                        std::shared_ptr<const TimeOffsets> source) {
  if (n_values <= 0) {
    internal::Fail(kIrregular, "n_values", "must be > 0, got " + std::to_string(n_values));
  }
  if (first_us < 0 || first_us > last_us) {
    internal::Fail(kIrregular, "first_us",
                   "needs 0 ≤ first_us ≤ last_us, got " + std::to_string(first_us) + " and " +
                       std::to_string(last_us));
  }
  if (!source) internal::Fail(kIrregular, "offsets", "the offsets source must not be null");
  auto axis = std::make_shared<TimeAxis>(Private{}, AxisType::kIrregular);
  axis->n_values_ = n_values;
  axis->first_us_ = first_us;
  axis->last_us_ = last_us;
  axis->offsets_source_ = std::move(source);
  return axis;
}

std::shared_ptr<const TimeAxis> TimeAxis::Ordinal() {
  return std::make_shared<TimeAxis>(Private{}, AxisType::kOrdinal);
}

std::shared_ptr<const std::vector<int64_t>> TimeAxis::LoadOffsets() const {
  if (type_ != AxisType::kIrregular) {
    internal::Fail(std::string(ToString(type_)) + " time axis", "offsets",
                   "only an irregular axis has offsets");
  }
  return offsets_ ? offsets_ : offsets_source_->Load();
}

bool TimeAxis::offsets_loaded() const {
  return offsets_ != nullptr || (offsets_source_ && offsets_source_->is_loaded());
}

int64_t TimeAxis::TimeOfStep(int64_t step) const {
  if (step < 0) internal::Fail("time axis", "step", "steps are ≥ 0, got " + std::to_string(step));
  switch (type_) {
    case AxisType::kRegular: {
      __int128 ticks = (static_cast<__int128>(start_index_) + step) * period_numerator_us_;
      __int128 time = offset_us_ + ticks / period_denominator_;  // ticks ≥ 0: division floors
      if (time > INT64_MAX || time < INT64_MIN) {
        internal::Fail(kRegular, "step",
                       "time of step " + std::to_string(step) + " overflows int64");
      }
      return static_cast<int64_t>(time);
    }
    case AxisType::kIrregular: {
      if (step >= n_values_) {
        internal::Fail(kIrregular, "step",
                       "step " + std::to_string(step) + " is past the axis's " +
                           std::to_string(n_values_) + " offsets");
      }
      if (step == 0) return first_us_;
      if (step == n_values_ - 1) return last_us_;
      return (*LoadOffsets())[step];
    }
    case AxisType::kOrdinal:
      break;
  }
  internal::Fail("ordinal time axis", "step", "an ordinal axis has no time");
}

std::optional<std::pair<int64_t, int64_t>> TimeAxis::Window(int64_t n_values) const {
  if (type_ == AxisType::kOrdinal || n_values <= 0) return std::nullopt;
  if (type_ == AxisType::kIrregular) return std::make_pair(first_us_, last_us_);
  return std::make_pair(TimeOfStep(0), TimeOfStep(n_values - 1));
}

}  // namespace timef::model
