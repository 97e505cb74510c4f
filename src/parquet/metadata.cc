// Field ids and types follow parquet.thrift (apache/parquet-format). Decoding follows Thrift's
// rules: unknown fields, and known fields arriving with an unexpected wire type, are skipped; a
// missing required field is an error.
#include "parquet/metadata.h"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "parquet/thrift_compact.h"

namespace timef::parquet {
namespace {

using thrift::FieldHeader;
using thrift::Reader;
using thrift::WireType;
using thrift::Writer;

// Decoded lists grow as their elements decode; reserving more than this up front would let a
// lying list size cost memory before the elements prove it.
constexpr std::uint32_t kMaxListReserve = 1024;

// ---- Declarations, so that the templates below find every overload ----

void ReadValue(Reader& r, bool& v);
void ReadValue(Reader& r, std::int8_t& v);
void ReadValue(Reader& r, std::int16_t& v);
void ReadValue(Reader& r, std::int32_t& v);
void ReadValue(Reader& r, std::int64_t& v);
void ReadValue(Reader& r, std::string& v);
template <typename E>
requires std::is_enum_v<E>
void ReadValue(Reader& r, E& v);
template <typename T>
void ReadValue(Reader& r, std::vector<T>& v);
void ReadValue(Reader& r, LogicalType& v);
void ReadValue(Reader& r, IndexPageHeader& v);
void ReadValue(Reader& r, ColumnOrder& v);

// ---- The structs' fields: one table per struct, from which reading and writing are made ----

inline constexpr bool kRequired = true;
inline constexpr bool kOptional = false;

// One field of a Thrift struct: its id, the member that holds it and parquet.thrift's name.
// A required field missing from the input is an error; an optional one is a std::optional
// member (written only when present). Fields are written in table order (ascending ids).
template <typename S, typename M>
struct Field {
  std::int16_t id;
  M S::*member;
  std::string_view name;
  bool required;
};

// Used inside a ThriftFields specialisation, whose `S` names the struct.
#define TIMEF_THRIFT_FIELD(id, member, presence) \
  Field<S, decltype(S::member)> { id, &S::member, #member, presence }

// Specialised for each struct read and written through its table: kName and kFields.
template <typename S>
struct ThriftFields;

template <typename S>
concept Tabled = requires {
  ThriftFields<S>::kFields;
};

template <>
struct ThriftFields<SchemaElement> {
  using S = SchemaElement;
  static constexpr std::string_view kName = "SchemaElement";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, type, kOptional),
      TIMEF_THRIFT_FIELD(2, type_length, kOptional),
      TIMEF_THRIFT_FIELD(3, repetition_type, kOptional),
      TIMEF_THRIFT_FIELD(4, name, kRequired),
      TIMEF_THRIFT_FIELD(5, num_children, kOptional),
      TIMEF_THRIFT_FIELD(6, converted_type, kOptional),
      TIMEF_THRIFT_FIELD(7, scale, kOptional),
      TIMEF_THRIFT_FIELD(8, precision, kOptional),
      TIMEF_THRIFT_FIELD(9, field_id, kOptional),
      TIMEF_THRIFT_FIELD(10, logical_type, kOptional),
  };
};

template <>
struct ThriftFields<Statistics> {
  using S = Statistics;
  static constexpr std::string_view kName = "Statistics";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, max, kOptional),
      TIMEF_THRIFT_FIELD(2, min, kOptional),
      TIMEF_THRIFT_FIELD(3, null_count, kOptional),
      TIMEF_THRIFT_FIELD(4, distinct_count, kOptional),
      TIMEF_THRIFT_FIELD(5, max_value, kOptional),
      TIMEF_THRIFT_FIELD(6, min_value, kOptional),
      TIMEF_THRIFT_FIELD(7, is_max_value_exact, kOptional),
      TIMEF_THRIFT_FIELD(8, is_min_value_exact, kOptional),
      TIMEF_THRIFT_FIELD(9, nan_count, kOptional),
  };
};

