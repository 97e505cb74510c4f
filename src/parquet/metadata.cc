// Field ids and types follow parquet.thrift (apache/parquet-format). Decoding follows Thrift's
// rules: unknown fields, and known fields arriving with an unexpected wire type, are skipped; a
// missing required field is an error.
#include "parquet/metadata.h"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string_view>
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
void ReadValue(Reader& r, SchemaElement& v);
void ReadValue(Reader& r, Statistics& v);
void ReadValue(Reader& r, SizeStatistics& v);
void ReadValue(Reader& r, KeyValue& v);
void ReadValue(Reader& r, DataPageHeader& v);
void ReadValue(Reader& r, IndexPageHeader& v);
void ReadValue(Reader& r, DictionaryPageHeader& v);
void ReadValue(Reader& r, DataPageHeaderV2& v);
void ReadValue(Reader& r, PageHeader& v);
void ReadValue(Reader& r, PageEncodingStats& v);
void ReadValue(Reader& r, ColumnMetaData& v);
void ReadValue(Reader& r, ColumnChunk& v);
void ReadValue(Reader& r, SortingColumn& v);
void ReadValue(Reader& r, RowGroup& v);
void ReadValue(Reader& r, ColumnOrder& v);
void ReadValue(Reader& r, FileMetaData& v);
void ReadValue(Reader& r, PageLocation& v);
void ReadValue(Reader& r, OffsetIndex& v);
void ReadValue(Reader& r, ColumnIndex& v);

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
void WriteValue(Writer& w, const SchemaElement& v);
void WriteValue(Writer& w, const Statistics& v);
void WriteValue(Writer& w, const SizeStatistics& v);
void WriteValue(Writer& w, const KeyValue& v);
void WriteValue(Writer& w, const DataPageHeader& v);
void WriteValue(Writer& w, const IndexPageHeader& v);
void WriteValue(Writer& w, const DictionaryPageHeader& v);
void WriteValue(Writer& w, const DataPageHeaderV2& v);
void WriteValue(Writer& w, const PageHeader& v);
void WriteValue(Writer& w, const PageEncodingStats& v);
void WriteValue(Writer& w, const ColumnMetaData& v);
void WriteValue(Writer& w, const ColumnChunk& v);
void WriteValue(Writer& w, const SortingColumn& v);
void WriteValue(Writer& w, const RowGroup& v);
void WriteValue(Writer& w, const ColumnOrder& v);
void WriteValue(Writer& w, const FileMetaData& v);
void WriteValue(Writer& w, const PageLocation& v);
void WriteValue(Writer& w, const OffsetIndex& v);
void WriteValue(Writer& w, const ColumnIndex& v);

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

// ---- Schema ----

void ReadValue(Reader& r, SchemaElement& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return Take(r, f, v.type);
      case 2:
        return Take(r, f, v.type_length);
      case 3:
        return Take(r, f, v.repetition_type);
      case 4:
        return seen.Mark(4, Take(r, f, v.name));
      case 5:
        return Take(r, f, v.num_children);
      case 6:
        return Take(r, f, v.converted_type);
      case 7:
        return Take(r, f, v.scale);
      case 8:
        return Take(r, f, v.precision);
      case 9:
        return Take(r, f, v.field_id);
      case 10: {
        if (f.type != WireType::kStruct) return false;
        LogicalType logical;
        if (ReadLogicalType(r, logical)) v.logical_type = std::move(logical);
        return true;
      }
    }
    return false;
  });
  seen.Require(r, "SchemaElement", {{4, "name"}});
}

void WriteValue(Writer& w, const SchemaElement& v) {
  w.StructBegin();
  Put(w, 1, v.type);
  Put(w, 2, v.type_length);
  Put(w, 3, v.repetition_type);
  Put(w, 4, v.name);
  Put(w, 5, v.num_children);
  Put(w, 6, v.converted_type);
  Put(w, 7, v.scale);
  Put(w, 8, v.precision);
  Put(w, 9, v.field_id);
  Put(w, 10, v.logical_type);
  w.StructEnd();
}

