#include "parquet/encoding_delta.h"

#include <gtest/gtest.h>

#include <random>

#include "parquet/encoding_bitpack.h"
#include "parquet/encoding_bytes.h"
#include "parquet/encoding_test_util.h"

namespace timef::parquet {
namespace {

using testing::Bytes;
using testing::FuzzMutations;
using testing::kDistributions;
using testing::kSizes;
using testing::MakeIntegers;
using testing::SameArrays;
using testing::SameBits;

// A second, independent DELTA_BINARY_PACKED writer for decoder tests: any block layout, deltas in
// 64-bit arithmetic (so INT32 data may need 33-bit widths), and the liberties the spec grants
// writers (garbage in unused widths and in padding, a final miniblock without padding).
struct DeltaLayout {
  uint64_t block_size = 128;
  uint64_t miniblocks = 4;
  bool garbage_unused_widths = false;
  bool garbage_padding = false;
  bool truncate_final_padding = false;
};

template <typename T>
std::vector<std::byte> ReferenceEncode(const std::vector<T>& values, const DeltaLayout& layout,
                                       uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::vector<std::byte> out;
  AppendUleb128(out, layout.block_size);
  AppendUleb128(out, layout.miniblocks);
  AppendUleb128(out, values.size());
  AppendZigZag(out, values.empty() ? 0 : static_cast<int64_t>(values[0]));
  const uint64_t per_mini = layout.block_size / layout.miniblocks;
  size_t final_end = out.size();
  size_t final_needed = out.size();
  for (size_t start = 1; start < values.size(); start += layout.block_size) {
    const size_t count = std::min<size_t>(layout.block_size, values.size() - start);
    std::vector<uint64_t> deltas(count);
    int64_t min_delta = INT64_MAX;
    for (size_t i = 0; i < count; ++i) {
      deltas[i] = static_cast<uint64_t>(static_cast<int64_t>(values[start + i])) -
                  static_cast<uint64_t>(static_cast<int64_t>(values[start + i - 1]));
      min_delta = std::min(min_delta, static_cast<int64_t>(deltas[i]));
    }
    AppendZigZag(out, min_delta);
    for (auto& d : deltas) d -= static_cast<uint64_t>(min_delta);
    const size_t used = (count + per_mini - 1) / per_mini;
    std::vector<int> widths(layout.miniblocks, 0);
    for (size_t m = 0; m < used; ++m) {
      uint64_t all = 0;
      for (size_t i = m * per_mini; i < std::min<size_t>(count, (m + 1) * per_mini); ++i) {
        all |= deltas[i];
      }
      widths[m] = BitWidth(all);
    }
    for (size_t m = 0; m < layout.miniblocks; ++m) {
      const bool unused = m >= used;
      out.push_back(
          static_cast<std::byte>(unused && layout.garbage_unused_widths ? 0xEE : widths[m]));
    }
    for (size_t m = 0; m < used; ++m) {
      const uint64_t mask = widths[m] == 64 ? ~uint64_t{0} : (uint64_t{1} << widths[m]) - 1;
      std::vector<uint64_t> packed(per_mini);
      size_t real = 0;
      for (size_t i = 0; i < per_mini; ++i) {
        const size_t at = m * per_mini + i;
        if (at < count) {
          packed[i] = deltas[at];
          ++real;
        } else {
          packed[i] = layout.garbage_padding ? rng() & mask : 0;
        }
      }
      final_needed = out.size() + (real * widths[m] + 7) / 8;
      PackBits(std::span<const uint64_t>(packed), widths[m], out);
      final_end = out.size();
    }
  }
  if (layout.truncate_final_padding && final_needed < final_end) out.resize(final_needed);
  return out;
}

template <typename T>
std::vector<T> DecodeAll(std::span<const std::byte> data, size_t n) {
  DeltaBinaryPackedDecoder<T> decoder(data);
  EXPECT_EQ(decoder.total_values(), n);
  std::vector<T> out(n);
  decoder.Decode(out);
  EXPECT_EQ(decoder.values_left(), 0u);
  return out;
}

template <typename T>
void CheckDeltaRoundTrip(const std::vector<T>& values) {
  std::vector<std::byte> encoded;
  AppendDeltaBinaryPacked(std::span<const T>(values), encoded);
  EXPECT_EQ(DeltaBinaryPackedSize(encoded), encoded.size());
  DeltaBinaryPackedDecoder<T> decoder(encoded);
  std::vector<T> out(values.size());
  decoder.Decode(out);
  EXPECT_TRUE(SameBits(values, out)) << values.size();
  EXPECT_EQ(decoder.bytes_consumed(), encoded.size()) << values.size();
  std::vector<T> extra(1);
  EXPECT_THROW(decoder.Decode(extra), DecodeError);
}

TEST(EncodingDeltaBinaryPacked, RoundTripsSizesAndDistributions) {
  for (size_t n : kSizes) {
    for (auto d : kDistributions) {
      CheckDeltaRoundTrip(MakeIntegers<int32_t>(n, d, n * 7 + 1));
      CheckDeltaRoundTrip(MakeIntegers<int64_t>(n, d, n * 7 + 2));
    }
  }
  // Extremes that overflow every delta.
  CheckDeltaRoundTrip(std::vector<int64_t>{INT64_MIN, INT64_MAX, INT64_MIN, 0, INT64_MAX, -1});
  CheckDeltaRoundTrip(std::vector<int32_t>{INT32_MIN, INT32_MAX, INT32_MIN, 0, INT32_MAX, -1});
}

TEST(EncodingDeltaBinaryPacked, SpecExamplesWithAValidBlockSize) {
  // Encodings.md example 1 (1..5) with block size 128 and 4 miniblocks: header, min delta 1,
  // all widths 0, no miniblock data.
  const std::vector<int32_t> one = {1, 2, 3, 4, 5};
  std::vector<std::byte> encoded;
  AppendDeltaBinaryPacked(std::span<const int32_t>(one), encoded);
  EXPECT_EQ(encoded, Bytes({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0}));
  EXPECT_EQ(DecodeAll<int32_t>(encoded, 5), one);
  // Example 2 (7, 5, 3, 1, 2, 3, 4, 5): min delta -2, relative deltas 0,0,0,3,3,3,3 at width 2,
  // one padded miniblock of 8 bytes.
  const std::vector<int64_t> two = {7, 5, 3, 1, 2, 3, 4, 5};
  encoded.clear();
  AppendDeltaBinaryPacked(std::span<const int64_t>(two), encoded);
  EXPECT_EQ(encoded, Bytes({0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0, 0, 0, 0xC0, 0x3F, 0, 0, 0,
                            0, 0, 0}));
  EXPECT_EQ(DecodeAll<int64_t>(encoded, 8), two);
  // The examples' own block size of 8 is invalid, as the spec notes.
  EXPECT_THROW(DeltaBinaryPackedDecoder<int32_t>(Bytes({0x08, 0x01, 0x05, 0x02, 0x02, 0x00})),
               DecodeError);
}

TEST(EncodingDeltaBinaryPacked, DecodesAnyValidLayout) {
  const DeltaLayout layouts[] = {{128, 1},  {128, 4},   {256, 8}, {1024, 2},
                                 {512, 16}, {2048, 64}, {384, 12}};
  uint64_t seed = 0;
  for (const DeltaLayout& base : layouts) {
    for (int variant = 0; variant < 4; ++variant) {
      DeltaLayout layout = base;
      layout.garbage_unused_widths = variant & 1;
      layout.garbage_padding = variant & 2;
      layout.truncate_final_padding = variant == 3;
      for (size_t n : {0, 1, 2, 33, 127, 128, 129, 1000, 5000}) {
        for (auto d : kDistributions) {
          const auto v64 = MakeIntegers<int64_t>(n, d, ++seed);
          const auto e64 = ReferenceEncode(v64, layout, seed);
          ASSERT_EQ(DeltaBinaryPackedSize(e64), e64.size());
          ASSERT_TRUE(SameBits(v64, DecodeAll<int64_t>(e64, n)))
              << base.block_size << "/" << base.miniblocks << " variant " << variant << " n " << n;
          // INT32 data written with 64-bit deltas: widths up to 33 wrap back exactly.
          const auto v32 = MakeIntegers<int32_t>(n, d, ++seed);
          const auto e32 = ReferenceEncode(v32, layout, seed);
          ASSERT_TRUE(SameBits(v32, DecodeAll<int32_t>(e32, n)))
              << base.block_size << "/" << base.miniblocks << " variant " << variant << " n " << n;
        }
      }
    }
  }
}

TEST(EncodingDeltaBinaryPacked, DecodesInPiecesAndSkips) {
  const auto values = MakeIntegers<int64_t>(3000, testing::Distribution::kFullRange, 5);
  std::vector<std::byte> encoded;
  AppendDeltaBinaryPacked(std::span<const int64_t>(values), encoded);
  std::mt19937_64 rng(6);
  DeltaBinaryPackedDecoder<int64_t> decoder(encoded);
  size_t at = 0;
  while (at < values.size()) {
    const size_t n = std::min<size_t>(values.size() - at, rng() % 300);
    if (rng() % 2) {
      decoder.Skip(n);
    } else {
      std::vector<int64_t> out(n);
      decoder.Decode(out);
      ASSERT_TRUE(std::equal(out.begin(), out.end(), values.begin() + at)) << at;
    }
    at += n;
  }
  EXPECT_EQ(decoder.bytes_consumed(), encoded.size());
}

TEST(EncodingDeltaBinaryPacked, RejectsMalformedInput) {
  std::vector<int64_t> out(4);
  auto decode = [&](std::vector<std::byte> data) {
    DeltaBinaryPackedDecoder<int64_t> decoder(data);
    decoder.Decode(out);
  };
  EXPECT_THROW(decode(Bytes({})), DecodeError);                           // no header
  EXPECT_THROW(decode(Bytes({0x80, 0x01, 0x04})), DecodeError);           // truncated header
  EXPECT_THROW(decode(Bytes({0x00, 0x04, 0x04, 0x00})), DecodeError);     // block size 0
  EXPECT_THROW(decode(Bytes({0x81, 0x01, 0x04, 0x04, 0})), DecodeError);  // 129
  EXPECT_THROW(decode(Bytes({0x80, 0x01, 0x00, 0x04, 0})), DecodeError);  // 0 miniblocks
  EXPECT_THROW(decode(Bytes({0x80, 0x01, 0x03, 0x04, 0})), DecodeError);  // 128 / 3
  EXPECT_THROW(decode(Bytes({0x80, 0x01, 0x08, 0x04, 0})), DecodeError);  // 16 per miniblock
  // Block size above 2^32.
  EXPECT_THROW(decode(Bytes({0x80, 0x80, 0x80, 0x80, 0x20, 0x01, 0x04, 0})), DecodeError);
  // Varint longer than 64 bits.
  EXPECT_THROW(decode(Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F})),
               DecodeError);
  // More values requested than the header holds.
  EXPECT_THROW(decode(Bytes({0x80, 0x01, 0x04, 0x03, 0x02, 0x02, 0, 0, 0, 0})), DecodeError);
  // Width 65, and a missing block.
  EXPECT_THROW(decode(Bytes({0x80, 0x01, 0x04, 0x04, 0x02, 0x02, 65, 0, 0, 0})), DecodeError);
  EXPECT_THROW(decode(Bytes({0x80, 0x01, 0x04, 0x04, 0x02})), DecodeError);
  // Width 8 needs 32 bytes of miniblock data; 2 are present.
  EXPECT_THROW(decode(Bytes({0x80, 0x01, 0x04, 0x04, 0x02, 0x02, 8, 0, 0, 0, 1, 2})), DecodeError);
  EXPECT_THROW(DeltaBinaryPackedSize(Bytes({0x80, 0x01, 0x04, 0x04, 0x02, 0x02, 8, 0, 0, 0, 1})),
               DecodeError);
  // A huge value count with no blocks: found by the size walk, no allocation.
  EXPECT_THROW(DeltaBinaryPackedSize(Bytes({0x80, 0x01, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0})),
               DecodeError);
}

