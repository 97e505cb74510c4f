#include "parquet/encoding_rle.h"

#include <gtest/gtest.h>

#include <random>

#include "parquet/encoding_bitpack.h"
#include "parquet/encoding_test_util.h"

namespace timef::parquet {
namespace {

using testing::Bytes;
using testing::FuzzMutations;
using testing::kSizes;

enum class Shape { kConstant, kRandom, kRuns, kAlternating, kMostlyMax };

std::vector<uint32_t> MakeValues(size_t n, int width, Shape shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t max = width == 32 ? ~uint32_t{0} : (uint32_t{1} << width) - 1;
  std::vector<uint32_t> out(n);
  uint32_t current = 0;
  size_t left = 0;
  for (size_t i = 0; i < n; ++i) {
    switch (shape) {
      case Shape::kConstant:
        out[i] = max;
        break;
      case Shape::kRandom:
        out[i] = static_cast<uint32_t>(rng()) & max;
        break;
      case Shape::kRuns:
        if (left == 0) {
          current = static_cast<uint32_t>(rng()) & max;
          left = 1 + rng() % 40;
        }
        out[i] = current;
        --left;
        break;
      case Shape::kAlternating:
        out[i] = (i % 2) & max;
        break;
      case Shape::kMostlyMax:
        out[i] = rng() % 50 == 0 ? 0 : max;
        break;
    }
  }
  return out;
}

std::vector<std::byte> Encode(std::span<const uint32_t> values, int width) {
  RleBitPackedEncoder encoder(width);
  encoder.Put(values);
  std::vector<std::byte> out;
  encoder.Finish(out);
  return out;
}

TEST(EncodingRle, RoundTripsEveryWidthSizeAndShape) {
  uint64_t seed = 1;
  for (int width = 0; width <= 32; ++width) {
    for (size_t n : kSizes) {
      if (n == 100000 && width % 7 != 0) continue;  // keep the largest size to a few widths
      for (Shape shape : {Shape::kConstant, Shape::kRandom, Shape::kRuns, Shape::kAlternating,
                          Shape::kMostlyMax}) {
        const auto values = MakeValues(n, width, shape, ++seed);
        const auto encoded = Encode(values, width);
        std::vector<uint32_t> out(n);
        RleBitPackedDecoder decoder(encoded, width);
        decoder.Decode(out);
        ASSERT_EQ(out, values) << "width " << width << " n " << n;
        EXPECT_EQ(decoder.bytes_consumed(), encoded.size()) << "width " << width << " n " << n;
      }
    }
  }
}

// AppendRleBitPacked packs in place what the streaming encoder copies first: the bytes must be the
// same for every width, size and shape, with runs straddling the 4,096-value literal limit and
// runs that top up a partial group of 8 (kRuns: lengths 1..40; kMixed below: long runs too).
TEST(EncodingRle, WholeStreamEncoderWritesTheStreamingEncodersBytes) {
  uint64_t seed = 1000;
  for (int width = 0; width <= 32; ++width) {
    for (size_t n : kSizes) {
      if (n == 100000 && width % 5 != 0) continue;
      for (Shape shape : {Shape::kConstant, Shape::kRandom, Shape::kRuns, Shape::kAlternating,
                          Shape::kMostlyMax}) {
        const auto values = MakeValues(n, width, shape, ++seed);
        std::vector<std::byte> whole = Bytes({0x5A});  // appends after what is there
        AppendRleBitPacked(values, width, whole);
        std::vector<std::byte> streamed = Bytes({0x5A});
        RleBitPackedEncoder encoder(width);
        encoder.Put(values);
        encoder.Finish(streamed);
        ASSERT_EQ(whole, streamed) << "width " << width << " n " << n;
      }
    }
  }
  // Runs of every length from 1 to 20 and a few long ones, in a seeded order.
  std::mt19937_64 rng(77);
  for (int width : {1, 3, 8, 13, 16, 32}) {
    const uint32_t max = width == 32 ? ~uint32_t{0} : (uint32_t{1} << width) - 1;
    std::vector<uint32_t> values;
    for (int run = 0; run < 3000; ++run) {
      const size_t length = rng() % 9 == 0 ? 20 + rng() % 5000 : 1 + rng() % 20;
      values.insert(values.end(), length, static_cast<uint32_t>(rng()) & max);
    }
    std::vector<std::byte> whole;
    AppendRleBitPacked(values, width, whole);
    EXPECT_EQ(whole, Encode(values, width)) << "width " << width;
  }
  std::vector<std::byte> out;
  const std::vector<uint32_t> too_wide = {1, 2, 8};
  EXPECT_THROW(AppendRleBitPacked(too_wide, 3, out), std::invalid_argument);
  EXPECT_THROW(AppendRleBitPacked(too_wide, 33, out), std::invalid_argument);
}

TEST(EncodingRle, DecodesInPiecesAndSkips) {
  const auto values = MakeValues(5000, 5, Shape::kRuns, 42);
  const auto encoded = Encode(values, 5);
  RleBitPackedDecoder decoder(encoded, 5);
  std::mt19937_64 rng(3);
  size_t at = 0;
  while (at < values.size()) {
    const size_t n = std::min<size_t>(values.size() - at, rng() % 70);
    if (rng() % 3 == 0) {
      decoder.Skip(n);
    } else {
      std::vector<uint32_t> out(n);
      decoder.Decode(out);
      ASSERT_TRUE(std::equal(out.begin(), out.end(), values.begin() + at)) << "at " << at;
    }
    at += n;
  }
  std::vector<uint32_t> one(1);
  EXPECT_THROW(decoder.Decode(one), DecodeError);
}

TEST(EncodingRle, SpecExampleBitPackedRun) {
  // One bit-packed group of 0..7 at width 3: header (1 << 1) | 1, then the spec's three bytes.
  const auto data = Bytes({0x03, 0x88, 0xC6, 0xFA});
  RleBitPackedDecoder decoder(data, 3);
  std::vector<uint32_t> out(8);
  decoder.Decode(out);
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  const std::vector<uint32_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(Encode(values, 3), data);
}

TEST(EncodingRle, KnownRleRuns) {
  // 300 copies of 5 at width 3: header ULEB128(600) = D8 04, value in one byte.
  const std::vector<uint32_t> values(300, 5);
  EXPECT_EQ(Encode(values, 3), Bytes({0xD8, 0x04, 0x05}));
  // Width 12 stores the repeated value in two little-endian bytes; width 0 stores none.
  EXPECT_EQ(Encode(std::vector<uint32_t>(10, 0xABC), 12), Bytes({0x14, 0xBC, 0x0A}));
  EXPECT_EQ(Encode(std::vector<uint32_t>(10, 0), 0), Bytes({0x14}));
  // Width 32: four value bytes.
  EXPECT_EQ(Encode(std::vector<uint32_t>(8, 0xFFFFFFFFu), 32),
            Bytes({0x10, 0xFF, 0xFF, 0xFF, 0xFF}));
  std::vector<uint32_t> out(8);
  const auto run = Bytes({0x10, 0xFF, 0xFF, 0xFF, 0xFF});
  RleBitPackedDecoder decoder(run, 32);
  decoder.Decode(out);
  EXPECT_EQ(out, std::vector<uint32_t>(8, 0xFFFFFFFFu));
}

TEST(EncodingRle, EncoderPicksRunsAndPacking) {
  // A partial group is topped up from the following run, and the rest of the run is RLE:
  // 1,2,3 then twenty 7s -> one bit-packed group (1,2,3,7,7,7,7,7), then RLE of fifteen 7s.
  std::vector<uint32_t> values = {1, 2, 3};
  values.insert(values.end(), 20, 7);
  EXPECT_EQ(Encode(values, 3), Bytes({0x03, 0xD1, 0xFE, 0xFF, 0x1E, 0x07}));
  // Random values pack at about width bits per value.
  const auto random = MakeValues(100000, 7, Shape::kRandom, 5);
  EXPECT_LE(Encode(random, 7).size(), 100000 * 7 / 8 + 100);
  // Long runs cost a few bytes each.
  const auto constant = MakeValues(100000, 7, Shape::kConstant, 5);
  EXPECT_LE(Encode(constant, 7).size(), 5u);
}

TEST(EncodingRle, EstimatedSizeIsAnUpperBound) {
  for (Shape shape : {Shape::kConstant, Shape::kRandom, Shape::kRuns, Shape::kMostlyMax}) {
    for (size_t n : kSizes) {
      const auto values = MakeValues(n, 4, shape, n + 11);
      RleBitPackedEncoder encoder(4);
      encoder.Put(values);
      const size_t estimate = encoder.EstimatedSize();
      std::vector<std::byte> out;
      encoder.Finish(out);
      EXPECT_LE(out.size(), estimate) << n;
    }
  }
}

TEST(EncodingRle, PutRepeatedAndLevelsAndBooleans) {
  RleBitPackedEncoder encoder(2);
  encoder.PutRepeated(3, 1000);
  const std::vector<int16_t> levels = {0, 1, 2, 3, 3, 2, 1, 0, 1};
  encoder.Put(std::span<const int16_t>(levels));
  std::vector<std::byte> encoded;
  encoder.FinishWithLengthPrefix(encoded);
  const LengthPrefixed prefixed = ReadLengthPrefix(encoded);
  EXPECT_EQ(prefixed.total_size, encoded.size());
  RleBitPackedDecoder decoder(prefixed.body, 2);
  std::vector<int16_t> out(1009);
  decoder.Decode(std::span<int16_t>(out), 3);
  EXPECT_TRUE(std::all_of(out.begin(), out.begin() + 1000, [](int16_t v) { return v == 3; }));
  EXPECT_TRUE(std::equal(levels.begin(), levels.end(), out.begin() + 1000));

  // Levels above the maximum level are corrupt, in RLE runs and in bit-packed runs.
  RleBitPackedDecoder strict(prefixed.body, 2);
  EXPECT_THROW(strict.Decode(std::span<int16_t>(out), 2), DecodeError);
  RleBitPackedDecoder strict_packed(prefixed.body, 2);
  strict_packed.Skip(1000);
  EXPECT_THROW(strict_packed.Decode(std::span<int16_t>(out).first(9), 2), DecodeError);

  const std::vector<uint8_t> booleans = {1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
  std::vector<std::byte> bool_data;
  AppendRleBooleans(booleans, bool_data);
  RleBooleanDecoder bool_decoder(bool_data);
  std::vector<uint8_t> bool_out(booleans.size());
  bool_decoder.Decode(bool_out);
  EXPECT_EQ(bool_out, booleans);
  EXPECT_EQ(bool_decoder.bytes_consumed(), bool_data.size());
}

TEST(EncodingRle, DictionaryIndicesCarryTheirWidth) {
  const std::vector<uint32_t> indices = {0, 4, 2, 4, 4, 4, 4, 4, 4, 4, 4, 1};
  std::vector<std::byte> data;
  AppendDictionaryIndices(indices, 5, data);
  EXPECT_EQ(static_cast<int>(data[0]), 3);
  auto decoder = RleBitPackedDecoder::ForDictionaryIndices(data);
  EXPECT_EQ(decoder.bit_width(), 3);
  std::vector<uint32_t> out(indices.size());
  decoder.Decode(out, 4);
  EXPECT_EQ(out, indices);
  EXPECT_EQ(decoder.bytes_consumed(), data.size());

  // A one-entry dictionary uses bit width 0.
  std::vector<std::byte> single;
  AppendDictionaryIndices(std::vector<uint32_t>(20, 0), 1, single);
  EXPECT_EQ(single, Bytes({0x00, 0x28}));
}

TEST(EncodingRle, ToleratesShortFinalBitPackedRun) {
  // Header says 2 groups (16 values) of width 8, but only 10 bytes follow: 10 values usable.
  auto data = Bytes({0x05, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  RleBitPackedDecoder decoder(data, 8);
  std::vector<uint32_t> out(10);
  decoder.Decode(out);
  EXPECT_EQ(out, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  std::vector<uint32_t> more(1);
  EXPECT_THROW(decoder.Decode(more), DecodeError);
}

TEST(EncodingRle, RejectsMalformedInput) {
  std::vector<uint32_t> out(4);
  EXPECT_THROW(RleBitPackedDecoder(Bytes({}), 33), DecodeError);
  EXPECT_THROW(RleBitPackedDecoder(Bytes({}), -1), DecodeError);
  // Empty stream, truncated varint header, varint longer than 32 bits.
  EXPECT_THROW(RleBitPackedDecoder(Bytes({}), 1).Decode(out), DecodeError);
  EXPECT_THROW(RleBitPackedDecoder(Bytes({0x80}), 1).Decode(out), DecodeError);
  EXPECT_THROW(RleBitPackedDecoder(Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), 1).Decode(out),
               DecodeError);
  // RLE run missing its value, value wider than the bit width.
  EXPECT_THROW(RleBitPackedDecoder(Bytes({0x08}), 3).Decode(out), DecodeError);
  EXPECT_THROW(RleBitPackedDecoder(Bytes({0x08, 0x08}), 3).Decode(out), DecodeError);
  // Runs shorter than the request.
  EXPECT_THROW(RleBitPackedDecoder(Bytes({0x06, 0x01}), 3).Decode(out), DecodeError);
  // Dictionary indices: missing width byte, width above 32, index past the dictionary.
  EXPECT_THROW(RleBitPackedDecoder::ForDictionaryIndices(Bytes({})), DecodeError);
  EXPECT_THROW(RleBitPackedDecoder::ForDictionaryIndices(Bytes({33, 0x08, 0})), DecodeError);
  const auto index_data = Bytes({3, 0x08, 0x05});
  auto indices = RleBitPackedDecoder::ForDictionaryIndices(index_data);
  EXPECT_THROW(indices.Decode(out, 4), DecodeError);
  // Length prefix longer than the data, or itself truncated.
  EXPECT_THROW(ReadLengthPrefix(Bytes({0x05, 0, 0, 0, 1, 2})), DecodeError);
  EXPECT_THROW(ReadLengthPrefix(Bytes({0x05, 0, 0})), DecodeError);
  EXPECT_THROW(RleBooleanDecoder(Bytes({0xFF, 0xFF, 0xFF, 0xFF})), DecodeError);
  // Levels need widths up to 16, booleans up to 8.
  std::vector<int16_t> levels(1);
  EXPECT_THROW(
      RleBitPackedDecoder(Bytes({0x02, 0, 0, 0}), 17).Decode(std::span<int16_t>(levels), 5),
      DecodeError);
}

TEST(EncodingRle, EncoderRejectsValuesWiderThanTheBitWidth) {
  RleBitPackedEncoder encoder(3);
  EXPECT_THROW(encoder.Put(8u), std::invalid_argument);
  EXPECT_THROW(RleBitPackedEncoder(33), std::invalid_argument);
  EXPECT_THROW(RleBitPackedEncoder(-1), std::invalid_argument);
  const std::vector<int16_t> negative = {-1};
  EXPECT_THROW(encoder.Put(std::span<const int16_t>(negative)), std::invalid_argument);
}

TEST(EncodingRle, MutatedInputsThrowOrDecode) {
  for (int width : {1, 3, 8, 13, 32}) {
    const auto values = MakeValues(300, width, Shape::kRuns, width);
    const auto encoded = Encode(values, width);
    FuzzMutations(encoded, 2000, 100 + width, [&](std::span<const std::byte> data) {
      RleBitPackedDecoder decoder(data, width);
      std::vector<uint32_t> out(300);
      decoder.Decode(std::span<uint32_t>(out).first(100));
      decoder.Skip(50);
      decoder.Decode(std::span<uint32_t>(out).first(150), width == 32 ? ~0u : (1u << width) - 2);
    });
  }
  std::vector<std::byte> dict_data;
  AppendDictionaryIndices(MakeValues(500, 4, Shape::kRandom, 9), 16, dict_data);
  FuzzMutations(dict_data, 2000, 77, [](std::span<const std::byte> data) {
    auto decoder = RleBitPackedDecoder::ForDictionaryIndices(data);
    std::vector<uint32_t> out(500);
    decoder.Decode(out, 15);
  });
}

TEST(EncodingRle, MutatedBooleansAndLegacyLevelsThrowOrDecode) {
  std::vector<uint8_t> booleans(300);
  for (size_t i = 0; i < booleans.size(); ++i) booleans[i] = (i / 7 + i / 50) % 2;
  std::vector<std::byte> bool_data;
  AppendRleBooleans(booleans, bool_data);
  FuzzMutations(bool_data, 2000, 61, [](std::span<const std::byte> data) {
    RleBooleanDecoder decoder(data);
    std::vector<uint8_t> out(300);
    decoder.Decode(out);
    for (uint8_t v : out) ASSERT_LE(v, 1);
  });
  std::vector<int16_t> levels(200);
  for (size_t i = 0; i < levels.size(); ++i) levels[i] = static_cast<int16_t>(i % 5);
  std::vector<std::byte> legacy;
  AppendLegacyBitPacked(levels, 3, legacy);
  FuzzMutations(legacy, 2000, 62, [](std::span<const std::byte> data) {
    std::vector<int16_t> out(200);
    DecodeLegacyBitPacked(data, 3, out, 4);
  });
}

TEST(EncodingLegacyBitPacked, SpecExample) {
  // Encodings.md: 0..7 with bit width 3, MSB first: 00000101 00111001 01110111.
  const std::vector<int16_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<std::byte> data;
  AppendLegacyBitPacked(values, 3, data);
  EXPECT_EQ(data, Bytes({0x05, 0x39, 0x77}));
  std::vector<int16_t> out(8);
  EXPECT_EQ(DecodeLegacyBitPacked(data, 3, out, 7), 3u);
  EXPECT_EQ(out, values);
}

TEST(EncodingLegacyBitPacked, RoundTripsAndRejects) {
  std::mt19937_64 rng(4);
  for (int width = 0; width <= 16; ++width) {
    for (size_t n : {0, 1, 7, 8, 9, 127, 1000}) {
      const int16_t max = static_cast<int16_t>(width == 16 ? 32767 : (1 << width) - 1);
      std::vector<int16_t> values(n);
      for (auto& v : values) v = max == 0 ? 0 : static_cast<int16_t>(rng() % (max + 1));
      std::vector<std::byte> data;
      AppendLegacyBitPacked(values, width, data);
      std::vector<int16_t> out(n);
      EXPECT_EQ(DecodeLegacyBitPacked(data, width, out, max), (n * width + 7) / 8);
      ASSERT_EQ(out, values) << width << " " << n;
    }
  }
  std::vector<int16_t> out(8);
  EXPECT_THROW(DecodeLegacyBitPacked(Bytes({0x05, 0x39}), 3, out, 7), DecodeError);
  EXPECT_THROW(DecodeLegacyBitPacked(Bytes({0x05, 0x39, 0x77}), 3, out, 6), DecodeError);
  EXPECT_THROW(DecodeLegacyBitPacked(Bytes({0x05, 0x39, 0x77}), 17, out, 6), DecodeError);
}

}  // namespace
}  // namespace timef::parquet