// ---- Statistics and key-value metadata ----

void ReadValue(Reader& r, Statistics& v) {
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return Take(r, f, v.max);
      case 2:
        return Take(r, f, v.min);
      case 3:
        return Take(r, f, v.null_count);
      case 4:
        return Take(r, f, v.distinct_count);
      case 5:
        return Take(r, f, v.max_value);
      case 6:
        return Take(r, f, v.min_value);
      case 7:
        return Take(r, f, v.is_max_value_exact);
      case 8:
        return Take(r, f, v.is_min_value_exact);
      case 9:
        return Take(r, f, v.nan_count);
    }
    return false;
  });
}

void WriteValue(Writer& w, const Statistics& v) {
  w.StructBegin();
  Put(w, 1, v.max);
  Put(w, 2, v.min);
  Put(w, 3, v.null_count);
  Put(w, 4, v.distinct_count);
  Put(w, 5, v.max_value);
  Put(w, 6, v.min_value);
  Put(w, 7, v.is_max_value_exact);
  Put(w, 8, v.is_min_value_exact);
  Put(w, 9, v.nan_count);
  w.StructEnd();
}

void ReadValue(Reader& r, SizeStatistics& v) {
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return Take(r, f, v.unencoded_byte_array_data_bytes);
      case 2:
        return Take(r, f, v.repetition_level_histogram);
      case 3:
        return Take(r, f, v.definition_level_histogram);
    }
    return false;
  });
}

void WriteValue(Writer& w, const SizeStatistics& v) {
  w.StructBegin();
  Put(w, 1, v.unencoded_byte_array_data_bytes);
  Put(w, 2, v.repetition_level_histogram);
  Put(w, 3, v.definition_level_histogram);
  w.StructEnd();
}

void ReadValue(Reader& r, KeyValue& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.key));
      case 2:
        return Take(r, f, v.value);
    }
    return false;
  });
  seen.Require(r, "KeyValue", {{1, "key"}});
}

void WriteValue(Writer& w, const KeyValue& v) {
  w.StructBegin();
  Put(w, 1, v.key);
  Put(w, 2, v.value);
  w.StructEnd();
}

// ---- Pages ----

void ReadValue(Reader& r, DataPageHeader& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.num_values));
      case 2:
        return seen.Mark(2, Take(r, f, v.encoding));
      case 3:
        return seen.Mark(3, Take(r, f, v.definition_level_encoding));
      case 4:
        return seen.Mark(4, Take(r, f, v.repetition_level_encoding));
      case 5:
        return Take(r, f, v.statistics);
    }
    return false;
  });
  seen.Require(r, "DataPageHeader",
               {{1, "num_values"},
                {2, "encoding"},
                {3, "definition_level_encoding"},
                {4, "repetition_level_encoding"}});
}

void WriteValue(Writer& w, const DataPageHeader& v) {
  w.StructBegin();
  Put(w, 1, v.num_values);
  Put(w, 2, v.encoding);
  Put(w, 3, v.definition_level_encoding);
  Put(w, 4, v.repetition_level_encoding);
  Put(w, 5, v.statistics);
  w.StructEnd();
}

void ReadValue(Reader& r, IndexPageHeader&) { r.Skip(WireType::kStruct); }
void WriteValue(Writer& w, const IndexPageHeader&) { WriteEmptyStruct(w); }

void ReadValue(Reader& r, DictionaryPageHeader& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.num_values));
      case 2:
        return seen.Mark(2, Take(r, f, v.encoding));
      case 3:
        return Take(r, f, v.is_sorted);
    }
    return false;
  });
  seen.Require(r, "DictionaryPageHeader", {{1, "num_values"}, {2, "encoding"}});
}

void WriteValue(Writer& w, const DictionaryPageHeader& v) {
  w.StructBegin();
  Put(w, 1, v.num_values);
  Put(w, 2, v.encoding);
  Put(w, 3, v.is_sorted);
  w.StructEnd();
}

