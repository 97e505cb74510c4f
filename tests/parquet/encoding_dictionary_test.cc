#include "parquet/encoding_dictionary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "parquet/encoding_plain.h"
#include "parquet/encoding_test_util.h"

namespace timef::parquet {
namespace {

using testing::Bytes;
using testing::FuzzMutations;
using testing::kDistributions;
using testing::kSizes;
using testing::MakeFloats;
using testing::MakeIntegers;
using testing::SameArrays;
using testing::SameBits;

// Writer path (builder -> dictionary page + index data) and reader path (page -> decoder).
template <typename T>
void CheckDictionaryRoundTrip(const std::vector<T>& values) {
  DictionaryBuilder<T> builder;
  std::vector<uint32_t> indices;
  builder.Put(std::span<const T>(values), indices);
  ASSERT_EQ(indices.size(), values.size());
  std::vector<std::byte> page;
  builder.AppendDictionaryPage(page);
  ASSERT_EQ(page.size(), builder.dictionary_bytes());
  std::vector<std::byte> data;
  AppendDictionaryIndices(indices, static_cast<uint32_t>(builder.size()), data);

  std::vector<T> dictionary;
  DecodeDictionaryPage(page, builder.size(), dictionary);
  DictionaryDecoder<T> decoder(dictionary, data);
  std::vector<T> out(values.size());
  decoder.Decode(out);
  EXPECT_TRUE(SameBits(values, out));
  EXPECT_EQ(decoder.bytes_consumed(), data.size());
}

TEST(EncodingDictionary, NumbersRoundTrip) {
  for (size_t n : kSizes) {
    for (auto d : kDistributions) {
      CheckDictionaryRoundTrip(MakeIntegers<int32_t>(n, d, n + 1));
      CheckDictionaryRoundTrip(MakeIntegers<int64_t>(n, d, n + 2));
    }
    CheckDictionaryRoundTrip(MakeFloats<float>(n, n + 3));
    CheckDictionaryRoundTrip(MakeFloats<double>(n, n + 4));
  }
}

// Each gather path this CPU can run (the wide ones only where it has AVX2 / AVX-512; the scalar
// path and the default choice always) gives what the scalar loop gives, for lengths around the
// vector widths and with indices up to the last dictionary entry.
TEST(EncodingDictionary, EveryGatherPathTheCpuRunsMatchesTheScalarLoop) {
  using encoding_internal::GatherPath;
  std::mt19937_64 rng(7);
  std::vector<uint32_t> dict32(4099);
  std::vector<uint64_t> dict64(dict32.size());
  for (auto& v : dict32) v = static_cast<uint32_t>(rng());
  for (auto& v : dict64) v = rng();
  int paths_run = 0;
  for (GatherPath path :
       {GatherPath::kBest, GatherPath::kScalar, GatherPath::kAvx2, GatherPath::kAvx512}) {
    if (!encoding_internal::GatherPathAvailable(path)) continue;
    ++paths_run;
    for (size_t n : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 1000u, 1024u}) {
      std::vector<uint32_t> index(n);
      for (auto& i : index) i = static_cast<uint32_t>(rng() % dict32.size());
      if (n > 0) index.back() = static_cast<uint32_t>(dict32.size() - 1);
      std::vector<uint32_t> got32(n + 1, 0xDEADBEEF), want32(n + 1, 0xDEADBEEF);
      std::vector<uint64_t> got64(n + 1, 42), want64(n + 1, 42);
      encoding_internal::Gather32(dict32.data(), index.data(), got32.data(), n, path);
      encoding_internal::Gather64(dict64.data(), index.data(), got64.data(), n, path);
      for (size_t i = 0; i < n; ++i) {
        want32[i] = dict32[index[i]];
        want64[i] = dict64[index[i]];
      }
      EXPECT_EQ(got32, want32) << static_cast<int>(path) << " n=" << n;  // no write past n
      EXPECT_EQ(got64, want64) << static_cast<int>(path) << " n=" << n;
    }
  }
  EXPECT_GE(paths_run, 2);
}

// Each path of the indices' bounds check gives the unsigned largest value the scalar loop gives,
// for lengths around the vector widths, values above 2^31 (a signed compare would miss them) and
// the largest value at every position of the vector body and of the tail.
TEST(EncodingDictionary, EveryLargestPathTheCpuRunsMatchesTheScalarLoop) {
  using encoding_internal::GatherPath;
  std::mt19937_64 rng(11);
  int paths_run = 0;
  for (GatherPath path :
       {GatherPath::kBest, GatherPath::kScalar, GatherPath::kAvx2, GatherPath::kAvx512}) {
    if (!encoding_internal::GatherPathAvailable(path)) continue;
    ++paths_run;
    EXPECT_EQ(encoding_internal::Largest32(nullptr, 0, path), 0u);
    for (size_t n : {1u, 7u, 8u, 9u, 15u, 16u, 17u, 33u, 1000u}) {
      std::vector<uint32_t> values(n);
      for (auto& v : values) v = static_cast<uint32_t>(rng() % 4096);
      for (size_t at = 0; at < n; ++at) {
        for (uint32_t big : {uint32_t{4096}, uint32_t{0x80000000u}, ~uint32_t{0}}) {
          std::vector<uint32_t> with = values;
          with[at] = big;
          EXPECT_EQ(encoding_internal::Largest32(with.data(), n, path), big)
              << static_cast<int>(path) << " n=" << n << " at=" << at;
        }
      }
      EXPECT_EQ(encoding_internal::Largest32(values.data(), n, path),
                *std::max_element(values.begin(), values.end()));
    }
  }
  EXPECT_GE(paths_run, 2);
}

// An index past the dictionary anywhere in a long bit-packed run (the vector body of the bounds
// check or its tail) is a DecodeError; the run without it decodes.
TEST(EncodingDictionary, AnIndexPastTheDictionaryInALongRunIsCorrupt) {
  const std::vector<int32_t> five = {10, 20, 30, 40, 50};
  std::vector<uint32_t> indices(203);
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint32_t>(i % 5);
  for (size_t at : {size_t{0}, size_t{17}, size_t{100}, size_t{199}, size_t{202}}) {
    std::vector<uint32_t> bad = indices;
    bad[at] = 7;  // fits the 3-bit width, past the 5 entries
    std::vector<std::byte> data{std::byte{3}};
    AppendRleBitPacked(bad, 3, data);
    std::vector<int32_t> out(bad.size());
    DictionaryDecoder<int32_t> decoder(five, data);
    EXPECT_THROW(decoder.Decode(out), DecodeError) << at;
  }
  std::vector<std::byte> data;
  AppendDictionaryIndices(indices, 5, data);
  std::vector<int32_t> out(indices.size());
  DictionaryDecoder<int32_t>(five, data).Decode(out);
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], five[indices[i]]) << i;
}

