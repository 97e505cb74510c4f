// Text forms of decoded Parquet values for inspection tools: one JSON object per row (the format
// of `timef parquet dump`), and single values for metadata listings.
//
// Rules: integers as JSON numbers (unsigned logical/converted types as their unsigned value),
// FLOAT/DOUBLE in shortest round-trip form with ".0" appended when the text would otherwise read
// as an integer (so -0.0 stays "-0.0"), NaN and ±infinity as the strings "NaN", "Infinity",
// "-Infinity"; BYTE_ARRAY annotated STRING (or converted UTF8) as a JSON string, any other
// binary (and INT96) as lowercase hex; lists as arrays; nulls as null.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/schema.h"

namespace timef::parquet {

// Appends the shortest round-trip text of `value` per the rules above.
void AppendDouble(double value, std::string& out);
void AppendFloat(float value, std::string& out);
// Appends `bytes` as a JSON string literal. Bytes that are not valid UTF-8 become U+FFFD (as a
// WHATWG TextDecoder does), so output is always valid JSON.
void AppendJsonString(std::span<const std::byte> bytes, std::string& out);
void AppendHex(std::span<const std::byte> bytes, std::string& out);

// Whether `column`'s BYTE_ARRAY values are text (STRING logical type or UTF8 converted type).
bool IsTextColumn(const ColumnDescriptor& column);
// Whether `column`'s INT32/INT64 values are unsigned integers.
bool IsUnsignedColumn(const ColumnDescriptor& column);

// Appends the JSON text of slot `slot` of `data` (a flat column or the elements of a list).
// Slots are indexed as list offsets are (absolute, not relative to list_offsets.front()).
void AppendSlot(const ColumnDescriptor& column, const ColumnData& data, std::int64_t slot,
                std::string& out);
// Appends the JSON text of row `row` of `data`: a value, null, or an array for list columns.
void AppendRowValue(const ColumnDescriptor& column, const ColumnData& data, std::int64_t row,
                    std::string& out);

// The JSON text of a PLAIN-encoded statistics bound of `column` (integers, floats as above,
// strings or hex); an undecodable bound (wrong length) is rendered as hex.
std::string RenderStatisticsValue(const ColumnDescriptor& column, const std::string& plain);

}  // namespace timef::parquet
