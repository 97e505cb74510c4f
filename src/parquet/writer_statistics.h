// Column statistics as the writer computes them: min/max bounds of the non-null values of a page
// or column chunk in the column's type-defined order, PLAIN-encoded the way Statistics and
// ColumnIndex store them (byte arrays without a length prefix).
//
// Floats: NaN never becomes a bound (it is counted instead), a range whose values are all NaN has
// no bounds, and a zero bound is written as -0.0 for the minimum and +0.0 for the maximum, as
// parquet.thrift asks for TYPE_ORDER. Byte arrays compare as unsigned bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/encoding_decoder.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"

namespace timef::parquet {

// How a column's values are ordered for statistics.
enum class StatsKind : std::int8_t {
  kNone,  // undefined order (e.g. DECIMAL or INTERVAL in byte arrays): no min/max
  kBoolean,
  kInt32,
  kUInt32,  // INT32 with an unsigned logical/converted type
  kInt64,
  kUInt64,
  kFloat,
  kDouble,
  kBytes,  // BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
};

StatsKind StatsKindOf(const ColumnDescriptor& column);
// True for byte arrays annotated as UTF-8 text (STRING, ENUM, JSON), whose truncated bounds must
// stay valid UTF-8.
bool IsUtf8Column(const ColumnDescriptor& column);

struct ValueBounds {
  bool has_bounds = false;  // some value is neither null nor NaN
  std::string min;
  std::string max;
  std::int64_t nan_count = 0;
};

// Bounds of `values` (n values of `width` bytes back to back; BOOLEAN: one 0/1 byte each).
ValueBounds FixedWidthBounds(StatsKind kind, std::size_t width, std::span<const std::byte> values);
// The same for the values dictionary[indices[i]].
ValueBounds FixedWidthBounds(StatsKind kind, std::size_t width,
                             std::span<const std::byte> dictionary,
                             std::span<const std::uint32_t> indices);
ValueBounds ByteArrayBounds(ByteArraysView values);
ValueBounds ByteArrayBounds(ByteArraysView dictionary, std::span<const std::uint32_t> indices);

// <0, 0, >0 as a is below, equal to or above b (both PLAIN-encoded bounds of `kind`).
int CompareBounds(StatsKind kind, std::string_view a, std::string_view b);

// Widens `into` by `other`.
void MergeBounds(StatsKind kind, const ValueBounds& other, ValueBounds& into);

// Boundary order of a ColumnIndex: pages with null_pages[i] are ignored; ascending when both
// bound lists never decrease (also when all are equal), descending when both never increase.
BoundaryOrder ComputeBoundaryOrder(StatsKind kind, const std::vector<bool>& null_pages,
                                   const std::vector<std::string>& min_values,
                                   const std::vector<std::string>& max_values);

// Shortened bounds for a byte array longer than `limit` bytes: a prefix for the minimum; for the
// maximum a prefix whose last byte (UTF-8: last character) is incremented, so that it still
// exceeds every value. std::nullopt when the value is short enough or no valid shorter bound
// exists (a maximum of 0xFF bytes). UTF-8 bounds are cut at character boundaries and stay valid
// UTF-8 when the value is.
std::optional<std::string> TruncateMin(std::string_view value, std::size_t limit, bool utf8);
std::optional<std::string> TruncateMax(std::string_view value, std::size_t limit, bool utf8);

}  // namespace timef::parquet
