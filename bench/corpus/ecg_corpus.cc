// Corpus 1 (issue 6): PTB-XL-shaped ECG records, 12 leads × 5,000 float32 at 500 Hz.
#include <array>
#include <string>

#include "corpus/corpus.h"
#include "corpus/rng.h"

namespace timef::bench {
namespace {

constexpr std::array<const char*, 12> kLeads = {"I",  "II", "III", "aVR", "aVL", "aVF",
                                                "V1", "V2", "V3",  "V4",  "V5",  "V6"};
constexpr std::int64_t kSamples = 5'000;
constexpr double kRateHz = 500;

std::int64_t RecordCount(CorpusSize size) {
  switch (size) {
    case CorpusSize::kSmall:
      return 40;
    case CorpusSize::kMedium:
      return 300;
    case CorpusSize::kLarge:
      return 1'000;
  }
  return 0;
}

}  // namespace

Corpus BuildEcgCorpus(CorpusSize size, std::uint64_t seed) {
  Corpus corpus;
  corpus.dataset = std::make_unique<model::Dataset>("bench/ecg", "1.0.0");
  corpus.card = BenchCard("bench/ecg", "ECG-like benchmark corpus",
                          "Synthetic 12-lead ECGs, 10 s at 500 Hz, quantized to 1 microvolt.",
                          {manifest::Domain::kCardiology});
  const std::int64_t records = RecordCount(size);
  auto spec = model::Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
  for (std::int64_t r = 0; r < records; ++r) {
    auto record = corpus.dataset->AddRecord();
    record->set_start_time_us(1'600'000'000'000'000 + r * 60'000'000);
    record->set_time_span(model::TimeInterval{0, kSamples * 2'000});
    Rng rng = Rng::For({seed, static_cast<std::uint64_t>(r), 0xA6E});
    record->set_metadata({{"age", 18 + rng.Below(75)}, {"sex", rng.Below(2) ? "F" : "M"}});
    auto leads = record->AddSource("ecg");
    auto axis = model::TimeAxis::RegularFromRate(static_cast<std::int64_t>(kRateHz));
    for (int lead = 0; lead < static_cast<int>(kLeads.size()); ++lead) {
      auto signal = std::make_shared<model::Signal>(kLeads[lead], spec, axis, kSamples);
      signal->SetLoader([seed, r, lead] {
        return model::ValueArray::Of(EcgLead(seed, r, lead, kSamples, kRateHz));
      });
      leads->AddSignal(signal);
      corpus.rate_hz.push_back(kRateHz);
    }
  }
  corpus.values = [seed](std::size_t ordinal) {
    return EcgLead(seed, ordinal / kLeads.size(), static_cast<int>(ordinal % kLeads.size()),
                   kSamples, kRateHz);
  };
  corpus.params["leads"] = kLeads.size();
  corpus.params["samples_per_lead"] = kSamples;
  corpus.params["rate_hz"] = kRateHz;
  return corpus;
}

}  // namespace timef::bench