TEST(EncodingDeltaBinaryPacked, MutatedInputsThrowOrDecode) {
  const auto values = MakeIntegers<int64_t>(700, testing::Distribution::kSorted, 1);
  std::vector<std::byte> encoded;
  AppendDeltaBinaryPacked(std::span<const int64_t>(values), encoded);
  FuzzMutations(encoded, 3000, 41, [](std::span<const std::byte> data) {
    DeltaBinaryPackedSize(data);
    DeltaBinaryPackedDecoder<int64_t> decoder(data);
    std::vector<int64_t> out(300);
    decoder.Decode(out);
    decoder.Skip(100);
    decoder.Decode(out);
  });
  const auto ints = MakeIntegers<int32_t>(300, testing::Distribution::kExtremes, 2);
  std::vector<std::byte> encoded32;
  AppendDeltaBinaryPacked(std::span<const int32_t>(ints), encoded32);
  FuzzMutations(encoded32, 2000, 42, [](std::span<const std::byte> data) {
    DeltaBinaryPackedDecoder<int32_t> decoder(data);
    std::vector<int32_t> out(300);
    decoder.Decode(out);
  });
}

TEST(EncodingDeltaLengthByteArray, RoundTripsAndSpecExample) {
  for (size_t n : kSizes) {
    if (n == 100000) continue;
    const ByteArrays values = testing::MakeStrings(n, n + 3);
    std::vector<std::byte> encoded;
    AppendDeltaLengthByteArray(values.view(), encoded);
    DeltaLengthByteArrayDecoder decoder(encoded);
    ByteArrays out;
    decoder.Decode(n / 2, out);
    decoder.Decode(n - n / 2, out);
    EXPECT_TRUE(SameArrays(values, out));
    EXPECT_EQ(decoder.bytes_consumed(), encoded.size());
  }
  // Encodings.md: lengths 5, 5, 6, 6 delta-encoded, then "HelloWorldFoobarABCDEF".
  ByteArrays words;
  for (std::string_view s : {"Hello", "World", "Foobar", "ABCDEF"}) words.Append(s);
  std::vector<std::byte> encoded;
  AppendDeltaLengthByteArray(words.view(), encoded);
  const size_t lengths_size = DeltaBinaryPackedSize(encoded);
  EXPECT_EQ(DecodeAll<int32_t>(std::span<const std::byte>(encoded).first(lengths_size), 4),
            (std::vector<int32_t>{5, 5, 6, 6}));
  EXPECT_EQ(std::vector<std::byte>(encoded.begin() + lengths_size, encoded.end()),
            testing::BytesOf("HelloWorldFoobarABCDEF"));
  DeltaLengthByteArrayDecoder decoder(encoded);
  decoder.Skip(2);
  ByteArrays out;
  decoder.Decode(2, out);
  EXPECT_EQ(out.str(0), "Foobar");
  EXPECT_EQ(out.str(1), "ABCDEF");
}