template <>
struct ThriftFields<SizeStatistics> {
  using S = SizeStatistics;
  static constexpr std::string_view kName = "SizeStatistics";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, unencoded_byte_array_data_bytes, kOptional),
      TIMEF_THRIFT_FIELD(2, repetition_level_histogram, kOptional),
      TIMEF_THRIFT_FIELD(3, definition_level_histogram, kOptional),
  };
};

template <>
struct ThriftFields<KeyValue> {
  using S = KeyValue;
  static constexpr std::string_view kName = "KeyValue";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, key, kRequired),
      TIMEF_THRIFT_FIELD(2, value, kOptional),
  };
};

template <>
struct ThriftFields<DataPageHeader> {
  using S = DataPageHeader;
  static constexpr std::string_view kName = "DataPageHeader";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, num_values, kRequired),
      TIMEF_THRIFT_FIELD(2, encoding, kRequired),
      TIMEF_THRIFT_FIELD(3, definition_level_encoding, kRequired),
      TIMEF_THRIFT_FIELD(4, repetition_level_encoding, kRequired),
      TIMEF_THRIFT_FIELD(5, statistics, kOptional),
  };
};

template <>
struct ThriftFields<DictionaryPageHeader> {
  using S = DictionaryPageHeader;
  static constexpr std::string_view kName = "DictionaryPageHeader";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, num_values, kRequired),
      TIMEF_THRIFT_FIELD(2, encoding, kRequired),
      TIMEF_THRIFT_FIELD(3, is_sorted, kOptional),
  };
};

template <>
struct ThriftFields<DataPageHeaderV2> {
  using S = DataPageHeaderV2;
  static constexpr std::string_view kName = "DataPageHeaderV2";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, num_values, kRequired),
      TIMEF_THRIFT_FIELD(2, num_nulls, kRequired),
      TIMEF_THRIFT_FIELD(3, num_rows, kRequired),
      TIMEF_THRIFT_FIELD(4, encoding, kRequired),
      TIMEF_THRIFT_FIELD(5, definition_levels_byte_length, kRequired),
      TIMEF_THRIFT_FIELD(6, repetition_levels_byte_length, kRequired),
      TIMEF_THRIFT_FIELD(7, is_compressed, kOptional),
      TIMEF_THRIFT_FIELD(8, statistics, kOptional),
  };
};

template <>
struct ThriftFields<PageHeader> {
  using S = PageHeader;
  static constexpr std::string_view kName = "PageHeader";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, type, kRequired),
      TIMEF_THRIFT_FIELD(2, uncompressed_page_size, kRequired),
      TIMEF_THRIFT_FIELD(3, compressed_page_size, kRequired),
      TIMEF_THRIFT_FIELD(4, crc, kOptional),
      TIMEF_THRIFT_FIELD(5, data_page_header, kOptional),
      TIMEF_THRIFT_FIELD(6, index_page_header, kOptional),
      TIMEF_THRIFT_FIELD(7, dictionary_page_header, kOptional),
      TIMEF_THRIFT_FIELD(8, data_page_header_v2, kOptional),
  };
};

template <>
struct ThriftFields<PageEncodingStats> {
  using S = PageEncodingStats;
  static constexpr std::string_view kName = "PageEncodingStats";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, page_type, kRequired),
      TIMEF_THRIFT_FIELD(2, encoding, kRequired),
      TIMEF_THRIFT_FIELD(3, count, kRequired),
  };
};

