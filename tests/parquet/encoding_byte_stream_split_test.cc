#include "parquet/encoding_byte_stream_split.h"

#include <gtest/gtest.h>

#include <random>

#include "parquet/encoding_test_util.h"

namespace timef::parquet {
namespace {

using testing::Bytes;
using testing::FuzzMutations;
using testing::kSizes;
using testing::MakeFloats;
using testing::MakeIntegers;
using testing::SameBits;

template <typename T>
void CheckRoundTrip(const std::vector<T>& values) {
  std::vector<std::byte> encoded;
  AppendByteStreamSplit(std::span<const T>(values), encoded);
  ASSERT_EQ(encoded.size(), values.size() * sizeof(T));
  ByteStreamSplitDecoder<T> decoder(encoded);
  EXPECT_EQ(decoder.values_left(), values.size());
  std::vector<T> out(values.size());
  // Two pieces, so the second starts in the middle of every stream.
  const size_t first = values.size() / 3;
  decoder.Decode(std::span<T>(out).first(first));
  decoder.Decode(std::span<T>(out).subspan(first));
  EXPECT_TRUE(SameBits(values, out)) << values.size();
  EXPECT_EQ(decoder.bytes_consumed(), encoded.size());
  std::vector<T> extra(1);
  EXPECT_THROW(decoder.Decode(extra), DecodeError);
}

TEST(EncodingByteStreamSplit, RoundTripsFloatsBitExactly) {
  for (size_t n : kSizes) {
    CheckRoundTrip(MakeFloats<float>(n, n + 1));
    CheckRoundTrip(MakeFloats<double>(n, n + 2));
  }
}

TEST(EncodingByteStreamSplit, RoundTripsIntegers) {
  for (size_t n : kSizes) {
    CheckRoundTrip(MakeIntegers<int32_t>(n, testing::Distribution::kFullRange, n + 3));
    CheckRoundTrip(MakeIntegers<int64_t>(n, testing::Distribution::kExtremes, n + 4));
  }
}

TEST(EncodingByteStreamSplit, SpecExample) {
  // Encodings.md: AA BB CC DD | 00 11 22 33 | A3 B4 C5 D6 -> AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6.
  const auto raw = Bytes({0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6});
  std::vector<float> values(3);
  std::memcpy(values.data(), raw.data(), raw.size());
  std::vector<std::byte> encoded;
  AppendByteStreamSplit(std::span<const float>(values), encoded);
  const auto expected =
      Bytes({0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6});
  EXPECT_EQ(encoded, expected);
  std::vector<std::byte> fixed;
  AppendByteStreamSplitFixedLen(raw, 4, fixed);
  EXPECT_EQ(fixed, expected);
  ByteStreamSplitFixedLenDecoder decoder(expected, 4);
  std::vector<std::byte> out(12);
  decoder.Decode(out);
  EXPECT_EQ(out, raw);
}

TEST(EncodingByteStreamSplit, FixedLenOddWidthsAndSkip) {
  std::mt19937_64 rng(3);
  for (size_t width : {1, 2, 3, 7, 16}) {
    for (size_t n : {0, 1, 9, 1000}) {
      std::vector<std::byte> raw(width * n);
      for (auto& b : raw) b = static_cast<std::byte>(rng());
      std::vector<std::byte> encoded;
      AppendByteStreamSplitFixedLen(raw, width, encoded);
      ByteStreamSplitFixedLenDecoder decoder(encoded, width);
      const size_t skip = n / 2;
      decoder.Skip(skip);
      std::vector<std::byte> out((n - skip) * width);
      decoder.Decode(out);
      EXPECT_TRUE(std::equal(out.begin(), out.end(), raw.begin() + skip * width));
    }
  }
}

TEST(EncodingByteStreamSplit, RejectsMalformedInput) {
  EXPECT_THROW(ByteStreamSplitDecoder<float>(Bytes({1, 2, 3, 4, 5})), DecodeError);
  EXPECT_THROW(ByteStreamSplitDecoder<double>(Bytes({1, 2, 3, 4})), DecodeError);
  EXPECT_THROW(ByteStreamSplitFixedLenDecoder(Bytes({1, 2, 3}), 2), DecodeError);
  EXPECT_THROW(ByteStreamSplitFixedLenDecoder(Bytes({1, 2, 3}), 0), DecodeError);
  const auto data = Bytes({1, 2, 3, 4, 5, 6, 7, 8});
  ByteStreamSplitDecoder<float> decoder(data);
  EXPECT_THROW(decoder.Skip(3), DecodeError);
  std::vector<float> out(3);
  EXPECT_THROW(decoder.Decode(out), DecodeError);
  const auto values = MakeFloats<double>(50, 1);
  std::vector<std::byte> encoded;
  AppendByteStreamSplit(std::span<const double>(values), encoded);
  FuzzMutations(encoded, 2000, 51, [](std::span<const std::byte> mutated) {
    ByteStreamSplitDecoder<double> d(mutated);
    std::vector<double> result(50);
    d.Decode(result);
  });
}

}  // namespace
}  // namespace timef::parquet