std::vector<std::byte> LengthsThenBytes(const std::vector<int32_t>& lengths,
                                        std::string_view bytes) {
  std::vector<std::byte> out;
  AppendDeltaBinaryPacked(std::span<const int32_t>(lengths), out);
  AppendBytes(out, testing::BytesOf(bytes));
  return out;
}

TEST(EncodingDeltaLengthByteArray, RejectsMalformedInput) {
  ByteArrays out;
  const auto negative = LengthsThenBytes({2, -1}, "abc");
  EXPECT_THROW(DeltaLengthByteArrayDecoder(negative).Decode(2, out), DecodeError);
  const auto too_long = LengthsThenBytes({2, 5}, "abc");
  EXPECT_THROW(DeltaLengthByteArrayDecoder(too_long).Decode(2, out), DecodeError);
  EXPECT_THROW(DeltaLengthByteArrayDecoder(too_long).Skip(2), DecodeError);
  const auto fine = LengthsThenBytes({2, 1}, "abc");
  EXPECT_THROW(DeltaLengthByteArrayDecoder(fine).Decode(3, out), DecodeError);
  EXPECT_THROW(DeltaLengthByteArrayDecoder(Bytes({0x80, 0x01})), DecodeError);
  const ByteArrays values = testing::MakeStrings(80, 9);
  std::vector<std::byte> encoded;
  AppendDeltaLengthByteArray(values.view(), encoded);
  FuzzMutations(encoded, 3000, 43, [](std::span<const std::byte> data) {
    DeltaLengthByteArrayDecoder decoder(data);
    ByteArrays result;
    decoder.Decode(40, result);
    decoder.Skip(10);
    decoder.Decode(30, result);
  });
}

