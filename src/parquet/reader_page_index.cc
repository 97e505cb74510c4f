#include "parquet/reader_page_index.h"

#include <algorithm>
#include <string>

namespace timef::parquet {

void ValidateOffsetIndex(const OffsetIndex& index, const ChunkRange& range, std::int64_t num_rows,
                         std::uint64_t index_offset, const ErrorContext& context) {
  const ErrorContext at = context.WithOffset(index_offset);
  const auto& pages = index.page_locations;
  if (num_rows > 0 && pages.empty()) at.Throw("offset index lists no pages for a non-empty chunk");
  if (num_rows == 0 && !pages.empty()) at.Throw("offset index lists pages for an empty chunk");
  std::uint64_t previous_end = range.offset;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const PageLocation& p = pages[i];
    const std::string which = "offset index page " + std::to_string(i);
    if (i == 0 && p.first_row_index != 0) {
      at.Throw(which + " starts at row " + std::to_string(p.first_row_index) + ", not 0");
    }
    if (i > 0 && p.first_row_index <= pages[i - 1].first_row_index) {
      at.Throw(which + " first row " + std::to_string(p.first_row_index) +
               " does not follow the previous page's " +
               std::to_string(pages[i - 1].first_row_index));
    }
    if (p.first_row_index >= num_rows) {
      at.Throw(which + " first row " + std::to_string(p.first_row_index) +
               " is not below the row group's " + std::to_string(num_rows) + " rows");
    }
    if (p.offset < 0 || p.compressed_page_size <= 0) {
      at.Throw(which + " has offset " + std::to_string(p.offset) + " and size " +
               std::to_string(p.compressed_page_size));
    }
    const auto offset = static_cast<std::uint64_t>(p.offset);
    const auto size = static_cast<std::uint64_t>(p.compressed_page_size);
    if (offset < previous_end || offset > range.end() || size > range.end() - offset) {
      at.Throw(which + " at [" + std::to_string(offset) + ", " + std::to_string(offset + size) +
               ") overlaps the previous page or lies outside the column chunk [" +
               std::to_string(range.offset) + ", " + std::to_string(range.end()) + ")");
    }
    previous_end = offset + size;
  }
}

PageSpan PagesForRows(const OffsetIndex& index, std::int64_t first_row, std::int64_t last_row) {
  const auto& pages = index.page_locations;
  if (first_row >= last_row || pages.empty()) return {0, 0};
  auto by_first_row = [](const PageLocation& p, std::int64_t row) {
    return p.first_row_index < row;
  };
  // The page holding first_row is the last one starting at or before it.
  auto begin = std::lower_bound(pages.begin(), pages.end(), first_row + 1, by_first_row);
  auto end = std::lower_bound(pages.begin(), pages.end(), last_row, by_first_row);
  return {static_cast<std::size_t>(begin - pages.begin()) - 1,
          static_cast<std::size_t>(end - pages.begin())};
}

std::int64_t PageEndRow(const OffsetIndex& index, std::size_t page, std::int64_t num_rows) {
  const auto& pages = index.page_locations;
  return page + 1 < pages.size() ? pages[page + 1].first_row_index : num_rows;
}

}  // namespace timef::parquet