template <>
struct ThriftFields<ColumnMetaData> {
  using S = ColumnMetaData;
  static constexpr std::string_view kName = "ColumnMetaData";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, type, kRequired),
      TIMEF_THRIFT_FIELD(2, encodings, kRequired),
      TIMEF_THRIFT_FIELD(3, path_in_schema, kRequired),
      TIMEF_THRIFT_FIELD(4, codec, kRequired),
      TIMEF_THRIFT_FIELD(5, num_values, kRequired),
      TIMEF_THRIFT_FIELD(6, total_uncompressed_size, kRequired),
      TIMEF_THRIFT_FIELD(7, total_compressed_size, kRequired),
      TIMEF_THRIFT_FIELD(8, key_value_metadata, kOptional),
      TIMEF_THRIFT_FIELD(9, data_page_offset, kRequired),
      TIMEF_THRIFT_FIELD(10, index_page_offset, kOptional),
      TIMEF_THRIFT_FIELD(11, dictionary_page_offset, kOptional),
      TIMEF_THRIFT_FIELD(12, statistics, kOptional),
      TIMEF_THRIFT_FIELD(13, encoding_stats, kOptional),
      TIMEF_THRIFT_FIELD(14, bloom_filter_offset, kOptional),
      TIMEF_THRIFT_FIELD(15, bloom_filter_length, kOptional),
      TIMEF_THRIFT_FIELD(16, size_statistics, kOptional),
  };
};

// file_offset is required with default 0 in parquet.thrift; it is deprecated, so its absence is
// tolerated (the member then keeps 0).
template <>
struct ThriftFields<ColumnChunk> {
  using S = ColumnChunk;
  static constexpr std::string_view kName = "ColumnChunk";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, file_path, kOptional),
      TIMEF_THRIFT_FIELD(2, file_offset, kOptional),
      TIMEF_THRIFT_FIELD(3, meta_data, kOptional),
      TIMEF_THRIFT_FIELD(4, offset_index_offset, kOptional),
      TIMEF_THRIFT_FIELD(5, offset_index_length, kOptional),
      TIMEF_THRIFT_FIELD(6, column_index_offset, kOptional),
      TIMEF_THRIFT_FIELD(7, column_index_length, kOptional),
      TIMEF_THRIFT_FIELD(9, encrypted_column_metadata, kOptional),
  };
};

template <>
struct ThriftFields<SortingColumn> {
  using S = SortingColumn;
  static constexpr std::string_view kName = "SortingColumn";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, column_idx, kRequired),
      TIMEF_THRIFT_FIELD(2, descending, kRequired),
      TIMEF_THRIFT_FIELD(3, nulls_first, kRequired),
  };
};

template <>
struct ThriftFields<RowGroup> {
  using S = RowGroup;
  static constexpr std::string_view kName = "RowGroup";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, columns, kRequired),
      TIMEF_THRIFT_FIELD(2, total_byte_size, kRequired),
      TIMEF_THRIFT_FIELD(3, num_rows, kRequired),
      TIMEF_THRIFT_FIELD(4, sorting_columns, kOptional),
      TIMEF_THRIFT_FIELD(5, file_offset, kOptional),
      TIMEF_THRIFT_FIELD(6, total_compressed_size, kOptional),
      TIMEF_THRIFT_FIELD(7, ordinal, kOptional),
  };
};

template <>
struct ThriftFields<FileMetaData> {
  using S = FileMetaData;
  static constexpr std::string_view kName = "FileMetaData";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, version, kRequired),
      TIMEF_THRIFT_FIELD(2, schema, kRequired),
      TIMEF_THRIFT_FIELD(3, num_rows, kRequired),
      TIMEF_THRIFT_FIELD(4, row_groups, kRequired),
      TIMEF_THRIFT_FIELD(5, key_value_metadata, kOptional),
      TIMEF_THRIFT_FIELD(6, created_by, kOptional),
      TIMEF_THRIFT_FIELD(7, column_orders, kOptional),
  };
};

template <>
struct ThriftFields<PageLocation> {
  using S = PageLocation;
  static constexpr std::string_view kName = "PageLocation";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, offset, kRequired),
      TIMEF_THRIFT_FIELD(2, compressed_page_size, kRequired),
      TIMEF_THRIFT_FIELD(3, first_row_index, kRequired),
  };
};

