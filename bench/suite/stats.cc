#include "suite/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace timef::bench {
namespace {

// Linear interpolation between closest ranks; `sorted` is non-empty.
double Quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace

Summary Summarize(std::vector<double> samples) {
  Summary s;
  s.n = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.median = Quantile(samples, 0.5);
  s.p99 = Quantile(samples, 0.99);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
  return s;
}

Json ToJson(const Summary& summary) {
  return Json{{"median", summary.median}, {"min", summary.min},   {"max", summary.max},
              {"p99", summary.p99},       {"mean", summary.mean}, {"n", summary.n}};
}

}  // namespace timef::bench
