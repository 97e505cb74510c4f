// Corpus 4 (issue 6): ECG-QA-shaped task-heavy dataset. Each record holds one 10 s lead at
// 100 Hz (PTB-XL low-resolution); each record carries 20 tasks: 12 question-answer tasks (every
// fourth with a prompt over the 256-byte packing threshold, every second with a rationale, every
// fourth rationale long, every sixth comparing two records) and 8 classification tasks.
#include <array>
#include <string>

#include "corpus/corpus.h"
#include "corpus/rng.h"

namespace timef::bench {
namespace {

constexpr std::int64_t kTaskSamples = 1'000;
constexpr double kTaskRateHz = 100;
constexpr int kQaPerRecord = 12;
constexpr int kClassificationPerRecord = 8;

constexpr std::array<const char*, 6> kLabels = {"NORM", "MI", "STTC", "CD", "HYP", "AFIB"};
constexpr std::array<const char*, 6> kAttributes = {"sinus rhythm",        "ST elevation",
                                                    "left axis deviation", "prolonged QT",
                                                    "atrial fibrillation", "T-wave inversion"};

std::int64_t TaskRecordCount(CorpusSize size) {
  switch (size) {
    case CorpusSize::kSmall:
      return 200;
    case CorpusSize::kMedium:
      return 2'000;
    case CorpusSize::kLarge:
      return 10'000;
  }
  return 0;
}

std::string LongContext(std::int64_t record, int q) {
  return "Context: the following recording was acquired at rest in the supine position with a "
         "standard 12-lead placement; the acquisition device applied a 0.5-40 Hz bandpass filter "
         "and a 50 Hz notch filter. Record " +
         std::to_string(record) + ", question " + std::to_string(q) +
         ". Consider the rhythm, the axis, the intervals and the morphology of every complex "
         "before answering. ";
}

}  // namespace

Corpus BuildTaskCorpus(CorpusSize size, std::uint64_t seed) {
  Corpus corpus;
  corpus.dataset = std::make_unique<model::Dataset>("bench/tasks", "1.0.0");
  corpus.card = BenchCard("bench/tasks", "Task-heavy benchmark corpus",
                          "Synthetic ECG-QA-like dataset: 20 tasks per single-lead record.",
                          {manifest::Domain::kCardiology});
  const std::int64_t records = TaskRecordCount(size);
  auto spec = model::Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
  auto axis = model::TimeAxis::RegularFromRate(static_cast<std::int64_t>(kTaskRateHz));
  std::vector<std::shared_ptr<model::Record>> all;
  for (std::int64_t r = 0; r < records; ++r) {
    auto record = corpus.dataset->AddRecord();
    record->set_time_span(model::TimeInterval{0, kTaskSamples * 10'000});
    auto signal = std::make_shared<model::Signal>("II", spec, axis, kTaskSamples);
    signal->SetLoader([seed, r] {
      return model::ValueArray::Of(EcgLead(seed, r, 1, kTaskSamples, kTaskRateHz));
    });
    record->AddSource("ecg")->AddSignal(signal);
    corpus.rate_hz.push_back(kTaskRateHz);
    all.push_back(record);
  }
  for (std::int64_t r = 0; r < records; ++r) {
    Rng rng = Rng::For({seed, static_cast<std::uint64_t>(r), 0x7A5C});
    const std::uint64_t bucket = Rng::For({seed, static_cast<std::uint64_t>(r)}).Below(10);
    const model::Split split = bucket < 8   ? model::Split::kTrain
                               : bucket < 9 ? model::Split::kValidation
                                            : model::Split::kTest;
    std::shared_ptr<model::Task> first_classification;
    for (int c = 0; c < kClassificationPerRecord; ++c) {
      auto task = corpus.dataset->AddTask(model::TaskType::kClassification);
      task->AddInput(all[r]);
      task->set_prompt(model::Text("Which diagnostic superclass fits this ECG? (variant " +
                                   std::to_string(c) + ")"));
      task->AddTarget(model::TaskTarget::OfText(kLabels[rng.Below(kLabels.size())]));
      task->set_target_schema("ptbxl-superclass");
      task->set_split(split);
      if (!first_classification) first_classification = task;
    }
    for (int q = 0; q < kQaPerRecord; ++q) {
      auto task = corpus.dataset->AddTask(model::TaskType::kAnswer);
      task->AddInput(all[r]);
      const char* attribute = kAttributes[rng.Below(kAttributes.size())];
      std::string prompt = "Does this ECG show " + std::string(attribute) + "?";
      if (q % 6 == 5) {
        task->AddInput(all[(r + 1) % records]);
        prompt = "Do both ECGs show " + std::string(attribute) + "?";
      }
      if (q % 4 == 0) prompt = LongContext(r, q) + prompt;
      task->set_prompt(model::Text(prompt));
      task->AddTarget(model::TaskTarget::OfText(rng.Below(2) ? "yes" : "no"));
      if (q % 2 == 0) {
        std::string rationale = "The " + std::string(attribute) + " criterion was checked.";
        if (q % 4 == 0) {
          rationale +=
              " Reasoning: measured the RR intervals over the whole strip, estimated "
              "the QRS axis from leads I and aVF, compared the ST segment with the PR "
              "baseline in every lead and checked the T-wave polarity against the QRS "
              "polarity; the finding is consistent across beats " +
              std::to_string(rng.Below(1000)) + ".";
        }
        task->set_rationale(model::Text(rationale));
      }
      task->set_split(split);
      if (q == 0) task->AddFromTask(first_classification);
    }
  }
  corpus.values = [seed](std::size_t ordinal) {
    return EcgLead(seed, ordinal, 1, kTaskSamples, kTaskRateHz);
  };
  corpus.params["tasks_per_record"] = kQaPerRecord + kClassificationPerRecord;
  corpus.params["samples_per_record"] = kTaskSamples;
  return corpus;
}

}  // namespace timef::bench
