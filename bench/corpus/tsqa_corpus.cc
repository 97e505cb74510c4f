// Corpus 2 (issue 6): TSQA-shaped short series, one per record, lengths 64/128/256/512,
// z-normalised so nearly every value is distinct (the byte_stream_split side of §7.4).
#include <cmath>
#include <string>

#include "corpus/corpus.h"
#include "corpus/rng.h"

namespace timef::bench {
namespace {

constexpr std::int64_t kLengths[4] = {64, 128, 256, 512};
constexpr double kTsqaRateHz = 1;

std::int64_t SeriesCount(CorpusSize size) {
  switch (size) {
    case CorpusSize::kSmall:
      return 2'400;
    case CorpusSize::kMedium:
      return 12'000;
    case CorpusSize::kLarge:
      return 48'000;
  }
  return 0;
}

std::int64_t LengthOf(std::uint64_t seed, std::uint64_t series) {
  return kLengths[Rng::For({seed, series, 0x1E4}).Below(4)];
}

// Trend + two sinusoids + AR(1) noise, then z-normalised.
std::vector<float> Series(std::uint64_t seed, std::uint64_t series) {
  const std::int64_t n = LengthOf(seed, series);
  Rng rng = Rng::For({seed, series, 0x75CA});
  const double slope = rng.Uniform(-0.02, 0.02);
  const double f1 = rng.Uniform(0.005, 0.1), f2 = rng.Uniform(0.1, 0.4);
  const double a1 = rng.Uniform(0, 2), a2 = rng.Uniform(0, 0.5);
  const double phi = rng.Uniform(0.3, 0.95);
  std::vector<double> x(n);
  double ar = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    ar = phi * ar + rng.Normal() * 0.3;
    x[i] =
        slope * i + a1 * std::sin(Rng::kTwoPi * f1 * i) + a2 * std::sin(Rng::kTwoPi * f2 * i) + ar;
  }
  double mean = 0, var = 0;
  for (double v : x) mean += v;
  mean /= n;
  for (double v : x) var += (v - mean) * (v - mean);
  const double sd = std::sqrt(var / n);
  std::vector<float> out(n);
  for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<float>((x[i] - mean) / sd);
  return out;
}

}  // namespace

Corpus BuildTsqaCorpus(CorpusSize size, std::uint64_t seed) {
  Corpus corpus;
  corpus.dataset = std::make_unique<model::Dataset>("bench/tsqa", "1.0.0");
  corpus.card = BenchCard("bench/tsqa", "TSQA-like benchmark corpus",
                          "Synthetic short z-normalised series of length 64 to 512.",
                          {manifest::Domain::kGeneral});
  const std::int64_t count = SeriesCount(size);
  auto spec = model::Spec::Make({.spec_type = "series", .name = "Normalised series"});
  auto axis = model::TimeAxis::RegularFromRate(static_cast<std::int64_t>(kTsqaRateHz));
  for (std::int64_t s = 0; s < count; ++s) {
    auto record = corpus.dataset->AddRecord();
    const std::int64_t n = LengthOf(seed, s);
    record->set_time_span(model::TimeInterval{0, n * 1'000'000});
    auto signal = std::make_shared<model::Signal>("value", spec, axis, n);
    signal->SetLoader([seed, s] { return model::ValueArray::Of(Series(seed, s)); });
    record->AddSource("series")->AddSignal(signal);
    corpus.rate_hz.push_back(kTsqaRateHz);
  }
  corpus.values = [seed](std::size_t ordinal) { return Series(seed, ordinal); };
  corpus.params["lengths"] = {64, 128, 256, 512};
  corpus.params["rate_hz"] = kTsqaRateHz;
  return corpus;
}

}  // namespace timef::bench
