// The stored pages of a signal's values with the bounds their Parquet statistics give, so that a
// viewer can draw a zoomed-out signal without decoding it (docs/view.md "Range API"). A timef
// Parquet shard (docs/format.md §7.4) ends its pages at row boundaries and stores a ColumnIndex
// (min/max per page) for every column chunk where the Parquet rules allow it; a chunk of up to
// chunk_max_bytes is one row, so a page holds one chunk of a signal, or several small chunks
// (possibly of several signals).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "timef/reader.h"

namespace timef {

// Steps [begin, end) of one signal stored in one Parquet data page.
struct ValuePage {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  // True when the page's ColumnIndex bounds are exactly the bounds of these steps: the page holds
  // only rows of this signal (these steps and no other), the chunk has a ColumnIndex, and the
  // dtype is bool or numeric (int8 … uint32, float32, float64). False for everything else (a page
  // shared with other signals, a chunk without ColumnIndex such as an all-NaN one, str and enum,
  // Zarr arrays, files of other writers without a page index): decode those steps to know.
  bool bounded = false;
  // When bounded: the smallest and largest non-null, non-NaN value (bool as 0/1; -0.0 and +0.0
  // compare equal, as the statistics cannot tell them apart); nullopt when the page holds only
  // nulls.
  std::optional<double> min;
  std::optional<double> max;
};

// Every page of `ref`'s values in step order, covering [0, ref.n_values()) without gaps (empty
// when the signal has no values). Reads each shard's footer and the ColumnIndex and OffsetIndex
// of the chunks the signal uses; decodes no data page (ReaderCounters::data_pages_decoded stays).
// FormatError naming the file for a malformed page index; FileError when a shard cannot be read.
// A ref whose values are not lazy handles of a reader (built in memory) gives one unbounded page.
std::vector<ValuePage> ReadValuePages(const SignalValuesRef& ref);

}  // namespace timef
