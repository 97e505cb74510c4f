// Value arrays, conforming values to a signal's spec, loaders and step windows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <span>

#include "test_util.h"
#include "timef/model.h"

namespace timef::model {
namespace {

std::shared_ptr<Signal> SignalOf(Spec spec, int64_t n_values) {
  return std::make_shared<Signal>("s", Spec::Make(std::move(spec)), TimeAxis::Ordinal(), n_values);
}

TEST(ValueArrayTest, StorageMustFitTheDtype) {
  EXPECT_VALIDATION_ERROR(ValueArray(DType::kFloat64, std::vector<float>{1.0f}), "value array",
                          "dtype");
  EXPECT_VALIDATION_ERROR(ValueArray(DType::kStr, std::vector<int32_t>{1}), "value array", "dtype");
  EXPECT_NO_THROW(ValueArray(DType::kBool, std::vector<uint8_t>{1, 0}));
  EXPECT_NO_THROW(ValueArray(DType::kEnum, std::vector<std::string>{"a"}));
  auto array = ValueArray::Of<uint16_t>({1, 2, 3});
  EXPECT_EQ(array.dtype(), DType::kUint16);
  EXPECT_EQ(array.size(), 3);
  EXPECT_EQ(array.values<uint16_t>()[2], 3);
  EXPECT_THROW(array.values<int16_t>(), Error);
}

TEST(ValueArrayTest, EqualityIsBitExact) {
  const double nan_a = std::numeric_limits<double>::quiet_NaN();
  uint64_t bits;
  std::memcpy(&bits, &nan_a, sizeof bits);
  bits ^= 1;  // another NaN payload
  double nan_b;
  std::memcpy(&nan_b, &bits, sizeof bits);
  EXPECT_EQ(ValueArray::Of<double>({nan_a, -0.0}), ValueArray::Of<double>({nan_a, -0.0}));
  EXPECT_FALSE(ValueArray::Of<double>({nan_a}) == ValueArray::Of<double>({nan_b}));
  EXPECT_FALSE(ValueArray::Of<double>({0.0}) == ValueArray::Of<double>({-0.0}));
  EXPECT_FALSE(ValueArray::Of<double>({1.0}) == ValueArray::Of<double>({1.0}, {1}));
  EXPECT_FALSE(ValueArray::Of<int32_t>({1}) == ValueArray::EnumCodes({1}));
}

TEST(ValueArrayTest, SliceKeepsDtypeShapeAndValidity) {
  auto array = ValueArray::Of<float>({0, 1, 2, 3, 4, 5}, {1, 0, 1});
  auto middle = array.SliceSteps(1, 3, 2);
  EXPECT_EQ(middle, ValueArray::Of<float>({2, 3, 4, 5}, {0, 1}));
  auto empty = array.SliceSteps(2, 2, 2);
  EXPECT_EQ(empty.dtype(), DType::kFloat32);
  EXPECT_EQ(empty.size(), 0);
}

// ---- the checked conversion (docs/format.md §14.1 "Value conversions") ----

template <class From>
ValueArray Convert(std::vector<From> values, Spec spec, std::vector<uint8_t> validity = {},
                   int64_t first_step = 0) {
  spec.Check();
  return ConvertValues(std::span<const From>(values), spec, std::move(validity), "signal 'lead'",
                       first_step);
}

Spec Scalar(DType dtype) { return {.spec_type = "x", .dtype = dtype}; }

TEST(ConvertValuesTest, FiniteToInfiniteIsRefusedAndRoundingIsNot) {
  EXPECT_VALIDATION_ERROR_MSG(Convert<double>({1.0, 1e300}, Scalar(DType::kFloat32)),
                              "signal 'lead'", "values[1]", "step 1: 1e+300 is too large");
  EXPECT_VALIDATION_ERROR_MSG(Convert<double>({-1e300}, Scalar(DType::kFloat32)), "signal 'lead'",
                              "values[0]", "become -inf");
  // Rounding to the nearest float32 is not a change of meaning.
  const ValueArray rounded = Convert<double>({0.1, 3.4028234663852886e38}, Scalar(DType::kFloat32));
  EXPECT_EQ(rounded.values<float>()[0], 0.1f);
  EXPECT_EQ(rounded.values<float>()[1], std::numeric_limits<float>::max());
  // NaN stays NaN, infinities stay infinite, -0.0 stays -0.0.
  const double inf = std::numeric_limits<double>::infinity();
  const ValueArray kept = Convert<double>({std::nan(""), -inf, -0.0}, Scalar(DType::kFloat32));
  EXPECT_TRUE(std::isnan(kept.values<float>()[0]));
  EXPECT_EQ(kept.values<float>()[1], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::signbit(kept.values<float>()[2]));
  // Integers to floats round too; float32 to float64 is exact.
  EXPECT_EQ(Convert<int64_t>({(int64_t{1} << 53) + 1}, Scalar(DType::kFloat64)).values<double>()[0],
            9007199254740992.0);
  EXPECT_EQ(Convert<float>({1.5f}, Scalar(DType::kFloat64)).values<double>()[0], 1.5);
}

TEST(ConvertValuesTest, FloatsIntoIntegersMustBeWholeAndFinite) {
  EXPECT_VALIDATION_ERROR_MSG(Convert<double>({1.0, 2.5}, Scalar(DType::kInt16)), "signal 'lead'",
                              "values[1]", "step 1: 2.5 is fractional");
  EXPECT_VALIDATION_ERROR_MSG(Convert<double>({std::nan("")}, Scalar(DType::kInt32)),
                              "signal 'lead'", "values[0]", "NaN has no int32 value");
  EXPECT_VALIDATION_ERROR_MSG(
      Convert<float>({std::numeric_limits<float>::infinity()}, Scalar(DType::kUint8)),
      "signal 'lead'", "values[0]", "an infinity");
  EXPECT_VALIDATION_ERROR_MSG(Convert<double>({3e9}, Scalar(DType::kInt32)), "signal 'lead'",
                              "values[0]", "outside the range of int32");
  EXPECT_EQ(Convert<double>({-3.0, 0.0, -0.0}, Scalar(DType::kInt8)),
            ValueArray::Of<int8_t>({-3, 0, 0}));
}

TEST(ConvertValuesTest, IntegersOutOfTheTargetRangeAreRefused) {
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({300, -1000}, Scalar(DType::kInt8)), "signal 'lead'",
                              "values[0]", "step 0: 300 is outside the range");
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({5, -1000}, Scalar(DType::kInt8)), "signal 'lead'",
                              "values[1]", "-1000");
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({-1, 70000}, Scalar(DType::kUint16)),
                              "signal 'lead'", "values[0]", "-1 is outside the range of uint16");
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({7, 70000}, Scalar(DType::kUint16)), "signal 'lead'",
                              "values[1]", "70000");
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({3000000000}, Scalar(DType::kInt32)),
                              "signal 'lead'", "values[0]", "3000000000");
  EXPECT_VALIDATION_ERROR_MSG(
      Convert<uint64_t>({std::numeric_limits<uint64_t>::max()}, Scalar(DType::kUint32)),
      "signal 'lead'", "values[0]", "18446744073709551615");
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({0, 2}, Scalar(DType::kBool)), "signal 'lead'",
                              "values[1]", "a bool value is 0 or 1");
  EXPECT_EQ(Convert<int64_t>({-128, 127}, Scalar(DType::kInt8)),
            ValueArray::Of<int8_t>({-128, 127}));
  EXPECT_EQ(Convert<uint8_t>({1, 0}, Scalar(DType::kBool)), ValueArray::Bools({true, false}));
  EXPECT_EQ(Convert<int64_t>({4294967295}, Scalar(DType::kUint32)),
            ValueArray::Of<uint32_t>({4294967295u}));
}

