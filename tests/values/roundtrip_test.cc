// Bit-exact round trips of every dtype through WriteValues and ChunkReader (FORMAT.md §7.1, §13).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "values_test_support.h"

namespace timef::values {
namespace {

using model::DType;
using model::ValueArray;
using testing::MakeInput;
using testing::MakeSpec;
using testing::ReadSignal;
using testing::ScratchDir;

struct Case {
  std::shared_ptr<const model::Spec> spec;
  ValueArray values;
};

std::vector<Case> EveryDType() {
  const float nan_payload32 = std::bit_cast<float>(std::uint32_t{0x7fc01234});
  const double nan_payload64 = std::bit_cast<double>(std::uint64_t{0xfff8000000abcdefULL});
  const float inf32 = std::numeric_limits<float>::infinity();
  const double inf64 = std::numeric_limits<double>::infinity();
  std::vector<Case> cases;
  cases.push_back({MakeSpec("b", DType::kBool), ValueArray::Bools({true, false, false, true})});
  cases.push_back({MakeSpec("i8", DType::kInt8), ValueArray::Of<std::int8_t>({-128, 127, 0, -1})});
  cases.push_back(
      {MakeSpec("i16", DType::kInt16), ValueArray::Of<std::int16_t>({-32768, 32767, 0, -2})});
  cases.push_back({MakeSpec("i32", DType::kInt32),
                   ValueArray::Of<std::int32_t>({std::numeric_limits<std::int32_t>::min(),
                                                 std::numeric_limits<std::int32_t>::max(), 7})});
  cases.push_back({MakeSpec("u8", DType::kUint8), ValueArray::Of<std::uint8_t>({0, 255, 128})});
  cases.push_back(
      {MakeSpec("u16", DType::kUint16), ValueArray::Of<std::uint16_t>({0, 65535, 32768})});
  cases.push_back({MakeSpec("u32", DType::kUint32),
                   ValueArray::Of<std::uint32_t>({0, 0xffffffffu, 0x80000000u, 1})});
  cases.push_back({MakeSpec("f32", DType::kFloat32),
                   ValueArray::Of<float>({nan_payload32, inf32, -inf32, -0.0f, 0.0f, 1.5f,
                                          std::numeric_limits<float>::denorm_min()})});
  cases.push_back({MakeSpec("f64", DType::kFloat64),
                   ValueArray::Of<double>({nan_payload64, inf64, -inf64, -0.0, 0.0, 1e300,
                                           std::numeric_limits<double>::denorm_min()})});
  cases.push_back(
      {MakeSpec("s", DType::kStr),
       ValueArray::Of<std::string>({"", "héllo", "日本語", std::string(300, 'x'), "a\nb", ""})});
  cases.push_back({MakeSpec("e", DType::kEnum, false, {"low", "mid", "high"}),
                   ValueArray::EnumCodes({2, 0, 1, 1, 2})});
  // Nullable variants: null slots hold the zero value, which is what a reader gives back.
  cases.push_back({MakeSpec("nf32", DType::kFloat32, true),
                   ValueArray::Of<float>({1.0f, 0.0f, -0.0f, 0.0f}, {1, 0, 1, 0})});
  cases.push_back({MakeSpec("nu16", DType::kUint16, true),
                   ValueArray::Of<std::uint16_t>({0, 65535, 0}, {0, 1, 0})});
  cases.push_back({MakeSpec("nb", DType::kBool, true),
                   ValueArray(DType::kBool, std::vector<std::uint8_t>{0, 1, 0}, {0, 1, 1})});
  cases.push_back(
      {MakeSpec("ns", DType::kStr, true), ValueArray::Of<std::string>({"", "ü", ""}, {0, 1, 1})});
  cases.push_back({MakeSpec("ne", DType::kEnum, true, {"a", "b"}),
                   ValueArray::EnumCodes({0, 1, 0, 0}, {0, 1, 1, 0})});
  return cases;
}

TEST(ValuesRoundTripTest, EveryDTypeIsBitExact) {
  for (auto codec : {parquet::CompressionCodec::kZstd, parquet::CompressionCodec::kUncompressed}) {
    ScratchDir dir;
    std::vector<Case> cases = EveryDType();
    std::vector<SignalInput> inputs;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      inputs.push_back(
          MakeInput(static_cast<std::int64_t>(i) + 1, "sig", cases[i].spec, cases[i].values));
    }
    ValuesOptions options;
    options.compression = codec;
    ValuesResult result = WriteValues(dir.path(), std::move(inputs), options);
    EXPECT_EQ(result.shards.size(), cases.size());  // one spec_type each
    ChunkReader reader;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      SCOPED_TRACE(cases[i].spec->spec_type);
      ValueArray back =
          ReadSignal(reader, dir.path(), result, static_cast<std::int64_t>(i) + 1, *cases[i].spec);
      EXPECT_TRUE(back == cases[i].values);
    }
    EXPECT_EQ(reader.stats().files_opened, cases.size());
  }
}

