// Timing helpers of the standalone benches (bench/remote, bench/view): a steady-clock duration in
// milliseconds and the median of samples. Header only; the suite has its own summaries
// (bench/suite/stats.h).
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace timef::bench {

inline double Ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// The upper median (the middle sample, the later of the two middles for an even count); 0 for
// no samples.
inline double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace timef::bench
