// zarrita (npm, with numcodecs' blosc) as the independent oracle of the Zarr values plane
// (docs/format.md §8): it opens every array timef writes (sharded, crc32c index) and reads values
// equal to timef's, and timef reads the unsharded bytes + blosc arrays zarrita writes (every
// dtype, one N-D, several blosc codecs) with values equal to zarrita's.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/scratch_dir.h"
#include "timef/error.h"
#include "timef/json.h"
#include "values/values_test_support.h"
#include "values/values_writer.h"
#include "values/zarr_reader.h"
#include "values/zarr_store.h"

namespace timef::values {
namespace {

namespace fs = std::filesystem;
using model::DType;
using model::ValueArray;
using testing::MakeNdSpec;

// Runs the oracle script and parses what it prints.
Json RunOracle(const std::string& args) {
  const std::string command = std::string("'") + TIMEF_NODE + "' '" + TIMEF_ORACLE + "' " + args;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::string out;
  char buffer[65536];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe.get())) out.append(buffer, n);
  return Json::parse(out);
}

std::string Hex(const ValueArray& values) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  std::visit(
      [&](const auto& held) {
        using T = typename std::decay_t<decltype(held)>::value_type;
        if constexpr (!std::is_same_v<T, std::string>) {
          const auto* p = reinterpret_cast<const unsigned char*>(held.data());
          for (std::size_t i = 0; i < held.size() * sizeof(T); ++i) {
            out.push_back(kDigits[p[i] >> 4]);
            out.push_back(kDigits[p[i] & 15]);
          }
        }
      },
      values.data());
  return out;
}

SignalInput Input(std::int64_t id, std::shared_ptr<const model::Spec> spec, ValueArray values) {
  SignalInput input;
  input.signal_id = id;
  input.name = "s" + std::to_string(id);
  input.n_values = values.size() / spec->StepWidth();
  input.spec = std::move(spec);
  auto held = std::make_shared<const ValueArray>(std::move(values));
  input.load = [held] { return held; };
  return input;
}

ZarrResolve Under(const fs::path& dir) {
  return [dir](const std::string& relative) { return dir / relative; };
}

