#include "values/column_values.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

namespace timef::values {
namespace {

template <class T>
void CopyFixedInto(std::span<const std::byte> bytes, std::int64_t first, std::span<T> out) {
  if (out.empty()) return;
  std::memcpy(out.data(), bytes.data() + first * static_cast<std::int64_t>(sizeof(T)),
              out.size() * sizeof(T));
}

// INT32 slots narrowed to T, which must hold each present value (null slots are zero).
template <class T>
void NarrowInto(std::span<const std::byte> bytes, std::int64_t first, std::span<T> out,
                const std::function<void(const std::string&)>& fail) {
  const std::byte* from = bytes.data() + first * static_cast<std::int64_t>(sizeof(std::int32_t));
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::int32_t wide;
    std::memcpy(&wide, from + i * sizeof(std::int32_t), sizeof wide);
    // Unsigned types are stored as the bit pattern of their value in 32 bits.
    const std::int64_t value =
        std::is_signed_v<T> ? std::int64_t{wide} : std::int64_t{static_cast<std::uint32_t>(wide)};
    if (value < std::numeric_limits<T>::min() || value > std::numeric_limits<T>::max()) {
      fail("value " + std::to_string(value) + " at step " + std::to_string(i) +
           " is outside the dtype's range");
    }
    out[i] = static_cast<T>(value);
  }
}

std::string_view Slot(const parquet::ColumnData& row, std::int64_t slot) {
  const auto begin = row.byte_offsets[static_cast<std::size_t>(slot)];
  const auto end = row.byte_offsets[static_cast<std::size_t>(slot) + 1];
  return std::string_view(reinterpret_cast<const char*>(row.values.data()) + begin,
                          static_cast<std::size_t>(end - begin));
}

// The row's list checks; returns the index of its first slot.
std::int64_t FirstSlot(const parquet::ColumnData& row, std::int64_t n_values,
                       const std::function<void(const std::string&)>& fail) {
  if (row.num_rows != 1 || row.list_offsets.size() != 2) fail("expected one list row");
  if (!row.list_validity.empty() && row.list_validity[0] == 0) fail("the values list is null");
  const std::int64_t first = row.list_offsets[0];
  const std::int64_t n = row.list_offsets[1] - first;
  if (n != n_values) {
    fail("the values list holds " + std::to_string(n) +
         " values, the locator says n_values = " + std::to_string(n_values));
  }
  return first;
}

// The null steps of the row's `n` slots from `first`, and a null in a non-nullable spec.
std::int64_t CountNulls(const parquet::ColumnData& row, std::int64_t first, std::int64_t n,
                        const model::Spec& spec,
                        const std::function<void(const std::string&)>& fail) {
  if (row.validity.empty()) return 0;
  std::int64_t nulls = 0;
  for (std::int64_t i = first; i < first + n; ++i) nulls += row.validity[i] == 0 ? 1 : 0;
  if (nulls > 0 && !spec.nullable) {
    fail(std::to_string(nulls) + " null value(s) in non-nullable spec_type '" + spec.spec_type +
         "'");
  }
  return nulls;
}

void EnumCodesInto(const parquet::ColumnData& row, std::int64_t first, const model::Spec& spec,
                   std::span<std::int32_t> out,
                   const std::function<void(const std::string&)>& fail) {
  std::unordered_map<std::string_view, std::int32_t> codes;
  for (std::size_t c = 0; c < spec.categories.size(); ++c) {
    codes.emplace(spec.categories[c], static_cast<std::int32_t>(c));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t slot = first + static_cast<std::int64_t>(i);
    if (!row.validity.empty() && row.validity[slot] == 0) {
      out[i] = 0;
      continue;
    }
    const std::string_view label = Slot(row, slot);
    auto found = codes.find(label);
    if (found == codes.end()) {
      fail("enum label '" + std::string(label) + "' at step " + std::to_string(i) +
           " is not among the categories of spec_type '" + spec.spec_type + "'");
    }
    out[i] = found->second;
  }
}

// The scalars of a fixed-width dtype into `out` (the storage of spec.dtype, n slots).
void ScalarsInto(const parquet::ColumnData& row, std::int64_t first, const model::Spec& spec,
                 model::ScalarSpan out, const std::function<void(const std::string&)>& fail) {
  const std::span<const std::byte> bytes(row.values);
  using model::DType;
  switch (spec.dtype) {
    case DType::kBool: {
      auto flags = std::get<std::span<std::uint8_t>>(out);
      CopyFixedInto(bytes, first, flags);
      for (std::uint8_t& flag : flags) flag = flag != 0 ? 1 : 0;
      return;
    }
    case DType::kInt8:
      return NarrowInto(bytes, first, std::get<std::span<std::int8_t>>(out), fail);
    case DType::kInt16:
      return NarrowInto(bytes, first, std::get<std::span<std::int16_t>>(out), fail);
    case DType::kUint8:
      return NarrowInto(bytes, first, std::get<std::span<std::uint8_t>>(out), fail);
    case DType::kUint16:
      return NarrowInto(bytes, first, std::get<std::span<std::uint16_t>>(out), fail);
    case DType::kInt32:
      return CopyFixedInto(bytes, first, std::get<std::span<std::int32_t>>(out));
    case DType::kUint32:
      return CopyFixedInto(bytes, first, std::get<std::span<std::uint32_t>>(out));
    case DType::kFloat32:
      return CopyFixedInto(bytes, first, std::get<std::span<float>>(out));
    case DType::kFloat64:
      return CopyFixedInto(bytes, first, std::get<std::span<double>>(out));
    case DType::kEnum:
      return EnumCodesInto(row, first, spec, std::get<std::span<std::int32_t>>(out), fail);
    case DType::kStr:
      break;
  }
  fail("no fixed-width storage for this dtype");
}

// The row's `n` slots as the storage vector of `dtype` when they are the values as stored (int32,
// uint32, float32, float64) at T's alignment, built from the range in one pass (a vector sized
// first is zero-filled, then overwritten, which was a tenth of a batch read): the decoder's byte
// buffer holds them as T objects (C++20 implicit object creation in std::byte storage). nullopt
// otherwise: the caller sizes a vector and fills it with ScalarsInto.
std::optional<model::ValueArray::Data> AsStored(const parquet::ColumnData& row, std::int64_t first,
                                                std::int64_t n, model::DType dtype) {
  using model::DType;
  if (dtype != DType::kInt32 && dtype != DType::kUint32 && dtype != DType::kFloat32 &&
      dtype != DType::kFloat64) {
    return std::nullopt;
  }
  return model::WithScalarStorage(
      dtype, [&]<class T>(std::type_identity<T>) -> std::optional<model::ValueArray::Data> {
        const std::byte* from = row.values.data() + first * static_cast<std::int64_t>(sizeof(T));
        if (reinterpret_cast<std::uintptr_t>(from) % alignof(T) != 0) return std::nullopt;
        const T* values = std::launder(reinterpret_cast<const T*>(from));
        return std::vector<T>(values, values + n);
      });
}

}  // namespace

