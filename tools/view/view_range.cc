#include "view/view_range.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <variant>

#include "timef/error.h"

namespace timef::view {
namespace {

struct Grid {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::int64_t step = 1;
  std::int64_t count() const { return end <= start ? 0 : (end - start + step - 1) / step; }
  std::int64_t BucketOf(std::int64_t s) const { return (s - start) / step; }
};

// Whether `page` contributes through its statistics under `grid`: bounded and inside one bucket.
bool FromStatistics(const ValuePage& page, const Grid& grid) {
  return page.bounded && page.begin >= grid.start && page.end <= grid.end &&
         grid.BucketOf(page.begin) == grid.BucketOf(page.end - 1);
}

// The pages intersecting [grid.start, grid.end).
std::span<const ValuePage> PagesIn(std::span<const ValuePage> pages, std::int64_t begin,
                                   std::int64_t end) {
  auto first = std::upper_bound(pages.begin(), pages.end(), begin,
                                [](std::int64_t s, const ValuePage& p) { return s < p.end; });
  auto last = std::lower_bound(first, pages.end(), end,
                               [](const ValuePage& p, std::int64_t s) { return p.begin < s; });
  return {first, last};
}

std::int64_t DecodedPages(std::span<const ValuePage> window, const Grid& grid) {
  std::int64_t n = 0;
  for (const ValuePage& page : window) n += FromStatistics(page, grid) ? 0 : 1;
  return n;
}

void Merge(Range& out, std::int64_t bucket, double lo, double hi) {
  auto& mn = out.min[static_cast<std::size_t>(bucket)];
  auto& mx = out.max[static_cast<std::size_t>(bucket)];
  if (!mn || lo < *mn) mn = lo;
  if (!mx || hi > *mx) mx = hi;
}

// Folds decoded steps [first, …) into the buckets of `grid`: scalar `channel` of the `width`
// scalars of each step.
void Fold(const model::ValueArray& values, std::int64_t first, const Grid& grid, Range& out,
          std::int64_t width, std::int64_t channel) {
  std::visit(
      [&](const auto& data) {
        using T = typename std::decay_t<decltype(data)>::value_type;
        if constexpr (std::is_same_v<T, std::string>) {
          throw ValidationError({.object = "range", .where = "dtype"},
                                "a str signal has no numeric range");
        } else {
          const std::int64_t n = static_cast<std::int64_t>(data.size()) / width;
          std::int64_t i = 0;
          while (i < n) {
            const std::int64_t bucket = grid.BucketOf(first + i);
            const std::int64_t stop = std::min(n, grid.start + (bucket + 1) * grid.step - first);
            bool any = false;
            double lo = 0, hi = 0;
            for (; i < stop; ++i) {
              if (!values.IsValid(i)) continue;
              const double v =
                  static_cast<double>(data[static_cast<std::size_t>(i * width + channel)]);
              if (std::isnan(v)) continue;
              if (!any) {
                lo = hi = v;
                any = true;
              } else {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
              }
            }
            if (any) Merge(out, bucket, lo == 0.0 ? 0.0 : lo, hi == 0.0 ? 0.0 : hi);
          }
        }
      },
      values.data());
}

}  // namespace

Range ComputeRange(const SignalValuesRef& ref, std::span<const ValuePage> pages,
                   std::int64_t start_step, std::int64_t end_step, std::int64_t buckets,
                   std::int64_t channel, const RangeOptions& options) {
  const std::string object = "signal " + std::to_string(ref.id());
  if (buckets < 1 || buckets > 100'000) {
    throw ValidationError({.object = object, .where = "buckets"},
                          "buckets must be 1 … 100000, got " + std::to_string(buckets));
  }
  if (start_step < 0 || end_step < start_step) {
    throw ValidationError({.object = object, .where = "start_step"},
                          "a window needs 0 ≤ start_step ≤ end_step, got [" +
                              std::to_string(start_step) + ", " + std::to_string(end_step) + ")");
  }
  const std::int64_t step_width = ref.spec().StepWidth();
  if (channel < 0 || channel >= step_width) {
    throw ValidationError({.object = object, .where = "channel"},
                          "channel must be 0 … " + std::to_string(step_width - 1) + ", got " +
                              std::to_string(channel));
  }
  if (ref.spec().dtype == DType::kStr) {
    throw ValidationError({.object = object, .where = "dtype"},
                          "a str signal has no numeric range");
  }
  end_step = std::min(end_step, ref.has_values() ? ref.n_values() : 0);
  start_step = std::min(start_step, end_step);
  const std::int64_t width = end_step - start_step;

  Grid grid{.start = start_step, .end = end_step, .step = 1};
  if (width > buckets) {
    grid.step = (width + buckets - 1) / buckets;
    std::span<const ValuePage> window = PagesIn(pages, grid.start, grid.end);
    if (!window.empty() && DecodedPages(window, grid) > options.max_decoded_pages) {
      std::int64_t longest = 1;
      for (const ValuePage& page : window) longest = std::max(longest, page.end - page.begin);
      Grid wide{.start = window.front().begin, .end = end_step};
      const std::int64_t units = (wide.end - wide.start + longest - 1) / longest;
      wide.step = longest * ((units + buckets - 1) / buckets);
      grid = wide;
    }
  }

  Range out;
  out.start_step = grid.start;
  out.end_step = grid.end;
  out.step = grid.step;
  const auto count = static_cast<std::size_t>(grid.count());
  out.min.assign(count, std::nullopt);
  out.max.assign(count, std::nullopt);
  if (count == 0) return out;
  for (const ValuePage& page : PagesIn(pages, grid.start, grid.end)) {
    if (FromStatistics(page, grid)) {
      ++out.pages_from_statistics;
      if (page.min && page.max) Merge(out, grid.BucketOf(page.begin), *page.min, *page.max);
      continue;
    }
    ++out.pages_decoded;
    const std::int64_t from = std::max(page.begin, grid.start);
    const std::int64_t to = std::min(page.end, grid.end);
    Fold(ref.ReadSteps(from, to), from, grid, out, step_width, channel);
  }
  return out;
}

}  // namespace timef::view
