// The hello-world dataset: valid, deterministic, and covering what demo.h promises.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "timef/demo.h"

namespace timef::demo {
namespace {

using model::Annotatable;
using model::Annotation;
using model::DType;
using model::Signal;
using model::Task;
using model::TaskType;
using model::ValueKind;

bool HasNonAscii(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return (c & 0x80) != 0; });
}

std::vector<std::shared_ptr<Signal>> AllSignals(const model::Dataset& dataset) {
  std::vector<std::shared_ptr<Signal>> out;
  for (const auto& record : dataset.records()) {
    for (auto& signal : record->Signals()) out.push_back(std::move(signal));
  }
  return out;
}

std::shared_ptr<Signal> SignalById(const model::Dataset& dataset, int64_t id) {
  for (auto& signal : AllSignals(dataset)) {
    if (signal->id() == id) return signal;
  }
  return nullptr;
}

// Every annotated object with a label of its kind.
std::vector<std::pair<std::string, const Annotatable*>> AnnotatedObjects(
    const model::Dataset& dataset) {
  std::vector<std::pair<std::string, const Annotatable*>> out{{"dataset", &dataset}};
  std::function<void(const model::Source&)> walk = [&](const model::Source& source) {
    out.emplace_back("source", &source);
    for (const auto& signal : source.signals()) out.emplace_back("signal", signal.get());
    for (const auto& child : source.children()) walk(*child);
  };
  for (const auto& record : dataset.records()) {
    out.emplace_back("record", record.get());
    for (const auto& source : record->sources()) walk(*source);
  }
  for (const auto& task : dataset.tasks()) out.emplace_back("task", task.get());
  return out;
}

int ChainLength(const Task& task) {
  int longest = 0;
  for (const auto& parent : task.from_tasks()) longest = std::max(longest, ChainLength(*parent));
  return longest + 1;
}

TEST(HelloWorldTest, IsValidWithAssignedIds) {
  auto dataset = BuildHelloWorld();
  EXPECT_NO_THROW(dataset->Validate());
  EXPECT_EQ(dataset->dataset_id(), kHelloWorldId);
  EXPECT_EQ(dataset->version(), kHelloWorldVersion);
  ASSERT_EQ(dataset->records().size(), 4u);
  EXPECT_EQ(dataset->records()[0]->id(), kEcgRecordId);
  EXPECT_EQ(dataset->records()[1]->id(), kVitalsRecordId);
  EXPECT_EQ(dataset->records()[2]->id(), kDiaryRecordId);
  EXPECT_EQ(dataset->records()[3]->id(), kGeneratedRecordId);
  for (const auto& task : dataset->tasks()) EXPECT_TRUE(task->id().has_value());
}

TEST(HelloWorldTest, TwoBuildsDumpIdentically) {
  auto first = BuildHelloWorld();
  auto second = BuildHelloWorld();
  EXPECT_EQ(model::DumpDataset(*first, {.values = true}),
            model::DumpDataset(*second, {.values = true}));
}

TEST(HelloWorldTest, SpecialFloatsSitWhereTheConstantsSay) {
  auto dataset = BuildHelloWorld();
  auto signal = SignalById(*dataset, kSpecialSignalId);
  ASSERT_NE(signal, nullptr);
  EXPECT_EQ(signal->name(), kSpecialSignalName);
  EXPECT_EQ(signal->n_values(), kEcgSamples);
  auto values = signal->LoadValues()->values<float>();
  EXPECT_TRUE(std::isnan(values[kNanStep]));
  EXPECT_TRUE(std::isinf(values[kPosInfStep]) && values[kPosInfStep] > 0);
  EXPECT_TRUE(std::isinf(values[kNegInfStep]) && values[kNegInfStep] < 0);
  EXPECT_EQ(values[kNegZeroStep], 0.0f);
  EXPECT_TRUE(std::signbit(values[kNegZeroStep]));
  // Nowhere else: every other sample is finite and not a zero.
  for (int64_t i = 0; i < kEcgSamples; ++i) {
    if (i == kNanStep || i == kPosInfStep || i == kNegInfStep || i == kNegZeroStep) continue;
    ASSERT_TRUE(std::isfinite(values[i])) << "step " << i;
    ASSERT_NE(values[i], 0.0f) << "step " << i;
  }
}