void ReadValue(Reader& r, DataPageHeaderV2& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.num_values));
      case 2:
        return seen.Mark(2, Take(r, f, v.num_nulls));
      case 3:
        return seen.Mark(3, Take(r, f, v.num_rows));
      case 4:
        return seen.Mark(4, Take(r, f, v.encoding));
      case 5:
        return seen.Mark(5, Take(r, f, v.definition_levels_byte_length));
      case 6:
        return seen.Mark(6, Take(r, f, v.repetition_levels_byte_length));
      case 7:
        return Take(r, f, v.is_compressed);
      case 8:
        return Take(r, f, v.statistics);
    }
    return false;
  });
  seen.Require(r, "DataPageHeaderV2",
               {{1, "num_values"},
                {2, "num_nulls"},
                {3, "num_rows"},
                {4, "encoding"},
                {5, "definition_levels_byte_length"},
                {6, "repetition_levels_byte_length"}});
}

void WriteValue(Writer& w, const DataPageHeaderV2& v) {
  w.StructBegin();
  Put(w, 1, v.num_values);
  Put(w, 2, v.num_nulls);
  Put(w, 3, v.num_rows);
  Put(w, 4, v.encoding);
  Put(w, 5, v.definition_levels_byte_length);
  Put(w, 6, v.repetition_levels_byte_length);
  Put(w, 7, v.is_compressed);
  Put(w, 8, v.statistics);
  w.StructEnd();
}

void ReadValue(Reader& r, PageHeader& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.type));
      case 2:
        return seen.Mark(2, Take(r, f, v.uncompressed_page_size));
      case 3:
        return seen.Mark(3, Take(r, f, v.compressed_page_size));
      case 4:
        return Take(r, f, v.crc);
      case 5:
        return Take(r, f, v.data_page_header);
      case 6:
        return Take(r, f, v.index_page_header);
      case 7:
        return Take(r, f, v.dictionary_page_header);
      case 8:
        return Take(r, f, v.data_page_header_v2);
    }
    return false;
  });
  seen.Require(r, "PageHeader",
               {{1, "type"}, {2, "uncompressed_page_size"}, {3, "compressed_page_size"}});
}

void WriteValue(Writer& w, const PageHeader& v) {
  w.StructBegin();
  Put(w, 1, v.type);
  Put(w, 2, v.uncompressed_page_size);
  Put(w, 3, v.compressed_page_size);
  Put(w, 4, v.crc);
  Put(w, 5, v.data_page_header);
  Put(w, 6, v.index_page_header);
  Put(w, 7, v.dictionary_page_header);
  Put(w, 8, v.data_page_header_v2);
  w.StructEnd();
}

void ReadValue(Reader& r, PageEncodingStats& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.page_type));
      case 2:
        return seen.Mark(2, Take(r, f, v.encoding));
      case 3:
        return seen.Mark(3, Take(r, f, v.count));
    }
    return false;
  });
  seen.Require(r, "PageEncodingStats", {{1, "page_type"}, {2, "encoding"}, {3, "count"}});
}

void WriteValue(Writer& w, const PageEncodingStats& v) {
  w.StructBegin();
  Put(w, 1, v.page_type);
  Put(w, 2, v.encoding);
  Put(w, 3, v.count);
  w.StructEnd();
}

// ---- Column chunks and row groups ----

void ReadValue(Reader& r, ColumnMetaData& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.type));
      case 2:
        return seen.Mark(2, Take(r, f, v.encodings));
      case 3:
        return seen.Mark(3, Take(r, f, v.path_in_schema));
      case 4:
        return seen.Mark(4, Take(r, f, v.codec));
      case 5:
        return seen.Mark(5, Take(r, f, v.num_values));
      case 6:
        return seen.Mark(6, Take(r, f, v.total_uncompressed_size));
      case 7:
        return seen.Mark(7, Take(r, f, v.total_compressed_size));
      case 8:
        return Take(r, f, v.key_value_metadata);
      case 9:
        return seen.Mark(9, Take(r, f, v.data_page_offset));
      case 10:
        return Take(r, f, v.index_page_offset);
      case 11:
        return Take(r, f, v.dictionary_page_offset);
      case 12:
        return Take(r, f, v.statistics);
      case 13:
        return Take(r, f, v.encoding_stats);
      case 14:
        return Take(r, f, v.bloom_filter_offset);
      case 15:
        return Take(r, f, v.bloom_filter_length);
      case 16:
        return Take(r, f, v.size_statistics);
    }
    return false;
  });
  seen.Require(r, "ColumnMetaData",
               {{1, "type"},
                {2, "encodings"},
                {3, "path_in_schema"},
                {4, "codec"},
                {5, "num_values"},
                {6, "total_uncompressed_size"},
                {7, "total_compressed_size"},
                {9, "data_page_offset"}});
}

