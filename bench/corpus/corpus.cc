#include "corpus/corpus.h"

#include <string>

#include "timef/error.h"

namespace timef::bench {

std::string_view ToString(CorpusKind kind) {
  switch (kind) {
    case CorpusKind::kEcg:
      return "ecg";
    case CorpusKind::kTsqa:
      return "tsqa";
    case CorpusKind::kLong:
      return "long";
    case CorpusKind::kTasks:
      return "tasks";
  }
  return "?";
}

std::string_view ToString(CorpusSize size) {
  switch (size) {
    case CorpusSize::kSmall:
      return "small";
    case CorpusSize::kMedium:
      return "medium";
    case CorpusSize::kLarge:
      return "large";
  }
  return "?";
}

CorpusKind ParseCorpusKind(std::string_view text) {
  for (CorpusKind kind :
       {CorpusKind::kEcg, CorpusKind::kTsqa, CorpusKind::kLong, CorpusKind::kTasks}) {
    if (ToString(kind) == text) return kind;
  }
  throw ValidationError("unknown corpus '" + std::string(text) + "' (ecg, tsqa, long, tasks)");
}

CorpusSize ParseCorpusSize(std::string_view text) {
  for (CorpusSize size : {CorpusSize::kSmall, CorpusSize::kMedium, CorpusSize::kLarge}) {
    if (ToString(size) == text) return size;
  }
  throw ValidationError("unknown corpus size '" + std::string(text) + "' (small, medium, large)");
}

std::int64_t Corpus::TotalValues() const {
  std::int64_t total = 0;
  for (const auto& signal : signals) total += signal->n_values();
  return total;
}

Corpus BuildCorpus(CorpusKind kind, CorpusSize size, std::uint64_t seed) {
  Corpus corpus;
  switch (kind) {
    case CorpusKind::kEcg:
      corpus = BuildEcgCorpus(size, seed);
      break;
    case CorpusKind::kTsqa:
      corpus = BuildTsqaCorpus(size, seed);
      break;
    case CorpusKind::kLong:
      corpus = BuildLongCorpus(size, seed);
      break;
    case CorpusKind::kTasks:
      corpus = BuildTaskCorpus(size, seed);
      break;
  }
  corpus.kind = kind;
  corpus.dataset->AssignIds();
  corpus.signals = SignalsInOrder(*corpus.dataset);
  corpus.n_tasks = static_cast<std::int64_t>(corpus.dataset->tasks().size());
  corpus.params["corpus"] = std::string(ToString(kind));
  corpus.params["size"] = std::string(ToString(size));
  corpus.params["seed"] = seed;
  corpus.params["signals"] = corpus.signals.size();
  corpus.params["records"] = corpus.dataset->records().size();
  corpus.params["tasks"] = corpus.n_tasks;
  corpus.params["values"] = corpus.TotalValues();
  return corpus;
}

manifest::Card BenchCard(std::string dataset_id, std::string name, std::string description,
                         std::vector<manifest::Domain> domains) {
  manifest::Card card;
  card.dataset_id = std::move(dataset_id);
  card.dataset_version = "1.0.0";
  card.name = std::move(name);
  card.description = std::move(description);
  card.license = manifest::License::kCc0_1_0;
  card.domains = std::move(domains);
  card.tags = {"benchmark", "synthetic"};
  return card;
}

std::vector<std::shared_ptr<model::Signal>> SignalsInOrder(const model::Dataset& dataset) {
  std::vector<std::shared_ptr<model::Signal>> out;
  for (const auto& record : dataset.records()) {
    for (auto& signal : record->Signals()) out.push_back(std::move(signal));
  }
  return out;
}

}  // namespace timef::bench