TEST(ConvertValuesTest, EnumCodesMustBeCategories) {
  const Spec spec{.spec_type = "rhythm", .dtype = DType::kEnum, .categories = {"AF", "NORM"}};
  // 2^32 + 1 would wrap to the valid code 1 in an int32.
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({0, 4294967297}, spec), "signal 'lead'", "values[1]",
                              "4294967297 is outside the 2 categories");
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({-1}, spec), "signal 'lead'", "values[0]",
                              "categories");
  EXPECT_EQ(Convert<uint8_t>({1, 0}, spec), ValueArray::EnumCodes({1, 0}));
}

TEST(ConvertValuesTest, NullStepsAreNotCheckedAndStepsCountFromThePiece) {
  Spec nullable = Scalar(DType::kInt8);
  nullable.nullable = true;
  EXPECT_EQ(Convert<double>({1.0, std::nan("")}, nullable, {1, 0}),
            ValueArray::Of<int8_t>({1, 0}, {1, 0}));
  // A value-shaped spec names the step and the scalar; a piece counts from its first step.
  const Spec shaped{.spec_type = "acc", .dtype = DType::kInt8, .value_shape = {3}};
  EXPECT_VALIDATION_ERROR_MSG(Convert<int64_t>({0, 0, 0, 0, 200, 0}, shaped, {}, 10),
                              "signal 'lead'", "values[34]", "step 11 (scalar 34): 200");
  EXPECT_VALIDATION_ERROR(Convert<double>({1.0}, Scalar(DType::kStr)), "signal 'lead'", "values");
}

