#include "parquet/writer_statistics.h"

#include <cmath>
#include <cstring>
#include <type_traits>

namespace timef::parquet {

namespace {

bool HasConverted(const ColumnDescriptor& column, std::initializer_list<ConvertedType> types) {
  if (!column.converted_type) return false;
  for (ConvertedType t : types) {
    if (*column.converted_type == t) return true;
  }
  return false;
}

bool HasLogical(const ColumnDescriptor& column, LogicalType::Kind kind) {
  return column.logical_type && column.logical_type->unknown_member.empty() &&
         column.logical_type->kind == kind;
}

bool IsUnsignedInteger(const ColumnDescriptor& column) {
  if (column.logical_type && column.logical_type->unknown_member.empty() &&
      column.logical_type->kind == LogicalType::Kind::kInteger) {
    return !column.logical_type->is_signed;
  }
  return HasConverted(column, {ConvertedType::kUint8, ConvertedType::kUint16,
                               ConvertedType::kUint32, ConvertedType::kUint64});
}

template <typename T>
T Load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
std::string Encode(T v) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &v, sizeof(T));
  return out;
}

// `get(i)` yields value i as T; T orders the values (an unsigned T for unsigned columns).
template <typename T, typename Get>
ValueBounds ScanIntegers(std::size_t n, const Get& get) {
  ValueBounds bounds;
  if (n == 0) return bounds;
  T lo = get(0);
  T hi = lo;
  for (std::size_t i = 1; i < n; ++i) {
    const T v = get(i);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  bounds.has_bounds = true;
  bounds.min = Encode(lo);
  bounds.max = Encode(hi);
  return bounds;
}

template <typename T, typename Get>
ValueBounds ScanFloats(std::size_t n, const Get& get) {
  ValueBounds bounds;
  std::size_t i = 0;
  for (; i < n && std::isnan(get(i)); ++i) ++bounds.nan_count;
  if (i == n) return bounds;
  T lo = get(i);
  T hi = lo;
  for (++i; i < n; ++i) {
    const T v = get(i);
    if (std::isnan(v)) {
      ++bounds.nan_count;
      continue;
    }
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  // -0.0 and +0.0 compare equal, so whichever came first won; write the bounds that hold both.
  if (lo == T{0}) lo = -T{0};
  if (hi == T{0}) hi = T{0};
  bounds.has_bounds = true;
  bounds.min = Encode(lo);
  bounds.max = Encode(hi);
  return bounds;
}

template <typename Get>
ValueBounds ScanBooleans(std::size_t n, const Get& get) {
  ValueBounds bounds;
  if (n == 0) return bounds;
  bool any_false = false;
  bool any_true = false;
  for (std::size_t i = 0; i < n && !(any_false && any_true); ++i) {
    if (get(i) != 0) {
      any_true = true;
    } else {
      any_false = true;
    }
  }
  bounds.has_bounds = true;
  bounds.min = std::string(1, any_false ? '\0' : '\1');
  bounds.max = std::string(1, any_true ? '\1' : '\0');
  return bounds;
}

// `get(i)` yields value i as a std::string_view.
template <typename Get>
ValueBounds ScanBytes(std::size_t n, const Get& get) {
  ValueBounds bounds;
  if (n == 0) return bounds;
  std::string_view lo = get(0);
  std::string_view hi = lo;
  for (std::size_t i = 1; i < n; ++i) {
    const std::string_view v = get(i);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  bounds.has_bounds = true;
  bounds.min = std::string(lo);
  bounds.max = std::string(hi);
  return bounds;
}

// Dispatches on `kind`; `at(i)` returns a pointer to value i's bytes.
template <typename At>
ValueBounds ScanFixed(StatsKind kind, std::size_t width, std::size_t n, const At& at) {
  switch (kind) {
    case StatsKind::kNone:
      return {};
    case StatsKind::kBoolean:
      return ScanBooleans(n, [&](std::size_t i) { return static_cast<std::uint8_t>(*at(i)); });
    case StatsKind::kInt32:
      return ScanIntegers<std::int32_t>(n,
                                        [&](std::size_t i) { return Load<std::int32_t>(at(i)); });
    case StatsKind::kUInt32:
      return ScanIntegers<std::uint32_t>(n,
                                         [&](std::size_t i) { return Load<std::uint32_t>(at(i)); });
    case StatsKind::kInt64:
      return ScanIntegers<std::int64_t>(n,
                                        [&](std::size_t i) { return Load<std::int64_t>(at(i)); });
    case StatsKind::kUInt64:
      return ScanIntegers<std::uint64_t>(n,
                                         [&](std::size_t i) { return Load<std::uint64_t>(at(i)); });
    case StatsKind::kFloat:
      return ScanFloats<float>(n, [&](std::size_t i) { return Load<float>(at(i)); });
    case StatsKind::kDouble:
      return ScanFloats<double>(n, [&](std::size_t i) { return Load<double>(at(i)); });
    case StatsKind::kBytes:
      return ScanBytes(n, [&](std::size_t i) {
        return std::string_view(reinterpret_cast<const char*>(at(i)), width);
      });
  }
  return {};
}

std::string_view AsText(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

template <typename T>
int Compare3(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Length of the valid UTF-8 character starting at text[pos], or 0 when it is not one.
std::size_t Utf8CharLength(std::string_view text, std::size_t pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned lead = byte(pos);
  std::size_t length;
  unsigned low = 0x80;
  unsigned high = 0xBF;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // at most U+10FFFF
  } else {
    return 0;
  }
  if (pos + length > text.size()) return 0;
  if (byte(pos + 1) < low || byte(pos + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return 0;
  }
  return length;
}

char32_t DecodeUtf8(std::string_view text, std::size_t pos, std::size_t length) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
  if (length == 1) return byte(0);
  char32_t cp = byte(0) & (0xFF >> (length + 1));
  for (std::size_t i = 1; i < length; ++i) cp = (cp << 6) | (byte(i) & 0x3F);
  return cp;
}

void AppendUtf8(char32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Start offsets of the characters that lie wholly inside text[0, limit), or std::nullopt when
// that part is not valid UTF-8 (the character straddling `limit` must be valid as well).
std::optional<std::vector<std::size_t>> Utf8Starts(std::string_view text, std::size_t limit) {
  std::vector<std::size_t> starts;
  std::size_t pos = 0;
  while (pos < limit) {
    const std::size_t length = Utf8CharLength(text, pos);
    if (length == 0) return std::nullopt;
    if (pos + length > limit) break;
    starts.push_back(pos);
    pos += length;
  }
  return starts;
}

std::optional<std::string> TruncateMaxBytes(std::string_view value, std::size_t limit) {
  for (std::size_t i = limit; i-- > 0;) {
    const auto b = static_cast<unsigned char>(value[i]);
    if (b != 0xFF) {
      std::string out(value.substr(0, i));
      out += static_cast<char>(b + 1);
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace

StatsKind StatsKindOf(const ColumnDescriptor& column) {
  const bool unknown_logical = column.logical_type && !column.logical_type->unknown_member.empty();
  switch (column.physical_type) {
    case Type::kBoolean:
      return StatsKind::kBoolean;
    case Type::kInt32:
      return IsUnsignedInteger(column) ? StatsKind::kUInt32 : StatsKind::kInt32;
    case Type::kInt64:
      return IsUnsignedInteger(column) ? StatsKind::kUInt64 : StatsKind::kInt64;
    case Type::kFloat:
      return StatsKind::kFloat;
    case Type::kDouble:
      return StatsKind::kDouble;
    case Type::kByteArray:
    case Type::kFixedLenByteArray:
      // Decimals order as signed numbers and FLOAT16 as floats, which byte order does not give;
      // INTERVAL and the logical types this engine does not know have no defined order.
      if (unknown_logical || HasLogical(column, LogicalType::Kind::kDecimal) ||
          HasLogical(column, LogicalType::Kind::kFloat16) ||
          HasConverted(column, {ConvertedType::kDecimal, ConvertedType::kInterval})) {
        return StatsKind::kNone;
      }
      return StatsKind::kBytes;
    default:
      return StatsKind::kNone;
  }
}

bool IsUtf8Column(const ColumnDescriptor& column) {
  if (column.physical_type != Type::kByteArray) return false;
  return HasLogical(column, LogicalType::Kind::kString) ||
         HasLogical(column, LogicalType::Kind::kEnum) ||
         HasLogical(column, LogicalType::Kind::kJson) ||
         HasConverted(column, {ConvertedType::kUtf8, ConvertedType::kEnum, ConvertedType::kJson});
}

ValueBounds FixedWidthBounds(StatsKind kind, std::size_t width, std::span<const std::byte> values) {
  const std::byte* base = values.data();
  const std::size_t n = width == 0 ? 0 : values.size() / width;
  return ScanFixed(kind, width, n, [&](std::size_t i) { return base + i * width; });
}

ValueBounds FixedWidthBounds(StatsKind kind, std::size_t width,
                             std::span<const std::byte> dictionary,
                             std::span<const std::uint32_t> indices) {
  const std::byte* base = dictionary.data();
  const std::uint32_t* index = indices.data();
  return ScanFixed(kind, width, indices.size(),
                   [&](std::size_t i) { return base + std::size_t{index[i]} * width; });
}

ValueBounds ByteArrayBounds(ByteArraysView values) {
  return ScanBytes(values.size(), [&](std::size_t i) { return AsText(values[i]); });
}

ValueBounds ByteArrayBounds(ByteArraysView dictionary, std::span<const std::uint32_t> indices) {
  return ScanBytes(indices.size(), [&](std::size_t i) { return AsText(dictionary[indices[i]]); });
}

int CompareBounds(StatsKind kind, std::string_view a, std::string_view b) {
  const auto* pa = reinterpret_cast<const std::byte*>(a.data());
  const auto* pb = reinterpret_cast<const std::byte*>(b.data());
  switch (kind) {
    case StatsKind::kInt32:
      return Compare3(Load<std::int32_t>(pa), Load<std::int32_t>(pb));
    case StatsKind::kUInt32:
      return Compare3(Load<std::uint32_t>(pa), Load<std::uint32_t>(pb));
    case StatsKind::kInt64:
      return Compare3(Load<std::int64_t>(pa), Load<std::int64_t>(pb));
    case StatsKind::kUInt64:
      return Compare3(Load<std::uint64_t>(pa), Load<std::uint64_t>(pb));
    case StatsKind::kFloat:
      return Compare3(Load<float>(pa), Load<float>(pb));
    case StatsKind::kDouble:
      return Compare3(Load<double>(pa), Load<double>(pb));
    case StatsKind::kBoolean:
    case StatsKind::kBytes:
    case StatsKind::kNone:
      break;
  }
  const int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

void MergeBounds(StatsKind kind, const ValueBounds& other, ValueBounds& into) {
  into.nan_count += other.nan_count;
  if (!other.has_bounds) return;
  if (!into.has_bounds) {
    into.has_bounds = true;
    into.min = other.min;
    into.max = other.max;
    return;
  }
  if (CompareBounds(kind, other.min, into.min) < 0) into.min = other.min;
  if (CompareBounds(kind, other.max, into.max) > 0) into.max = other.max;
}

BoundaryOrder ComputeBoundaryOrder(StatsKind kind, const std::vector<bool>& null_pages,
                                   const std::vector<std::string>& min_values,
                                   const std::vector<std::string>& max_values) {
  bool ascending = true;
  bool descending = true;
  std::optional<std::size_t> previous;
  for (std::size_t i = 0; i < null_pages.size(); ++i) {
    if (null_pages[i]) continue;
    if (previous) {
      const int by_min = CompareBounds(kind, min_values[*previous], min_values[i]);
      const int by_max = CompareBounds(kind, max_values[*previous], max_values[i]);
      if (by_min > 0 || by_max > 0) ascending = false;
      if (by_min < 0 || by_max < 0) descending = false;
    }
    previous = i;
  }
  if (ascending) return BoundaryOrder::kAscending;
  if (descending) return BoundaryOrder::kDescending;
  return BoundaryOrder::kUnordered;
}

std::optional<std::string> TruncateMin(std::string_view value, std::size_t limit, bool utf8) {
  if (limit == 0 || value.size() <= limit) return std::nullopt;
  if (utf8) {
    if (const auto starts = Utf8Starts(value, limit)) {
      // Cut before the character that crosses the limit.
      const std::size_t cut =
          starts->empty() ? 0 : starts->back() + Utf8CharLength(value, starts->back());
      return std::string(value.substr(0, cut));
    }
  }
  return std::string(value.substr(0, limit));
}

std::optional<std::string> TruncateMax(std::string_view value, std::size_t limit, bool utf8) {
  if (limit == 0 || value.size() <= limit) return std::nullopt;
  if (utf8) {
    if (const auto starts = Utf8Starts(value, limit)) {
      // Replace the last character that has a successor by that successor and drop the rest.
      for (std::size_t k = starts->size(); k-- > 0;) {
        const std::size_t pos = (*starts)[k];
        const std::size_t length = Utf8CharLength(value, pos);
        char32_t next = DecodeUtf8(value, pos, length) + 1;
        if (next == 0xD800) next = 0xE000;
        if (next > 0x10FFFF) continue;
        std::string out(value.substr(0, pos));
        AppendUtf8(next, out);
        if (out.size() > limit) continue;
        return out;
      }
      return std::nullopt;
    }
  }
  return TruncateMaxBytes(value, limit);
}

}  // namespace timef::parquet
