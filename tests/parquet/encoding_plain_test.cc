#include "parquet/encoding_plain.h"

#include <gtest/gtest.h>

#include <random>

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

template <typename T>
void CheckPlainRoundTrip(const std::vector<T>& values) {
  std::vector<std::byte> encoded;
  AppendPlain(std::span<const T>(values), encoded);
  ASSERT_EQ(encoded.size(), values.size() * sizeof(T));
  PlainDecoder<T> decoder(encoded);
  std::vector<T> out(values.size());
  decoder.Decode(out);
  EXPECT_TRUE(SameBits(values, out));
  EXPECT_EQ(decoder.bytes_consumed(), encoded.size());
  std::vector<T> extra(1);
  EXPECT_THROW(decoder.Decode(extra), DecodeError);
}

TEST(EncodingPlain, IntegersRoundTrip) {
  for (size_t n : kSizes) {
    for (auto d : kDistributions) {
      CheckPlainRoundTrip(MakeIntegers<int32_t>(n, d, n * 3 + 1));
      CheckPlainRoundTrip(MakeIntegers<int64_t>(n, d, n * 3 + 2));
    }
  }
}

TEST(EncodingPlain, FloatsRoundTripBitExactly) {
  for (size_t n : kSizes) {
    CheckPlainRoundTrip(MakeFloats<float>(n, n + 5));
    CheckPlainRoundTrip(MakeFloats<double>(n, n + 6));
  }
}

TEST(EncodingPlain, KnownLittleEndianBytes) {
  std::vector<std::byte> encoded;
  AppendPlain(std::span<const int32_t>(std::vector<int32_t>{1, -2}), encoded);
  EXPECT_EQ(encoded, Bytes({1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF}));
  encoded.clear();
  AppendPlain(std::span<const double>(std::vector<double>{-0.0}), encoded);
  EXPECT_EQ(encoded, Bytes({0, 0, 0, 0, 0, 0, 0, 0x80}));
}

TEST(EncodingPlain, DecodesInPiecesAndSkips) {
  const auto values = MakeIntegers<int64_t>(1000, testing::Distribution::kFullRange, 3);
  std::vector<std::byte> encoded;
  AppendPlain(std::span<const int64_t>(values), encoded);
  PlainDecoder<int64_t> decoder(encoded);
  std::vector<int64_t> out(10);
  decoder.Skip(500);
  decoder.Decode(out);
  EXPECT_TRUE(std::equal(out.begin(), out.end(), values.begin() + 500));
  EXPECT_EQ(decoder.values_left(), 490u);
  EXPECT_THROW(decoder.Skip(491), DecodeError);
}

TEST(EncodingPlain, BooleansRoundTripAcrossByteBoundaries) {
  std::mt19937_64 rng(12);
  for (size_t n : kSizes) {
    std::vector<uint8_t> values(n);
    for (auto& v : values) v = rng() % 2;
    std::vector<std::byte> encoded;
    AppendPlainBooleans(values, encoded);
    ASSERT_EQ(encoded.size(), (n + 7) / 8);
    PlainBooleanDecoder decoder(encoded);
    std::vector<uint8_t> out(n);
    // Odd-sized pieces so reads start mid-byte.
    size_t at = 0;
    while (at < n) {
      const size_t k = std::min<size_t>(n - at, 1 + rng() % 13);
      decoder.Decode(std::span<uint8_t>(out).subspan(at, k));
      at += k;
    }
    EXPECT_EQ(out, values);
  }
  // Spec: LSB first.
  std::vector<std::byte> encoded;
  AppendPlainBooleans(std::vector<uint8_t>{1, 0, 1, 1, 0, 0, 0, 0, 1}, encoded);
  EXPECT_EQ(encoded, Bytes({0x0D, 0x01}));
  PlainBooleanDecoder decoder(encoded);
  std::vector<uint8_t> out(17);
  EXPECT_THROW(decoder.Decode(out), DecodeError);
}

TEST(EncodingPlain, ByteArraysRoundTrip) {
  for (size_t n : kSizes) {
    if (n == 100000) continue;  // strings up to 3000 bytes: keep the test quick
    const ByteArrays values = testing::MakeStrings(n, n + 9);
    std::vector<std::byte> encoded;
    AppendPlainByteArrays(values.view(), encoded);
    EXPECT_EQ(encoded.size(), PlainByteArraysSize(values.view()));
    PlainByteArrayDecoder decoder(encoded);
    ByteArrays out;
    out.Append(std::string_view("kept"));  // decoders append to what is there
    decoder.Decode(n / 3, out);
    decoder.Skip(0);
    decoder.Decode(n - n / 3, out);
    ASSERT_EQ(out.size(), n + 1);
    EXPECT_EQ(out.str(0), "kept");
    ByteArrays tail;
    tail.offsets = {0};
    for (size_t i = 1; i < out.size(); ++i) tail.Append(out[i]);
    EXPECT_TRUE(SameArrays(values, tail));
    EXPECT_EQ(decoder.bytes_consumed(), encoded.size());
  }
}