void WriteValue(Writer& w, const ColumnMetaData& v) {
  w.StructBegin();
  Put(w, 1, v.type);
  Put(w, 2, v.encodings);
  Put(w, 3, v.path_in_schema);
  Put(w, 4, v.codec);
  Put(w, 5, v.num_values);
  Put(w, 6, v.total_uncompressed_size);
  Put(w, 7, v.total_compressed_size);
  Put(w, 8, v.key_value_metadata);
  Put(w, 9, v.data_page_offset);
  Put(w, 10, v.index_page_offset);
  Put(w, 11, v.dictionary_page_offset);
  Put(w, 12, v.statistics);
  Put(w, 13, v.encoding_stats);
  Put(w, 14, v.bloom_filter_offset);
  Put(w, 15, v.bloom_filter_length);
  Put(w, 16, v.size_statistics);
  w.StructEnd();
}

void ReadValue(Reader& r, ColumnChunk& v) {
  // file_offset is required with default 0; it is deprecated, so its absence is tolerated.
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return Take(r, f, v.file_path);
      case 2:
        return Take(r, f, v.file_offset);
      case 3:
        return Take(r, f, v.meta_data);
      case 4:
        return Take(r, f, v.offset_index_offset);
      case 5:
        return Take(r, f, v.offset_index_length);
      case 6:
        return Take(r, f, v.column_index_offset);
      case 7:
        return Take(r, f, v.column_index_length);
      case 9:
        return Take(r, f, v.encrypted_column_metadata);
    }
    return false;
  });
}

void WriteValue(Writer& w, const ColumnChunk& v) {
  w.StructBegin();
  Put(w, 1, v.file_path);
  Put(w, 2, v.file_offset);
  Put(w, 3, v.meta_data);
  Put(w, 4, v.offset_index_offset);
  Put(w, 5, v.offset_index_length);
  Put(w, 6, v.column_index_offset);
  Put(w, 7, v.column_index_length);
  Put(w, 9, v.encrypted_column_metadata);
  w.StructEnd();
}

void ReadValue(Reader& r, SortingColumn& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.column_idx));
      case 2:
        return seen.Mark(2, Take(r, f, v.descending));
      case 3:
        return seen.Mark(3, Take(r, f, v.nulls_first));
    }
    return false;
  });
  seen.Require(r, "SortingColumn", {{1, "column_idx"}, {2, "descending"}, {3, "nulls_first"}});
}

void WriteValue(Writer& w, const SortingColumn& v) {
  w.StructBegin();
  Put(w, 1, v.column_idx);
  Put(w, 2, v.descending);
  Put(w, 3, v.nulls_first);
  w.StructEnd();
}

void ReadValue(Reader& r, RowGroup& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.columns));
      case 2:
        return seen.Mark(2, Take(r, f, v.total_byte_size));
      case 3:
        return seen.Mark(3, Take(r, f, v.num_rows));
      case 4:
        return Take(r, f, v.sorting_columns);
      case 5:
        return Take(r, f, v.file_offset);
      case 6:
        return Take(r, f, v.total_compressed_size);
      case 7:
        return Take(r, f, v.ordinal);
    }
    return false;
  });
  seen.Require(r, "RowGroup", {{1, "columns"}, {2, "total_byte_size"}, {3, "num_rows"}});
}

