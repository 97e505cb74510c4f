// WriteValues' contract with its inputs: each loader exactly once, loader failures propagate,
// bad inputs and options are ValidationErrors, I/O failures FileErrors.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "core/paths.h"
#include "values_test_support.h"

namespace timef::values {
namespace {

using model::DType;
using model::ValueArray;
using testing::MakeInput;
using testing::MakeSpec;
using testing::ScratchDir;

TEST(ValuesWriterInputsTest, EachLoaderIsCalledExactlyOnce) {
  ScratchDir dir;
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto empty_calls = std::make_shared<std::atomic<int>>(0);
  auto spec = MakeSpec("f", DType::kFloat32);
  std::vector<float> values(6000, 1.0f);
  ValuesOptions options;
  options.chunk_max_bytes = 400;  // many chunks, row groups and a measurement window
  options.row_group_target_bytes = 2000;
  options.shard_target_bytes = 3000;
  std::vector<SignalInput> inputs;
  for (int i = 0; i < 5; ++i) {
    inputs.push_back(
        MakeInput(i + 1, "s" + std::to_string(i), spec, ValueArray::Of<float>(values), calls));
  }
  inputs.push_back(MakeInput(99, "empty", spec, ValueArray::Of<float>({}), empty_calls));
  ValuesResult result = WriteValues(dir.path(), inputs, options);
  EXPECT_EQ(calls->load(), 5);
  EXPECT_EQ(empty_calls->load(), 1);
  EXPECT_GT(result.shards.size(), 1u);
}

TEST(ValuesWriterInputsTest, ALoadedArrayIsDroppedOnceItIsChunked) {
  ScratchDir dir;
  auto spec = MakeSpec("f", DType::kFloat64);
  // Each loader makes a fresh array and remembers it weakly; when the next loader runs, the
  // writer must hold no reference to the previous array (only its chunk copies).
  std::vector<std::weak_ptr<const ValueArray>> made;
  int still_alive = 0;
  std::vector<SignalInput> inputs;
  for (int i = 0; i < 4; ++i) {
    SignalInput input;
    input.signal_id = i + 1;
    input.name = "s" + std::to_string(i);
    input.spec = spec;
    input.n_values = 1000;
    input.load = [&made, &still_alive]() {
      for (const auto& earlier : made) still_alive += earlier.expired() ? 0 : 1;
      auto array = std::make_shared<const ValueArray>(
          ValueArray::Of<double>(std::vector<double>(1000, static_cast<double>(made.size()))));
      made.push_back(array);
      return array;
    };
    inputs.push_back(std::move(input));
  }
  ValuesOptions options;
  options.chunk_max_bytes = 800;
  WriteValues(dir.path(), std::move(inputs), options);
  ASSERT_EQ(made.size(), 4u);
  EXPECT_EQ(still_alive, 0);
  for (const auto& array : made) EXPECT_TRUE(array.expired());
}

TEST(ValuesWriterInputsTest, LoaderFailurePropagates) {
  ScratchDir dir;
  auto spec = MakeSpec("f", DType::kFloat32);
  std::vector<SignalInput> inputs = {MakeInput(1, "a", spec, ValueArray::Of<float>({1, 2}))};
  SignalInput failing;
  failing.signal_id = 2;
  failing.name = "b";
  failing.spec = spec;
  failing.n_values = 2;
  failing.load = []() -> std::shared_ptr<const ValueArray> {
    throw std::runtime_error("source unreadable");
  };
  inputs.push_back(failing);
  try {
    WriteValues(dir.path(), inputs, {});
    FAIL() << "expected the loader's exception";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "source unreadable");
  }
}

// With several threads a row group is still being compressed when the next loader fails: the
// loader's exception comes out and the writer in flight is torn down safely (ASan build).
TEST(ValuesWriterInputsTest, LoaderFailureWithARowGroupInFlightPropagates) {
  ScratchDir dir;
  auto spec = MakeSpec("f", DType::kFloat32);
  std::vector<SignalInput> inputs;
  for (int s = 0; s < 4; ++s) {
    std::vector<float> values(3000);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 977 + s);
    inputs.push_back(
        MakeInput(s + 1, "s" + std::to_string(s), spec, ValueArray::Of<float>(values)));
  }
  SignalInput failing;
  failing.signal_id = 5;
  failing.name = "s9";  // sorts last
  failing.spec = spec;
  failing.n_values = 3000;
  failing.load = []() -> std::shared_ptr<const ValueArray> {
    throw std::runtime_error("source unreadable");
  };
  inputs.push_back(failing);
  ValuesOptions options;
  options.chunk_max_bytes = 4000;
  options.row_group_target_bytes = 8000;
  options.compression_threads = 2;
  // Decided up front, so that row groups are flushed as they fill (no measurement window).
  options.value_encoding = manifest::ValueEncodingChoice::kDictionary;
  try {
    WriteValues(dir.path(), inputs, options);
    FAIL() << "expected the loader's exception";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "source unreadable");
  }
  // Row groups were flushed before the failure: a shard had been opened.
  EXPECT_TRUE(std::filesystem::exists(dir.path() / PartPath(kValuesShardTemplate, 0)));
}

