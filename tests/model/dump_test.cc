// The canonical dump: restored order, shared objects by index, every field.
#include "timef/model/dump.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sample_dataset.h"
#include "test_util.h"

namespace timef::model {
namespace {

using testing::MakeSample;

// Two sibling sources and two records, added in either order, with IDs fixed by the caller.
std::shared_ptr<Dataset> Build(bool reversed) {
  auto dataset = std::make_shared<Dataset>("org/name", "1.0.0");
  auto spec = Spec::Make({.spec_type = "x", .name = "X"});
  auto axis = TimeAxis::Regular(1000);
  auto label = std::make_shared<AnnotationContent>("label", AnnotationValue::OfText("a"));
  auto first = std::make_shared<Record>();
  first->set_id(1);
  auto second = std::make_shared<Record>();
  second->set_id(2);
  auto alpha = std::make_shared<Source>("alpha");
  auto beta = std::make_shared<Source>("beta");
  auto s1 = std::make_shared<Signal>("s1", spec, axis, ValueArray::Of<float>({1, 2}));
  s1->set_id(1);
  auto s2 = std::make_shared<Signal>("s2", spec, axis, ValueArray::Of<float>({3, 4}));
  s2->set_id(2);
  alpha->AddSignal(s1);
  beta->AddSignal(s2);
  s1->Annotate(label);
  s2->Annotate(label);
  if (reversed) {
    first->AddSource(beta);
    first->AddSource(alpha);
    dataset->AddRecord(second);
    dataset->AddRecord(first);
  } else {
    first->AddSource(alpha);
    first->AddSource(beta);
    dataset->AddRecord(first);
    dataset->AddRecord(second);
  }
  auto task = dataset->AddTask(TaskType::kClassification);
  task->set_id(1);
  task->AddInput(first);
  task->AddTarget(TaskTarget::OfText("a"));
  task->AddInputAnnotation(s2->annotations()[0]);
  return dataset;
}

TEST(DumpTest, CallerOrderOfSiblingsAndRecordsDoesNotMatter) {
  EXPECT_EQ(DumpDataset(*Build(false), {.values = true}),
            DumpDataset(*Build(true), {.values = true}));
}

TEST(DumpTest, SharedAxesAndContentsAppearOnce) {
  Json dump = DumpDataset(*Build(false));
  EXPECT_EQ(dump["axes"].size(), 1u);
  EXPECT_EQ(dump["contents"].size(), 1u);
  const Json& sources = dump["records"][0]["sources"];
  EXPECT_EQ(sources[0]["name"], "alpha");
  EXPECT_EQ(sources[0]["signals"][0]["axis"], 0);
  EXPECT_EQ(sources[1]["signals"][0]["axis"], 0);
  EXPECT_EQ(dump["tasks"][0]["input_annotations"][0], "signal 2 annotations[0]");
}

TEST(DumpTest, EveryFieldChangesTheDump) {
  auto s = MakeSample();
  s.dataset->AssignIds();
  Json before = DumpDataset(*s.dataset, {.values = true});
  EXPECT_EQ(before, DumpDataset(*s.dataset, {.values = true}));
  EXPECT_EQ(before["tasks"].size(), 9u);
  EXPECT_EQ(before["tasks"][8]["targets"], Json::array());  // explicit empty answer
  EXPECT_EQ(before["tasks"][1]["targets"], nullptr);        // answer by target annotations
  EXPECT_EQ(before["tasks"][8]["prompt"], "");
  EXPECT_EQ(before["tasks"][2]["prompt"], nullptr);
  EXPECT_EQ(before["tasks"][1]["target_annotations"][0], "registered[0]");
  auto audio_axis_index = before["records"][3]["sources"][0]["signals"][0]["axis"].get<size_t>();
  const Json& audio_axis = before["axes"][audio_axis_index];
  EXPECT_EQ(audio_axis["period_numerator_us"], 10000);
  EXPECT_EQ(audio_axis["period_denominator"], 441);

  s.hr_a->Annotate(s.af_label, TimeInterval{0, 1});
  EXPECT_NE(before, DumpDataset(*s.dataset, {.values = true}));
  Json with_annotation = DumpDataset(*s.dataset, {.values = true});
  s.hr_b->SetValues(ValueArray::Of<double>({70, 71, 72, -0.0}));
  EXPECT_NE(with_annotation, DumpDataset(*s.dataset, {.values = true}));
  Json with_values = DumpDataset(*s.dataset, {.values = true});
  s.scalar->set_split(std::nullopt);
  EXPECT_NE(with_values, DumpDataset(*s.dataset, {.values = true}));
}

TEST(DumpTest, FloatsRenderExactly) {
  auto dataset = std::make_shared<Dataset>("org/name", "1.0.0");
  auto spec = Spec::Make({.spec_type = "x", .dtype = DType::kFloat64});
  auto signal = std::make_shared<Signal>("s", spec, TimeAxis::Ordinal(),
                                         ValueArray::Of<double>({-0.0, std::nan(""), 1.5}));
  dataset->AddRecord()->AddSource("src")->AddSignal(signal);
  dataset->AssignIds();
  Json values =
      DumpDataset(*dataset, {.values = true})["records"][0]["sources"][0]["signals"][0]["values"];
  // Bit patterns, so -0 and NaN stay distinct from 0 and from each other.
  EXPECT_EQ(values["data"], "8000000000000000 7ff8000000000000 3ff8000000000000");
}

TEST(DumpTest, NeedsIds) {
  auto s = MakeSample();
  EXPECT_VALIDATION_ERROR(DumpDataset(*s.dataset), "record without id", "id");
}

}  // namespace
}  // namespace timef::model