TEST(EncodingDeltaByteArray, RoundTripsAndSpecExample) {
  for (size_t n : kSizes) {
    if (n == 100000) continue;
    const ByteArrays values = testing::MakeStrings(n, n + 5);
    std::vector<std::byte> encoded;
    AppendDeltaByteArray(values.view(), encoded);
    DeltaByteArrayDecoder decoder(encoded);
    ByteArrays out;
    decoder.Decode(n / 3, out);
    decoder.Decode(n - n / 3, out);
    EXPECT_TRUE(SameArrays(values, out));
    EXPECT_EQ(decoder.bytes_consumed(), encoded.size());
  }
  // Encodings.md: prefixes 0, 2, 0, 3; suffix lengths 4, 2, 6, 5; "axislebabbleyhood".
  ByteArrays words;
  for (std::string_view s : {"axis", "axle", "babble", "babyhood"}) words.Append(s);
  std::vector<std::byte> encoded;
  AppendDeltaByteArray(words.view(), encoded);
  const size_t prefix_size = DeltaBinaryPackedSize(encoded);
  EXPECT_EQ(DecodeAll<int32_t>(std::span<const std::byte>(encoded).first(prefix_size), 4),
            (std::vector<int32_t>{0, 2, 0, 3}));
  const auto rest = std::span<const std::byte>(encoded).subspan(prefix_size);
  const size_t suffix_size = DeltaBinaryPackedSize(rest);
  EXPECT_EQ(DecodeAll<int32_t>(rest.first(suffix_size), 4), (std::vector<int32_t>{4, 2, 6, 5}));
  EXPECT_EQ(std::vector<std::byte>(rest.begin() + suffix_size, rest.end()),
            testing::BytesOf("axislebabbleyhood"));
  DeltaByteArrayDecoder decoder(encoded);
  decoder.Skip(3);
  ByteArrays out;
  decoder.Decode(1, out);
  EXPECT_EQ(out.str(0), "babyhood");
}