template <>
struct ThriftFields<OffsetIndex> {
  using S = OffsetIndex;
  static constexpr std::string_view kName = "OffsetIndex";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, page_locations, kRequired),
      TIMEF_THRIFT_FIELD(2, unencoded_byte_array_data_bytes, kOptional),
  };
};

template <>
struct ThriftFields<ColumnIndex> {
  using S = ColumnIndex;
  static constexpr std::string_view kName = "ColumnIndex";
  static constexpr std::tuple kFields = {
      TIMEF_THRIFT_FIELD(1, null_pages, kRequired),
      TIMEF_THRIFT_FIELD(2, min_values, kRequired),
      TIMEF_THRIFT_FIELD(3, max_values, kRequired),
      TIMEF_THRIFT_FIELD(4, boundary_order, kRequired),
      TIMEF_THRIFT_FIELD(5, null_counts, kOptional),
      TIMEF_THRIFT_FIELD(6, repetition_level_histograms, kOptional),
      TIMEF_THRIFT_FIELD(7, definition_level_histograms, kOptional),
      TIMEF_THRIFT_FIELD(8, nan_counts, kOptional),
  };
};

#undef TIMEF_THRIFT_FIELD

template <Tabled S>
void ReadValue(Reader& r, S& v);
template <Tabled S>
void WriteValue(Writer& w, const S& v);
// SchemaElement.logical_type: a union without a member leaves the field absent (older writers).
bool Take(Reader& r, const FieldHeader& f, std::optional<LogicalType>& out);

void WriteValue(Writer& w, bool v) { w.Bool(v); }
void WriteValue(Writer& w, std::int8_t v) { w.I8(v); }
void WriteValue(Writer& w, std::int16_t v) { w.I16(v); }
void WriteValue(Writer& w, std::int32_t v) { w.I32(v); }
void WriteValue(Writer& w, std::int64_t v) { w.I64(v); }
void WriteValue(Writer& w, const std::string& v) { w.Binary(v); }
template <typename E>
requires std::is_enum_v<E>
void WriteValue(Writer& w, E v) { w.I32(static_cast<std::int32_t>(v)); }
template <typename T>
void WriteValue(Writer& w, const std::vector<T>& v);
void WriteValue(Writer& w, const LogicalType& v);
void WriteValue(Writer& w, const IndexPageHeader& v);
void WriteValue(Writer& w, const ColumnOrder& v);

// ---- Generic machinery ----

template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

template <typename T>
constexpr WireType WireTypeOf() {
  if constexpr (std::is_same_v<T, bool>) {
    return WireType::kBoolTrue;
  } else if constexpr (std::is_same_v<T, std::int8_t>) {
    return WireType::kI8;
  } else if constexpr (std::is_same_v<T, std::int16_t>) {
    return WireType::kI16;
  } else if constexpr (std::is_same_v<T, std::int32_t> || std::is_enum_v<T>) {
    return WireType::kI32;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return WireType::kI64;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return WireType::kBinary;
  } else if constexpr (IsVector<T>::value) {
    return WireType::kList;
  } else {
    return WireType::kStruct;
  }
}

bool IsBool(WireType t) { return t == WireType::kBoolTrue || t == WireType::kBoolFalse; }

bool Matches(WireType expected, WireType actual) {
  return expected == actual || (IsBool(expected) && IsBool(actual));
}

// Reads one field's value into `out` when its wire type is T's; false (the caller then skips the
// field) otherwise.
template <typename T>
bool Take(Reader& r, const FieldHeader& f, T& out) {
  if (!Matches(WireTypeOf<T>(), f.type)) return false;
  if constexpr (std::is_same_v<T, bool>) {
    out = r.FieldBool(f);
  } else {
    ReadValue(r, out);
  }
  return true;
}

template <typename T>
bool Take(Reader& r, const FieldHeader& f, std::optional<T>& out) {
  T value{};
  if (!Take(r, f, value)) return false;
  out = std::move(value);
  return true;
}