TEST(EncodingPlain, ByteArrayKnownBytesAndSlices) {
  ByteArrays values;
  values.Append(std::string_view("ab"));
  values.Append(std::string_view(""));
  values.Append(std::string_view("xyz"));
  std::vector<std::byte> encoded;
  AppendPlainByteArrays(values.view().Slice(1, 3), encoded);
  EXPECT_EQ(encoded, Bytes({0, 0, 0, 0, 3, 0, 0, 0, 'x', 'y', 'z'}));
}

TEST(EncodingPlain, FixedLenAndInt96) {
  std::vector<std::byte> raw(12 * 5);
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<std::byte>(i * 7);
  std::vector<std::byte> encoded;
  AppendPlainFixedLen(raw, 12, encoded);
  EXPECT_EQ(encoded, raw);
  PlainFixedLenDecoder decoder(encoded, 12);  // INT96 reads as 12-byte values
  std::vector<std::byte> out(24);
  decoder.Skip(1);
  decoder.Decode(out);
  EXPECT_TRUE(std::equal(out.begin(), out.end(), raw.begin() + 12));
  EXPECT_THROW(decoder.Decode(std::span<std::byte>(out).first(13)), std::invalid_argument);
  std::vector<std::byte> too_many(36);
  EXPECT_THROW(decoder.Decode(too_many), DecodeError);
  EXPECT_THROW(PlainFixedLenDecoder(encoded, 0), DecodeError);
}

TEST(EncodingPlain, RejectsMalformedByteArrays) {
  ByteArrays out;
  // Truncated length, length past the end, negative length.
  EXPECT_THROW(PlainByteArrayDecoder(Bytes({1, 0})).Decode(1, out), DecodeError);
  EXPECT_THROW(PlainByteArrayDecoder(Bytes({5, 0, 0, 0, 'a'})).Decode(1, out), DecodeError);
  EXPECT_THROW(PlainByteArrayDecoder(Bytes({0xFF, 0xFF, 0xFF, 0xFF, 'a'})).Decode(1, out),
               DecodeError);
  EXPECT_THROW(PlainByteArrayDecoder(Bytes({0, 0, 0, 0})).Decode(2, out), DecodeError);
  // A failed decode leaves the output untouched.
  EXPECT_EQ(out.size(), 0u);
  EXPECT_TRUE(out.bytes.empty());
  EXPECT_THROW(PlainByteArrayDecoder(Bytes({5, 0, 0, 0, 'a'})).Skip(1), DecodeError);
  std::vector<int32_t> ints(2);
  EXPECT_THROW(PlainDecoder<int32_t>(Bytes({1, 2, 3, 4, 5, 6, 7})).Decode(ints), DecodeError);
}

TEST(EncodingPlain, MutatedInputsThrowOrDecode) {
  const ByteArrays values = testing::MakeStrings(60, 4);
  std::vector<std::byte> encoded;
  AppendPlainByteArrays(values.view(), encoded);
  FuzzMutations(encoded, 3000, 5, [](std::span<const std::byte> data) {
    PlainByteArrayDecoder decoder(data);
    ByteArrays out;
    decoder.Decode(30, out);
    decoder.Skip(10);
    decoder.Decode(20, out);
  });
  const auto ints = MakeIntegers<int32_t>(100, testing::Distribution::kFullRange, 1);
  std::vector<std::byte> int_data;
  AppendPlain(std::span<const int32_t>(ints), int_data);
  FuzzMutations(int_data, 2000, 6, [](std::span<const std::byte> data) {
    PlainDecoder<int32_t> decoder(data);
    std::vector<int32_t> out(100);
    decoder.Decode(out);
  });
  std::vector<std::byte> bool_data(13, std::byte{0x5A});
  FuzzMutations(bool_data, 2000, 7, [](std::span<const std::byte> data) {
    PlainBooleanDecoder decoder(data);
    std::vector<uint8_t> out(100);
    decoder.Decode(out);
    for (uint8_t v : out) ASSERT_LE(v, 1);
  });
}

}  // namespace
}  // namespace timef::parquet
