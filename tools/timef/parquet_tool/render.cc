#include "parquet_tool/render.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

#include "core/json_forms.h"

namespace timef::parquet {
namespace {

template <typename T>
T LoadLittleEndian(const std::byte* p) {
  static_assert(std::endian::native == std::endian::little, "little-endian hosts only");
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename F>
void AppendFloating(F value, std::string& out) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  out += text;
  // "1" or "-0" would read back as an integer; keep the value visibly floating.
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}

// The UTF-8 sequence at bytes[i]: its length when valid (`valid` = true), else the length of its
// maximal invalid subpart, which the WHATWG decoder replaces by one U+FFFD.
std::size_t Utf8SequenceLength(std::span<const std::byte> bytes, std::size_t i, bool& valid) {
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
  valid = false;
  unsigned char c = at(i);
  std::size_t length;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c < 0x80) {
    valid = true;
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 1;
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (i + k >= bytes.size()) return k;
    unsigned char low = k == 1 ? lo : 0x80, high = k == 1 ? hi : 0xBF;
    if (at(i + k) < low || at(i + k) > high) return k;
  }
  valid = true;
  return length;
}

}  // namespace

void AppendDouble(double value, std::string& out) { AppendFloating(value, out); }
void AppendFloat(float value, std::string& out) { AppendFloating(value, out); }

void AppendJsonString(std::span<const std::byte> bytes, std::string& out) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  out += '"';
  std::size_t run_start = 0;
  std::size_t i = 0;
  while (i < bytes.size()) {
    bool valid = false;
    const std::size_t length = Utf8SequenceLength(bytes, i, valid);
    if (!valid) {
      core::AppendJsonEscaped(text.substr(run_start, i - run_start), out);
      out += "\xEF\xBF\xBD";  // U+FFFD
      run_start = i + length;
    }
    i += length;
  }
  core::AppendJsonEscaped(text.substr(run_start), out);
  out += '"';
}

void AppendHex(std::span<const std::byte> bytes, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (std::byte b : bytes) {
    auto c = static_cast<unsigned char>(b);
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  out += '"';
}

bool IsTextColumn(const ColumnDescriptor& column) {
  if (column.physical_type != Type::kByteArray) return false;
  if (column.logical_type) return column.logical_type->kind == LogicalType::Kind::kString;
  return column.converted_type == ConvertedType::kUtf8;
}

bool IsUnsignedColumn(const ColumnDescriptor& column) {
  if (column.logical_type) {
    return column.logical_type->kind == LogicalType::Kind::kInteger &&
           !column.logical_type->is_signed;
  }
  if (!column.converted_type) return false;
  switch (*column.converted_type) {
    case ConvertedType::kUint8:
    case ConvertedType::kUint16:
    case ConvertedType::kUint32:
    case ConvertedType::kUint64:
      return true;
    default:
      return false;
  }
}

namespace {

void AppendBinary(const ColumnDescriptor& column, std::span<const std::byte> bytes,
                  std::string& out) {
  if (IsTextColumn(column)) {
    AppendJsonString(bytes, out);
  } else {
    AppendHex(bytes, out);
  }
}

// Renders one PLAIN fixed-width value (or a byte array's bytes) of `column`.
void AppendPlainValue(const ColumnDescriptor& column, std::span<const std::byte> bytes,
                      std::string& out) {
  const std::byte* p = bytes.data();
  switch (column.physical_type) {
    case Type::kBoolean:
      out += static_cast<unsigned char>(p[0]) != 0 ? "true" : "false";
      return;
    case Type::kInt32:
      if (IsUnsignedColumn(column)) {
        out += std::to_string(LoadLittleEndian<std::uint32_t>(p));
      } else {
        out += std::to_string(LoadLittleEndian<std::int32_t>(p));
      }
      return;
    case Type::kInt64:
      if (IsUnsignedColumn(column)) {
        out += std::to_string(LoadLittleEndian<std::uint64_t>(p));
      } else {
        out += std::to_string(LoadLittleEndian<std::int64_t>(p));
      }
      return;
    case Type::kFloat:
      AppendFloat(LoadLittleEndian<float>(p), out);
      return;
    case Type::kDouble:
      AppendDouble(LoadLittleEndian<double>(p), out);
      return;
    case Type::kByteArray:
      AppendBinary(column, bytes, out);
      return;
    case Type::kInt96:
    case Type::kFixedLenByteArray:
      AppendHex(bytes, out);
      return;
  }
  AppendHex(bytes, out);
}

}  // namespace

void AppendSlot(const ColumnDescriptor& column, const ColumnData& data, std::int64_t slot,
                std::string& out) {
  auto index = static_cast<std::size_t>(slot);
  if (!data.validity.empty() && data.validity[index] == 0) {
    out += "null";
    return;
  }
  std::span<const std::byte> values(data.values);
  if (data.physical_type == Type::kByteArray) {
    auto begin = static_cast<std::size_t>(data.byte_offsets[index]);
    auto end = static_cast<std::size_t>(data.byte_offsets[index + 1]);
    AppendPlainValue(column, values.subspan(begin, end - begin), out);
    return;
  }
  auto width = static_cast<std::size_t>(SlotWidth(data.physical_type, data.type_length));
  AppendPlainValue(column, values.subspan(index * width, width), out);
}

void AppendRowValue(const ColumnDescriptor& column, const ColumnData& data, std::int64_t row,
                    std::string& out) {
  if (data.list_offsets.empty()) {
    AppendSlot(column, data, row, out);
    return;
  }
  auto index = static_cast<std::size_t>(row);
  if (!data.list_validity.empty() && data.list_validity[index] == 0) {
    out += "null";
    return;
  }
  out += '[';
  for (std::int64_t slot = data.list_offsets[index]; slot < data.list_offsets[index + 1]; ++slot) {
    if (slot != data.list_offsets[index]) out += ',';
    AppendSlot(column, data, slot, out);
  }
  out += ']';
}

std::string RenderStatisticsValue(const ColumnDescriptor& column, const std::string& plain) {
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(plain.data()), plain.size());
  std::string out;
  if (column.physical_type == Type::kByteArray) {
    AppendBinary(column, bytes, out);
    return out;
  }
  std::int32_t width = SlotWidth(column.physical_type, column.type_length);
  if (width <= 0 || static_cast<std::size_t>(width) != bytes.size()) {
    AppendHex(bytes, out);
    return out;
  }
  AppendPlainValue(column, bytes, out);
  return out;
}

}  // namespace timef::parquet
