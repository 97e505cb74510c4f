// Packed text on hydration (docs/format.md §6.6): queries join text_payloads next to each
// packed key column, and these helpers turn the joined columns into a TextLocator and ask the
// ValueResolver for its Text / TextList.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/hydrate/value_resolver.h"
#include "timef/model.h"

namespace timef::catalog {

// The kPackedColumnCount select-list columns of the text_payloads row joined as `alias`.
std::string PackedColumns(std::string_view alias);
inline constexpr int kPackedColumnCount = 6;

// Where a packed value was met, for messages.
struct PackedSite {
  std::string_view table;
  std::string_view column;  // the *_text_key column
};

// The packed value whose key is in column `key_column` and whose joined text_payloads columns
// start at `first`; nullopt when the key is NULL. FormatError naming `site` when the key names no
// text_payloads row or the row's kind differs.
std::optional<model::Text> PackedTextAt(const Chunk& chunk, idx_t row, idx_t key_column,
                                        idx_t first, const ValueResolver& values, PackedSite site);
std::optional<model::TextList> PackedTextListAt(const Chunk& chunk, idx_t row, idx_t key_column,
                                                idx_t first, const ValueResolver& values,
                                                PackedSite site);

}  // namespace timef::catalog