TEST(EncodingDictionary, FloatsAreKeyedByBitPattern) {
  const double nan_a = std::bit_cast<double>(uint64_t{0x7FF8000000000001});
  const double nan_b = std::bit_cast<double>(uint64_t{0x7FF8000000000002});
  const double nan_neg = std::bit_cast<double>(uint64_t{0xFFF8000000000001});
  const std::vector<double> values = {0.0,   -0.0, nan_a, nan_b, nan_neg,  0.0,
                                      nan_a, -0.0, 1.5,   nan_b, INFINITY, -INFINITY};
  DictionaryBuilder<double> builder;
  std::vector<uint32_t> indices;
  builder.Put(std::span<const double>(values), indices);
  EXPECT_EQ(builder.size(), 8u);
  EXPECT_EQ(indices, (std::vector<uint32_t>{0, 1, 2, 3, 4, 0, 2, 1, 5, 3, 6, 7}));
  EXPECT_EQ(builder.dictionary_bytes(), 64u);
  CheckDictionaryRoundTrip(values);

  DictionaryBuilder<float> floats;
  EXPECT_EQ(floats.Put(0.0f), 0u);
  EXPECT_EQ(floats.Put(-0.0f), 1u);
  EXPECT_EQ(floats.Put(std::bit_cast<float>(0x7FC00000u)), 2u);
  EXPECT_EQ(floats.Put(std::bit_cast<float>(0x7FC00001u)), 3u);
  EXPECT_EQ(floats.Put(std::bit_cast<float>(0x7FC00000u)), 2u);
}