// Calls `fn(field)` for each field of the struct at the reader's position; fields for which `fn`
// returns false are skipped.
template <typename Fn>
void ReadFields(Reader& r, Fn&& fn) {
  r.StructBegin();
  FieldHeader field;
  while (r.NextField(field)) {
    if (!fn(field)) r.SkipField(field);
  }
  r.StructEnd();
}

// Remembers which field ids (1..63) a struct has delivered, to check the required ones.
class SeenFields {
 public:
  bool Mark(std::int16_t id, bool taken) {
    if (taken) bits_ |= std::uint64_t{1} << id;
    return taken;
  }
  bool Has(std::int16_t id) const { return (bits_ >> id) & 1; }
  void Require(const Reader& r, std::string_view type,
               std::initializer_list<std::pair<std::int16_t, std::string_view>> fields) const {
    for (const auto& [id, name] : fields) {
      if (!Has(id)) {
        r.Fail(std::string(type) + " lacks required field " + std::string(name));
      }
    }
  }

 private:
  std::uint64_t bits_ = 0;
};

template <typename T>
void ReadValue(Reader& r, std::vector<T>& v) {
  const thrift::ListHeader header = r.ReadListHeader();
  if (!Matches(WireTypeOf<T>(), header.element)) {
    r.Fail("list of " + std::string(thrift::WireTypeName(header.element)) + " where a list of " +
           std::string(thrift::WireTypeName(WireTypeOf<T>())) + " belongs");
  }
  v.clear();
  v.reserve(std::min(header.size, kMaxListReserve));
  for (std::uint32_t i = 0; i < header.size; ++i) {
    T item{};
    ReadValue(r, item);
    v.push_back(std::move(item));
  }
}

template <typename E>
requires std::is_enum_v<E>
void ReadValue(Reader& r, E& v) { v = static_cast<E>(r.ReadI32()); }

void ReadValue(Reader& r, bool& v) { v = r.ReadBool(); }
void ReadValue(Reader& r, std::int8_t& v) { v = r.ReadI8(); }
void ReadValue(Reader& r, std::int16_t& v) { v = r.ReadI16(); }
void ReadValue(Reader& r, std::int32_t& v) { v = r.ReadI32(); }
void ReadValue(Reader& r, std::int64_t& v) { v = r.ReadI64(); }
void ReadValue(Reader& r, std::string& v) { v = r.ReadString(); }

template <typename T>
void WriteValue(Writer& w, const std::vector<T>& v) {
  if (v.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw std::length_error("thrift list longer than 2^31-1 elements");
  }
  w.ListBegin(WireTypeOf<T>(), static_cast<std::uint32_t>(v.size()));
  for (const auto& item : v) WriteValue(w, item);
}

// Writes field `id` (a bool field carries its value in the header).
template <typename T>
void Put(Writer& w, std::int16_t id, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    w.FieldBool(id, v);
  } else {
    w.FieldBegin(id, WireTypeOf<T>());
    WriteValue(w, v);
  }
}

template <typename T>
void Put(Writer& w, std::int16_t id, const std::optional<T>& v) {
  if (v) Put(w, id, *v);
}

void WriteEmptyStruct(Writer& w) {
  w.StructBegin();
  w.StructEnd();
}

// A struct with a field table: each field read when its wire type matches (Thrift's rules above),
// then the required ones checked in table order.
template <Tabled S>
void ReadValue(Reader& r, S& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    bool taken = false;
    std::apply(
        [&](const auto&... field) {
          (void)((field.id == f.id &&
                  (taken = seen.Mark(f.id, Take(r, f, v.*field.member)), true)) ||
                 ...);
        },
        ThriftFields<S>::kFields);
    return taken;
  });
  std::apply(
      [&](const auto&... field) {
        ((field.required && !seen.Has(field.id)
              ? r.Fail(std::string(ThriftFields<S>::kName) + " lacks required field " +
                       std::string(field.name))
              : void()),
         ...);
      },
      ThriftFields<S>::kFields);
}