TEST(ValuesWriterInputsTest, BadInputsAreValidationErrors) {
  ScratchDir dir;
  auto f32 = MakeSpec("f", DType::kFloat32);
  auto check = [&](std::vector<SignalInput> inputs, const std::string& needle) {
    try {
      WriteValues(dir.path(), std::move(inputs), {});
      ADD_FAILURE() << "expected ValidationError mentioning " << needle;
    } catch (const ValidationError& error) {
      EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
    }
  };
  model::Spec shaped = *f32;
  shaped.spec_type = "image";
  shaped.value_shape = {2, 2};
  check({MakeInput(1, "a", std::make_shared<const model::Spec>(shaped), ValueArray::Of<float>({}))},
        "value_shape");
  check({MakeInput(1, "a", f32, ValueArray::Of<float>({1})),
         MakeInput(1, "b", f32, ValueArray::Of<float>({1}))},
        "signal_id");
  SignalInput wrong_count = MakeInput(1, "a", f32, ValueArray::Of<float>({1, 2}));
  wrong_count.n_values = 3;
  check({wrong_count}, "n_values");
  SignalInput wrong_dtype = MakeInput(1, "a", f32, ValueArray::Of<double>({1}));
  check({wrong_dtype}, "dtype");
  check({MakeInput(1, "a", f32, ValueArray::Of<float>({1, 0}, {1, 0}))}, "not nullable");
  auto e = MakeSpec("e", DType::kEnum, false, {"x", "y"});
  check({MakeInput(1, "a", e, ValueArray::EnumCodes({0, 2}))}, "enum code 2");
  check({MakeInput(1, "a", e, ValueArray::EnumLabels({"x"}))}, "codes");
  auto other_f = MakeSpec("f", DType::kFloat64);
  check({MakeInput(1, "a", f32, ValueArray::Of<float>({1})),
         MakeInput(2, "b", other_f, ValueArray::Of<double>({1}))},
        "spec_type 'f'");
}

TEST(ValuesWriterInputsTest, OptionsAreValidated) {
  ScratchDir dir;
  auto input = MakeInput(1, "a", MakeSpec("f", DType::kFloat32), ValueArray::Of<float>({1}));
  auto rejects = [&](const ValuesOptions& options, const std::string& field) {
    try {
      ValidateValuesOptions(options);
      ADD_FAILURE() << "expected ValidationError for " << field;
    } catch (const ValidationError& error) {
      EXPECT_EQ(error.where(), field);
    }
    EXPECT_THROW(WriteValues(dir.path(), {input}, options), ValidationError);
  };
  ValuesOptions options;
  options.chunk_max_bytes = 0;
  rejects(options, "chunk_max_bytes");
  options = {};
  options.row_group_target_bytes = -1;
  rejects(options, "row_group_target_bytes");
  options = {};
  options.shard_target_bytes = 0;
  rejects(options, "shard_target_bytes");
  options = {};
  options.data_page_target_bytes = 0;
  rejects(options, "data_page_target_bytes");
  options = {};
  options.compression = parquet::CompressionCodec::kSnappy;
  rejects(options, "compression");
  options = {};
  options.compression_level = 23;
  rejects(options, "compression_level");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "time_series"));
  ValidateValuesOptions(ValuesOptions{});
}

TEST(ValuesWriterInputsTest, UnwritableDestinationIsAFileErrorNamingThePath) {
  ScratchDir dir;
  // `time_series` is a file, so the shard cannot be created under it.
  { std::ofstream blocker(dir.path() / "time_series"); }
  try {
    WriteValues(dir.path(),
                {MakeInput(1, "a", MakeSpec("f", DType::kFloat32), ValueArray::Of<float>({1}))},
                {});
    FAIL() << "expected FileError";
  } catch (const FileError& error) {
    ASSERT_TRUE(error.path().has_value());
    EXPECT_NE(error.path()->string().find("time_series"), std::string::npos);
  }
}

}  // namespace
}  // namespace timef::values
