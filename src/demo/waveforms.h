// Closed-form signal shapes of the hello-world dataset. Everything is a pure function of its
// arguments (no random generator), so every build of the dataset holds the same values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace timef::demo::internal {

// Beats per minute of the synthetic ECG, and the R peak's position within a beat (0..1).
inline constexpr double kEcgBeatsPerMinute = 72.0;
inline constexpr double kRPeakPhase = 0.375;

// A PQRST-like waveform in millivolts at `t_seconds`, scaled by `gain` (leads differ in gain),
// plus a slow baseline wander.
double EcgMillivolts(double t_seconds, double gain);

// `n` samples at `rate_hz` from t = 0.
std::vector<float> EcgSeries(int64_t n, int64_t rate_hz, double gain);

// Offset (µs) of the R peak of beat `beat` (0-based).
int64_t RPeakOffsetUs(int64_t beat);

// Irregular sample times (µs) of the vitals record: one every 15 s, delayed by a deterministic
// jitter below 5 s, so strictly increasing.
std::vector<int64_t> VitalsOffsetsUs(int64_t n);

// A small integer hash, for deterministic "noise".
int64_t Scramble(int64_t i, int64_t modulus);

}  // namespace timef::demo::internal