void WriteValue(Writer& w, const RowGroup& v) {
  w.StructBegin();
  Put(w, 1, v.columns);
  Put(w, 2, v.total_byte_size);
  Put(w, 3, v.num_rows);
  Put(w, 4, v.sorting_columns);
  Put(w, 5, v.file_offset);
  Put(w, 6, v.total_compressed_size);
  Put(w, 7, v.ordinal);
  w.StructEnd();
}

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

void ReadValue(Reader& r, FileMetaData& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.version));
      case 2:
        return seen.Mark(2, Take(r, f, v.schema));
      case 3:
        return seen.Mark(3, Take(r, f, v.num_rows));
      case 4:
        return seen.Mark(4, Take(r, f, v.row_groups));
      case 5:
        return Take(r, f, v.key_value_metadata);
      case 6:
        return Take(r, f, v.created_by);
      case 7:
        return Take(r, f, v.column_orders);
    }
    return false;
  });
  seen.Require(r, "FileMetaData",
               {{1, "version"}, {2, "schema"}, {3, "num_rows"}, {4, "row_groups"}});
}

void WriteValue(Writer& w, const FileMetaData& v) {
  w.StructBegin();
  Put(w, 1, v.version);
  Put(w, 2, v.schema);
  Put(w, 3, v.num_rows);
  Put(w, 4, v.row_groups);
  Put(w, 5, v.key_value_metadata);
  Put(w, 6, v.created_by);
  Put(w, 7, v.column_orders);
  w.StructEnd();
}

// ---- Page index ----

void ReadValue(Reader& r, PageLocation& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.offset));
      case 2:
        return seen.Mark(2, Take(r, f, v.compressed_page_size));
      case 3:
        return seen.Mark(3, Take(r, f, v.first_row_index));
    }
    return false;
  });
  seen.Require(r, "PageLocation",
               {{1, "offset"}, {2, "compressed_page_size"}, {3, "first_row_index"}});
}

void WriteValue(Writer& w, const PageLocation& v) {
  w.StructBegin();
  Put(w, 1, v.offset);
  Put(w, 2, v.compressed_page_size);
  Put(w, 3, v.first_row_index);
  w.StructEnd();
}

void ReadValue(Reader& r, OffsetIndex& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.page_locations));
      case 2:
        return Take(r, f, v.unencoded_byte_array_data_bytes);
    }
    return false;
  });
  seen.Require(r, "OffsetIndex", {{1, "page_locations"}});
}

void WriteValue(Writer& w, const OffsetIndex& v) {
  w.StructBegin();
  Put(w, 1, v.page_locations);
  Put(w, 2, v.unencoded_byte_array_data_bytes);
  w.StructEnd();
}

void ReadValue(Reader& r, ColumnIndex& v) {
  SeenFields seen;
  ReadFields(r, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        return seen.Mark(1, Take(r, f, v.null_pages));
      case 2:
        return seen.Mark(2, Take(r, f, v.min_values));
      case 3:
        return seen.Mark(3, Take(r, f, v.max_values));
      case 4:
        return seen.Mark(4, Take(r, f, v.boundary_order));
      case 5:
        return Take(r, f, v.null_counts);
      case 6:
        return Take(r, f, v.repetition_level_histograms);
      case 7:
        return Take(r, f, v.definition_level_histograms);
      case 8:
        return Take(r, f, v.nan_counts);
    }
    return false;
  });
  seen.Require(r, "ColumnIndex",
               {{1, "null_pages"}, {2, "min_values"}, {3, "max_values"}, {4, "boundary_order"}});
}

void WriteValue(Writer& w, const ColumnIndex& v) {
  w.StructBegin();
  Put(w, 1, v.null_pages);
  Put(w, 2, v.min_values);
  Put(w, 3, v.max_values);
  Put(w, 4, v.boundary_order);
  Put(w, 5, v.null_counts);
  Put(w, 6, v.repetition_level_histograms);
  Put(w, 7, v.definition_level_histograms);
  Put(w, 8, v.nan_counts);
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
