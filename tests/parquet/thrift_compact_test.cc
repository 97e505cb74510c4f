#include "parquet/thrift_compact.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>

#include "parquet/errors.h"
#include "parquet/format_test_support.h"

namespace timef::parquet::thrift {
namespace {

using testing::Bytes;
using ::testing::HasSubstr;
using testing::Hex;

// Byte sequences below are worked out by hand from the compact-protocol specification.

TEST(ThriftWriterTest, FieldHeadersUseDeltaShortFormAndLongForm) {
  std::vector<std::byte> out;
  Writer w(out);
  w.StructBegin();
  w.FieldI32(1, 5);         // delta 1, type i32: 0x15; zigzag(5) = 10
  w.FieldBool(2, true);     // bool lives in the header: 0x21
  w.FieldBool(3, false);    // 0x32
  w.FieldI64(20, -1);       // delta 17 > 15: type byte 0x06, zigzag i16 20 = 40, zigzag(-1) = 1
  w.FieldBinary(21, "ab");  // delta 1, binary: 0x18, length 2
  w.StructEnd();
  EXPECT_EQ(Hex(out),
            Hex(Bytes({0x15, 0x0A, 0x11, 0x12, 0x06, 0x28, 0x01, 0x18, 0x02, 'a', 'b', 0x00})));
}

TEST(ThriftWriterTest, DecreasingFieldIdUsesLongForm) {
  std::vector<std::byte> out;
  Writer w(out);
  w.StructBegin();
  w.FieldI32(5, 0);
  w.FieldI32(2, 0);
  w.StructEnd();
  EXPECT_EQ(Hex(out), Hex(Bytes({0x55, 0x00, 0x05, 0x04, 0x00, 0x00})));
}

TEST(ThriftWriterTest, NestedStructsKeepTheirOwnFieldIdBase) {
  std::vector<std::byte> out;
  Writer w(out);
  w.StructBegin();
  w.FieldI32(3, 1);
  w.FieldBegin(4, WireType::kStruct);  // delta 1 from 3
  w.StructBegin();
  w.FieldI32(1, 1);  // delta 1 from the inner struct's 0
  w.StructEnd();
  w.FieldI32(5, 1);  // delta 1 from 4, not from the inner 1
  w.StructEnd();
  EXPECT_EQ(Hex(out), Hex(Bytes({0x35, 0x02, 0x1C, 0x15, 0x02, 0x00, 0x15, 0x02, 0x00})));
}

TEST(ThriftWriterTest, VarintsAndZigzag) {
  std::vector<std::byte> out;
  Writer w(out);
  w.VarUint(50399);  // the specification's example
  EXPECT_EQ(Hex(out), Hex(Bytes({0xDF, 0x89, 0x03})));
  out.clear();
  w.I32(-2);                                        // zigzag 3
  w.I32(std::numeric_limits<std::int32_t>::min());  // zigzag 0xFFFFFFFF
  EXPECT_EQ(Hex(out), Hex(Bytes({0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F})));
  out.clear();
  w.I64(std::numeric_limits<std::int64_t>::min());  // zigzag 2^64 - 1: ten bytes
  EXPECT_EQ(Hex(out), Hex(Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01})));
}

TEST(ThriftWriterTest, DoubleIsLittleEndian) {
  std::vector<std::byte> out;
  Writer w(out);
  w.Double(1.0);
  EXPECT_EQ(Hex(out), Hex(Bytes({0, 0, 0, 0, 0, 0, 0xF0, 0x3F})));
}

TEST(ThriftWriterTest, ListAndMapHeaders) {
  std::vector<std::byte> out;
  Writer w(out);
  w.ListBegin(WireType::kI32, 3);
  EXPECT_EQ(Hex(out), Hex(Bytes({0x35})));
  out.clear();
  w.ListBegin(WireType::kI32, 14);
  EXPECT_EQ(Hex(out), Hex(Bytes({0xE5})));
  out.clear();
  w.ListBegin(WireType::kBinary, 15);
  EXPECT_EQ(Hex(out), Hex(Bytes({0xF8, 0x0F})));
  out.clear();
  w.ListBegin(WireType::kStruct, 300);
  EXPECT_EQ(Hex(out), Hex(Bytes({0xFC, 0xAC, 0x02})));
  out.clear();
  w.MapBegin(WireType::kBinary, WireType::kI32, 0);
  EXPECT_EQ(Hex(out), Hex(Bytes({0x00})));
  out.clear();
  w.MapBegin(WireType::kBinary, WireType::kI32, 2);
  EXPECT_EQ(Hex(out), Hex(Bytes({0x02, 0x85})));
  out.clear();
  w.Bool(true);
  w.Bool(false);
  EXPECT_EQ(Hex(out), Hex(Bytes({0x01, 0x02})));
}