TEST(ValuesRoundTripTest, SpecialFloatsSurviveEveryEncoding) {
  // The float dictionary is keyed by bit pattern: 0.0 and -0.0, and NaNs with different payloads,
  // are separate entries.
  const std::vector<float> f32 = {std::bit_cast<float>(std::uint32_t{0x7fc00001}),
                                  std::bit_cast<float>(std::uint32_t{0xffc00002}),
                                  std::bit_cast<float>(std::uint32_t{0x7f800001}),  // signalling
                                  0.0f,
                                  -0.0f,
                                  0.0f,
                                  -0.0f,
                                  std::numeric_limits<float>::infinity()};
  const std::vector<double> f64 = {std::bit_cast<double>(std::uint64_t{0x7ff8000000000001}),
                                   std::bit_cast<double>(std::uint64_t{0x7ff8000000000002}), -0.0,
                                   0.0, -std::numeric_limits<double>::infinity()};
  for (auto choice :
       {manifest::ValueEncodingChoice::kDictionary, manifest::ValueEncodingChoice::kByteStreamSplit,
        manifest::ValueEncodingChoice::kPlain}) {
    ScratchDir dir;
    auto s32 = MakeSpec("f32", DType::kFloat32, true);
    auto s64 = MakeSpec("f64", DType::kFloat64);
    ValueArray v32 = ValueArray::Of<float>(f32, {1, 1, 1, 1, 1, 1, 1, 1});
    std::vector<float> with_null = f32;
    with_null[5] = 0.0f;
    ValueArray n32 = ValueArray::Of<float>(with_null, {1, 1, 1, 1, 1, 0, 1, 1});
    ValueArray v64 = ValueArray::Of<double>(f64);
    ValuesOptions options;
    options.value_encoding = choice;
    ValuesResult result = WriteValues(
        dir.path(),
        {MakeInput(1, "a", s32, n32), MakeInput(2, "b", s64, v64), MakeInput(3, "c", s32, v32)},
        options);
    ChunkReader reader;
    EXPECT_TRUE(ReadSignal(reader, dir.path(), result, 1, *s32) == n32);
    EXPECT_TRUE(ReadSignal(reader, dir.path(), result, 2, *s64) == v64);
    EXPECT_TRUE(ReadSignal(reader, dir.path(), result, 3, *s32) == ValueArray::Of<float>(f32));
  }
}

TEST(ValuesRoundTripTest, NullableSpecWithoutNullsReadsBackWithoutValidity) {
  ScratchDir dir;
  auto spec = MakeSpec("x", DType::kInt32, true);
  ValuesResult result = WriteValues(
      dir.path(), {MakeInput(1, "a", spec, ValueArray::Of<std::int32_t>({1, 2, 3}, {1, 1, 1}))},
      {});
  ChunkReader reader;
  EXPECT_TRUE(ReadSignal(reader, dir.path(), result, 1, *spec) ==
              ValueArray::Of<std::int32_t>({1, 2, 3}));
}