template <Tabled S>
void WriteValue(Writer& w, const S& v) {
  w.StructBegin();
  std::apply([&](const auto&... field) { (Put(w, field.id, v.*field.member), ...); },
             ThriftFields<S>::kFields);
  w.StructEnd();
}

// ---- Logical types ----

void ReadTimeUnit(Reader& r, TimeUnit& unit) {
  int members = 0;
  ReadFields(r, [&](const FieldHeader& f) {
    if (f.type != WireType::kStruct) return false;
    if (++members > 1) r.Fail("TimeUnit union with more than one member");
    unit = static_cast<TimeUnit>(f.id);  // MILLIS=1, MICROS=2, NANOS=3; others kept as read
    r.Skip(WireType::kStruct);
    return true;
  });
  if (members == 0) r.Fail("TimeUnit union without a member");
}

void ReadTemporal(Reader& r, LogicalType& v, std::string_view type) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.is_adjusted_to_utc));
      case 2:
        if (f.type != WireType::kStruct) return false;
        ReadTimeUnit(r, v.unit);
        return seen.Mark(2, true);
    }
    return false;
  });
  seen.Require(r, type, {{1, "isAdjustedToUTC"}, {2, "unit"}});
}

void ReadDecimal(Reader& r, LogicalType& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.scale));
      case 2:
        return seen.Mark(2, Take(r, f, v.precision));
    }
    return false;
  });
  seen.Require(r, "DecimalType", {{1, "scale"}, {2, "precision"}});
}

void ReadInteger(Reader& r, LogicalType& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.bit_width));
      case 2:
        return seen.Mark(2, Take(r, f, v.is_signed));
    }
    return false;
  });
  seen.Require(r, "IntType", {{1, "bitWidth"}, {2, "isSigned"}});
}

// Reads the LogicalType union; false when it has no member (then `v` is untouched).
bool ReadLogicalType(Reader& r, LogicalType& v) {
  int members = 0;
  ReadFields(r, [&](const FieldHeader& f) {
    if (f.type != WireType::kStruct) return false;
    if (++members > 1) r.Fail("LogicalType union with more than one member");
    v = LogicalType{};
    v.kind = static_cast<LogicalType::Kind>(f.id);
    switch (v.kind) {
      case LogicalType::Kind::kDecimal:
        ReadDecimal(r, v);
        break;
      case LogicalType::Kind::kTime:
        ReadTemporal(r, v, "TimeType");
        break;
      case LogicalType::Kind::kTimestamp:
        ReadTemporal(r, v, "TimestampType");
        break;
      case LogicalType::Kind::kInteger:
        ReadInteger(r, v);
        break;
      case LogicalType::Kind::kString:
      case LogicalType::Kind::kMap:
      case LogicalType::Kind::kList:
      case LogicalType::Kind::kEnum:
      case LogicalType::Kind::kDate:
      case LogicalType::Kind::kUnknown:
      case LogicalType::Kind::kJson:
      case LogicalType::Kind::kBson:
      case LogicalType::Kind::kUuid:
      case LogicalType::Kind::kFloat16:
        r.Skip(WireType::kStruct);  // empty structs (fields added later are ignored)
        break;
      default: {
        const std::size_t start = r.position();
        r.Skip(WireType::kStruct);
        const auto bytes = r.data().subspan(start, r.position() - start);
        v.unknown_member.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        break;
      }
    }
    return true;
  });
  return members == 1;
}

void ReadValue(Reader& r, LogicalType& v) {
  if (!ReadLogicalType(r, v)) r.Fail("LogicalType union without a member");
}

bool Take(Reader& r, const FieldHeader& f, std::optional<LogicalType>& out) {
  if (f.type != WireType::kStruct) return false;
  LogicalType logical;
  if (ReadLogicalType(r, logical)) out = std::move(logical);
  return true;
}

