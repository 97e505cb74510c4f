// The sample dataset is valid, keeps shared objects shared, and derives its schema.
#include <gtest/gtest.h>

#include <set>

#include "sample_dataset.h"
#include "test_util.h"

namespace timef::model {
namespace {

using testing::MakeSample;

TEST(DatasetTest, SampleWithEveryTaskTypeValidates) {
  auto s = MakeSample();
  EXPECT_NO_THROW(s.dataset->Validate());
  std::set<TaskType> types;
  for (const auto& task : s.dataset->tasks()) types.insert(task->type());
  EXPECT_EQ(types.size(), 8u);
  // Validation does not assign IDs; after assignment the dataset is still valid.
  EXPECT_FALSE(s.ecg_record->id().has_value());
  s.dataset->AssignIds();
  EXPECT_NO_THROW(s.dataset->Validate());
}

TEST(DatasetTest, SignalsShareOneAxisObjectAndOneContentObject) {
  auto s = MakeSample();
  EXPECT_EQ(s.lead_i->axis(), s.lead_ii->axis());
  EXPECT_EQ(s.hr_a->axis(), s.hr_b->axis());
  EXPECT_NE(s.lead_i->axis(), s.rhythm->axis());
  EXPECT_EQ(s.af_on_record->content(), s.af_on_lead->content());
  EXPECT_EQ(s.af_on_record->content().get(), s.af_label.get());
  EXPECT_NE(s.af_on_record, s.af_on_lead);
  // Signals of one spec_type share the spec object the builder made once.
  EXPECT_EQ(s.lead_i->spec(), s.lead_ii->spec());
}

TEST(DatasetTest, ExplicitEmptyTargetsDifferFromAbsentTargets) {
  auto s = MakeSample();
  ASSERT_TRUE(s.empty_answer->targets().has_value());
  EXPECT_TRUE(s.empty_answer->targets()->empty());
  EXPECT_TRUE(s.empty_answer->has_inline_targets());
  EXPECT_FALSE(s.answer->has_inline_targets());
  // An empty prompt is present; an absent one is not.
  ASSERT_TRUE(s.empty_answer->prompt().has_value());
  EXPECT_TRUE(s.empty_answer->prompt()->empty());
  EXPECT_FALSE(s.scalar->prompt().has_value());
}

TEST(DatasetTest, DerivesSortedSchema) {
  auto s = MakeSample();
  Schema schema = DeriveSchema(*s.dataset);
  std::vector<std::string> spec_types;
  for (const auto& spec : schema.time_series_specs) spec_types.push_back(spec.spec_type);
  EXPECT_EQ(spec_types,
            (std::vector<std::string>{"ecg", "flag", "heart_rate", "note", "pcm", "rhythm"}));
  EXPECT_EQ(schema.time_series_specs[0].unit, "millivolt");
  std::vector<std::string> keys;
  for (const auto& descriptor : schema.annotations) keys.push_back(descriptor.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"beat", "curation", "difficulty", "episode", "fasting",
                                            "gain", "operator", "reviewed", "tags", "vocabulary"}));
  const auto& episode = schema.annotations[3];
  EXPECT_EQ(episode.annotation_type, AnnotationType::kInterval);
  EXPECT_EQ(episode.value_type, AnnotationValueType::kStr);
  EXPECT_EQ(episode.description, "rhythm episode");
  EXPECT_EQ(schema.annotations[7].value_type, std::nullopt);  // marker
  EXPECT_EQ(schema.annotations[5].unit, "millivolt");
  std::vector<std::string_view> types;
  for (TaskType type : schema.tasks) types.push_back(ToString(type));
  EXPECT_EQ(types,
            (std::vector<std::string_view>{"answer", "classification", "forecasting",
                                           "scalar_prediction", "temporal_localization",
                                           "ts_correspondence", "ts_editing", "ts_generation"}));
}

TEST(DatasetTest, ConflictingSpecsForOneSpecTypeAreRejected) {
  auto s = MakeSample();
  auto other = Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "V"});
  auto lead_iii = std::make_shared<Signal>("lead_III", other, s.lead_i->axis(), int64_t{5000});
  s.leads->AddSignal(lead_iii);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "signal 'lead_III'", "spec.unit",
                              "'millivolt' vs 'volt'");
}

TEST(DatasetTest, DatasetIdentityIsChecked) {
  EXPECT_VALIDATION_ERROR(Dataset("no-slash", "1.0.0"), "dataset", "dataset_id");
  EXPECT_VALIDATION_ERROR(Dataset("org/name", "1.0"), "dataset org/name", "dataset_version");
  EXPECT_VALIDATION_ERROR(Dataset("org/name", "01.0.0"), "dataset org/name", "dataset_version");
  EXPECT_EQ(Dataset("org/name", "1.10.0").Ref(), "org/name@1.10.0");
}

TEST(DatasetTest, ParentsAreChecked) {
  Dataset dataset("org/child", "1.0.0");
  EXPECT_VALIDATION_ERROR(dataset.AddParent({"Base", "org/base", "1.0.0"}),
                          "dataset org/child@1.0.0", "parents[0].alias");
  EXPECT_VALIDATION_ERROR(dataset.AddParent({"base", "org", "1.0.0"}), "dataset org/child",
                          "parents[0].dataset_id");
  EXPECT_VALIDATION_ERROR(dataset.AddParent({"base", "org/base", "x"}), "dataset org/child",
                          "parents[0].version");
  EXPECT_VALIDATION_ERROR(dataset.AddParent({"me", "org/child", "1.0.0"}), "dataset org/child",
                          "parents[0]");
  dataset.AddParent({"base", "org/base", "1.0.0"});
  // Two aliases may name one release, but one alias names one release.
  dataset.AddParent({"again", "org/base", "1.0.0"});
  EXPECT_VALIDATION_ERROR(dataset.AddParent({"base", "org/other", "1.0.0"}), "dataset org/child",
                          "parents[2].alias");
  EXPECT_EQ(dataset.parents().size(), 2u);
  EXPECT_EQ(dataset.parents()[0].Ref(), "org/base@1.0.0");
}

TEST(DatasetTest, NullObjectsAreRejected) {
  Dataset dataset("org/name", "1.0.0");
  EXPECT_VALIDATION_ERROR(dataset.AddRecord(nullptr), "dataset org/name", "records[0]");
  EXPECT_VALIDATION_ERROR(dataset.AddTask(std::shared_ptr<Task>()), "dataset org/name", "tasks[0]");
  EXPECT_VALIDATION_ERROR(dataset.RegisterAnnotation(std::shared_ptr<Annotation>()),
                          "dataset org/name", "registered_annotations[0]");
}

TEST(DatasetTest, RecordOrTaskAddedTwiceIsRejected) {
  auto s = MakeSample();
  s.dataset->AddRecord(s.hr_record);
  EXPECT_VALIDATION_ERROR(s.dataset->Validate(), "record at position 4", "records[4]");
  auto t = MakeSample();
  t.dataset->AddTask(t.scalar);
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task at position 9", "tasks[9]");
}

}  // namespace
}  // namespace timef::model
