#include "parquet/encoding_bitpack.h"

#include <gtest/gtest.h>

#include <random>

#include "parquet/encoding_error.h"
#include "parquet/encoding_test_util.h"

namespace timef::parquet {
namespace {

using testing::Bytes;

// Bit-by-bit reference reading of value i (LSB-first order).
uint64_t ReferenceValue(std::span<const std::byte> packed, int width, size_t i) {
  uint64_t v = 0;
  for (int b = 0; b < width; ++b) {
    const size_t bit = i * static_cast<size_t>(width) + static_cast<size_t>(b);
    const uint64_t set = (static_cast<uint8_t>(packed[bit / 8]) >> (bit % 8)) & 1u;
    v |= set << b;
  }
  return v;
}

TEST(EncodingBitpack, SpecExampleWidth3) {
  // Encodings.md: 0..7 with bit width 3 pack to 10001000 11000110 11111010.
  const std::vector<uint32_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<std::byte> packed;
  PackBits(values, 3, packed);
  EXPECT_EQ(packed, Bytes({0x88, 0xC6, 0xFA}));
  std::vector<uint32_t> out(8);
  UnpackBits(packed, 3, 0, std::span<uint32_t>(out));
  EXPECT_EQ(out, values);
}

TEST(EncodingBitpack, EveryWidthAndOffsetMatchesReference64) {
  std::mt19937_64 rng(7);
  for (int width = 0; width <= 64; ++width) {
    std::vector<std::byte> packed(width * 200 / 8 + 1);
    for (auto& b : packed) b = static_cast<std::byte>(rng());
    for (size_t first : {0, 1, 7, 8, 9, 31, 32, 33, 100}) {
      for (size_t n : {0, 1, 5, 8, 31, 32, 33, 64, 99}) {
        if (width > 0 && first + n > packed.size() * 8 / width) continue;
        std::vector<uint64_t> out(n);
        UnpackBits(packed, width, first, std::span<uint64_t>(out));
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(out[i], ReferenceValue(packed, width, first + i))
              << "width " << width << " first " << first << " i " << i;
        }
      }
    }
  }
}

TEST(EncodingBitpack, NarrowOutputsMatchReference) {
  std::mt19937_64 rng(8);
  std::vector<std::byte> packed(600);
  for (auto& b : packed) b = static_cast<std::byte>(rng());
  for (int width = 0; width <= 32; ++width) {
    for (size_t first : {0, 3, 8, 40}) {
      const size_t n = 77;
      std::vector<uint32_t> out32(n);
      UnpackBits(packed, width, first, std::span<uint32_t>(out32));
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(out32[i], ReferenceValue(packed, width, first + i));
      if (width <= 16) {
        std::vector<int16_t> out16(n);
        UnpackBits(packed, width, first, std::span<int16_t>(out16));
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(static_cast<uint16_t>(out16[i]), ReferenceValue(packed, width, first + i));
        }
      }
      if (width <= 8) {
        std::vector<uint8_t> out8(n);
        UnpackBits(packed, width, first, std::span<uint8_t>(out8));
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(out8[i], ReferenceValue(packed, width, first + i));
      }
    }
  }
}

TEST(EncodingBitpack, PackRoundTripsEveryWidth) {
  std::mt19937_64 rng(9);
  for (int width = 0; width <= 64; ++width) {
    const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    for (size_t n : {0, 1, 7, 8, 9, 33, 100}) {
      std::vector<uint64_t> values(n);
      for (auto& v : values) v = rng() & mask;
      std::vector<std::byte> packed = Bytes({0xAB});  // appends after existing bytes
      PackBits(values, width, packed);
      ASSERT_EQ(packed.size(), 1 + (n * width + 7) / 8);
      std::vector<uint64_t> out(n);
      UnpackBits(std::span<const std::byte>(packed).subspan(1), width, 0, std::span<uint64_t>(out));
      ASSERT_EQ(out, values) << "width " << width << " n " << n;
    }
  }
}

// 32-bit inputs take their own packing loop (whole words at a time); it must write the bytes of
// the general one, which the 64-bit inputs use.
TEST(EncodingBitpack, Pack32WritesThePack64Bytes) {
  std::mt19937_64 rng(10);
  for (int width = 0; width <= 32; ++width) {
    const uint64_t mask = (uint64_t{1} << width) - 1;
    for (size_t n : {0, 1, 3, 4, 7, 8, 9, 31, 32, 33, 100, 4096, 4099}) {
      std::vector<uint32_t> narrow(n);
      for (auto& v : narrow) v = static_cast<uint32_t>(rng() & mask);
      const std::vector<uint64_t> wide(narrow.begin(), narrow.end());
      std::vector<std::byte> a = Bytes({0xAB, 0xCD});
      std::vector<std::byte> b = Bytes({0xAB, 0xCD});
      PackBits(narrow, width, a);
      PackBits(wide, width, b);
      ASSERT_EQ(a, b) << "width " << width << " n " << n;
    }
  }
}

TEST(EncodingBitpack, RejectsShortInputAndTooWideWidths) {
  const auto packed = Bytes({1, 2, 3});
  std::vector<uint32_t> out(9);
  EXPECT_THROW(UnpackBits(packed, 3, 0, std::span<uint32_t>(out)), DecodeError);  // 27 bits > 24
  std::vector<uint32_t> eight(8);
  EXPECT_NO_THROW(UnpackBits(packed, 3, 0, std::span<uint32_t>(eight)));
  EXPECT_THROW(UnpackBits(packed, 3, 1, std::span<uint32_t>(eight)), DecodeError);
  EXPECT_THROW(UnpackBits(packed, 33, 0, std::span<uint32_t>(out).first(0)), DecodeError);
  std::vector<uint8_t> bytes(1);
  EXPECT_THROW(UnpackBits(packed, 9, 0, std::span<uint8_t>(bytes)), DecodeError);
  std::vector<uint64_t> wide(1);
  EXPECT_THROW(UnpackBits(packed, 65, 0, std::span<uint64_t>(wide)), DecodeError);
  EXPECT_THROW(UnpackBits(packed, 1, SIZE_MAX - 2, std::span<uint64_t>(wide)), DecodeError);
}

}  // namespace
}  // namespace timef::parquet
