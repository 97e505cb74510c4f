// Spec rules (H3, §5.3) and time axes (A1, A2).
#include <gtest/gtest.h>

#include "test_util.h"
#include "timef/model.h"

namespace timef::model {
namespace {

TEST(SpecTest, MakeCanonicalizesTheUnit) {
  auto spec = Spec::Make({.spec_type = "ecg", .name = "ECG", .unit = "uV"});
  EXPECT_EQ(spec->unit, "microvolt");
  EXPECT_EQ(Spec::Make({.spec_type = "x", .name = "X"})->unit, std::nullopt);
  EXPECT_VALIDATION_ERROR(Spec::Make({.spec_type = "ecg", .unit = "furlongs"}), "spec 'ecg'",
                          "unit");
  Spec raw{.spec_type = "ecg", .unit = "mV"};
  EXPECT_VALIDATION_ERROR(raw.Check(), "spec 'ecg'", "unit");  // Check wants canonical units
}

TEST(SpecTest, ReservedAndEmptySpecTypesAreRejected) {
  for (const char* bad : {"", ".", "..", "_irregular", "_time_offsets", "_validity"}) {
    EXPECT_VALIDATION_ERROR(Spec::Make({.spec_type = bad}), "spec", "spec_type");
  }
  EXPECT_VALIDATION_ERROR(Spec::Make({.spec_type = "bad\xff"}), "spec", "spec_type");
}

TEST(SpecTest, CategoriesOnlyForEnumAndWellFormed) {
  EXPECT_VALIDATION_ERROR(Spec::Make({.spec_type = "r", .dtype = DType::kEnum}), "spec 'r'",
                          "categories");
  EXPECT_VALIDATION_ERROR(
      Spec::Make({.spec_type = "r", .dtype = DType::kInt8, .categories = {"a"}}), "spec 'r'",
      "categories");
  EXPECT_VALIDATION_ERROR(
      Spec::Make({.spec_type = "r", .dtype = DType::kEnum, .categories = {"a", "b", "a"}}),
      "spec 'r'", "categories[2]");
  EXPECT_VALIDATION_ERROR(
      Spec::Make({.spec_type = "r", .dtype = DType::kEnum, .categories = {"a", ""}}), "spec 'r'",
      "categories[1]");
}

TEST(SpecTest, ShapeAndDimensionNames) {
  auto image = Spec::Make({.spec_type = "img",
                           .dtype = DType::kUint8,
                           .value_shape = {2, 3},
                           .dimension_names = {"row", "col"},
                           .modality = Modality::kImage});
  EXPECT_EQ(image->StepWidth(), 6);
  EXPECT_VALIDATION_ERROR(Spec::Make({.spec_type = "img", .value_shape = {2, 0}}), "spec 'img'",
                          "value_shape[1]");
  EXPECT_VALIDATION_ERROR(
      Spec::Make({.spec_type = "img", .value_shape = {2, 3}, .dimension_names = {"row"}}),
      "spec 'img'", "dimension_names");
  EXPECT_VALIDATION_ERROR(
      Spec::Make({.spec_type = "img", .value_shape = {2, 3}, .dimension_names = {"a", "a"}}),
      "spec 'img'", "dimension_names[1]");
  EXPECT_VALIDATION_ERROR(
      Spec::Make({.spec_type = "img", .value_shape = {2}, .dimension_names = {""}}), "spec 'img'",
      "dimension_names[0]");
}

TEST(SpecTest, EnumNamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(DType::kEnum); ++i) {
    auto dtype = static_cast<DType>(i);
    EXPECT_EQ(ParseDType(ToString(dtype)), dtype);
  }
  EXPECT_EQ(ParseDType("float16"), std::nullopt);
  EXPECT_EQ(ParseModality("time_series"), Modality::kTimeSeries);
  EXPECT_EQ(ParseModality("no_input"), std::nullopt);  // forbidden in a spec
}

TEST(TimeAxisTest, RegularPeriodIsAReducedFraction) {
  auto axis = TimeAxis::Regular(20'000, 10);
  EXPECT_EQ(axis->period_numerator_us(), 2000);
  EXPECT_EQ(axis->period_denominator(), 1);
  // 44.1 kHz: 1e6 / 44100 = 10000/441 µs.
  auto audio = TimeAxis::RegularFromRate(44'100, 1, 3, -7);
  EXPECT_EQ(audio->period_numerator_us(), 10'000);
  EXPECT_EQ(audio->period_denominator(), 441);
  EXPECT_EQ(audio->start_index(), 3);
  EXPECT_EQ(audio->offset_us(), -7);
  // offset + floor((start + i) · num / den)
  EXPECT_EQ(audio->TimeOfStep(0), -7 + 30'000 / 441);
  EXPECT_EQ(audio->TimeOfStep(441), -7 + (444 * 10'000) / 441);
  EXPECT_EQ(audio->Window(442), std::make_pair(audio->TimeOfStep(0), audio->TimeOfStep(441)));
}

TEST(TimeAxisTest, RegularRejectsBadParameters) {
  EXPECT_VALIDATION_ERROR(TimeAxis::Regular(1, 2), "regular time axis", "period");
  EXPECT_VALIDATION_ERROR(TimeAxis::Regular(0), "regular time axis", "period");
  EXPECT_VALIDATION_ERROR(TimeAxis::Regular(5, 0), "regular time axis", "period_denominator");
  EXPECT_VALIDATION_ERROR(TimeAxis::Regular(5, 1, -1), "regular time axis", "start_index");
  EXPECT_VALIDATION_ERROR(TimeAxis::RegularFromRate(2'000'000), "regular time axis", "period");
  EXPECT_VALIDATION_ERROR(TimeAxis::RegularFromRate(0), "regular time axis", "rate");
}

TEST(TimeAxisTest, IrregularOffsetsAreNonDecreasingAndNonNegative) {
  auto axis = TimeAxis::Irregular({0, 5, 5, 9});
  EXPECT_EQ(axis->n_values(), 4);
  EXPECT_EQ(axis->first_us(), 0);
  EXPECT_EQ(axis->last_us(), 9);
  EXPECT_TRUE(axis->offsets_loaded());
  EXPECT_EQ(*axis->LoadOffsets(), (std::vector<int64_t>{0, 5, 5, 9}));
  EXPECT_EQ(axis->TimeOfStep(2), 5);
  EXPECT_VALIDATION_ERROR(TimeAxis::Irregular({0, 5, 4}), "irregular time axis", "offsets[2]");
  EXPECT_VALIDATION_ERROR(TimeAxis::Irregular({-1, 5}), "irregular time axis", "offsets[0]");
  EXPECT_VALIDATION_ERROR(TimeAxis::Irregular({}), "irregular time axis", "offsets");
  EXPECT_VALIDATION_ERROR(axis->TimeOfStep(4), "irregular time axis", "step");
}

class FixedOffsets : public TimeOffsets {
 public:
  std::shared_ptr<const std::vector<int64_t>> Load() const override {
    ++loads;
    return std::make_shared<const std::vector<int64_t>>(std::vector<int64_t>{2, 3, 8});
  }
  bool is_loaded() const override { return false; }
  mutable int loads = 0;
};

TEST(TimeAxisTest, LazyIrregularAxisReadsOffsetsOnlyWhenAsked) {
  auto source = std::make_shared<FixedOffsets>();
  auto axis = TimeAxis::IrregularLazy(3, 2, 8, source);
  EXPECT_EQ(axis->Window(3), std::make_pair(int64_t{2}, int64_t{8}));
  EXPECT_EQ(axis->TimeOfStep(2), 8);
  EXPECT_EQ(source->loads, 0);
  EXPECT_EQ(axis->TimeOfStep(1), 3);
  EXPECT_EQ(source->loads, 1);
  EXPECT_FALSE(axis->offsets_loaded());
  EXPECT_VALIDATION_ERROR(TimeAxis::IrregularLazy(0, 0, 0, source), "irregular time axis",
                          "n_values");
  EXPECT_VALIDATION_ERROR(TimeAxis::IrregularLazy(2, 5, 4, source), "irregular time axis",
                          "first_us");
}

TEST(TimeAxisTest, OrdinalAxisHasNoTime) {
  auto axis = TimeAxis::Ordinal();
  EXPECT_TRUE(axis->is_ordinal());
  EXPECT_EQ(axis->Window(5), std::nullopt);
  EXPECT_VALIDATION_ERROR(axis->TimeOfStep(0), "ordinal time axis", "step");
  EXPECT_VALIDATION_ERROR(axis->LoadOffsets(), "ordinal time axis", "offsets");
  EXPECT_EQ(ParseAxisType(ToString(AxisType::kIrregular)), AxisType::kIrregular);
}

}  // namespace
}  // namespace timef::model
