// A signal's Spec from the spec columns of a `signals` row, shared by object hydration and the
// reader's locator index so both build the same Spec from the same cells.
#pragma once

#include <optional>
#include <string_view>

#include "catalog/duckdb/duckdb_result.h"
#include "core/enum_table.h"
#include "timef/model.h"

namespace timef::catalog {

// The SELECT list (prefix `s.`) that SpecAt() reads, in this order.
inline constexpr std::string_view kSpecColumns =
    "s.spec_type, s.spec_name, s.unit, s.dtype, s.categories, s.value_shape, s.dimension_names, "
    "s.nullable, s.modality";
inline constexpr int kSpecColumnCount = 9;

// Reads the kSpecColumns that start at column `first` of `chunk`. FormatError for an unknown
// dtype or modality.
model::Spec SpecAt(const Chunk& chunk, idx_t row, idx_t first);

// `parsed`, or FormatError naming `column`, the stored `value` and the names T allows.
template <class T>
T ParsedCell(std::optional<T> parsed, std::string_view column, std::string_view value);

// FormatError "<column>: unknown value '<value>'<expected>"; `expected` lists the allowed names
// (core::ExpectedNames) when the value is no enumerator at all.
[[noreturn]] void UnknownCellValue(std::string_view column, std::string_view value,
                                   std::string_view expected = {});

template <class T>
T ParsedCell(std::optional<T> parsed, std::string_view column, std::string_view value) {
  if (!parsed) UnknownCellValue(column, value, core::ExpectedNames<T>());
  return *parsed;
}

}  // namespace timef::catalog
