// Deterministic benchmark corpora (issue 6). Each corpus is a model::Dataset whose float32 signal
// values come from loaders: nothing is generated until the writer asks for a signal, so a write
// measures the writer's memory, not the generator's. `values` regenerates the same array for the
// peers (the raw mmap file) without going through the dataset.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "timef/json.h"
#include "timef/manifest.h"
#include "timef/model.h"

namespace timef::bench {

enum class CorpusKind {
  kEcg,    // 12 leads × 5,000 float32 at 500 Hz per record, integer-microvolt grid
  kTsqa,   // short z-normalised series of length 64/128/256/512, one per record
  kLong,   // multi-day recordings: 100 Hz EEG, 10 Hz respiration, 1 Hz temperature
  kTasks,  // 20 tasks per record (QA with prompts and rationales, classification)
};

// kSmall is the CI size (seconds); kLarge the sizes of issue 6; kMedium sits in between.
enum class CorpusSize { kSmall, kMedium, kLarge };

std::string_view ToString(CorpusKind kind);
std::string_view ToString(CorpusSize size);
// nullopt-like failure is a ValidationError naming the text.
CorpusKind ParseCorpusKind(std::string_view text);
CorpusSize ParseCorpusSize(std::string_view text);

// Produces the values of the signal at `ordinal` (its position in Corpus::signals).
using ValuesFn = std::function<std::vector<float>(std::size_t ordinal)>;

struct Corpus {
  CorpusKind kind = CorpusKind::kEcg;
  std::unique_ptr<model::Dataset> dataset;
  manifest::Card card;
  // Every signal in ID order (records in order, each record's signals in pre-order), so that
  // after Dataset::AssignIds signal i has ID signals[i]->id().
  std::vector<std::shared_ptr<model::Signal>> signals;
  ValuesFn values;
  // Sample rate (Hz) per signal ordinal, for window lengths in steps.
  std::vector<double> rate_hz;
  // Generator parameters (sizes, seed), copied into the report.
  Json params = Json::object();
  std::int64_t n_tasks = 0;

  std::int64_t TotalValues() const;
};

// Builds the corpus with IDs assigned. Identical for identical arguments.
Corpus BuildCorpus(CorpusKind kind, CorpusSize size, std::uint64_t seed);

// ---- per-corpus builders (one file each) ----
Corpus BuildEcgCorpus(CorpusSize size, std::uint64_t seed);
Corpus BuildTsqaCorpus(CorpusSize size, std::uint64_t seed);
Corpus BuildLongCorpus(CorpusSize size, std::uint64_t seed);
Corpus BuildTaskCorpus(CorpusSize size, std::uint64_t seed);

// ---- shared helpers ----
// A card every corpus fills the same way (CC0, benchmark tags).
manifest::Card BenchCard(std::string dataset_id, std::string name, std::string description,
                         std::vector<manifest::Domain> domains);
// Signals of `dataset` in ID order.
std::vector<std::shared_ptr<model::Signal>> SignalsInOrder(const model::Dataset& dataset);
// One ECG lead on an integer-microvolt grid (values in millivolts, multiples of 0.001): beats of
// a record-specific template at `rate_hz`, baseline wander and noise. Deterministic in the keys.
std::vector<float> EcgLead(std::uint64_t seed, std::uint64_t record, int lead, std::int64_t n,
                           double rate_hz);

}  // namespace timef::bench
