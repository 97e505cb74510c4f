// Records, the source forest (H1), signals (H2, A2) and metadata.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sample_dataset.h"
#include "test_util.h"

namespace timef::model {
namespace {

using testing::MakeSample;

std::shared_ptr<const Spec> FloatSpec() { return Spec::Make({.spec_type = "x", .name = "X"}); }

TEST(SignalTest, NeedsAtLeastOneTimestep) {
  EXPECT_VALIDATION_ERROR(Signal("lead_I", FloatSpec(), TimeAxis::Ordinal(), 0), "signal 'lead_I'",
                          "n_values");
  EXPECT_VALIDATION_ERROR(Signal("lead_I", FloatSpec(), TimeAxis::Ordinal(), -3), "signal 'lead_I'",
                          "n_values");
}

TEST(SignalTest, IrregularAxisNeedsOneOffsetPerTimestep) {
  EXPECT_VALIDATION_ERROR_MSG(Signal("hr", FloatSpec(), TimeAxis::Irregular({0, 10, 20}), 4),
                              "signal 'hr'", "n_values",
                              "3 offsets but the signal has 4 timesteps");
  EXPECT_NO_THROW(Signal("hr", FloatSpec(), TimeAxis::Irregular({0, 10, 20}), 3));
}

TEST(SignalTest, NeedsSpecAndAxis) {
  EXPECT_VALIDATION_ERROR(Signal("s", nullptr, TimeAxis::Ordinal(), 1), "signal 's'", "spec");
  EXPECT_VALIDATION_ERROR(Signal("s", FloatSpec(), nullptr, 1), "signal 's'", "axis");
  Spec raw{.spec_type = "_validity"};
  EXPECT_VALIDATION_ERROR(Signal("s", std::make_shared<const Spec>(raw), TimeAxis::Ordinal(), 1),
                          "spec '_validity'", "spec_type");
}

TEST(SourceTest, ASourceHasOneParent) {
  auto a = std::make_shared<Source>("a");
  auto b = std::make_shared<Source>("b");
  auto child = a->AddChild("child");
  EXPECT_EQ(child->parent(), a);
  EXPECT_VALIDATION_ERROR_MSG(b->AddChild(child), "source 'child'", "parent",
                              "already has a parent (source 'a')");
  EXPECT_TRUE(b->children().empty());
}

TEST(SourceTest, TheTreeCannotBecomeCyclic) {
  auto a = std::make_shared<Source>("a");
  auto b = a->AddChild("b");
  auto c = b->AddChild("c");
  EXPECT_VALIDATION_ERROR_MSG(c->AddChild(a), "source 'a'", "parent", "cycle");
  EXPECT_VALIDATION_ERROR_MSG(a->AddChild(a), "source 'a'", "parent", "cycle");
}

TEST(SourceTest, SourcesMustBeSharedOwned) {
  Source stack("stack");
  EXPECT_VALIDATION_ERROR(stack.AddChild("x"), "source 'stack'", "children");
}

TEST(SourceTest, ASignalBelongsToOneSource) {
  auto a = std::make_shared<Source>("a");
  auto b = std::make_shared<Source>("b");
  auto signal = std::make_shared<Signal>("s", FloatSpec(), TimeAxis::Ordinal(), 1);
  a->AddSignal(signal);
  EXPECT_EQ(signal->source(), a);
  EXPECT_VALIDATION_ERROR_MSG(b->AddSignal(signal), "signal 's'", "source", "source 'a'");
}

TEST(RecordTest, ARootSourceHasNoParent) {
  auto parent = std::make_shared<Source>("parent");
  auto child = parent->AddChild("child");
  Record record;
  EXPECT_VALIDATION_ERROR(record.AddSource(child), "source 'child'", "parent");
}

TEST(RecordTest, OneSourceInTwoRecordsIsRejected) {
  auto s = MakeSample();
  s.audio_record->AddSource(s.device);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "source 'device' of record at position 3",
                              "parent", "appears twice");
}

TEST(RecordTest, ARootThatLaterBecameAChildIsRejected) {
  auto s = MakeSample();
  auto root = s.audio_record->AddSource("late");
  s.device->AddChild(root);  // allowed by AddChild: the root had no parent yet
  EXPECT_VALIDATION_ERROR(s.dataset->Validate(), "source 'late'", "parent");
}

TEST(RecordTest, SignalsWalkSourcesInPreOrder) {
  auto s = MakeSample();
  EXPECT_EQ(s.ecg_record->Signals(),
            (std::vector<std::shared_ptr<Signal>>{s.rhythm, s.lead_i, s.lead_ii}));
}

TEST(RecordTest, TimeSpanIsOrdered) {
  Record record;
  EXPECT_VALIDATION_ERROR_MSG(record.set_time_span(TimeInterval{5, 3}), "record without id",
                              "time_span", "start 5 > end 3");
  EXPECT_NO_THROW(record.set_time_span(TimeInterval{5, 5}));
}

TEST(RecordTest, SignalSamplesLieInsideTheRecordTimeSpan) {
  auto s = MakeSample();
  s.ecg_record->set_time_span(TimeInterval{0, 9'998'000});  // the last sample is at 9.998 s
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "signal 'lead_I'", "axis",
                              "outside record at position 0's time span");
  auto t = MakeSample();
  t.ecg_record->set_time_span(TimeInterval{1, 10'000'000});
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "signal 'rhythm'", "axis");
  auto u = MakeSample();
  u.hr_record->set_time_span(TimeInterval{0, 3'100'000});  // last offset 3.1 s is excluded
  EXPECT_VALIDATION_ERROR(u.dataset->Validate(), "signal 'hr_a'", "axis");
  u.hr_record->set_time_span(TimeInterval{0, 3'100'001});
  EXPECT_NO_THROW(u.dataset->Validate());
}

