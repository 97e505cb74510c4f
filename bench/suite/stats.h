// Summaries of repeated measurements: every timed figure of the suite is reported as
// median / min / max (and p99 for latency distributions) of its samples.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "timef/json.h"

namespace timef::bench {

struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
  double p99 = 0;
  double mean = 0;
  std::size_t n = 0;
};

// Empty samples give n = 0 and zeros.
Summary Summarize(std::vector<double> samples);
// {"median", "min", "max", "p99", "mean", "n"}.
Json ToJson(const Summary& summary);

// Seconds times these are milliseconds and microseconds (Stopwatch::Seconds() * kMs).
inline constexpr double kMs = 1e3;
inline constexpr double kUs = 1e6;

// Seconds elapsed on the steady clock since construction.
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace timef::bench
