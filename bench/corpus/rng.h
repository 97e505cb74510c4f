// A small deterministic random generator for the benchmark corpora. std::mt19937 and the
// <random> distributions are not specified bit-for-bit across standard libraries, so the corpora
// use SplitMix64 and their own transforms: the same seed gives the same bytes everywhere.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>

namespace timef::bench {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  // A generator for one object of a corpus: its seed mixes every key.
  static Rng For(std::initializer_list<std::uint64_t> keys) {
    std::uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (std::uint64_t key : keys) seed = Mix(seed ^ Mix(key + 0x632BE59BD9B4E019ULL));
    return Rng(seed);
  }

  std::uint64_t Next() { return Mix(state_ += 0x9E3779B97F4A7C15ULL); }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  // Uniform in [0, n); n > 0.
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }
  // Standard normal (Box–Muller; the second value of each pair is kept for the next call).
  double Normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u = 1.0 - Uniform();  // (0, 1]
    const double v = Uniform();
    const double r = std::sqrt(-2.0 * std::log(u));
    spare_ = r * std::sin(kTwoPi * v);
    has_spare_ = true;
    return r * std::cos(kTwoPi * v);
  }

  static constexpr double kTwoPi = 6.283185307179586476925;

 private:
  static std::uint64_t Mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  std::uint64_t state_;
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace timef::bench