void WriteTemporal(Writer& w, const LogicalType& v) {
  w.StructBegin();
  Put(w, 1, v.is_adjusted_to_utc);
  w.FieldBegin(2, WireType::kStruct);
  w.StructBegin();
  w.FieldBegin(static_cast<std::int16_t>(v.unit), WireType::kStruct);
  WriteEmptyStruct(w);
  w.StructEnd();
  w.StructEnd();
}

void WriteValue(Writer& w, const LogicalType& v) {
  w.StructBegin();
  w.FieldBegin(static_cast<std::int16_t>(v.kind), WireType::kStruct);
  switch (v.kind) {
    case LogicalType::Kind::kDecimal:
      w.StructBegin();
      Put(w, 1, v.scale);
      Put(w, 2, v.precision);
      w.StructEnd();
      break;
    case LogicalType::Kind::kTime:
    case LogicalType::Kind::kTimestamp:
      WriteTemporal(w, v);
      break;
    case LogicalType::Kind::kInteger:
      w.StructBegin();
      Put(w, 1, v.bit_width);
      Put(w, 2, v.is_signed);
      w.StructEnd();
      break;
    default:
      if (v.unknown_member.empty()) {
        WriteEmptyStruct(w);
      } else {
        w.Raw(std::as_bytes(std::span(v.unknown_member)));
      }
      break;
  }
  w.StructEnd();
}

void ReadValue(Reader& r, IndexPageHeader&) { r.Skip(WireType::kStruct); }
void WriteValue(Writer& w, const IndexPageHeader&) { WriteEmptyStruct(w); }

void ReadValue(Reader& r, ColumnOrder& v) {
  int members = 0;
  ReadFields(r, [&](const FieldHeader& f) {
    if (f.type != WireType::kStruct) return false;
    if (++members > 1) r.Fail("ColumnOrder union with more than one member");
    v.kind = static_cast<ColumnOrder::Kind>(f.id);  // unknown orders are kept as read
    r.Skip(WireType::kStruct);
    return true;
  });
  if (members == 0) v.kind = ColumnOrder::Kind::kUndefined;
}

void WriteValue(Writer& w, const ColumnOrder& v) {
  w.StructBegin();
  if (v.kind != ColumnOrder::Kind::kUndefined) {
    w.FieldBegin(static_cast<std::int16_t>(v.kind), WireType::kStruct);
    WriteEmptyStruct(w);
  }
  w.StructEnd();
}

// ---- Names ----

std::string Named(std::int32_t value, std::initializer_list<std::string_view> names) {
  if (value >= 0 && static_cast<std::size_t>(value) < names.size()) {
    const std::string_view name = names.begin()[value];
    if (!name.empty()) return std::string(name);
  }
  return std::to_string(value);
}

}  // namespace

