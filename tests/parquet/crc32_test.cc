#include "parquet/crc32.h"

#include <gtest/gtest.h>

#include <random>

#include "parquet/format_test_support.h"

namespace timef::parquet {
namespace {

using testing::BytesOf;

TEST(Crc32Test, StandardCheckValues) {
  // The CRC-32 catalogue's check value and other published vectors.
  EXPECT_EQ(Crc32(BytesOf("123456789")), 0xCBF43926u);
  EXPECT_EQ(Crc32({}), 0u);
  EXPECT_EQ(Crc32(BytesOf("a")), 0xE8B7BE43u);
  EXPECT_EQ(Crc32(BytesOf("The quick brown fox jumps over the lazy dog")), 0x414FA339u);
  const std::vector<std::byte> zeros(32, std::byte{0});
  EXPECT_EQ(Crc32(zeros), 0x190A55ADu);
  const std::vector<std::byte> ones(32, std::byte{0xFF});
  EXPECT_EQ(Crc32(ones), 0xFF6CAB0Bu);
}

TEST(Crc32Test, ContinuesAcrossPieces) {
  std::mt19937_64 rng(4);
  const auto data = testing::RandomBytes(rng, 10000);
  const std::uint32_t whole = Crc32(data);
  for (std::size_t split : {std::size_t{0}, std::size_t{1}, std::size_t{4999}, data.size()}) {
    const auto head = std::span(data).first(split);
    const auto tail = std::span(data).subspan(split);
    EXPECT_EQ(Crc32(tail, Crc32(head)), whole) << split;
  }
}

TEST(Crc32Test, DetectsSingleBitFlips) {
  std::mt19937_64 rng(8);
  auto data = testing::RandomBytes(rng, 4096);
  const std::uint32_t original = Crc32(data);
  for (int i = 0; i < 100; ++i) {
    const std::size_t at = rng() % data.size();
    const auto bit = static_cast<std::byte>(1u << (rng() % 8));
    data[at] ^= bit;
    EXPECT_NE(Crc32(data), original);
    data[at] ^= bit;
  }
}

TEST(Crc32Test, ThriftFieldKeepsTheBitPattern) {
  EXPECT_EQ(CrcToThrift(0xCBF43926u), static_cast<std::int32_t>(0xCBF43926u));
  EXPECT_LT(CrcToThrift(0xCBF43926u), 0);
  EXPECT_EQ(CrcFromThrift(CrcToThrift(0xCBF43926u)), 0xCBF43926u);
  EXPECT_EQ(CrcFromThrift(-1), 0xFFFFFFFFu);
}

}  // namespace
}  // namespace timef::parquet
