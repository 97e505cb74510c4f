// Decode throughput of each Parquet value/level encoding (Google Benchmark). Each benchmark decodes
// one page-sized buffer of 64 Ki values per iteration into a reused output buffer; bytes/s counts
// the decoded (in-memory) bytes.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "parquet/encoding_byte_stream_split.h"
#include "parquet/encoding_delta.h"
#include "parquet/encoding_dictionary.h"
#include "parquet/encoding_plain.h"
#include "parquet/encoding_rle.h"

namespace timef::parquet {
namespace {

constexpr size_t kValues = 1 << 16;

std::vector<uint32_t> RandomIndices(int bit_width, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> out(kValues);
  const uint32_t mask = bit_width == 32 ? ~0u : (1u << bit_width) - 1;
  for (auto& v : out) v = static_cast<uint32_t>(rng()) & mask;
  return out;
}

void BM_RleBitPackedDecode(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  RleBitPackedEncoder encoder(width);
  encoder.Put(RandomIndices(width, 1));
  std::vector<std::byte> data;
  encoder.Finish(data);
  std::vector<uint32_t> out(kValues);
  for (auto _ : state) {
    RleBitPackedDecoder decoder(data, width);
    decoder.Decode(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * sizeof(uint32_t));
}
BENCHMARK(BM_RleBitPackedDecode)->Arg(1)->Arg(3)->Arg(8)->Arg(12)->Arg(20)->Arg(32);

void BM_LevelsDecodeMostlyDefined(benchmark::State& state) {
  std::mt19937_64 rng(2);
  RleBitPackedEncoder encoder(1);
  for (size_t i = 0; i < kValues; ++i) encoder.Put(rng() % 100 == 0 ? 0u : 1u);
  std::vector<std::byte> data;
  encoder.Finish(data);
  std::vector<int16_t> out(kValues);
  for (auto _ : state) {
    RleBitPackedDecoder decoder(data, 1);
    decoder.Decode(std::span<int16_t>(out), 1);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * sizeof(int16_t));
}
BENCHMARK(BM_LevelsDecodeMostlyDefined);

template <typename T>
std::vector<T> RandomNumbers(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> out(kValues);
  for (auto& v : out) {
    if constexpr (std::is_floating_point_v<T>) {
      v = static_cast<T>(std::normal_distribution<double>(0, 1000)(rng));
    } else {
      v = static_cast<T>(rng());
    }
  }
  return out;
}

template <typename T>
void BM_PlainDecode(benchmark::State& state) {
  const auto values = RandomNumbers<T>(3);
  std::vector<std::byte> data;
  AppendPlain(std::span<const T>(values), data);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    PlainDecoder<T> decoder(data);
    decoder.Decode(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * sizeof(T));
}
BENCHMARK(BM_PlainDecode<int32_t>);
BENCHMARK(BM_PlainDecode<double>);

void BM_PlainBooleanDecode(benchmark::State& state) {
  std::mt19937_64 rng(4);
  std::vector<uint8_t> values(kValues);
  for (auto& v : values) v = rng() % 2;
  std::vector<std::byte> data;
  AppendPlainBooleans(values, data);
  std::vector<uint8_t> out(kValues);
  for (auto _ : state) {
    PlainBooleanDecoder decoder(data);
    decoder.Decode(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_PlainBooleanDecode);

template <typename T>
void BM_DictionaryDecode(benchmark::State& state) {
  const size_t distinct = static_cast<size_t>(state.range(0));
  const auto pool = RandomNumbers<T>(5);
  std::mt19937_64 rng(6);
  std::vector<T> values(kValues);
  for (auto& v : values) v = pool[rng() % distinct];
  DictionaryBuilder<T> builder;
  std::vector<uint32_t> indices;
  builder.Put(std::span<const T>(values), indices);
  std::vector<std::byte> data;
  AppendDictionaryIndices(indices, static_cast<uint32_t>(builder.size()), data);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    DictionaryDecoder<T> decoder(builder.entries(), data);
    decoder.Decode(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * sizeof(T));
}
BENCHMARK(BM_DictionaryDecode<float>)->Arg(16)->Arg(1000)->Arg(60000);
BENCHMARK(BM_DictionaryDecode<int64_t>)->Arg(1000);

template <typename T>
void BM_DeltaBinaryPackedDecode(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<T> values(kValues);
  T acc = 1'700'000'000;
  // range(0) = 0: timestamps with jitter (narrow deltas); 1: uniformly random (full width).
  for (auto& v : values) {
    acc = static_cast<T>(acc + 1000 + static_cast<T>(rng() % 16));
    v = state.range(0) == 0 ? acc : static_cast<T>(rng());
  }
  std::vector<std::byte> data;
  AppendDeltaBinaryPacked(std::span<const T>(values), data);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    DeltaBinaryPackedDecoder<T> decoder(data);
    decoder.Decode(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * sizeof(T));
}
BENCHMARK(BM_DeltaBinaryPackedDecode<int32_t>)->Arg(0)->Arg(1);
BENCHMARK(BM_DeltaBinaryPackedDecode<int64_t>)->Arg(0)->Arg(1);

template <typename T>
void BM_ByteStreamSplitDecode(benchmark::State& state) {
  const auto values = RandomNumbers<T>(8);
  std::vector<std::byte> data;
  AppendByteStreamSplit(std::span<const T>(values), data);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    ByteStreamSplitDecoder<T> decoder(data);
    decoder.Decode(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * sizeof(T));
}
BENCHMARK(BM_ByteStreamSplitDecode<float>);
BENCHMARK(BM_ByteStreamSplitDecode<double>);

ByteArrays Strings(uint64_t seed) {
  std::mt19937_64 rng(seed);
  ByteArrays out;
  for (size_t i = 0; i < kValues; ++i) {
    out.Append("sensor/" + std::to_string(rng() % 5000) + "/channel-" + std::to_string(i % 64));
  }
  return out;
}

template <typename Decoder>
void StringDecodeLoop(benchmark::State& state, const std::vector<std::byte>& data,
                      const ByteArrays& values) {
  ByteArrays out;
  for (auto _ : state) {
    out.Clear();
    Decoder decoder(data);
    decoder.Decode(kValues, out);
    benchmark::DoNotOptimize(out.bytes.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * values.bytes.size());
}

void BM_PlainByteArrayDecode(benchmark::State& state) {
  const ByteArrays values = Strings(9);
  std::vector<std::byte> data;
  AppendPlainByteArrays(values.view(), data);
  StringDecodeLoop<PlainByteArrayDecoder>(state, data, values);
}
BENCHMARK(BM_PlainByteArrayDecode);

void BM_DeltaLengthByteArrayDecode(benchmark::State& state) {
  const ByteArrays values = Strings(10);
  std::vector<std::byte> data;
  AppendDeltaLengthByteArray(values.view(), data);
  StringDecodeLoop<DeltaLengthByteArrayDecoder>(state, data, values);
}
BENCHMARK(BM_DeltaLengthByteArrayDecode);

void BM_DeltaByteArrayDecode(benchmark::State& state) {
  const ByteArrays values = Strings(11);
  std::vector<std::byte> data;
  AppendDeltaByteArray(values.view(), data);
  StringDecodeLoop<DeltaByteArrayDecoder>(state, data, values);
}
BENCHMARK(BM_DeltaByteArrayDecode);

void BM_ByteArrayDictionaryDecode(benchmark::State& state) {
  const ByteArrays values = Strings(12);
  ByteArrayDictionaryBuilder builder;
  std::vector<uint32_t> indices;
  builder.Put(values.view(), indices);
  std::vector<std::byte> data;
  AppendDictionaryIndices(indices, static_cast<uint32_t>(builder.size()), data);
  ByteArrays out;
  for (auto _ : state) {
    out.Clear();
    ByteArrayDictionaryDecoder decoder(builder.entries(), data);
    decoder.Decode(kValues, out);
    benchmark::DoNotOptimize(out.bytes.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * values.bytes.size());
}
BENCHMARK(BM_ByteArrayDictionaryDecode);

}  // namespace
}  // namespace timef::parquet

BENCHMARK_MAIN();