TEST(ConformValuesTest, DtypeAndCountMustMatch) {
  auto signal = SignalOf({.spec_type = "x", .dtype = DType::kFloat32}, 3);
  EXPECT_VALIDATION_ERROR(signal->SetValues(ValueArray::Of<double>({1, 2, 3})), "signal 's'",
                          "values");
  EXPECT_VALIDATION_ERROR(signal->SetValues(ValueArray::Of<float>({1, 2})), "signal 's'", "values");
  auto image = SignalOf({.spec_type = "img", .dtype = DType::kUint8, .value_shape = {2, 2}}, 2);
  EXPECT_NO_THROW(image->SetValues(ValueArray::Of<uint8_t>({1, 2, 3, 4, 5, 6, 7, 8})));
  EXPECT_VALIDATION_ERROR(image->SetValues(ValueArray::Of<uint8_t>({1, 2, 3, 4})), "signal 's'",
                          "values");
}

TEST(ConformValuesTest, NullsOnlyInNullableSpecs) {
  auto strict = SignalOf({.spec_type = "x"}, 3);
  EXPECT_VALIDATION_ERROR_MSG(strict->SetValues(ValueArray::Of<float>({1, 2, 3}, {1, 0, 1})),
                              "signal 's'", "values.validity[1]", "not nullable");
  // All-present validity is accepted on a non-nullable spec.
  EXPECT_NO_THROW(strict->SetValues(ValueArray::Of<float>({1, 2, 3}, {1, 1, 1})));
  auto nullable = SignalOf({.spec_type = "x", .nullable = true}, 3);
  EXPECT_NO_THROW(nullable->SetValues(ValueArray::Of<float>({1, 0, 3}, {1, 0, 1})));
  EXPECT_VALIDATION_ERROR(nullable->SetValues(ValueArray::Of<float>({1, 0, 3}, {1, 0})),
                          "signal 's'", "values.validity");
}

TEST(ConformValuesTest, EnumLabelsBecomeCodesAndMustBeCategories) {
  auto signal = SignalOf(
      {.spec_type = "r", .dtype = DType::kEnum, .categories = {"N", "AF"}, .nullable = true}, 3);
  signal->SetValues(ValueArray::EnumLabels({"AF", "???", "N"}, {1, 0, 1}));
  auto stored = signal->LoadValues();
  EXPECT_FALSE(stored->holds_enum_labels());
  EXPECT_EQ(*stored, ValueArray::EnumCodes({1, 0, 0}, {1, 0, 1}));
  EXPECT_VALIDATION_ERROR_MSG(signal->SetValues(ValueArray::EnumLabels({"AF", "X", "N"})),
                              "signal 's'", "values[1]", "'X' is not one of the categories");
  EXPECT_VALIDATION_ERROR(signal->SetValues(ValueArray::EnumCodes({0, 2, 1})), "signal 's'",
                          "values[1]");
  EXPECT_VALIDATION_ERROR(signal->SetValues(ValueArray::EnumCodes({0, -1, 1})), "signal 's'",
                          "values[1]");
}

