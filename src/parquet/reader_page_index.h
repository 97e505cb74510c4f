// The OffsetIndex of a column chunk as the reader uses it: validated against the chunk's byte
// range and row count once, then asked which pages hold a row range.
#pragma once

#include <cstddef>
#include <cstdint>

#include "parquet/errors.h"
#include "parquet/metadata.h"

namespace timef::parquet {

// The byte range of a column chunk's pages in the file.
struct ChunkRange {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t end() const { return offset + length; }
};

// Checks that `index` describes the data pages of a chunk at `range` holding `num_rows` rows:
// at least one page when there are rows, the first page at row 0, strictly ascending first rows
// below num_rows, and pages of positive size in ascending order, not overlapping, inside the
// chunk. Throws FormatError (at the OffsetIndex's file offset `index_offset`) otherwise.
void ValidateOffsetIndex(const OffsetIndex& index, const ChunkRange& range, std::int64_t num_rows,
                         std::uint64_t index_offset, const ErrorContext& context);

// The pages [begin, end) of a validated index that hold rows of [first_row, last_row).
struct PageSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};
PageSpan PagesForRows(const OffsetIndex& index, std::int64_t first_row, std::int64_t last_row);

// The first row after page `page` (the next page's first row, or num_rows for the last page).
std::int64_t PageEndRow(const OffsetIndex& index, std::size_t page, std::int64_t num_rows);

}  // namespace timef::parquet
