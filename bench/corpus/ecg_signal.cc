// The ECG-like waveform shared by the ECG and task-heavy corpora: one heartbeat template per
// record (P, QRS, T as Gaussians), a gain per lead, baseline wander and noise, quantized to 1 µV
// so that a lead holds a few thousand distinct values (dictionary-friendly, like real ECG
// digitized at 1 µV resolution).
#include <cmath>
#include <vector>

#include "corpus/corpus.h"
#include "corpus/rng.h"

namespace timef::bench {
namespace {

struct Wave {
  double center_s, width_s, amplitude_mv;
};

double Template(double t_s, const Wave (&waves)[5]) {
  double v = 0;
  for (const Wave& w : waves) {
    const double z = (t_s - w.center_s) / w.width_s;
    v += w.amplitude_mv * std::exp(-0.5 * z * z);
  }
  return v;
}

}  // namespace

std::vector<float> EcgLead(std::uint64_t seed, std::uint64_t record, int lead, std::int64_t n,
                           double rate_hz) {
  Rng beat_rng = Rng::For({seed, record, 0xEC6});
  const double heart_rate_bpm = beat_rng.Uniform(48, 110);
  const double period_s = 60.0 / heart_rate_bpm;
  const Wave waves[5] = {
      {0.16 * period_s, 0.025, beat_rng.Uniform(0.08, 0.2)},    // P
      {0.30 * period_s, 0.010, beat_rng.Uniform(-0.2, -0.05)},  // Q
      {0.33 * period_s, 0.012, beat_rng.Uniform(0.8, 1.8)},     // R
      {0.36 * period_s, 0.010, beat_rng.Uniform(-0.4, -0.1)},   // S
      {0.62 * period_s, 0.060, beat_rng.Uniform(0.15, 0.4)},    // T
  };
  // One period of the template, sampled at the lead's rate; beats repeat it.
  const auto period_steps = static_cast<std::int64_t>(std::llround(period_s * rate_hz));
  std::vector<double> beat(period_steps);
  for (std::int64_t i = 0; i < period_steps; ++i) beat[i] = Template(i / rate_hz, waves);

  Rng rng = Rng::For({seed, record, static_cast<std::uint64_t>(lead), 0x1EAD});
  const double gain = rng.Uniform(-1.2, 1.5);
  const double wander_hz = rng.Uniform(0.15, 0.5);
  const double wander_phase = rng.Uniform(0, Rng::kTwoPi);
  const std::int64_t offset = static_cast<std::int64_t>(rng.Below(period_steps));
  std::vector<float> out(n);
  for (std::int64_t i = 0; i < n; ++i) {
    const double t = i / rate_hz;
    const double mv = gain * beat[(i + offset) % period_steps] +
                      0.08 * std::sin(Rng::kTwoPi * wander_hz * t + wander_phase) +
                      0.01 * rng.Normal();
    out[i] = static_cast<float>(std::llround(mv * 1000.0)) / 1000.0f;
  }
  return out;
}

}  // namespace timef::bench
