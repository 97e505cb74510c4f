// How a signal's steps map to time (docs/format.md §6.5). Axes are immutable and shared: signals
// recorded on one clock point to the same TimeAxis object, which the catalog stores once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace timef::model {

enum class AxisType { kRegular, kIrregular, kOrdinal };

const std::string& ToString(AxisType type);
std::optional<AxisType> ParseAxisType(std::string_view text);

// Irregular offsets stored outside the model; the reader supplies an implementation that reads
// the offsets payload and checks it against the axis and its digest. The reader's implementation
// reads once, under its own lock, and keeps the checked array (shared by every signal of the axis
// object), so it may be used from any thread; Load() throws FormatError/FileError when the stored
// offsets cannot be read or do not match the axis.
class TimeOffsets {
 public:
  virtual ~TimeOffsets() = default;
  virtual std::shared_ptr<const std::vector<int64_t>> Load() const = 0;
  virtual bool is_loaded() const = 0;
};

// A signal's time axis (docs/format.md §6.4 axes): regular, irregular or ordinal. Immutable once
// made and shared by std::shared_ptr<const TimeAxis> among the signals of one axis object: safe to
// use from any number of threads (an irregular axis's lazy offsets lock themselves, TimeOffsets).
// The factories throw ValidationError naming the field for arguments that break the rules below.
class TimeAxis {
  struct Private {};

 public:
  // Regular axis with period num/den µs. The fraction is reduced; the period must be ≥ 1 µs
  // (num ≥ den > 0). start_index ≥ 0. Time of step i = offset_us + floor((start_index +
  // i)·num/den).
  static std::shared_ptr<const TimeAxis> Regular(int64_t period_numerator_us,
                                                 int64_t period_denominator = 1,
                                                 int64_t start_index = 0, int64_t offset_us = 0);
  // Regular axis sampled at rate_num/rate_den Hz: period = 1,000,000·rate_den/rate_num µs.
  static std::shared_ptr<const TimeAxis> RegularFromRate(int64_t rate_numerator_hz,
                                                         int64_t rate_denominator = 1,
                                                         int64_t start_index = 0,
                                                         int64_t offset_us = 0);
  // Irregular axis with explicit offsets (µs from the record's zero): non-empty, ≥ 0,
  // non-decreasing.
  static std::shared_ptr<const TimeAxis> Irregular(std::vector<int64_t> offsets_us);
  // Irregular axis whose offsets `source` reads on demand (used by the reader).
  static std::shared_ptr<const TimeAxis> IrregularLazy(int64_t n_values, int64_t first_us,
                                                       int64_t last_us,
                                                       std::shared_ptr<const TimeOffsets> source);
  // Steps with an order but no time.
  static std::shared_ptr<const TimeAxis> Ordinal();

  AxisType type() const { return type_; }
  bool is_regular() const { return type_ == AxisType::kRegular; }
  bool is_irregular() const { return type_ == AxisType::kIrregular; }
  bool is_ordinal() const { return type_ == AxisType::kOrdinal; }

  // Regular only (0 otherwise).
  int64_t period_numerator_us() const { return period_numerator_us_; }
  int64_t period_denominator() const { return period_denominator_; }
  int64_t start_index() const { return start_index_; }
  int64_t offset_us() const { return offset_us_; }

  // Irregular only (0 otherwise): number of offsets and the first and last offset.
  int64_t n_values() const { return n_values_; }
  int64_t first_us() const { return first_us_; }
  int64_t last_us() const { return last_us_; }
  // Irregular only: the offsets (in memory, or read by the lazy source). Throws ValidationError
  // on another axis type.
  std::shared_ptr<const std::vector<int64_t>> LoadOffsets() const;
  bool offsets_loaded() const;
  // The lazy source of an irregular axis built by IrregularLazy, else null.
  const std::shared_ptr<const TimeOffsets>& offsets_source() const { return offsets_source_; }

  // Offset (µs) of step `step` ≥ 0. Throws ValidationError on an ordinal axis, for a step past the
  // offsets of an irregular axis, or when the time does not fit int64.
  int64_t TimeOfStep(int64_t step) const;
  // Times of the first and last of `n_values` steps; nullopt for an ordinal axis.
  std::optional<std::pair<int64_t, int64_t>> Window(int64_t n_values) const;

  explicit TimeAxis(Private, AxisType type) : type_(type) {}

 private:
  AxisType type_;
  int64_t period_numerator_us_ = 0;
  int64_t period_denominator_ = 0;
  int64_t start_index_ = 0;
  int64_t offset_us_ = 0;
  int64_t n_values_ = 0;
  int64_t first_us_ = 0;
  int64_t last_us_ = 0;
  std::shared_ptr<const std::vector<int64_t>> offsets_;
  std::shared_ptr<const TimeOffsets> offsets_source_;
};

}  // namespace timef::model
