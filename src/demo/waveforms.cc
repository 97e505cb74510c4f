#include "demo/waveforms.h"

#include <cmath>
#include <numbers>

namespace timef::demo::internal {
namespace {

struct Wave {
  double phase;  // centre within the beat, 0..1
  double width;  // Gaussian sigma, in beat fractions
  double amplitude_mv;
};

// P, Q, R, S, T.
constexpr Wave kWaves[] = {
    {0.20, 0.025, 0.15},  {0.35, 0.010, -0.10}, {kRPeakPhase, 0.012, 1.20},
    {0.40, 0.010, -0.25}, {0.65, 0.050, 0.30},
};

}  // namespace

double EcgMillivolts(double t_seconds, double gain) {
  const double period = 60.0 / kEcgBeatsPerMinute;
  const double phase = std::fmod(t_seconds, period) / period;
  double value = 0;
  for (const Wave& wave : kWaves) {
    const double d = (phase - wave.phase) / wave.width;
    value += wave.amplitude_mv * std::exp(-0.5 * d * d);
  }
  value += 0.05 * std::sin(2 * std::numbers::pi * 0.2 * t_seconds);
  // Keep every ordinary sample away from ±0 so the planted -0.0 is the only signed zero.
  if (std::fabs(value) < 1e-4) value = 1e-4;
  return gain * value;
}

std::vector<float> EcgSeries(int64_t n, int64_t rate_hz, double gain) {
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    values[static_cast<size_t>(i)] =
        static_cast<float>(EcgMillivolts(static_cast<double>(i) / rate_hz, gain));
  }
  return values;
}

int64_t RPeakOffsetUs(int64_t beat) {
  // Exact: 72 bpm is a period of 833,333.3 µs; round each peak to whole microseconds.
  const double period_us = 60e6 / kEcgBeatsPerMinute;
  return static_cast<int64_t>(std::llround((static_cast<double>(beat) + kRPeakPhase) * period_us));
}

std::vector<int64_t> VitalsOffsetsUs(int64_t n) {
  std::vector<int64_t> offsets(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    offsets[static_cast<size_t>(i)] = i * 15'000'000 + Scramble(i, 5'000) * 1'000;
  }
  return offsets;
}

int64_t Scramble(int64_t i, int64_t modulus) { return (i * 7'919 + 104'729) % modulus; }

}  // namespace timef::demo::internal
