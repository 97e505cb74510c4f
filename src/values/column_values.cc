#include "values/column_values.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace timef::values {
namespace {

template <class T>
std::vector<T> CopyFixed(std::span<const std::byte> bytes, std::int64_t first, std::int64_t n) {
  if (n <= 0) return {};
  const std::byte* from = bytes.data() + first * static_cast<std::int64_t>(sizeof(T));
  if (reinterpret_cast<std::uintptr_t>(from) % alignof(T) == 0) {
    // Built from the range in one pass: a vector sized first is zero-filled, then overwritten,
    // which was a tenth of a batch read. The decoder's byte buffer holds the values as T objects
    // (C++20 implicit object creation in std::byte storage) at T's alignment.
    const T* values = std::launder(reinterpret_cast<const T*>(from));
    return std::vector<T>(values, values + n);
  }
  std::vector<T> out(static_cast<std::size_t>(n));
  std::memcpy(out.data(), from, static_cast<std::size_t>(n) * sizeof(T));
  return out;
}

// INT32 slots narrowed to T, which must hold each present value (null slots are zero).
template <class T>
std::vector<T> Narrow(std::span<const std::byte> bytes, std::int64_t first, std::int64_t n,
                      const std::function<void(const std::string&)>& fail) {
  const std::vector<std::int32_t> wide = CopyFixed<std::int32_t>(bytes, first, n);
  std::vector<T> out(wide.size());
  for (std::size_t i = 0; i < wide.size(); ++i) {
    // Unsigned types are stored as the bit pattern of their value in 32 bits.
    const std::int64_t value = std::is_signed_v<T>
                                   ? std::int64_t{wide[i]}
                                   : std::int64_t{static_cast<std::uint32_t>(wide[i])};
    if (value < std::numeric_limits<T>::min() || value > std::numeric_limits<T>::max()) {
      fail("value " + std::to_string(value) + " at step " + std::to_string(i) +
           " is outside the dtype's range");
    }
    out[i] = static_cast<T>(value);
  }
  return out;
}

std::string_view Slot(const parquet::ColumnData& row, std::int64_t slot) {
  const auto begin = row.byte_offsets[static_cast<std::size_t>(slot)];
  const auto end = row.byte_offsets[static_cast<std::size_t>(slot) + 1];
  return std::string_view(reinterpret_cast<const char*>(row.values.data()) + begin,
                          static_cast<std::size_t>(end - begin));
}

}  // namespace

