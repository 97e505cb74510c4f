#include "parquet/metadata.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "parquet/errors.h"
#include "parquet/format_test_support.h"
#include "parquet/metadata_samples.h"
#include "parquet/thrift_compact.h"

namespace timef::parquet {
namespace {

using testing::Bytes;
using ::testing::HasSubstr;
using testing::Hex;
using thrift::WireType;

template <typename T>
std::vector<std::byte> Encode(const T& value) {
  std::vector<std::byte> out;
  WriteThrift(value, out);
  return out;
}

// Decodes `value`'s encoding, checks it equals `value`, consumes every byte, and re-encodes to
// the same bytes.
template <typename T>
void ExpectRoundTrip(const T& value) {
  const auto bytes = Encode(value);
  std::size_t consumed = 0;
  const T decoded = ReadThrift<T>(bytes, &consumed);
  EXPECT_EQ(consumed, bytes.size());
  EXPECT_TRUE(decoded == value);
  EXPECT_EQ(Hex(Encode(decoded)), Hex(bytes));
}

TEST(MetadataRoundTripTest, EveryStructureWithAllFields) {
  using namespace testing;
  ExpectRoundTrip(FullStatistics());
  ExpectRoundTrip(Statistics{});
  ExpectRoundTrip(FullColumnMetaData().size_statistics.value());
  ExpectRoundTrip(KeyValue{"key", "value"});
  ExpectRoundTrip(KeyValue{"key", std::nullopt});
  ExpectRoundTrip(PageEncodingStats{PageType::kDataPageV2, Encoding::kDeltaByteArray, 9});
  ExpectRoundTrip(SortingColumn{5, true, true});
  for (const auto& element : FullSchema()) ExpectRoundTrip(element);
  ExpectRoundTrip(FullColumnMetaData());
  ExpectRoundTrip(FullColumnChunk());
  ExpectRoundTrip(FullRowGroup());
  ExpectRoundTrip(FullFileMetaData());
  ExpectRoundTrip(MinimalFileMetaData());
  ExpectRoundTrip(FullDataPageV1Header());
  ExpectRoundTrip(FullDataPageV2Header());
  ExpectRoundTrip(FullDictionaryPageHeader());
  ExpectRoundTrip(IndexPageHeaderSample());
  ExpectRoundTrip(FullDataPageV1Header().data_page_header.value());
  ExpectRoundTrip(FullDataPageV2Header().data_page_header_v2.value());
  ExpectRoundTrip(FullDictionaryPageHeader().dictionary_page_header.value());
  ExpectRoundTrip(FullColumnIndex());
  ExpectRoundTrip(FullOffsetIndex());
  ExpectRoundTrip(PageLocation{-1, 0, std::numeric_limits<std::int64_t>::max()});
  ExpectRoundTrip(ColumnIndex{});
  ExpectRoundTrip(OffsetIndex{});
}

TEST(MetadataRoundTripTest, EveryLogicalType) {
  using Kind = LogicalType::Kind;
  std::vector<LogicalType> types;
  for (Kind kind : {Kind::kString, Kind::kMap, Kind::kList, Kind::kEnum, Kind::kDate,
                    Kind::kUnknown, Kind::kJson, Kind::kBson, Kind::kUuid, Kind::kFloat16}) {
    types.push_back(LogicalType::Simple(kind));
  }
  types.push_back(LogicalType::Decimal(0, 1));
  types.push_back(LogicalType::Decimal(10, 38));
  for (TimeUnit unit : {TimeUnit::kMillis, TimeUnit::kMicros, TimeUnit::kNanos}) {
    types.push_back(LogicalType::Time(true, unit));
    types.push_back(LogicalType::Timestamp(false, unit));
  }
  for (int width : {8, 16, 32, 64}) {
    types.push_back(LogicalType::Integer(width, true));
    types.push_back(LogicalType::Integer(width, false));
  }
  for (const auto& type : types) {
    SCOPED_TRACE(static_cast<int>(type.kind));
    ExpectRoundTrip(type);
    SchemaElement element;
    element.name = "x";
    element.logical_type = type;
    ExpectRoundTrip(element);
  }
}

TEST(MetadataRoundTripTest, UnknownEnumValuesSurvive) {
  PageHeader h = testing::FullDataPageV1Header();
  h.type = static_cast<PageType>(77);
  h.data_page_header->encoding = static_cast<Encoding>(1234);
  ExpectRoundTrip(h);
  EXPECT_EQ(ToString(static_cast<Encoding>(1234)), "1234");
  EXPECT_EQ(ToString(static_cast<Encoding>(1)), "1");  // GROUP_VAR_INT, never used
  EXPECT_EQ(ToString(static_cast<Type>(-1)), "-1");
}

TEST(MetadataTest, NamesFollowParquet) {
  EXPECT_EQ(ToString(Type::kFixedLenByteArray), "FIXED_LEN_BYTE_ARRAY");
  EXPECT_EQ(ToString(Type::kBoolean), "BOOLEAN");
  EXPECT_EQ(ToString(ConvertedType::kUtf8), "UTF8");
  EXPECT_EQ(ToString(ConvertedType::kUint16), "UINT_16");
  EXPECT_EQ(ToString(ConvertedType::kInterval), "INTERVAL");
  EXPECT_EQ(ToString(FieldRepetitionType::kRepeated), "REPEATED");
  EXPECT_EQ(ToString(Encoding::kPlainDictionary), "PLAIN_DICTIONARY");
  EXPECT_EQ(ToString(Encoding::kByteStreamSplit), "BYTE_STREAM_SPLIT");
  EXPECT_EQ(ToString(CompressionCodec::kLz4Raw), "LZ4_RAW");
  EXPECT_EQ(ToString(PageType::kDataPageV2), "DATA_PAGE_V2");
  EXPECT_EQ(ToString(BoundaryOrder::kDescending), "DESCENDING");
}

TEST(MetadataWireTest, PageHeaderBytesMatchTheSpecification) {
  PageHeader h;
  h.type = PageType::kDataPage;
  h.uncompressed_page_size = 100;
  h.compressed_page_size = 50;
  h.crc = -1;
  h.data_page_header = DataPageHeader{10, Encoding::kPlain, Encoding::kRle, Encoding::kRle, {}};
  // Field ids 1..5 with delta 1 each; i32 values zigzag-encoded.
  const auto expected = Bytes({0x15, 0x00,        // 1: type = DATA_PAGE (0)
                               0x15, 0xC8, 0x01,  // 2: uncompressed_page_size = 100
                               0x15, 0x64,        // 3: compressed_page_size = 50
                               0x15, 0x01,        // 4: crc = -1
                               0x1C,              // 5: data_page_header (struct)
                               0x15, 0x14,        //   1: num_values = 10
                               0x15, 0x00,        //   2: encoding = PLAIN
                               0x15, 0x06,        //   3: definition_level_encoding = RLE
                               0x15, 0x06,        //   4: repetition_level_encoding = RLE
                               0x00, 0x00});
  EXPECT_EQ(Hex(Encode(h)), Hex(expected));
}

TEST(MetadataWireTest, UnionsAndListsOfBool) {
  SchemaElement e;
  e.name = "t";
  e.logical_type = LogicalType::Timestamp(true, TimeUnit::kMicros);
  // 4: name; 10: logicalType { 8: TIMESTAMP { 1: true, 2: unit { 2: MICROS {} } } }
  EXPECT_EQ(
      Hex(Encode(e)),
      Hex(Bytes({0x48, 0x01, 't', 0x6C, 0x8C, 0x11, 0x1C, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x00})));
  ColumnIndex c;
  c.null_pages = {true, false};
  c.min_values = {"", "a"};
  c.max_values = {"", "b"};
  // 1: list<bool> of 2 (element type 1), 2/3: list<binary>, 4: boundary_order 0
  EXPECT_EQ(Hex(Encode(c)), Hex(Bytes({0x19, 0x21, 0x01, 0x02, 0x19, 0x28, 0x00, 0x01, 'a', 0x19,
                                       0x28, 0x00, 0x01, 'b', 0x15, 0x00, 0x00})));
}

// Builds a PageHeader by hand with unknown fields of every Thrift type around and inside the
// known ones, as a newer writer might.
std::vector<std::byte> PageHeaderWithUnknownFields() {
  std::vector<std::byte> out;
  thrift::Writer w(out);
  auto unknown_everything = [&w](std::int16_t first) {
    std::int16_t id = first;
    w.FieldBool(id++, true);
    w.FieldI8(id++, -1);
    w.FieldI16(id++, 1000);
    w.FieldI32(id++, 7);
    w.FieldI64(id++, -7);
    w.FieldDouble(id++, 2.5);
    w.FieldBinary(id++, "unknown");
    w.FieldBegin(id++, WireType::kUuid);
    w.Uuid(std::array<std::byte, 16>{});
    w.FieldBegin(id++, WireType::kList);
    w.ListBegin(WireType::kStruct, 2);
    for (int i = 0; i < 2; ++i) {
      w.StructBegin();
      w.FieldBegin(1, WireType::kList);
      w.ListBegin(WireType::kBoolTrue, 3);
      w.Bool(true);
      w.Bool(false);
      w.Bool(true);
      w.FieldBegin(2, WireType::kMap);
      w.MapBegin(WireType::kBinary, WireType::kStruct, 1);
      w.Binary("nested");
      w.StructBegin();
      w.FieldI32(1, 1);
      w.StructEnd();
      w.StructEnd();
    }
    w.FieldBegin(id++, WireType::kSet);
    w.SetBegin(WireType::kDouble, 1);
    w.Double(1);
    w.FieldBegin(id++, WireType::kMap);
    w.MapBegin(WireType::kI32, WireType::kI32, 0);
    w.FieldBegin(id++, WireType::kStruct);
    w.StructBegin();
    w.FieldBegin(1, WireType::kStruct);
    w.StructBegin();
    w.StructEnd();
    w.StructEnd();
  };
  w.StructBegin();
  w.FieldI32(1, 0);  // DATA_PAGE
  w.FieldI32(2, 100);
  w.FieldI32(3, 60);
  w.FieldBinary(4, "crc as binary: wrong type, skipped");
  w.FieldBegin(5, WireType::kStruct);
  w.StructBegin();
  w.FieldI32(1, 10);
  w.FieldI32(2, 0);
  unknown_everything(20);  // unknown fields between known ones
  w.FieldI32(3, 3);
  w.FieldI32(4, 3);
  w.StructEnd();
  unknown_everything(100);
  w.StructEnd();
  return out;
}

TEST(MetadataDecodeTest, UnknownFieldsOfEveryTypeAreSkipped) {
  const auto bytes = PageHeaderWithUnknownFields();
  std::size_t consumed = 0;
  const auto h = ReadThrift<PageHeader>(bytes, &consumed);
  EXPECT_EQ(consumed, bytes.size());
  EXPECT_EQ(h.type, PageType::kDataPage);
  EXPECT_EQ(h.uncompressed_page_size, 100);
  EXPECT_EQ(h.compressed_page_size, 60);
  EXPECT_FALSE(h.crc.has_value());  // arrived as binary, so skipped
  ASSERT_TRUE(h.data_page_header.has_value());
  EXPECT_EQ(h.data_page_header->num_values, 10);
  EXPECT_EQ(h.data_page_header->definition_level_encoding, Encoding::kRle);
  EXPECT_EQ(h.data_page_header->repetition_level_encoding, Encoding::kRle);
}

TEST(MetadataDecodeTest, TrailingBytesAreLeftAlone) {
  auto bytes = Encode(testing::FullDataPageV2Header());
  const std::size_t size = bytes.size();
  bytes.push_back(std::byte{0xAB});
  std::size_t consumed = 0;
  EXPECT_EQ(ReadThrift<PageHeader>(bytes, &consumed), testing::FullDataPageV2Header());
  EXPECT_EQ(consumed, size);
}

TEST(MetadataDecodeTest, UnknownLogicalTypeMemberIsKeptVerbatim) {
  std::vector<std::byte> bytes;
  thrift::Writer w(bytes);
  w.StructBegin();
  w.FieldBinary(4, "v");
  w.FieldBegin(10, WireType::kStruct);
  w.StructBegin();
  w.FieldBegin(16, WireType::kStruct);  // VARIANT { 1: specification_version = 1 }
  w.StructBegin();
  w.FieldI8(1, 1);
  w.StructEnd();
  w.StructEnd();
  w.StructEnd();
  const auto element = ReadThrift<SchemaElement>(bytes);
  ASSERT_TRUE(element.logical_type.has_value());
  EXPECT_EQ(static_cast<int>(element.logical_type->kind), 16);
  EXPECT_EQ(Hex(Encode(element)), Hex(bytes));
}

TEST(MetadataDecodeTest, EmptyUnionsAreTolerated) {
  // logicalType {} → no logical type; ColumnOrder {} → kUndefined.
  const auto schema_bytes = Bytes({0x48, 0x01, 'v', 0x6C, 0x00, 0x00});
  EXPECT_FALSE(ReadThrift<SchemaElement>(schema_bytes).logical_type.has_value());
  const auto order = ReadThrift<ColumnOrder>(Bytes({0x00}));
  EXPECT_EQ(order.kind, ColumnOrder::Kind::kUndefined);
  ExpectRoundTrip(order);
  ExpectRoundTrip(ColumnOrder{static_cast<ColumnOrder::Kind>(9)});
}

TEST(MetadataDecodeTest, UnionWithTwoMembersThrows) {
  // logicalType { 1: STRING {}, 3: LIST {} }
  const auto bytes = Bytes({0x48, 0x01, 'v', 0x6C, 0x1C, 0x00, 0x2C, 0x00, 0x00, 0x00});
  try {
    ReadThrift<SchemaElement>(bytes);
    FAIL() << "no exception";
  } catch (const DecodeError& e) {
    EXPECT_THAT(e.what(), HasSubstr("more than one member"));
  }
  EXPECT_THROW(ReadThrift<ColumnOrder>(Bytes({0x1C, 0x00, 0x1C, 0x00, 0x00})), DecodeError);
}

TEST(MetadataDecodeTest, MissingRequiredFieldsThrow) {
  PageHeader h;
  std::vector<std::byte> bytes;
  thrift::Writer w(bytes);
  w.StructBegin();
  w.FieldI32(1, 0);
  w.FieldI32(2, 100);
  w.StructEnd();
  try {
    ReadThrift<PageHeader>(bytes);
    FAIL() << "no exception";
  } catch (const DecodeError& e) {
    EXPECT_THAT(e.what(), HasSubstr("PageHeader lacks required field compressed_page_size"));
  }
  EXPECT_THROW(ReadThrift<SchemaElement>(Bytes({0x15, 0x02, 0x00})), DecodeError);  // no name
  EXPECT_THROW(ReadThrift<FileMetaData>(Bytes({0x15, 0x02, 0x00})), DecodeError);
  EXPECT_THROW(ReadThrift<KeyValue>(Bytes({0x00})), DecodeError);
  EXPECT_THROW(ReadThrift<PageLocation>(Bytes({0x16, 0x02, 0x00})), DecodeError);
  // TIME without a unit, INTEGER without isSigned
  EXPECT_THROW(ReadThrift<LogicalType>(Bytes({0x7C, 0x11, 0x00, 0x00})), DecodeError);
  EXPECT_THROW(ReadThrift<LogicalType>(Bytes({0xAC, 0x13, 0x08, 0x00, 0x00})), DecodeError);
  // ColumnChunk.file_offset is required but deprecated: its absence is tolerated.
  EXPECT_EQ(ReadThrift<ColumnChunk>(Bytes({0x00})).file_offset, 0);
}

TEST(MetadataDecodeTest, ListOfTheWrongElementTypeThrows) {
  // ColumnMetaData.encodings as list<binary>
  std::vector<std::byte> bytes;
  thrift::Writer w(bytes);
  w.StructBegin();
  w.FieldI32(1, 1);
  w.FieldBegin(2, WireType::kList);
  w.ListBegin(WireType::kBinary, 1);
  w.Binary("PLAIN");
  w.StructEnd();
  EXPECT_THROW(ReadThrift<ColumnMetaData>(bytes), DecodeError);
}

TEST(MetadataDecodeTest, EveryTruncationThrows) {
  const auto check = [](const auto& value) {
    using T = std::decay_t<decltype(value)>;
    const auto bytes = Encode(value);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      EXPECT_THROW(ReadThrift<T>(std::span(bytes).first(n)), DecodeError)
          << "prefix of " << n << " of " << bytes.size() << " bytes";
    }
  };
  check(testing::FullFileMetaData());
  check(testing::FullDataPageV1Header());
  check(testing::FullDataPageV2Header());
  check(testing::FullDictionaryPageHeader());
  check(testing::FullColumnIndex());
  check(testing::FullOffsetIndex());
}

TEST(MetadataDecodeTest, LyingLengthsThrowWithoutAllocating) {
  // FileMetaData { 1: version 1, 2: schema list<struct> claiming 2^31 - 1 elements }
  const auto huge_list = Bytes({0x15, 0x02, 0x19, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00});
  EXPECT_THROW(ReadThrift<FileMetaData>(huge_list), DecodeError);
  // KeyValue { 1: key of 1 GiB }
  const auto huge_string = Bytes({0x18, 0x80, 0x80, 0x80, 0x80, 0x04, 'k', 0x00});
  EXPECT_THROW(ReadThrift<KeyValue>(huge_string), DecodeError);
  // OffsetIndex with 1000 page locations but only a handful of bytes
  const auto many = Bytes({0x19, 0xFC, 0xE8, 0x07, 0x16, 0x02, 0x00});
  EXPECT_THROW(ReadThrift<OffsetIndex>(many), DecodeError);
}

TEST(MetadataDecodeTest, ErrorOffsetPointsIntoTheBuffer) {
  auto bytes = Encode(testing::FullFileMetaData());
  bytes.resize(bytes.size() / 2);
  try {
    ReadThrift<FileMetaData>(bytes);
    FAIL() << "no exception";
  } catch (const DecodeErrorAt& e) {
    EXPECT_LE(e.offset(), bytes.size());
    EXPECT_GT(e.offset(), 0u);
  }
}

}  // namespace
}  // namespace timef::parquet