TEST(EncodingDictionary, InsertionOrderAndPreseeding) {
  // A writer can seed the dictionary (e.g. categories in a fixed order) before the data.
  ByteArrayDictionaryBuilder builder;
  for (std::string_view s : {"low", "mid", "high"}) {
    builder.Put(std::span<const std::byte>(reinterpret_cast<const std::byte*>(s.data()), s.size()));
  }
  ByteArrays data;
  for (std::string_view s : {"high", "high", "low", "new", "", "mid", ""}) data.Append(s);
  std::vector<uint32_t> indices;
  builder.Put(data.view(), indices);
  EXPECT_EQ(indices, (std::vector<uint32_t>{2, 2, 0, 3, 4, 1, 4}));
  EXPECT_EQ(builder.size(), 5u);
  EXPECT_EQ(builder.dictionary_bytes(), 4u * 5 + 3 + 3 + 4 + 3 + 0);
  std::vector<std::byte> page;
  builder.AppendDictionaryPage(page);
  EXPECT_EQ(page.size(), builder.dictionary_bytes());
  ByteArrays dictionary;
  DecodeDictionaryPage(page, 5, dictionary);
  EXPECT_EQ(dictionary.str(0), "low");
  EXPECT_EQ(dictionary.str(3), "new");
  EXPECT_EQ(dictionary.str(4), "");
  builder.Clear();
  EXPECT_EQ(builder.size(), 0u);
  EXPECT_EQ(builder.dictionary_bytes(), 0u);
}

TEST(EncodingDictionary, ByteArraysRoundTripInPieces) {
  for (size_t n : kSizes) {
    if (n == 100000) continue;
    const ByteArrays values = testing::MakeStrings(n, n + 17);
    ByteArrayDictionaryBuilder builder;
    std::vector<uint32_t> indices;
    builder.Put(values.view(), indices);
    std::vector<std::byte> page, data;
    builder.AppendDictionaryPage(page);
    AppendDictionaryIndices(indices, static_cast<uint32_t>(builder.size()), data);
    ByteArrays dictionary;
    DecodeDictionaryPage(page, builder.size(), dictionary);
    ByteArrayDictionaryDecoder decoder(dictionary.view(), data);
    ByteArrays out;
    const size_t first = n / 2;
    decoder.Decode(first, out);
    decoder.Skip(0);
    decoder.Decode(n - first, out);
    EXPECT_TRUE(SameArrays(values, out));
  }
}

TEST(EncodingDictionary, ManyDistinctValuesGrowTheTable) {
  const auto values = MakeIntegers<int64_t>(100000, testing::Distribution::kFullRange, 99);
  DictionaryBuilder<int64_t> builder;
  std::vector<uint32_t> indices;
  builder.Put(std::span<const int64_t>(values), indices);
  EXPECT_EQ(builder.size(), 100000u);
  EXPECT_EQ(builder.dictionary_bytes(), 800000u);
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(indices[i], i);
  CheckDictionaryRoundTrip(values);
}

TEST(EncodingDictionary, FixedLenRoundTrip) {
  std::mt19937_64 rng(5);
  const size_t width = 16;
  std::vector<std::byte> values(width * 500);
  for (size_t i = 0; i < 500; ++i) {
    const uint64_t key = rng() % 37;
    for (size_t k = 0; k < width; ++k) values[i * width + k] = static_cast<std::byte>(key * 13 + k);
  }
  FixedLenDictionaryBuilder builder(width);
  std::vector<uint32_t> indices;
  builder.Put(values, indices);
  EXPECT_LE(builder.size(), 37u);
  std::vector<std::byte> page, data;
  builder.AppendDictionaryPage(page);
  AppendDictionaryIndices(indices, static_cast<uint32_t>(builder.size()), data);
  std::vector<std::byte> dictionary;
  DecodeDictionaryPage(page, builder.size(), width, dictionary);
  FixedLenDictionaryDecoder decoder(dictionary, width, data);
  std::vector<std::byte> out(values.size());
  decoder.Decode(out);
  EXPECT_EQ(out, values);
}

