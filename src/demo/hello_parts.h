// The pieces of the hello-world dataset that its tasks refer to. The records are built first
// (hello_records.cc), then the tasks (hello_tasks.cc) point into them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "timef/model.h"

namespace timef::demo::internal {

// Microseconds: the hello-world time axes are in µs.
inline constexpr int64_t kSecond = 1'000'000;

inline std::shared_ptr<const model::AnnotationContent> Content(std::string key,
                                                               model::AnnotationValue value) {
  return std::make_shared<model::AnnotationContent>(std::move(key), std::move(value));
}

struct HelloParts {
  std::shared_ptr<model::Record> ecg_record;
  std::shared_ptr<model::Signal> lead_i;
  std::shared_ptr<model::Signal> lead_ii;
  std::shared_ptr<model::Annotation> episode_on_record;
  std::shared_ptr<model::Annotation> episode_on_lead;

  std::shared_ptr<model::Record> vitals_record;
  std::shared_ptr<model::Signal> heart_rate;
  std::shared_ptr<model::Annotation> heart_rate_tags;

  std::shared_ptr<model::Record> diary_record;

  std::shared_ptr<model::Record> generated_record;
  std::shared_ptr<model::Signal> generated_lead;

  std::shared_ptr<model::Annotation> vocabulary;  // registered
  // Carried by the dataset and every record: one content, several occurrences.
  std::shared_ptr<const model::AnnotationContent> synthetic;
};

// Adds the four records (and the dataset's own annotations) to `dataset`; without `with_text`
// the diary keeps only its mood labels (the Zarr demo stores no str signal).
HelloParts AddHelloRecords(model::Dataset& dataset, bool with_text = true);

// Adds the tasks: every task type, a from_tasks chain of four, long packed texts.
void AddHelloTasks(model::Dataset& dataset, const HelloParts& parts);

// Texts longer than the 256-byte pack threshold, with non-ASCII characters.
extern const char* const kCurationText;
extern const char* const kClassificationPrompt;
extern const char* const kAnswerTarget;
extern const char* const kAnswerRationale;
std::vector<std::string> LongKeywordList();

}  // namespace timef::demo::internal