std::int64_t RowToValuesInto(const parquet::ColumnData& row, const model::Spec& spec,
                             std::int64_t n_values, model::ScalarSpan out,
                             std::span<std::uint8_t> validity,
                             const std::function<void(const std::string&)>& fail) {
  const std::int64_t first = FirstSlot(row, n_values, fail);
  const std::int64_t nulls = CountNulls(row, first, n_values, spec, fail);
  ScalarsInto(row, first, spec, out, fail);
  if (validity.empty()) return nulls;
  if (nulls == 0) {
    std::fill(validity.begin(), validity.end(), std::uint8_t{1});
  } else {
    std::copy_n(row.validity.begin() + first, n_values, validity.begin());
  }
  return nulls;
}

model::ValueArray RowToValues(const parquet::ColumnData& row, const model::Spec& spec,
                              std::int64_t n_values,
                              const std::function<void(const std::string&)>& fail) {
  const std::int64_t first = FirstSlot(row, n_values, fail);
  const std::int64_t n = n_values;
  std::vector<std::uint8_t> validity;
  if (CountNulls(row, first, n, spec, fail) > 0) {
    validity.assign(row.validity.begin() + first, row.validity.begin() + first + n);
  }
  using model::DType;
  if (spec.dtype == DType::kStr) {
    std::vector<std::string> texts;
    texts.reserve(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) texts.emplace_back(Slot(row, first + i));
    return model::ValueArray(spec.dtype, std::move(texts), std::move(validity));
  }
  if (std::optional<model::ValueArray::Data> stored = AsStored(row, first, n, spec.dtype)) {
    return model::ValueArray(spec.dtype, std::move(*stored), std::move(validity));
  }
  model::ValueArray::Data data =
      model::WithScalarStorage(spec.dtype, [&]<class T>(std::type_identity<T>) {
        std::vector<T> held(static_cast<std::size_t>(n));
        ScalarsInto(row, first, spec, std::span<T>(held), fail);
        return model::ValueArray::Data(std::move(held));
      });
  return model::ValueArray(spec.dtype, std::move(data), std::move(validity));
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