TEST(EncodingDictionary, RejectsMalformedInput) {
  std::vector<int32_t> dict;
  // More values than the page holds: rejected before allocating.
  EXPECT_THROW(DecodeDictionaryPage(Bytes({1, 0, 0, 0}), 2, dict), DecodeError);
  EXPECT_THROW(DecodeDictionaryPage(Bytes({1, 0, 0, 0}), size_t{1} << 60, dict), DecodeError);
  ByteArrays strings;
  EXPECT_THROW(DecodeDictionaryPage(Bytes({1, 0, 0, 0, 'a'}), 1u << 30, strings), DecodeError);
  EXPECT_THROW(DecodeDictionaryPage(Bytes({9, 0, 0, 0, 'a'}), 1, strings), DecodeError);
  std::vector<std::byte> fixed;
  EXPECT_THROW(DecodeDictionaryPage(Bytes({1, 2, 3}), 1, 4, fixed), DecodeError);
  EXPECT_THROW(DecodeDictionaryPage(Bytes({1, 2, 3}), 1, 0, fixed), DecodeError);

  // Index past the dictionary (RLE run of 7 at width 3 with 5 entries).
  const std::vector<int32_t> five = {10, 20, 30, 40, 50};
  const auto bad_rle = Bytes({3, 0x10, 0x07});
  DictionaryDecoder<int32_t> decoder(five, bad_rle);
  std::vector<int32_t> out(8);
  EXPECT_THROW(decoder.Decode(out), DecodeError);
  // Same in a bit-packed run: 0..7 at width 3.
  const auto bad_packed = Bytes({3, 0x03, 0x88, 0xC6, 0xFA});
  DictionaryDecoder<int32_t> packed_decoder(five, bad_packed);
  EXPECT_THROW(packed_decoder.Decode(out), DecodeError);
  // An empty dictionary has no valid index.
  const auto zeros = Bytes({0, 0x10});
  DictionaryDecoder<int32_t> empty(std::span<const int32_t>(), zeros);
  EXPECT_THROW(empty.Decode(out), DecodeError);
  // Bit width byte above 32.
  EXPECT_THROW(DictionaryDecoder<int32_t>(five, Bytes({40, 0x10, 0})), DecodeError);
  ByteArrays dictionary;
  dictionary.Append(std::string_view("x"));
  ByteArrayDictionaryDecoder strings_decoder(dictionary.view(), bad_rle);
  EXPECT_THROW(strings_decoder.Decode(8, strings), DecodeError);
}

TEST(EncodingDictionary, MutatedInputsThrowOrDecode) {
  const auto values = MakeIntegers<int32_t>(400, testing::Distribution::kSmallRange, 8);
  DictionaryBuilder<int32_t> builder;
  std::vector<uint32_t> indices;
  builder.Put(std::span<const int32_t>(values), indices);
  std::vector<std::byte> page, data;
  builder.AppendDictionaryPage(page);
  AppendDictionaryIndices(indices, static_cast<uint32_t>(builder.size()), data);
  std::vector<int32_t> dictionary;
  DecodeDictionaryPage(page, builder.size(), dictionary);
  FuzzMutations(data, 3000, 31, [&](std::span<const std::byte> mutated) {
    DictionaryDecoder<int32_t> decoder(dictionary, mutated);
    std::vector<int32_t> out(400);
    decoder.Decode(out);
  });
  FuzzMutations(page, 2000, 32, [&](std::span<const std::byte> mutated) {
    std::vector<int32_t> dict;
    DecodeDictionaryPage(mutated, builder.size(), dict);
  });
  const ByteArrays strings = testing::MakeStrings(50, 3);
  ByteArrayDictionaryBuilder string_builder;
  std::vector<uint32_t> string_indices;
  string_builder.Put(strings.view(), string_indices);
  std::vector<std::byte> string_page;
  string_builder.AppendDictionaryPage(string_page);
  FuzzMutations(string_page, 2000, 33, [&](std::span<const std::byte> mutated) {
    ByteArrays dict;
    DecodeDictionaryPage(mutated, string_builder.size(), dict);
  });
}

}  // namespace
}  // namespace timef::parquet
