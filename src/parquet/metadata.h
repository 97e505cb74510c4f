// Parquet's metadata structures (parquet.thrift of apache/parquet-format) as plain C++ structs,
// with their Thrift compact-protocol serialization.
//
// Conventions: a `required` Thrift field is a plain member; an `optional` one is std::optional (so
// "absent" and "zero"/"empty" stay distinct and a decode → encode round trip is exact); lists are
// std::vector; binary and string are std::string. Enums keep any value read from a file, known or
// not, so a reader can report "unsupported encoding 12" instead of failing to parse the footer.
// Fields this engine does not model (encryption, bloom filter headers, geospatial statistics) are
// skipped on decode and not written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace timef::parquet {

// ---- Enums (values are the Thrift ordinals) ----

enum class Type : std::int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class ConvertedType : std::int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class FieldRepetitionType : std::int32_t {
  kRequired = 0,
  kOptional = 1,
  kRepeated = 2,
};

enum class Encoding : std::int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

// PLAIN_DICTIONARY (the Parquet 1.0 name) and RLE_DICTIONARY both mean "indices into the
// dictionary page".
inline bool IsDictionaryEncoding(Encoding e) {
  return e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary;
}

enum class CompressionCodec : std::int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,  // Hadoop-framed LZ4, deprecated
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : std::int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3,
};

enum class BoundaryOrder : std::int32_t {
  kUnordered = 0,
  kAscending = 1,
  kDescending = 2,
};

// Parquet's names ("BYTE_ARRAY", "RLE_DICTIONARY", ...); "<number>" for values this engine does
// not know.
std::string ToString(Type value);
std::string ToString(ConvertedType value);
std::string ToString(FieldRepetitionType value);
std::string ToString(Encoding value);
std::string ToString(CompressionCodec value);
std::string ToString(PageType value);
std::string ToString(BoundaryOrder value);

// ---- Schema ----

enum class TimeUnit : std::int16_t {  // the TimeUnit union's field ids
  kMillis = 1,
  kMicros = 2,
  kNanos = 3,
};

// The LogicalType union. `kind` is the union member's field id; only the members' parameters that
// apply to `kind` are meaningful.
struct LogicalType {
  enum class Kind : std::int16_t {
    kString = 1,
    kMap = 2,
    kList = 3,
    kEnum = 4,
    kDecimal = 5,
    kDate = 6,
    kTime = 7,
    kTimestamp = 8,
    kInteger = 10,
    kUnknown = 11,  // "always null" (NullType)
    kJson = 12,
    kBson = 13,
    kUuid = 14,
    kFloat16 = 15,
  };

  Kind kind = Kind::kString;
  std::int32_t scale = 0;  // kDecimal
  std::int32_t precision = 0;
  bool is_adjusted_to_utc = false;  // kTime, kTimestamp
  TimeUnit unit = TimeUnit::kMillis;
  std::int8_t bit_width = 0;  // kInteger: 8, 16, 32 or 64
  bool is_signed = true;
  // For a member this engine does not know (e.g. VARIANT, GEOMETRY): its encoded struct, kept so
  // that a rewrite reproduces it.
  std::string unknown_member;

  static LogicalType Simple(Kind kind);
  static LogicalType Integer(int bit_width, bool is_signed);
  static LogicalType Decimal(std::int32_t scale, std::int32_t precision);
  static LogicalType Time(bool is_adjusted_to_utc, TimeUnit unit);
  static LogicalType Timestamp(bool is_adjusted_to_utc, TimeUnit unit);

  bool operator==(const LogicalType&) const = default;
};

struct SchemaElement {
  std::optional<Type> type;  // absent for groups
  std::optional<std::int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;  // absent for the root
  std::string name;
  std::optional<std::int32_t> num_children;  // present for groups
  std::optional<ConvertedType> converted_type;
  std::optional<std::int32_t> scale;
  std::optional<std::int32_t> precision;
  std::optional<std::int32_t> field_id;
  std::optional<LogicalType> logical_type;

  bool operator==(const SchemaElement&) const = default;
};

// ---- Statistics and key-value metadata ----

struct Statistics {
  std::optional<std::string> max;  // deprecated signed-order bounds
  std::optional<std::string> min;
  std::optional<std::int64_t> null_count;
  std::optional<std::int64_t> distinct_count;
  std::optional<std::string> max_value;  // PLAIN-encoded, byte arrays without length prefix
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<std::int64_t> nan_count;

  bool operator==(const Statistics&) const = default;
};

struct SizeStatistics {
  std::optional<std::int64_t> unencoded_byte_array_data_bytes;
  std::optional<std::vector<std::int64_t>> repetition_level_histogram;
  std::optional<std::vector<std::int64_t>> definition_level_histogram;

  bool operator==(const SizeStatistics&) const = default;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;

  bool operator==(const KeyValue&) const = default;
};