TEST(ZarrOracle, ZarritaReadsEveryArrayTimefWrites) {
  timef::testing::ScratchDir dir;
  std::vector<SignalInput> inputs;
  std::vector<float> f32{std::bit_cast<float>(0x7FC12345u), -0.0f,
                         std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(), 2.5f};
  for (int i = 0; i < 60; ++i) f32.push_back(static_cast<float>(i) / 3);
  inputs.push_back(Input(1, MakeNdSpec("ecg lead", DType::kFloat32), ValueArray::Of(f32)));
  inputs.push_back(Input(
      2, MakeNdSpec("f64", DType::kFloat64),
      ValueArray::Of<double>({std::bit_cast<double>(0xFFF8000000000ABCull), -0.0, 1e300, -7})));
  inputs.push_back(
      Input(3, MakeNdSpec("i8", DType::kInt8), ValueArray::Of<std::int8_t>({-128, 127})));
  inputs.push_back(
      Input(4, MakeNdSpec("i16", DType::kInt16), ValueArray::Of<std::int16_t>({-32768, 32767, 3})));
  inputs.push_back(Input(5, MakeNdSpec("i32", DType::kInt32),
                         ValueArray::Of<std::int32_t>({std::numeric_limits<int>::min(), 1})));
  inputs.push_back(
      Input(6, MakeNdSpec("u8", DType::kUint8), ValueArray::Of<std::uint8_t>({255, 0})));
  inputs.push_back(
      Input(7, MakeNdSpec("u16", DType::kUint16), ValueArray::Of<std::uint16_t>({65535, 1})));
  inputs.push_back(
      Input(8, MakeNdSpec("u32", DType::kUint32), ValueArray::Of<std::uint32_t>({4294967295u, 2})));
  inputs.push_back(
      Input(9, MakeNdSpec("flag", DType::kBool), ValueArray::Bools({true, false, true})));
  inputs.push_back(Input(10, MakeNdSpec("label", DType::kEnum, false, {}, {}, {"a", "b", "c"}),
                         ValueArray::EnumCodes({2, 0, 1})));
  inputs.push_back(Input(11, MakeNdSpec("hr", DType::kFloat64, true),
                         ValueArray::Of<double>({60, 0, 62, 63}, {1, 0, 1, 1})));
  std::vector<float> frames(7 * 2 * 3);
  for (std::size_t i = 0; i < frames.size(); ++i) frames[i] = static_cast<float>(i) - 20.5f;
  inputs.push_back(Input(12,
                         MakeNdSpec("spectro", DType::kFloat32, false, {2, 3}, {"channel", "freq"}),
                         ValueArray::Of(frames)));
  std::map<std::string, std::shared_ptr<const model::Spec>> specs;
  for (const SignalInput& in : inputs) specs[zarr::EncodeArrayName(in.spec->spec_type)] = in.spec;

  ValuesOptions options;
  options.backend = manifest::ValuesBackend::kZarr;
  options.chunk_max_bytes = 24;  // several inner chunks per shard and several shards
  options.shard_target_bytes = 80;
  WriteValues(dir.path(), inputs, options);
  const fs::path store = dir.path() / "time_series.zarr";

  std::string args = "read '" + store.string() + "'";
  for (const auto& [name, spec] : specs) {
    args += " '" + name + "'";
    if (spec->nullable) args += " '_validity/" + name + "'";
  }
  const Json seen = RunOracle(args);
  ZarrReader reader;
  for (const auto& [name, spec] : specs) {
    const Json& array = seen.at(name);
    const std::int64_t steps = array.at("shape")[0].get<std::int64_t>();
    model::Spec plain = *spec;
    plain.nullable = false;  // the values array alone; the validity array is compared below
    const ValueArray ours =
        reader.Read("time_series.zarr/" + name, 0, steps, plain, Under(dir.path()));
    EXPECT_EQ(array.at("hex"), Hex(ours)) << name;
    EXPECT_EQ(array.at("dtype"), *zarr::DataTypeName(spec->dtype)) << name;
    if (!spec->dimension_names.empty()) {
      EXPECT_EQ(array.at("dimension_names"), Json::parse(R"(["step", "channel", "freq"])"));
      EXPECT_EQ(array.at("shape"), Json::parse("[7, 2, 3]"));
    }
    if (spec->nullable) {
      const Json& validity = seen.at("_validity/" + name);
      EXPECT_EQ(validity.at("dtype"), "bool");
      EXPECT_EQ(validity.at("hex"), "01000101");
    }
  }
}

TEST(ZarrOracle, TimefReadsTheUnshardedArraysZarritaWrites) {
  timef::testing::ScratchDir dir;
  const Json written = RunOracle("write '" + (dir.path() / "time_series.zarr").string() + "'");
  ASSERT_EQ(written.size(), 10u);
  ZarrReader reader;
  for (const auto& [name, array] : written.items()) {
    const std::optional<DType> dtype = ParseDType(array.at("dtype").get<std::string>());
    ASSERT_TRUE(dtype.has_value()) << name;
    std::vector<std::int64_t> shape;
    for (std::size_t d = 1; d < array.at("shape").size(); ++d) {
      shape.push_back(array.at("shape")[d].get<std::int64_t>());
    }
    const auto spec = MakeNdSpec(name, *dtype, false, shape);
    const std::int64_t steps = array.at("shape")[0].get<std::int64_t>();
    const ValueArray ours =
        reader.Read("time_series.zarr/" + name, 0, steps, *spec, Under(dir.path()));
    EXPECT_EQ(Hex(ours), array.at("hex")) << name;
    // A window inside the array reads the same bytes as the oracle's slice.
    if (steps >= 3) {
      const ValueArray window =
          reader.Read("time_series.zarr/" + name, 1, 2, *spec, Under(dir.path()));
      const std::size_t step_hex = array.at("hex").get<std::string>().size() / steps;
      EXPECT_EQ(Hex(window), array.at("hex").get<std::string>().substr(step_hex, 2 * step_hex))
          << name;
    }
  }
}

}  // namespace
}  // namespace timef::values