TEST(EncodingDeltaByteArray, FixedLenValues) {
  ByteArrays values;
  for (std::string_view s : {"abcd", "abce", "zzzz", "zzzz", "abcd"}) values.Append(s);
  std::vector<std::byte> encoded;
  AppendDeltaByteArray(values.view(), encoded);
  DeltaByteArrayFixedLenDecoder decoder(encoded, 4);
  std::vector<std::byte> out(20);
  decoder.Decode(out);
  EXPECT_EQ(out, testing::BytesOf("abcdabcezzzzzzzzabcd"));
  DeltaByteArrayFixedLenDecoder wrong_width(encoded, 3);
  std::vector<std::byte> three(3);
  EXPECT_THROW(wrong_width.Decode(three), DecodeError);
}

TEST(EncodingDeltaByteArray, RejectsMalformedInput) {
  ByteArrays out;
  auto build = [](const std::vector<int32_t>& prefixes, const std::vector<int32_t>& suffixes,
                  std::string_view bytes) {
    std::vector<std::byte> data;
    AppendDeltaBinaryPacked(std::span<const int32_t>(prefixes), data);
    AppendDeltaBinaryPacked(std::span<const int32_t>(suffixes), data);
    AppendBytes(data, testing::BytesOf(bytes));
    return data;
  };
  // Prefix longer than the previous value, negative prefix, fewer suffixes than prefixes.
  const auto long_prefix = build({0, 3}, {2, 1}, "abc");
  EXPECT_THROW(DeltaByteArrayDecoder(long_prefix).Decode(2, out), DecodeError);
  EXPECT_THROW(DeltaByteArrayDecoder(long_prefix).Skip(2), DecodeError);
  EXPECT_EQ(out.size(), 0u);  // a rejected chunk leaves the output as it was
  EXPECT_TRUE(out.bytes.empty());
  const auto negative = build({0, -1}, {2, 1}, "abc");
  EXPECT_THROW(DeltaByteArrayDecoder(negative).Decode(2, out), DecodeError);
  const auto few = build({0, 1}, {2}, "ab");
  EXPECT_THROW(DeltaByteArrayDecoder(few).Decode(2, out), DecodeError);
  // Expansion: each value repeats the previous 1000 bytes; a 10 kB cap stops it.
  std::vector<int32_t> prefixes(100, 1000), suffixes(100, 0);
  prefixes[0] = 0;
  suffixes[0] = 1000;
  const auto expanding = build(prefixes, suffixes, std::string(1000, 'x'));
  DeltaByteArrayDecoder capped(expanding, 10000);
  EXPECT_THROW(capped.Decode(100, out), DecodeError);
  ByteArrays fine;
  DeltaByteArrayDecoder(expanding).Decode(100, fine);
  EXPECT_EQ(fine.bytes.size(), 100000u);

  const ByteArrays values = testing::MakeStrings(80, 10);
  std::vector<std::byte> encoded;
  AppendDeltaByteArray(values.view(), encoded);
  FuzzMutations(encoded, 3000, 44, [](std::span<const std::byte> data) {
    DeltaByteArrayDecoder decoder(data, 1 << 20);
    ByteArrays result;
    decoder.Decode(40, result);
    decoder.Skip(10);
    decoder.Decode(30, result);
  });
}

}  // namespace
}  // namespace timef::parquet