TEST(ConformValuesTest, BoolsAreZeroOrOneAndStringsAreUtf8) {
  auto flags = SignalOf({.spec_type = "f", .dtype = DType::kBool}, 2);
  EXPECT_VALIDATION_ERROR(flags->SetValues(ValueArray(DType::kBool, std::vector<uint8_t>{1, 2})),
                          "signal 's'", "values[1]");
  auto text = SignalOf({.spec_type = "t", .dtype = DType::kStr}, 2);
  EXPECT_VALIDATION_ERROR(text->SetValues(ValueArray::Of<std::string>({"ok", "bad\xc3"})),
                          "signal 's'", "values[1]");
  EXPECT_NO_THROW(text->SetValues(ValueArray::Of<std::string>({"", "ü"})));
}

TEST(SignalValuesTest, ConstructorDerivesNValuesFromValues) {
  auto spec = Spec::Make({.spec_type = "img", .dtype = DType::kUint8, .value_shape = {3}});
  Signal signal("s", spec, TimeAxis::Ordinal(), ValueArray::Of<uint8_t>({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(signal.n_values(), 2);
  EXPECT_TRUE(signal.values()->is_loaded());
  EXPECT_VALIDATION_ERROR(Signal("e", spec, TimeAxis::Ordinal(), ValueArray::Of<uint8_t>({})),
                          "signal 'e'", "n_values");
}

TEST(SignalValuesTest, LoaderIsCalledOnEachLoadAndItsResultIsConformed) {
  auto signal = SignalOf({.spec_type = "x"}, 2);
  int calls = 0;
  signal->SetLoader([&calls] {
    ++calls;
    return ValueArray::Of<float>({1, 2});
  });
  EXPECT_FALSE(signal->values()->is_loaded());
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(*signal->LoadValues(), ValueArray::Of<float>({1, 2}));
  EXPECT_EQ(calls, 1);
  signal->SetLoader([] { return ValueArray::Of<float>({1, 2, 3}); });
  EXPECT_VALIDATION_ERROR(signal->LoadValues(), "signal 's'", "values");
  EXPECT_VALIDATION_ERROR(signal->SetLoader(nullptr), "signal 's'", "values");
  auto bare = SignalOf({.spec_type = "x"}, 2);
  EXPECT_VALIDATION_ERROR(bare->LoadValues(), "signal 's'", "values");
}

TEST(SignalValuesTest, PieceLoaderPiecesAreConformedAndGatheredOnLoad) {
  auto signal = SignalOf(
      {.spec_type = "rhythm", .dtype = DType::kEnum, .categories = {"N", "AF"}, .nullable = true},
      5);
  int passes = 0;
  signal->SetPieceLoader([&passes](const PieceSink& emit) {
    ++passes;
    emit(ValueArray::EnumLabels({"N", "AF"}));
    emit(ValueArray::EnumLabels({}));
    emit(ValueArray::EnumCodes({1, 0, 0}, {1, 0, 1}));
  });
  EXPECT_TRUE(signal->has_piecewise_values());
  EXPECT_FALSE(signal->values()->is_loaded());
  EXPECT_EQ(passes, 0);
  EXPECT_EQ(*signal->LoadValues(), ValueArray::EnumCodes({0, 1, 1, 0, 0}, {1, 1, 1, 0, 1}));
  EXPECT_EQ(signal->ReadSteps(1, 4), ValueArray::EnumCodes({1, 1, 0}, {1, 1, 0}));
  EXPECT_EQ(passes, 2);
  // VisitValues hands the conformed pieces as they come, empty ones skipped.
  std::vector<int64_t> sizes;
  signal->VisitValues([&sizes](ValueArray piece) {
    EXPECT_EQ(piece.data().index(), 3u) << "enum pieces arrive as codes";
    sizes.push_back(piece.size());
  });
  EXPECT_EQ(sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_VALIDATION_ERROR(signal->SetPieceLoader(nullptr), "signal 's'", "values");
}

TEST(SignalValuesTest, BadPiecesAreValidationErrorsCountedFromTheFirstStep) {
  auto signal = SignalOf({.spec_type = "x", .value_shape = {2}}, 3);
  auto visit = [&](std::function<void(const PieceSink&)> loader) {
    signal->SetPieceLoader(std::move(loader));
    signal->VisitValues([](ValueArray) {});
  };
  // Two steps, then one and a half.
  EXPECT_VALIDATION_ERROR(visit([](const PieceSink& emit) {
                            emit(ValueArray::Of<float>({1, 2, 3, 4}));
                            emit(ValueArray::Of<float>({5, 6, 7}));
                          }),
                          "signal 's'", "values (piece at step 2)");
  EXPECT_VALIDATION_ERROR(visit([](const PieceSink& emit) {
                            emit(ValueArray::Of<float>({1, 2, 3, 4}));
                            emit(ValueArray::Of<float>({5, 6, 7, 8}));
                          }),
                          "signal 's'", "values (piece at step 2)");  // past n_values = 3
  EXPECT_VALIDATION_ERROR(visit([](const PieceSink& emit) {
                            emit(ValueArray::Of<float>({1, 2}));
                          }),
                          "signal 's'", "values");  // one step of three
  EXPECT_VALIDATION_ERROR(visit([](const PieceSink& emit) {
                            emit(ValueArray::Of<double>({1, 2, 3, 4, 5, 6}));
                          }),
                          "signal 's'", "values (piece at step 0)");
  auto flags = SignalOf({.spec_type = "f", .dtype = DType::kBool}, 4);
  flags->SetPieceLoader([](const PieceSink& emit) {
    emit(ValueArray::Bools({true, false}));
    emit(ValueArray(DType::kBool, std::vector<uint8_t>{1, 2}));
  });
  // The index of the bad value counts from the signal's first step.
  EXPECT_VALIDATION_ERROR(flags->LoadValues(), "signal 's'", "values[3]");
  auto strict = SignalOf({.spec_type = "g"}, 2);
  strict->SetPieceLoader([](const PieceSink& emit) {
    emit(ValueArray::Of<float>({1}));
    emit(ValueArray::Of<float>({2}, {0}));
  });
  EXPECT_VALIDATION_ERROR(strict->LoadValues(), "signal 's'", "values.validity[1]");
}

// A reader-style lazy source: counts how many steps it was asked for.
class WindowedValues : public SignalValues {
 public:
  std::shared_ptr<const ValueArray> Load() const override {
    return std::make_shared<const ValueArray>(ValueArray::Of<float>({0, 1, 2, 3, 4}));
  }
  ValueArray ReadSteps(int64_t begin, int64_t end, int64_t step_width) const override {
    requested.emplace_back(begin, end);
    return Load()->SliceSteps(begin, end, step_width);
  }
  bool is_loaded() const override { return false; }
  mutable std::vector<std::pair<int64_t, int64_t>> requested;
};

TEST(SignalValuesTest, ReadStepsClampsAndRejectsBadWindows) {
  auto signal = SignalOf({.spec_type = "x"}, 5);
  auto source = std::make_shared<WindowedValues>();
  signal->SetValuesSource(source);
  EXPECT_EQ(signal->ReadSteps(1, 3), ValueArray::Of<float>({1, 2}));
  EXPECT_EQ(signal->ReadSteps(3, 100), ValueArray::Of<float>({3, 4}));  // clamped
  auto empty = signal->ReadSteps(2, 2);
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.dtype(), DType::kFloat32);
  EXPECT_EQ(signal->ReadSteps(7, 9).size(), 0);  // past the end
  EXPECT_EQ(source->requested.front(), std::make_pair(int64_t{1}, int64_t{3}));
  EXPECT_EQ(source->requested[1], std::make_pair(int64_t{3}, int64_t{5}));
  EXPECT_VALIDATION_ERROR(signal->ReadSteps(3, 2), "signal 's'", "steps");
  EXPECT_VALIDATION_ERROR(signal->ReadSteps(-1, 2), "signal 's'", "steps");
}

}  // namespace
}  // namespace timef::model
