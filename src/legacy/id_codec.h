// The legacy ID codec (docs/format.md §15.5): the six logical IDs are UTF-8 strings or 16 raw bytes
// (FIXED_LEN_BYTE_ARRAY(16)) when every value of that ID was a canonical UUID; the storage of each
// is read from the records part schema and cross-checked with the manifest's `id_encoding`.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/rows/parquet_rows.h"

namespace timef::legacy {

enum class IdStorage { kString, kUuid16 };

// The six logical IDs, in the order of docs/format.md §15.5.
inline constexpr std::array<std::string_view, 6> kLogicalIds = {
    "record_id", "time_series_id", "annotation_id", "task_id", "source_id", "subject_id"};

// `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`
bool IsCanonicalUuid(std::string_view text);
// 16 bytes → canonical lowercase form, hex in byte order.
std::string DecodeUuid16(std::span<const std::byte, 16> bytes);
// Canonical lowercase UUID → 16 bytes; ValidationError naming `column` and the value otherwise.
std::array<std::byte, 16> EncodeUuid16(std::string_view text, std::string_view column);

// The storage of each logical ID from the records part's columns (`file` names it in errors):
// `record_id`; the `subject_ids` element; the `time_series` element's `time_series_id` and
// `source_id`; the `task_ids` and `annotation_ids` elements. FormatError for an ID column of
// another type, or a FIXED_LEN_BYTE_ARRAY(16) without the UUID logical type (not supported).
std::map<std::string, IdStorage> IdStoragesFromSchema(
    const std::vector<catalog::ParquetColumnType>& columns, const std::string& file);

}  // namespace timef::legacy