TEST(HelloWorldTest, HeartRateHoldsNullsAndANanAtTheDocumentedSteps) {
  auto dataset = BuildHelloWorld();
  auto signal = SignalById(*dataset, kHeartRateSignalId);
  ASSERT_NE(signal, nullptr);
  EXPECT_EQ(signal->name(), kHeartRateSignalName);
  EXPECT_TRUE(signal->spec()->nullable);
  EXPECT_EQ(signal->spec()->dtype, DType::kFloat64);
  EXPECT_TRUE(signal->axis()->is_irregular());
  auto values = signal->LoadValues();
  std::set<int64_t> nulls(kHeartRateNullSteps.begin(), kHeartRateNullSteps.end());
  for (int64_t i = 0; i < kIrregularSteps; ++i) {
    EXPECT_EQ(values->IsValid(i), !nulls.contains(i)) << "step " << i;
    if (values->IsValid(i)) {
      EXPECT_EQ(std::isnan(values->values<double>()[i]), i == kHeartRateNanStep) << "step " << i;
    }
  }
  EXPECT_EQ(values->null_count(), 3);
}

TEST(HelloWorldTest, CoversDtypesModalitiesAndAxes) {
  auto dataset = BuildHelloWorld();
  std::set<DType> dtypes;
  std::set<model::Modality> modalities;
  std::set<model::AxisType> axes;
  std::map<const model::TimeAxis*, int> irregular_users;
  for (const auto& signal : AllSignals(*dataset)) {
    dtypes.insert(signal->spec()->dtype);
    modalities.insert(signal->spec()->modality);
    axes.insert(signal->axis()->type());
    if (signal->axis()->is_irregular()) ++irregular_users[signal->axis().get()];
    if (signal->spec()->dtype == DType::kEnum) {
      EXPECT_FALSE(signal->spec()->categories.empty());
    }
  }
  EXPECT_EQ(dtypes.size(), 11u) << "every dtype appears";
  EXPECT_TRUE(modalities.contains(model::Modality::kText));
  EXPECT_TRUE(modalities.contains(model::Modality::kTimeSeries));
  EXPECT_EQ(axes.size(), 3u);
  ASSERT_EQ(irregular_users.size(), 1u);
  EXPECT_EQ(irregular_users.begin()->second, 2) << "two signals share the irregular axis";
}

TEST(HelloWorldTest, EcgLeadIsLongEnoughForSeveralChunksAndRowGroups) {
  WriteOptions options = HelloWorldWriteOptions();
  EXPECT_EQ(options.chunk_max_bytes, 16 * 1024);
  EXPECT_EQ(options.row_group_target_bytes, 64 * 1024);
  EXPECT_EQ(options.shard_target_bytes, 256 * 1024);
  auto dataset = BuildHelloWorld();
  auto lead = SignalById(*dataset, kSpecialSignalId);
  const int64_t bytes = lead->n_values() * 4;  // float32 step_bytes (FORMAT.md §7.2)
  EXPECT_GE(bytes / options.chunk_max_bytes, 9);
  EXPECT_GE(bytes / options.row_group_target_bytes, 2);
}

TEST(HelloWorldTest, RecordsMixStartTimesTimelinesAndNestedSources) {
  auto dataset = BuildHelloWorld();
  int with_start = 0;
  int without_span = 0;
  for (const auto& record : dataset->records()) {
    with_start += record->start_time_us().has_value();
    without_span += !record->time_span().has_value();
  }
  EXPECT_EQ(with_start, 2);
  EXPECT_EQ(without_span, 1);
  const auto& device = dataset->records()[0]->sources().at(0);
  ASSERT_FALSE(device->children().empty());
  ASSERT_FALSE(device->children()[0]->children().empty());
  EXPECT_EQ(device->children()[0]->children()[0]->signals().size(), 2u) << "leads, 3 deep";
}

