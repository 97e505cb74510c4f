// Exact per-bucket min/max of a window of a signal's steps, from the page statistics where a page
// lies inside one bucket and from decoded values elsewhere (docs/view.md "Range API").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "timef/reader.h"
#include "timef/value_pages.h"

namespace timef::view {

struct RangeOptions {
  // A grid of the requested resolution is used when it needs at most this many pages decoded;
  // otherwise the buckets are widened to whole pages (the response's start_step and step say so).
  std::int64_t max_decoded_pages = 16;
};

struct Range {
  std::int64_t start_step = 0;  // bucket i covers [start_step + i·step, min(… + step, end_step))
  std::int64_t end_step = 0;
  std::int64_t step = 1;
  // Per bucket: the smallest and largest non-null, non-NaN value (nullopt when there is none).
  std::vector<std::optional<double>> min;
  std::vector<std::optional<double>> max;
  std::int64_t pages_from_statistics = 0;  // pages whose bounds came from their ColumnIndex
  std::int64_t pages_decoded = 0;          // pages whose values were decoded (or parts of them)
};

// The min/max of steps [start_step, end_step) of `ref` (end clamped to n_values) in at most
// `buckets` buckets; of an N-D signal, of scalar `channel` (0 ≤ channel < the spec's step width, in
// row-major order of value_shape) of each step, else channel is 0. `pages` is ReadValuePages(ref).
// Grid: step 1 when the window has at most `buckets` steps; else step ⌈W / buckets⌉ from start_step
// when that decodes at most options.max_decoded_pages pages; else a multiple of the longest page in
// the window, starting at the first step of the page holding start_step. ValidationError for a bad
// window or bucket count.
Range ComputeRange(const SignalValuesRef& ref, std::span<const ValuePage> pages,
                   std::int64_t start_step, std::int64_t end_step, std::int64_t buckets,
                   std::int64_t channel = 0, const RangeOptions& options = {});

}  // namespace timef::view