TEST(ThriftReaderTest, ReadsWhatTheWriterWrites) {
  std::vector<std::byte> out;
  Writer w(out);
  const std::array<std::byte, 16> uuid = {std::byte{1}, std::byte{2}, std::byte{3}};
  w.StructBegin();
  w.FieldBool(1, true);
  w.FieldI8(2, -7);
  w.FieldI16(3, -300);
  w.FieldI32(4, std::numeric_limits<std::int32_t>::min());
  w.FieldI64(5, std::numeric_limits<std::int64_t>::max());
  w.FieldDouble(6, -0.0);
  w.FieldBinary(7, std::string("x\0y", 3));
  w.FieldBegin(8, WireType::kList);
  w.ListBegin(WireType::kBoolTrue, 20);
  for (int i = 0; i < 20; ++i) w.Bool(i % 3 == 0);
  w.FieldBegin(9, WireType::kMap);
  w.MapBegin(WireType::kBinary, WireType::kI64, 1);
  w.Binary("k");
  w.I64(-5);
  w.FieldBegin(10, WireType::kUuid);
  w.Uuid(uuid);
  w.FieldBool(-3, false);  // negative ids are legal Thrift
  w.StructEnd();

  Reader r(out);
  FieldHeader f;
  r.StructBegin();
  ASSERT_TRUE(r.NextField(f));
  EXPECT_EQ(f.id, 1);
  EXPECT_TRUE(r.FieldBool(f));
  ASSERT_TRUE(r.NextField(f));
  EXPECT_EQ(r.ReadI8(), -7);
  ASSERT_TRUE(r.NextField(f));
  EXPECT_EQ(r.ReadI16(), -300);
  ASSERT_TRUE(r.NextField(f));
  EXPECT_EQ(r.ReadI32(), std::numeric_limits<std::int32_t>::min());
  ASSERT_TRUE(r.NextField(f));
  EXPECT_EQ(r.ReadI64(), std::numeric_limits<std::int64_t>::max());
  ASSERT_TRUE(r.NextField(f));
  const double d = r.ReadDouble();
  EXPECT_EQ(d, 0.0);
  EXPECT_TRUE(std::signbit(d));
  ASSERT_TRUE(r.NextField(f));
  EXPECT_EQ(r.ReadString(), std::string("x\0y", 3));
  ASSERT_TRUE(r.NextField(f));
  ASSERT_EQ(f.type, WireType::kList);
  const ListHeader list = r.ReadListHeader();
  ASSERT_EQ(list.size, 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(r.ReadBool(), i % 3 == 0) << i;
  ASSERT_TRUE(r.NextField(f));
  const MapHeader map = r.ReadMapHeader();
  EXPECT_EQ(map.size, 1u);
  EXPECT_EQ(map.key, WireType::kBinary);
  EXPECT_EQ(map.value, WireType::kI64);
  EXPECT_EQ(r.ReadString(), "k");
  EXPECT_EQ(r.ReadI64(), -5);
  ASSERT_TRUE(r.NextField(f));
  EXPECT_EQ(f.type, WireType::kUuid);
  const auto read_uuid = r.ReadUuid();
  EXPECT_TRUE(std::equal(read_uuid.begin(), read_uuid.end(), uuid.begin()));
  ASSERT_TRUE(r.NextField(f));
  EXPECT_EQ(f.id, -3);
  EXPECT_FALSE(r.FieldBool(f));
  EXPECT_FALSE(r.NextField(f));
  r.StructEnd();
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ThriftReaderTest, BoolElementsAcceptBothEncodingsOfFalse) {
  const auto bytes = Bytes({0x01, 0x02, 0x00, 0x03});
  Reader r(bytes);
  EXPECT_TRUE(r.ReadBool());
  EXPECT_FALSE(r.ReadBool());
  EXPECT_FALSE(r.ReadBool());
  EXPECT_THROW(r.ReadBool(), DecodeError);
}

TEST(ThriftReaderTest, BoolListElementTypeMayBeEitherBoolCode) {
  const auto bytes = Bytes({0x22, 0x01, 0x02});
  Reader r(bytes);
  const ListHeader h = r.ReadListHeader();
  EXPECT_EQ(h.size, 2u);
  EXPECT_EQ(h.element, WireType::kBoolFalse);
}

// Writes one field of every type, nesting containers and structs, for the skip tests.
void WriteEverything(Writer& w, std::int16_t first_id) {
  std::int16_t id = first_id;
  w.FieldBool(id++, true);
  w.FieldI8(id++, 1);
  w.FieldI16(id++, 2);
  w.FieldI32(id++, 3);
  w.FieldI64(id++, 4);
  w.FieldDouble(id++, 5.5);
  w.FieldBinary(id++, "six");
  w.FieldBegin(id++, WireType::kUuid);
  w.Uuid(std::array<std::byte, 16>{});
  w.FieldBegin(id++, WireType::kList);  // list<list<struct{bool, list<double>}>>
  w.ListBegin(WireType::kList, 2);
  for (int i = 0; i < 2; ++i) {
    w.ListBegin(WireType::kStruct, 16);
    for (int j = 0; j < 16; ++j) {
      w.StructBegin();
      w.FieldBool(1, j % 2 == 0);
      w.FieldBegin(2, WireType::kList);
      w.ListBegin(WireType::kDouble, 2);
      w.Double(1);
      w.Double(2);
      w.StructEnd();
    }
  }
  w.FieldBegin(id++, WireType::kSet);
  w.SetBegin(WireType::kI64, 3);
  w.I64(1);
  w.I64(-1);
  w.I64(1LL << 40);
  w.FieldBegin(id++, WireType::kMap);  // map<binary, map<i32, bool>>
  w.MapBegin(WireType::kBinary, WireType::kMap, 2);
  for (int i = 0; i < 2; ++i) {
    w.Binary("key");
    w.MapBegin(WireType::kI32, WireType::kBoolTrue, 1);
    w.I32(i);
    w.Bool(true);
  }
  w.FieldBegin(id++, WireType::kMap);
  w.MapBegin(WireType::kI8, WireType::kI8, 0);
  w.FieldBegin(id++, WireType::kStruct);
  w.StructBegin();
  w.FieldBegin(1, WireType::kStruct);
  w.StructBegin();
  w.FieldBinary(300, "deep");
  w.StructEnd();
  w.StructEnd();
}

TEST(ThriftReaderTest, SkipsEveryTypeIncludingNested) {
  std::vector<std::byte> out;
  Writer w(out);
  w.StructBegin();
  WriteEverything(w, 1);
  w.FieldI32(100, 42);
  w.StructEnd();

  Reader r(out);
  r.StructBegin();
  FieldHeader f;
  int skipped = 0;
  while (r.NextField(f)) {
    if (f.id == 100) {
      EXPECT_EQ(r.ReadI32(), 42);
      continue;
    }
    r.SkipField(f);
    ++skipped;
  }
  r.StructEnd();
  EXPECT_EQ(skipped, 13);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ThriftReaderTest, EveryTruncationOfAStructThrows) {
  std::vector<std::byte> out;
  Writer w(out);
  w.StructBegin();
  WriteEverything(w, 1);
  w.StructEnd();
  for (std::size_t n = 0; n < out.size(); ++n) {
    Reader r{std::span<const std::byte>(out).first(n)};
    EXPECT_THROW(r.Skip(WireType::kStruct), DecodeError) << "prefix of " << n << " bytes";
  }
  Reader whole(out);
  EXPECT_NO_THROW(whole.Skip(WireType::kStruct));
}

std::vector<std::byte> NestedStructs(int depth) {
  std::vector<std::byte> out;
  for (int i = 1; i < depth; ++i) out.push_back(std::byte{0x1C});  // field 1: struct
  for (int i = 0; i < depth; ++i) out.push_back(std::byte{0x00});
  return out;
}

std::vector<std::byte> NestedLists(int depth) {
  std::vector<std::byte> out;
  for (int i = 1; i < depth; ++i) out.push_back(std::byte{0x19});  // one element: a list
  out.push_back(std::byte{0x05});                                  // innermost: empty list of i32
  return out;
}

TEST(ThriftReaderTest, NestingIsLimitedTo64Levels) {
  const auto ok = NestedStructs(kMaxNestingDepth);
  Reader r1(ok);
  EXPECT_NO_THROW(r1.Skip(WireType::kStruct));

  const auto deep = NestedStructs(kMaxNestingDepth + 1);
  Reader r2(deep);
  try {
    r2.Skip(WireType::kStruct);
    FAIL() << "no exception";
  } catch (const DecodeError& e) {
    EXPECT_THAT(e.what(), HasSubstr("nesting deeper than 64"));
  }

  const auto lists_ok = NestedLists(kMaxNestingDepth);
  Reader r3(lists_ok);
  EXPECT_NO_THROW(r3.Skip(WireType::kList));
  const auto lists_deep = NestedLists(kMaxNestingDepth + 1);
  Reader r4(lists_deep);
  EXPECT_THROW(r4.Skip(WireType::kList), DecodeError);

  // Far deeper input must fail the same way, not exhaust the stack.
  const auto very_deep = NestedStructs(100000);
  Reader r5(very_deep);
  EXPECT_THROW(r5.Skip(WireType::kStruct), DecodeError);
}

TEST(ThriftReaderTest, ContainerSizesMustFitTheRemainingBytes) {
  // list of 1,000,000 i32 with 3 bytes behind it
  const auto list = Bytes({0xF5, 0xC0, 0x84, 0x3D, 0x00, 0x00, 0x00});
  Reader r1(list);
  try {
    r1.ReadListHeader();
    FAIL() << "no exception";
  } catch (const DecodeErrorAt& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot fit"));
    EXPECT_EQ(e.offset(), 4u);
  }
  // 2 doubles need 16 bytes, not 9
  const auto doubles = Bytes({0x27, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  Reader r2(doubles);
  EXPECT_THROW(r2.ReadListHeader(), DecodeError);
  // a map of 3 entries needs at least 6 bytes
  const auto map = Bytes({0x03, 0x55, 0x00, 0x00, 0x00, 0x00});
  Reader r3(map);
  EXPECT_THROW(r3.ReadMapHeader(), DecodeError);
  // binary claiming 2^31 - 1 bytes
  const auto binary = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x07, 'a'});
  Reader r4(binary);
  EXPECT_THROW(r4.ReadBinary(), DecodeError);
  // a list size beyond i32
  const auto huge = Bytes({0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F});
  Reader r5(huge);
  EXPECT_THROW(r5.ReadListHeader(), DecodeError);
}

TEST(ThriftReaderTest, MalformedVarintsAndTypesThrow) {
  const auto long_varint =
      Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
  Reader r1(long_varint);
  EXPECT_THROW(r1.ReadI64(), DecodeError);
  const auto overflow64 = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02});
  Reader r2(overflow64);
  EXPECT_THROW(r2.ReadI64(), DecodeError);
  const auto overflow32 = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x1F});
  Reader r3(overflow32);
  EXPECT_THROW(r3.ReadI32(), DecodeError);
  const auto i16_range = Bytes({0x80, 0x80, 0x04});  // zigzag 65536 → 32768
  Reader r4(i16_range);
  EXPECT_THROW(r4.ReadI16(), DecodeError);
  const auto bad_field_type = Bytes({0x1E});
  Reader r5(bad_field_type);
  r5.StructBegin();
  FieldHeader f;
  EXPECT_THROW(r5.NextField(f), DecodeError);
  const auto bad_stop = Bytes({0x10});
  Reader r6(bad_stop);
  r6.StructBegin();
  EXPECT_THROW(r6.NextField(f), DecodeError);
  const auto bad_element = Bytes({0x10});
  Reader r7(bad_element);
  EXPECT_THROW(r7.ReadListHeader(), DecodeError);
  const auto id_overflow = Bytes({0x04, 0xFE, 0xFF, 0x03, 0x00, 0x15, 0x00});  // id 32767, +1
  Reader r8(id_overflow);
  r8.StructBegin();
  ASSERT_TRUE(r8.NextField(f));
  EXPECT_EQ(f.id, 32767);
  r8.ReadI16();
  EXPECT_THROW(r8.NextField(f), DecodeError);
}

TEST(ThriftReaderTest, ErrorsCarryTheOffset) {
  const auto bytes = Bytes({0x15, 0x02, 0x18, 0x05, 'a'});  // binary of 5 with 1 byte left
  Reader r(bytes);
  r.StructBegin();
  FieldHeader f;
  ASSERT_TRUE(r.NextField(f));
  r.ReadI32();
  ASSERT_TRUE(r.NextField(f));
  try {
    r.ReadBinary();
    FAIL() << "no exception";
  } catch (const DecodeErrorAt& e) {
    EXPECT_EQ(e.offset(), 4u);
    EXPECT_THAT(e.what(), HasSubstr("runs past the end"));
  }
}

}  // namespace
}  // namespace timef::parquet::thrift