model::ValueArray RowToValues(const parquet::ColumnData& row, const model::Spec& spec,
                              std::int64_t n_values,
                              const std::function<void(const std::string&)>& fail) {
  if (row.num_rows != 1 || row.list_offsets.size() != 2) fail("expected one list row");
  if (!row.list_validity.empty() && row.list_validity[0] == 0) fail("the values list is null");
  const std::int64_t first = row.list_offsets[0];
  const std::int64_t n = row.list_offsets[1] - first;
  if (n != n_values) {
    fail("the values list holds " + std::to_string(n) +
         " values, the locator says n_values = " + std::to_string(n_values));
  }
  std::vector<std::uint8_t> validity;
  if (!row.validity.empty()) {
    validity.assign(row.validity.begin() + first, row.validity.begin() + first + n);
    std::int64_t nulls = 0;
    for (std::uint8_t present : validity) nulls += present == 0 ? 1 : 0;
    if (nulls > 0 && !spec.nullable) {
      fail(std::to_string(nulls) + " null value(s) in non-nullable spec_type '" + spec.spec_type +
           "'");
    }
    if (nulls == 0) validity.clear();
  }
  const std::span<const std::byte> bytes(row.values);
  using model::DType;
  using model::ValueArray;
  switch (spec.dtype) {
    case DType::kBool: {
      std::vector<std::uint8_t> flags = CopyFixed<std::uint8_t>(bytes, first, n);
      for (std::uint8_t& flag : flags) flag = flag != 0 ? 1 : 0;
      return ValueArray(DType::kBool, std::move(flags), std::move(validity));
    }
    case DType::kInt8:
      return ValueArray(spec.dtype, Narrow<std::int8_t>(bytes, first, n, fail),
                        std::move(validity));
    case DType::kInt16:
      return ValueArray(spec.dtype, Narrow<std::int16_t>(bytes, first, n, fail),
                        std::move(validity));
    case DType::kInt32:
      return ValueArray(spec.dtype, CopyFixed<std::int32_t>(bytes, first, n), std::move(validity));
    case DType::kUint8:
      return ValueArray(spec.dtype, Narrow<std::uint8_t>(bytes, first, n, fail),
                        std::move(validity));
    case DType::kUint16:
      return ValueArray(spec.dtype, Narrow<std::uint16_t>(bytes, first, n, fail),
                        std::move(validity));
    case DType::kUint32:
      return ValueArray(spec.dtype, CopyFixed<std::uint32_t>(bytes, first, n), std::move(validity));
    case DType::kFloat32:
      return ValueArray(spec.dtype, CopyFixed<float>(bytes, first, n), std::move(validity));
    case DType::kFloat64:
      return ValueArray(spec.dtype, CopyFixed<double>(bytes, first, n), std::move(validity));
    case DType::kStr: {
      std::vector<std::string> texts;
      texts.reserve(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) texts.emplace_back(Slot(row, first + i));
      return ValueArray(spec.dtype, std::move(texts), std::move(validity));
    }
    case DType::kEnum: {
      std::unordered_map<std::string_view, std::int32_t> codes;
      for (std::size_t c = 0; c < spec.categories.size(); ++c) {
        codes.emplace(spec.categories[c], static_cast<std::int32_t>(c));
      }
      std::vector<std::int32_t> out(static_cast<std::size_t>(n), 0);
      for (std::int64_t i = 0; i < n; ++i) {
        if (!validity.empty() && validity[static_cast<std::size_t>(i)] == 0) continue;
        const std::string_view label = Slot(row, first + i);
        auto found = codes.find(label);
        if (found == codes.end()) {
          fail("enum label '" + std::string(label) + "' at step " + std::to_string(i) +
               " is not among the categories of spec_type '" + spec.spec_type + "'");
        }
        out[static_cast<std::size_t>(i)] = found->second;
      }
      return ValueArray::EnumCodes(std::move(out), std::move(validity));
    }
  }
  fail("unknown dtype");
  return {};
}

bool SliceListRow(const parquet::ColumnData& whole, std::int64_t row, parquet::ColumnData& out) {
  if (row < 0 || whole.list_offsets.size() < static_cast<std::size_t>(row) + 2) return false;
  out.Clear();
  out.physical_type = whole.physical_type;
  out.type_length = whole.type_length;
  out.num_rows = 1;
  const std::int64_t base = whole.list_offsets.front();
  const std::int64_t begin = whole.list_offsets[row] - base;
  const std::int64_t end = whole.list_offsets[row + 1] - base;
  out.list_offsets = {0, end - begin};
  if (!whole.list_validity.empty()) out.list_validity = {whole.list_validity[row]};
  const std::int32_t width = parquet::SlotWidth(whole.physical_type, whole.type_length);
  if (width > 0) {
    out.values.assign(whole.values.begin() + begin * width, whole.values.begin() + end * width);
  } else {
    const std::int64_t first = whole.byte_offsets[begin];
    out.values.assign(whole.values.begin() + first, whole.values.begin() + whole.byte_offsets[end]);
    for (std::int64_t i = begin; i <= end; ++i) {
      out.byte_offsets.push_back(whole.byte_offsets[i] - first);
    }
  }
  if (!whole.validity.empty()) {
    out.validity.assign(whole.validity.begin() + begin, whole.validity.begin() + end);
  }
  return true;
}

}  // namespace timef::values
