// Corpus 3 (issue 6): Sleep-EDF-shaped multi-day recordings. Per record: two EEG derivations at
// 100 Hz (EDF-like: int16 digital values times a scale, so few distinct floats), respiration at
// 10 Hz (continuous floats) and temperature at 1 Hz (0.01 °C grid).
#include <algorithm>
#include <cmath>
#include <string>

#include "corpus/corpus.h"
#include "corpus/rng.h"

namespace timef::bench {
namespace {

constexpr std::int64_t kRecords = 2;

// EEG samples per derivation; respiration gets a tenth, temperature a hundredth.
std::int64_t EegSamples(CorpusSize size) {
  switch (size) {
    case CorpusSize::kSmall:
      return 400'000;
    case CorpusSize::kMedium:
      return 10'000'000;
    case CorpusSize::kLarge:
      return 50'000'000;
  }
  return 0;
}

struct Channel {
  const char* name;
  const char* spec_type;
  double rate_hz;
  std::int64_t divisor;  // samples = EEG samples / divisor
};
constexpr Channel kChannels[4] = {{"EEG Fpz-Cz", "eeg", 100, 1},
                                  {"EEG Pz-Oz", "eeg", 100, 1},
                                  {"Resp oro-nasal", "resp", 10, 10},
                                  {"Temp rectal", "temperature", 1, 100}};

std::vector<float> ChannelValues(std::uint64_t seed, std::uint64_t record, int channel,
                                 std::int64_t n) {
  Rng rng = Rng::For({seed, record, static_cast<std::uint64_t>(channel), 0x510E});
  std::vector<float> out(n);
  const Channel& c = kChannels[channel];
  if (std::string_view(c.spec_type) == "eeg") {
    // AR(2) resonator near 10 Hz plus noise, in EDF digital units, then scaled to µV.
    const double r = 0.97, w = Rng::kTwoPi * rng.Uniform(8, 12) / c.rate_hz;
    const double a1 = 2 * r * std::cos(w), a2 = -r * r;
    const double scale_uv = 0.0977;  // ±200 µV over int16 range / 64: EDF-like resolution
    double y1 = 0, y2 = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double y = a1 * y1 + a2 * y2 + 40 * rng.Normal();
      y2 = y1;
      y1 = y;
      const double digital = std::clamp(std::round(y), -32768.0, 32767.0);
      out[i] = static_cast<float>(digital * scale_uv);
    }
  } else if (std::string_view(c.spec_type) == "resp") {
    const double f = rng.Uniform(0.2, 0.3) / c.rate_hz;
    double phase = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      phase += Rng::kTwoPi * f * (1 + 0.05 * rng.Normal());
      out[i] = static_cast<float>(std::sin(phase) + 0.05 * rng.Normal());
    }
  } else {
    const double base = rng.Uniform(36.2, 36.9);
    for (std::int64_t i = 0; i < n; ++i) {
      const double day = static_cast<double>(i) / (86'400 * c.rate_hz);
      const double t = base + 0.4 * std::sin(Rng::kTwoPi * day) + 0.02 * rng.Normal();
      out[i] = static_cast<float>(std::round(t * 100) / 100);
    }
  }
  return out;
}

}  // namespace

Corpus BuildLongCorpus(CorpusSize size, std::uint64_t seed) {
  Corpus corpus;
  corpus.dataset = std::make_unique<model::Dataset>("bench/long", "1.0.0");
  corpus.card = BenchCard("bench/long", "Long-recording benchmark corpus",
                          "Synthetic multi-day recordings at 100 Hz, 10 Hz and 1 Hz.",
                          {manifest::Domain::kSleep});
  const std::int64_t eeg = EegSamples(size);
  std::shared_ptr<const model::Spec> specs[4] = {
      model::Spec::Make({.spec_type = "eeg", .name = "EEG", .unit = "uV"}), nullptr,
      model::Spec::Make({.spec_type = "resp", .name = "Respiration"}),
      model::Spec::Make({.spec_type = "temperature", .name = "Temperature", .unit = "degC"})};
  specs[1] = specs[0];
  for (std::int64_t r = 0; r < kRecords; ++r) {
    auto record = corpus.dataset->AddRecord();
    record->set_start_time_us(1'500'000'000'000'000 + r * 86'400'000'000);
    auto psg = record->AddSource("psg");
    for (int c = 0; c < 4; ++c) {
      const std::int64_t n = eeg / kChannels[c].divisor;
      auto axis = model::TimeAxis::RegularFromRate(static_cast<std::int64_t>(kChannels[c].rate_hz));
      auto signal = std::make_shared<model::Signal>(kChannels[c].name, specs[c], axis, n);
      signal->SetLoader(
          [seed, r, c, n] { return model::ValueArray::Of(ChannelValues(seed, r, c, n)); });
      psg->AddSignal(signal);
      corpus.rate_hz.push_back(kChannels[c].rate_hz);
    }
  }
  corpus.values = [seed, eeg](std::size_t ordinal) {
    const int c = static_cast<int>(ordinal % 4);
    return ChannelValues(seed, ordinal / 4, c, eeg / kChannels[c].divisor);
  };
  corpus.params["eeg_samples"] = eeg;
  corpus.params["rates_hz"] = {100, 10, 1};
  return corpus;
}

}  // namespace timef::bench