LogicalType LogicalType::Simple(Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

LogicalType LogicalType::Integer(int bit_width, bool is_signed) {
  LogicalType t = Simple(Kind::kInteger);
  t.bit_width = static_cast<std::int8_t>(bit_width);
  t.is_signed = is_signed;
  return t;
}

LogicalType LogicalType::Decimal(std::int32_t scale, std::int32_t precision) {
  LogicalType t = Simple(Kind::kDecimal);
  t.scale = scale;
  t.precision = precision;
  return t;
}

LogicalType LogicalType::Time(bool is_adjusted_to_utc, TimeUnit unit) {
  LogicalType t = Simple(Kind::kTime);
  t.is_adjusted_to_utc = is_adjusted_to_utc;
  t.unit = unit;
  return t;
}

LogicalType LogicalType::Timestamp(bool is_adjusted_to_utc, TimeUnit unit) {
  LogicalType t = Time(is_adjusted_to_utc, unit);
  t.kind = Kind::kTimestamp;
  return t;
}

std::string ToString(Type value) {
  return Named(static_cast<std::int32_t>(value), {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT",
                                                  "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"});
}

std::string ToString(ConvertedType value) {
  return Named(static_cast<std::int32_t>(value), {"UTF8",
                                                  "MAP",
                                                  "MAP_KEY_VALUE",
                                                  "LIST",
                                                  "ENUM",
                                                  "DECIMAL",
                                                  "DATE",
                                                  "TIME_MILLIS",
                                                  "TIME_MICROS",
                                                  "TIMESTAMP_MILLIS",
                                                  "TIMESTAMP_MICROS",
                                                  "UINT_8",
                                                  "UINT_16",
                                                  "UINT_32",
                                                  "UINT_64",
                                                  "INT_8",
                                                  "INT_16",
                                                  "INT_32",
                                                  "INT_64",
                                                  "JSON",
                                                  "BSON",
                                                  "INTERVAL"});
}

std::string ToString(FieldRepetitionType value) {
  return Named(static_cast<std::int32_t>(value), {"REQUIRED", "OPTIONAL", "REPEATED"});
}

std::string ToString(Encoding value) {
  return Named(
      static_cast<std::int32_t>(value),
      {"PLAIN", "", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
       "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"});
}

std::string ToString(CompressionCodec value) {
  return Named(static_cast<std::int32_t>(value),
               {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"});
}

std::string ToString(PageType value) {
  return Named(static_cast<std::int32_t>(value),
               {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"});
}

std::string ToString(BoundaryOrder value) {
  return Named(static_cast<std::int32_t>(value), {"UNORDERED", "ASCENDING", "DESCENDING"});
}

template <typename T>
void WriteThrift(const T& value, std::vector<std::byte>& out) {
  Writer writer(out);
  WriteValue(writer, value);
}

template <typename T>
T ReadThrift(std::span<const std::byte> bytes, std::size_t* consumed) {
  Reader reader(bytes);
  T value{};
  ReadValue(reader, value);
  if (consumed != nullptr) *consumed = reader.position();
  return value;
}

#define TIMEF_PARQUET_THRIFT_STRUCT(T)                             \
  template void WriteThrift<T>(const T&, std::vector<std::byte>&); \
  template T ReadThrift<T>(std::span<const std::byte>, std::size_t*);

TIMEF_PARQUET_THRIFT_STRUCT(LogicalType)
TIMEF_PARQUET_THRIFT_STRUCT(SchemaElement)
TIMEF_PARQUET_THRIFT_STRUCT(Statistics)
TIMEF_PARQUET_THRIFT_STRUCT(SizeStatistics)
TIMEF_PARQUET_THRIFT_STRUCT(KeyValue)
TIMEF_PARQUET_THRIFT_STRUCT(DataPageHeader)
TIMEF_PARQUET_THRIFT_STRUCT(IndexPageHeader)
TIMEF_PARQUET_THRIFT_STRUCT(DictionaryPageHeader)
TIMEF_PARQUET_THRIFT_STRUCT(DataPageHeaderV2)
TIMEF_PARQUET_THRIFT_STRUCT(PageHeader)
TIMEF_PARQUET_THRIFT_STRUCT(PageEncodingStats)
TIMEF_PARQUET_THRIFT_STRUCT(ColumnMetaData)
TIMEF_PARQUET_THRIFT_STRUCT(ColumnChunk)
TIMEF_PARQUET_THRIFT_STRUCT(SortingColumn)
TIMEF_PARQUET_THRIFT_STRUCT(RowGroup)
TIMEF_PARQUET_THRIFT_STRUCT(ColumnOrder)
TIMEF_PARQUET_THRIFT_STRUCT(FileMetaData)
TIMEF_PARQUET_THRIFT_STRUCT(PageLocation)
TIMEF_PARQUET_THRIFT_STRUCT(OffsetIndex)
TIMEF_PARQUET_THRIFT_STRUCT(ColumnIndex)

#undef TIMEF_PARQUET_THRIFT_STRUCT

}  // namespace timef::parquet