// ---- Pages ----

struct DataPageHeader {
  std::int32_t num_values = 0;  // including nulls
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  std::optional<Statistics> statistics;

  bool operator==(const DataPageHeader&) const = default;
};

struct IndexPageHeader {
  bool operator==(const IndexPageHeader&) const = default;
};

struct DictionaryPageHeader {
  std::int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  std::optional<bool> is_sorted;

  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  std::int32_t num_values = 0;  // including nulls
  std::int32_t num_nulls = 0;
  std::int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  std::int32_t definition_levels_byte_length = 0;
  std::int32_t repetition_levels_byte_length = 0;
  std::optional<bool> is_compressed;  // absent means true
  std::optional<Statistics> statistics;

  bool compressed() const { return is_compressed.value_or(true); }
  bool operator==(const DataPageHeaderV2&) const = default;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  std::int32_t uncompressed_page_size = 0;  // excluding this header
  std::int32_t compressed_page_size = 0;    // excluding this header
  std::optional<std::int32_t> crc;          // CRC-32 of the page bytes as stored (see crc32.h)
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;

  bool operator==(const PageHeader&) const = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  std::int32_t count = 0;

  bool operator==(const PageEncodingStats&) const = default;
};

// ---- Row groups and column chunks ----

struct ColumnMetaData {
  Type type = Type::kBoolean;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  std::int64_t num_values = 0;
  std::int64_t total_uncompressed_size = 0;  // all pages, headers included
  std::int64_t total_compressed_size = 0;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  std::int64_t data_page_offset = 0;
  std::optional<std::int64_t> index_page_offset;
  std::optional<std::int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<std::int64_t> bloom_filter_offset;
  std::optional<std::int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;

  bool operator==(const ColumnMetaData&) const = default;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  std::int64_t file_offset = 0;  // deprecated; 0 when absent from the file
  std::optional<ColumnMetaData> meta_data;
  std::optional<std::int64_t> offset_index_offset;
  std::optional<std::int32_t> offset_index_length;
  std::optional<std::int64_t> column_index_offset;
  std::optional<std::int32_t> column_index_length;
  // Present for columns encrypted with a plaintext footer, which this engine cannot read.
  std::optional<std::string> encrypted_column_metadata;

  bool operator==(const ColumnChunk&) const = default;
};

struct SortingColumn {
  std::int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;

  bool operator==(const SortingColumn&) const = default;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;  // in schema leaf order
  std::int64_t total_byte_size = 0;
  std::int64_t num_rows = 0;
  std::optional<std::vector<SortingColumn>> sorting_columns;
  std::optional<std::int64_t> file_offset;
  std::optional<std::int64_t> total_compressed_size;
  std::optional<std::int16_t> ordinal;

  bool operator==(const RowGroup&) const = default;
};

// The ColumnOrder union; every member is an empty struct, so the member's field id is all of it.
// Orders this engine does not know keep their field id; readers must then ignore min/max.
struct ColumnOrder {
  enum class Kind : std::int16_t {
    kUndefined = 0,  // a union without a member (tolerated as Arrow does)
    kTypeDefinedOrder = 1,
    kIeee754TotalOrder = 2,
    kInt96TimestampOrder = 3,
  };
  Kind kind = Kind::kTypeDefinedOrder;

  bool operator==(const ColumnOrder&) const = default;
};

struct FileMetaData {
  std::int32_t version = 0;
  std::vector<SchemaElement> schema;  // depth-first, root first
  std::int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  std::optional<std::string> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;  // one per leaf column

  bool operator==(const FileMetaData&) const = default;
};

// ---- Page index ----

struct PageLocation {
  std::int64_t offset = 0;                // file offset of the page header
  std::int32_t compressed_page_size = 0;  // header included
  std::int64_t first_row_index = 0;       // within the row group

  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::optional<std::vector<std::int64_t>> unencoded_byte_array_data_bytes;

  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::optional<std::vector<std::int64_t>> null_counts;
  std::optional<std::vector<std::int64_t>> repetition_level_histograms;
  std::optional<std::vector<std::int64_t>> definition_level_histograms;
  std::optional<std::vector<std::int64_t>> nan_counts;

  bool operator==(const ColumnIndex&) const = default;
};

// ---- Serialization ----
//
// T is any struct above. WriteThrift appends T's compact-protocol encoding to `out`.
// ReadThrift decodes one T from the start of `bytes`, ignoring what follows it, and stores the
// number of bytes it used in `*consumed` when given (a page header's size is known only this
// way). Malformed input, including a missing required field or a union with two members, throws
// DecodeErrorAt (errors.h) with the offset relative to `bytes`.
template <typename T>
void WriteThrift(const T& value, std::vector<std::byte>& out);

template <typename T>
T ReadThrift(std::span<const std::byte> bytes, std::size_t* consumed = nullptr);

}  // namespace timef::parquet
