// Decoded values of one column over a range of rows: what the reader fills and the writer takes.
// Flat columns: one slot per row. List columns: `list_offsets` maps rows to slices of the element
// slots. Null slots of fixed-width types are zero-filled so slot i is always at i × width.
// Buffers are caller-owned and reused: Clear() keeps capacity, so a scan allocates once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "parquet/metadata.h"

namespace timef::parquet {

// Read-only view (what the writer consumes; ColumnData::View() or spans over a caller's arrays).
struct ColumnView {
  Type physical_type = Type::kInt32;
  std::int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  std::int64_t num_rows = 0;
  // Lists: num_rows + 1 ascending slot offsets (need not start at 0); empty for flat columns.
  std::span<const std::int64_t> list_offsets;
  // Lists: one byte per row, 1 = list present; empty = every list present.
  std::span<const std::uint8_t> list_validity;
  // Fixed-width slots, little-endian, width bytes each (BOOLEAN: one byte 0/1; INT96: 12 bytes).
  std::span<const std::byte> values;
  // BYTE_ARRAY: slot i is bytes[byte_offsets[i], byte_offsets[i + 1]) of `values`.
  std::span<const std::int64_t> byte_offsets;
  // One byte per slot, 1 = present; empty = every slot present.
  std::span<const std::uint8_t> validity;

  std::int64_t num_slots() const {
    return list_offsets.empty() ? num_rows : list_offsets.back() - list_offsets.front();
  }
};

struct ColumnData {
  Type physical_type = Type::kInt32;
  std::int32_t type_length = 0;
  std::int64_t num_rows = 0;
  std::vector<std::int64_t> list_offsets;
  std::vector<std::uint8_t> list_validity;
  std::vector<std::byte> values;
  std::vector<std::int64_t> byte_offsets;
  std::vector<std::uint8_t> validity;

  void Clear() {
    num_rows = 0;
    list_offsets.clear();
    list_validity.clear();
    values.clear();
    byte_offsets.clear();
    validity.clear();
  }
  ColumnView View() const {
    return {physical_type, type_length, num_rows,     list_offsets,
            list_validity, values,      byte_offsets, validity};
  }
};

// Width in bytes of one fixed-width slot of `type` (BYTE_ARRAY: 0).
std::int32_t SlotWidth(Type type, std::int32_t type_length);

}  // namespace timef::parquet