TEST(ValuesRoundTripTest, TinyChunksAreStitchedInOrder) {
  ScratchDir dir;
  auto floats = MakeSpec("f", DType::kFloat64);
  auto texts = MakeSpec("t", DType::kStr, true);
  std::vector<double> ramp(1000);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<double>(i) * 0.25 - 7;
  std::vector<std::string> words;
  std::vector<std::uint8_t> validity;
  for (int i = 0; i < 257; ++i) {
    std::string word;
    if (i % 5 != 0) {  // built in steps: GCC 12 warns (-Wrestrict) on "w" + to_string(i) + "é"
      word = "w";
      word += std::to_string(i);
      word += "é";
    }
    words.push_back(std::move(word));
    validity.push_back(i % 7 == 0 ? 0 : 1);
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (validity[i] == 0) words[i].clear();
  }
  ValueArray float_values = ValueArray::Of<double>(ramp);
  ValueArray text_values = ValueArray::Of<std::string>(words, validity);
  ValuesOptions options;
  options.chunk_max_bytes = 64;  // 8 float64 per chunk
  ValuesResult result = WriteValues(
      dir.path(),
      {MakeInput(10, "f", floats, float_values), MakeInput(11, "t", texts, text_values)}, options);
  ASSERT_EQ(result.chunks.at(10).size(), 125u);
  // str: step_bytes = ⌊(UTF-8 bytes + 4n) / n⌋ over the signal; v = ⌊64 / step_bytes⌋.
  const std::int64_t step = StepBytes(*texts, text_values);
  const std::int64_t per_chunk = 64 / step;
  EXPECT_EQ(static_cast<std::int64_t>(result.chunks.at(11).size()),
            (257 + per_chunk - 1) / per_chunk);
  for (const ChunkLocator& placement : result.chunks.at(10)) EXPECT_EQ(placement.n_values, 8);
  ChunkReader reader;
  EXPECT_TRUE(ReadSignal(reader, dir.path(), result, 10, *floats) == float_values);
  EXPECT_TRUE(ReadSignal(reader, dir.path(), result, 11, *texts) == text_values);
}

TEST(ValuesRoundTripTest, EmptySignalHasNoChunks) {
  ScratchDir dir;
  auto spec = MakeSpec("x", DType::kFloat32);
  std::vector<ShardInfo> events;
  ValuesResult result =
      WriteValues(dir.path(), {MakeInput(1, "a", spec, ValueArray::Of<float>({}))}, {},
                  [&](const ShardEvent& e) { events.push_back(e.shard); });
  EXPECT_TRUE(result.chunks.at(1).empty());
  EXPECT_TRUE(result.shards.empty());
  EXPECT_TRUE(events.empty());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "time_series"));
  EXPECT_TRUE(ConcatValues(DType::kFloat32, {}) == ValueArray::Of<float>({}));
}

TEST(StepBytesTest, FollowsTheTable) {
  const ValueArray none;
  EXPECT_EQ(StepBytes(*MakeSpec("a", DType::kBool), none), 1);
  EXPECT_EQ(StepBytes(*MakeSpec("a", DType::kUint8), none), 1);
  EXPECT_EQ(StepBytes(*MakeSpec("a", DType::kInt16), none), 2);
  EXPECT_EQ(StepBytes(*MakeSpec("a", DType::kUint32), none), 4);
  EXPECT_EQ(StepBytes(*MakeSpec("a", DType::kEnum, false, {"x"}), none), 4);
  EXPECT_EQ(StepBytes(*MakeSpec("a", DType::kFloat64), none), 8);
  auto str = MakeSpec("s", DType::kStr);
  // (0 + 4·3) / 3 = 4; (10 + 4·2) / 2 = 9; empty → 1.
  EXPECT_EQ(StepBytes(*str, ValueArray::Of<std::string>({"", "", ""})), 4);
  EXPECT_EQ(StepBytes(*str, ValueArray::Of<std::string>({"12345", "abcde"})), 9);
  EXPECT_EQ(StepBytes(*str, ValueArray::Of<std::string>({})), 1);
}

TEST(ConcatValuesTest, MaterializesValidityOnlyWithNulls) {
  std::vector<ValueArray> parts = {ValueArray::Of<std::int16_t>({1, 2}),
                                   ValueArray::Of<std::int16_t>({3}, {0}),
                                   ValueArray::Of<std::int16_t>({4}, {1})};
  EXPECT_TRUE(ConcatValues(DType::kInt16, parts) ==
              ValueArray::Of<std::int16_t>({1, 2, 3, 4}, {1, 1, 0, 1}));
  std::vector<ValueArray> no_nulls = {ValueArray::Of<std::int16_t>({1}, {1}),
                                      ValueArray::Of<std::int16_t>({2})};
  EXPECT_TRUE(ConcatValues(DType::kInt16, no_nulls) == ValueArray::Of<std::int16_t>({1, 2}));
  std::vector<ValueArray> mixed = {ValueArray::Of<float>({1.0f})};
  EXPECT_THROW(ConcatValues(DType::kInt16, mixed), ValidationError);
}

}  // namespace
}  // namespace timef::values
