// Converts the decoded `values` list of one row into a model::ValueArray of a spec's dtype
// (§7.5): bool as 0/1 bytes, uint from the INT32 bit pattern, enum labels mapped to category
// codes by string.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "parquet/column_data.h"
#include "timef/model.h"

namespace timef::values {

// `row` holds exactly one list row whose leaf passed ValuesLeafProblem. Validity is kept only
// when a step is null. Throws FormatError from `fail` (which must not return) for a null list, a
// list length ≠ n_values, a null in a non-nullable spec, an integer outside the dtype's range, or
// an enum label outside the categories.
model::ValueArray RowToValues(const parquet::ColumnData& row, const model::Spec& spec,
                              std::int64_t n_values,
                              const std::function<void(const std::string&)>& fail);

// The same row's scalars into a caller's buffer: `out` is a span of spec.dtype's storage type
// holding n_values elements and `validity` is empty or n_values bytes (the caller checked both:
// model::CheckValueBuffers; str has no such buffer). Fills `validity` (1 = present) when given and
// returns the number of null steps, whose slots hold 0. Throws what RowToValues throws.
std::int64_t RowToValuesInto(const parquet::ColumnData& row, const model::Spec& spec,
                             std::int64_t n_values, model::ScalarSpan out,
                             std::span<std::uint8_t> validity,
                             const std::function<void(const std::string&)>& fail);

// Row `row` of a decoded list column holding every row of a row group, copied into `out` as a
// one-row column (list offsets from 0). False, and `out` untouched, when `whole` is not a list
// column or has no such row. For shards without a page index, where finding one row means
// decoding every page before it: their row group is decoded once and its rows sliced out.
bool SliceListRow(const parquet::ColumnData& whole, std::int64_t row, parquet::ColumnData& out);

}  // namespace timef::values