TEST(MetadataTest, MustBeAJsonObjectWithoutNanAndWithUtf8) {
  Record record;
  EXPECT_VALIDATION_ERROR(record.set_metadata(Json::array()), "record", "metadata");
  EXPECT_VALIDATION_ERROR(record.set_metadata(Json("text")), "record", "metadata");
  Json nan = {{"a", {{"b", {1.0, std::nan("")}}}}};
  EXPECT_VALIDATION_ERROR(record.set_metadata(nan), "record", "metadata/a/b/1");
  Json inf = {{"x/y", std::numeric_limits<double>::infinity()}};
  EXPECT_VALIDATION_ERROR(record.set_metadata(inf), "record", "metadata/x~1y");
  Json bad_key = Json::object();
  bad_key["\xff"] = 1;
  EXPECT_VALIDATION_ERROR(record.set_metadata(bad_key), "record", "metadata/\\xff");
  Json bad_string = {{"k", "\xc3"}};
  auto source = std::make_shared<Source>("s");
  EXPECT_VALIDATION_ERROR(source->set_metadata(bad_string), "source 's'", "metadata/k");
  auto signal = std::make_shared<Signal>("s", FloatSpec(), TimeAxis::Ordinal(), 1);
  EXPECT_VALIDATION_ERROR(signal->set_metadata(Json::array()), "signal 's'", "metadata");
  Task task(TaskType::kAnswer);
  EXPECT_VALIDATION_ERROR(task.set_metadata(nan), "task", "metadata/a/b/1");
  EXPECT_NO_THROW(record.set_metadata({{"ünï", {1, 2.5, "日本", nullptr, true}}}));
  EXPECT_EQ(record.metadata()["ünï"][2], "日本");
}

TEST(NamesTest, InvalidUtf8NamesAreRejected) {
  EXPECT_VALIDATION_ERROR(Source("bad\xff"), "source", "name");
  EXPECT_VALIDATION_ERROR(Signal("bad\xff", FloatSpec(), TimeAxis::Ordinal(), 1), "signal", "name");
  auto s = MakeSample();
  s.notes->set_source_id("raw\xff");
  EXPECT_VALIDATION_ERROR(s.dataset->Validate(), "signal 'notes'", "source_id");
}

}  // namespace
}  // namespace timef::model