TEST(HelloWorldTest, AnnotationsCoverEveryShapeValueKindAndObjectKind) {
  auto dataset = BuildHelloWorld();
  std::set<std::string> kinds_annotated;
  std::set<ValueKind> value_kinds;
  std::set<model::AnnotationType> shapes;
  std::map<const model::AnnotationContent*, int> content_uses;
  for (const auto& [kind, object] : AnnotatedObjects(*dataset)) {
    for (const auto& occurrence : object->annotations()) {
      kinds_annotated.insert(kind);
      value_kinds.insert(occurrence->content()->value().kind());
      shapes.insert(model::AnnotationTypeOf(occurrence->span()));
      ++content_uses[occurrence->content().get()];
    }
  }
  EXPECT_THAT(kinds_annotated,
              ::testing::ElementsAre("dataset", "record", "signal", "source", "task"));
  EXPECT_EQ(value_kinds.size(), 6u);
  EXPECT_EQ(shapes.size(), 3u);
  EXPECT_TRUE(std::any_of(content_uses.begin(), content_uses.end(), [](const auto& use) {
    return use.second >= 3;
  })) << "one content is shared by several objects";
  ASSERT_EQ(dataset->registered_annotations().size(), 1u);
  EXPECT_EQ(dataset->registered_annotations()[0]->key(), "vocabulary");
  EXPECT_NO_THROW(model::DeriveSchema(*dataset));
}

TEST(HelloWorldTest, EveryTaskTypeSplitAndAFromTasksChain) {
  auto dataset = BuildHelloWorld();
  std::set<TaskType> types;
  std::set<model::Split> splits;
  int longest_chain = 0;
  for (const auto& task : dataset->tasks()) {
    types.insert(task->type());
    if (task->split()) splits.insert(*task->split());
    longest_chain = std::max(longest_chain, ChainLength(*task));
  }
  EXPECT_EQ(types.size(), 8u);
  EXPECT_EQ(splits.size(), 3u);
  EXPECT_GE(longest_chain, 3);
}

TEST(HelloWorldTest, LongTextsExceedThePackThreshold) {
  auto dataset = BuildHelloWorld();
  const int64_t threshold = HelloWorldWriteOptions().text_pack_threshold_bytes;
  bool long_prompt = false, long_rationale = false, long_target = false;
  for (const auto& task : dataset->tasks()) {
    if (task->prompt() && task->prompt()->size() > threshold) {
      long_prompt = true;
      EXPECT_TRUE(HasNonAscii(task->prompt()->Read()));
    }
    if (task->rationale() && task->rationale()->size() > threshold) {
      long_rationale = true;
      EXPECT_TRUE(HasNonAscii(task->rationale()->Read()));
    }
    for (const auto& target : task->targets().value_or(std::vector<model::TaskTarget>{})) {
      if (target.kind() == model::TargetKind::kText && target.text().size() > threshold) {
        long_target = true;
      }
    }
  }
  EXPECT_TRUE(long_prompt);
  EXPECT_TRUE(long_rationale);
  EXPECT_TRUE(long_target);

  bool long_annotation = false, long_list = false;
  for (const auto& occurrence : dataset->annotations()) {
    const auto& value = occurrence->content()->value();
    if (value.kind() == ValueKind::kText && value.text().size() > threshold) {
      long_annotation = true;
    }
    if (value.kind() == ValueKind::kTextList) {
      int64_t total = 0;
      for (const auto& element : value.text_list().Read()) total += element.size();
      long_list |= total > threshold;
    }
  }
  EXPECT_TRUE(long_annotation);
  EXPECT_TRUE(long_list);
}

TEST(HelloWorldTest, CardAgreesWithTheDataset) {
  manifest::Card card = HelloWorldCard();
  EXPECT_EQ(card.dataset_id, kHelloWorldId);
  EXPECT_EQ(card.dataset_version, kHelloWorldVersion);
  EXPECT_EQ(card.license, manifest::License::kCcBy4_0);
  EXPECT_FALSE(card.name.empty());
  EXPECT_FALSE(card.description.empty());
  EXPECT_FALSE(card.domains.empty());
  EXPECT_FALSE(card.tags.empty());
}

}  // namespace
}  // namespace timef::demo
