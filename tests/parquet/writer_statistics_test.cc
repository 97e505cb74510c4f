#include "parquet/writer_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "parquet/writer_test_util.h"

namespace timef::parquet {
namespace {

using writer_testing::Column;
using writer_testing::FromRaw;
using writer_testing::Raw;

template <typename T>
std::vector<std::byte> Pack(std::initializer_list<T> values) {
  std::vector<std::byte> out(values.size() * sizeof(T));
  std::size_t i = 0;
  for (T v : values) std::memcpy(out.data() + sizeof(T) * i++, &v, sizeof(T));
  return out;
}

TEST(WriterStatisticsTest, StatsKindFollowsLogicalAndConvertedTypes) {
  EXPECT_EQ(StatsKindOf(Column("a", Type::kInt32)), StatsKind::kInt32);
  ColumnDescriptor u8 = Column("a", Type::kInt32);
  u8.logical_type = LogicalType::Integer(8, false);
  EXPECT_EQ(StatsKindOf(u8), StatsKind::kUInt32);
  ColumnDescriptor u64 = Column("a", Type::kInt64);
  u64.converted_type = ConvertedType::kUint64;
  EXPECT_EQ(StatsKindOf(u64), StatsKind::kUInt64);
  ColumnDescriptor i16 = Column("a", Type::kInt32);
  i16.logical_type = LogicalType::Integer(16, true);
  i16.converted_type = ConvertedType::kInt16;
  EXPECT_EQ(StatsKindOf(i16), StatsKind::kInt32);
  EXPECT_EQ(StatsKindOf(Column("a", Type::kDouble)), StatsKind::kDouble);
  EXPECT_EQ(StatsKindOf(Column("a", Type::kBoolean)), StatsKind::kBoolean);
  EXPECT_EQ(StatsKindOf(Column("a", Type::kByteArray)), StatsKind::kBytes);
  ColumnDescriptor decimal = Column("a", Type::kFixedLenByteArray, false, false, false, 8);
  decimal.logical_type = LogicalType::Decimal(2, 18);
  EXPECT_EQ(StatsKindOf(decimal), StatsKind::kNone);
  ColumnDescriptor uuid = Column("a", Type::kFixedLenByteArray, false, false, false, 16);
  uuid.logical_type = LogicalType::Simple(LogicalType::Kind::kUuid);
  EXPECT_EQ(StatsKindOf(uuid), StatsKind::kBytes);

  ColumnDescriptor text = Column("s", Type::kByteArray);
  EXPECT_FALSE(IsUtf8Column(text));
  text.converted_type = ConvertedType::kUtf8;
  EXPECT_TRUE(IsUtf8Column(text));
}

TEST(WriterStatisticsTest, FloatBoundsSkipNaNAndWidenZeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto bounds = FixedWidthBounds(StatsKind::kDouble, 8, Pack<double>({nan, 0.0, 2.5, nan, -0.0}));
  ASSERT_TRUE(bounds.has_bounds);
  EXPECT_EQ(bounds.nan_count, 2);
  EXPECT_TRUE(std::signbit(FromRaw<double>(bounds.min)));  // -0.0
  EXPECT_EQ(FromRaw<double>(bounds.min), 0.0);
  EXPECT_EQ(FromRaw<double>(bounds.max), 2.5);

  // Only zeros, the positive one first: min is still -0.0 and max +0.0.
  bounds = FixedWidthBounds(StatsKind::kFloat, 4, Pack<float>({0.0f, -0.0f}));
  EXPECT_EQ(bounds.min, Raw(-0.0f));
  EXPECT_EQ(bounds.max, Raw(0.0f));
  bounds = FixedWidthBounds(StatsKind::kFloat, 4, Pack<float>({-0.0f}));
  EXPECT_EQ(bounds.min, Raw(-0.0f));
  EXPECT_EQ(bounds.max, Raw(0.0f));

  bounds = FixedWidthBounds(StatsKind::kFloat, 4, Pack<float>({NAN, NAN}));
  EXPECT_FALSE(bounds.has_bounds);
  EXPECT_EQ(bounds.nan_count, 2);

  const float inf = std::numeric_limits<float>::infinity();
  bounds = FixedWidthBounds(StatsKind::kFloat, 4, Pack<float>({1.0f, -inf, inf}));
  EXPECT_EQ(bounds.min, Raw(-inf));
  EXPECT_EQ(bounds.max, Raw(inf));
}

TEST(WriterStatisticsTest, IntegerOrderIsSignedOrUnsigned) {
  const auto values = Pack<std::int32_t>({5, -1, 7});
  auto signed_bounds = FixedWidthBounds(StatsKind::kInt32, 4, values);
  EXPECT_EQ(FromRaw<std::int32_t>(signed_bounds.min), -1);
  EXPECT_EQ(FromRaw<std::int32_t>(signed_bounds.max), 7);
  auto unsigned_bounds = FixedWidthBounds(StatsKind::kUInt32, 4, values);
  EXPECT_EQ(FromRaw<std::uint32_t>(unsigned_bounds.min), 5u);
  EXPECT_EQ(FromRaw<std::uint32_t>(unsigned_bounds.max), 0xFFFFFFFFu);

  const auto wide = Pack<std::int64_t>({INT64_MIN, 3, INT64_MAX});
  EXPECT_EQ(FromRaw<std::int64_t>(FixedWidthBounds(StatsKind::kInt64, 8, wide).min), INT64_MIN);
  EXPECT_EQ(FromRaw<std::uint64_t>(FixedWidthBounds(StatsKind::kUInt64, 8, wide).min), 3u);

  // Through a dictionary: only the referenced entries count.
  const std::vector<std::uint32_t> indices = {2, 2, 0};
  auto via = FixedWidthBounds(StatsKind::kInt32, 4, values, indices);
  EXPECT_EQ(FromRaw<std::int32_t>(via.min), 5);
  EXPECT_EQ(FromRaw<std::int32_t>(via.max), 7);
}

TEST(WriterStatisticsTest, BytesCompareUnsigned) {
  ByteArrays values;
  values.Append(std::string_view("\x80"));
  values.Append(std::string_view("a"));
  values.Append(std::string_view(""));
  values.Append(std::string_view("ab"));
  const auto bounds = ByteArrayBounds(values.view());
  EXPECT_EQ(bounds.min, "");
  EXPECT_EQ(bounds.max, "\x80");
  const std::vector<std::uint32_t> indices = {1, 3};
  const auto via = ByteArrayBounds(values.view(), indices);
  EXPECT_EQ(via.min, "a");
  EXPECT_EQ(via.max, "ab");

  const auto flba = FixedWidthBounds(StatsKind::kBytes, 2,
                                     std::as_bytes(std::span<const char>("\xff\x01\x00\x02", 4)));
  EXPECT_EQ(flba.min, std::string("\x00\x02", 2));
  EXPECT_EQ(flba.max, std::string("\xff\x01", 2));

  const auto booleans =
      FixedWidthBounds(StatsKind::kBoolean, 1, std::as_bytes(std::span<const char>("\1\1", 2)));
  EXPECT_EQ(booleans.min, std::string(1, '\1'));
  EXPECT_EQ(booleans.max, std::string(1, '\1'));
}

TEST(WriterStatisticsTest, MergeAndCompare) {
  ValueBounds chunk;
  MergeBounds(StatsKind::kInt32, {true, Raw<std::int32_t>(-3), Raw<std::int32_t>(4), 0}, chunk);
  MergeBounds(StatsKind::kInt32, {false, "", "", 0}, chunk);
  MergeBounds(StatsKind::kInt32, {true, Raw<std::int32_t>(-10), Raw<std::int32_t>(2), 0}, chunk);
  EXPECT_EQ(FromRaw<std::int32_t>(chunk.min), -10);
  EXPECT_EQ(FromRaw<std::int32_t>(chunk.max), 4);

  ValueBounds floats;
  MergeBounds(StatsKind::kFloat, {false, "", "", 3}, floats);
  MergeBounds(StatsKind::kFloat, {true, Raw(-1.0f), Raw(1.0f), 1}, floats);
  EXPECT_EQ(floats.nan_count, 4);
  EXPECT_TRUE(floats.has_bounds);

  EXPECT_LT(CompareBounds(StatsKind::kUInt64, Raw<std::uint64_t>(1), Raw<std::uint64_t>(~0ull)), 0);
  EXPECT_GT(CompareBounds(StatsKind::kInt64, Raw<std::int64_t>(1), Raw<std::int64_t>(-1)), 0);
  EXPECT_EQ(CompareBounds(StatsKind::kDouble, Raw(-0.0), Raw(0.0)), 0);
  EXPECT_GT(CompareBounds(StatsKind::kBytes, "\xff", "a"), 0);
}

TEST(WriterStatisticsTest, BoundaryOrder) {
  auto order = [](std::vector<int> mins, std::vector<int> maxs, std::vector<bool> nulls) {
    std::vector<std::string> lo, hi;
    for (int v : mins) lo.push_back(Raw<std::int32_t>(v));
    for (int v : maxs) hi.push_back(Raw<std::int32_t>(v));
    return ComputeBoundaryOrder(StatsKind::kInt32, nulls, lo, hi);
  };
  EXPECT_EQ(order({1, 2, 3}, {2, 3, 4}, {false, false, false}), BoundaryOrder::kAscending);
  EXPECT_EQ(order({3, 2, 1}, {4, 3, 2}, {false, false, false}), BoundaryOrder::kDescending);
  EXPECT_EQ(order({1, 1}, {5, 5}, {false, false}), BoundaryOrder::kAscending);
  EXPECT_EQ(order({1, 0, 3}, {2, 9, 4}, {false, false, false}), BoundaryOrder::kUnordered);
  // Null pages do not count.
  EXPECT_EQ(order({1, 0, 3}, {2, 0, 4}, {false, true, false}), BoundaryOrder::kAscending);
  EXPECT_EQ(order({}, {}, {}), BoundaryOrder::kAscending);
}

TEST(WriterStatisticsTest, TruncatedBoundsStayValid) {
  const std::string long_value(100, 'm');
  EXPECT_EQ(TruncateMin(long_value, 64, false), std::string(64, 'm'));
  EXPECT_EQ(TruncateMax(long_value, 64, false), std::string(63, 'm') + 'n');
  EXPECT_EQ(TruncateMin(long_value, 0, false), std::nullopt);
  EXPECT_EQ(TruncateMin(std::string(64, 'm'), 64, false), std::nullopt);

  // A maximum whose prefix ends in 0xFF increments the last byte that can be.
  std::string ff = "ab" + std::string(70, '\xff');
  EXPECT_EQ(TruncateMax(ff, 64, false), "ac");
  EXPECT_EQ(TruncateMax(std::string(70, '\xff'), 64, false), std::nullopt);

  // UTF-8: cuts at character boundaries; the maximum increments the last character.
  std::string text = std::string(63, 'a') + "é" + "zzz";  // é (2 bytes) straddles byte 64
  EXPECT_EQ(TruncateMin(text, 64, true), std::string(63, 'a'));
  EXPECT_EQ(TruncateMax(text, 64, true), std::string(62, 'a') + "b");
  std::string greek = std::string(62, 'a') + "ω" + "zzz";  // ω = U+03C9 ends at byte 64
  EXPECT_EQ(TruncateMax(greek, 64, true), std::string(62, 'a') + "ϊ");  // U+03CA
  std::string top = std::string(60, 'a') + "\xf4\x8f\xbf\xbf" + "zz";   // U+10FFFF has no successor
  EXPECT_EQ(TruncateMax(top, 64, true), std::string(59, 'a') + "b");
  // Invalid UTF-8 falls back to bytes.
  std::string bad = std::string(63, 'a') + "\xff\xff\xff";
  EXPECT_EQ(TruncateMax(bad, 64, true), std::string(62, 'a') + "b");
  EXPECT_EQ(TruncateMin(bad, 64, true), std::string(63, 'a') + "\xff");

  // Every truncated bound orders correctly against its value.
  for (const std::string& v : {long_value, ff, text, greek, top, bad}) {
    for (bool utf8 : {false, true}) {
      if (auto lo = TruncateMin(v, 64, utf8)) {
        EXPECT_LE(*lo, v);
        EXPECT_LE(lo->size(), 64u);
      }
      if (auto hi = TruncateMax(v, 64, utf8)) {
        EXPECT_GT(*hi, v);
        EXPECT_LE(hi->size(), 64u);
      }
    }
  }
}

}  // namespace
}  // namespace timef::parquet
