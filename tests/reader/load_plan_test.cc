// How far a read's LoadPlan reaches (FORMAT.md §11): the objects the read returns and what they
// reference directly, not what it builds only as another task's from_tasks.
#include <gtest/gtest.h>

#include <set>

#include "release_fixture.h"
#include "support/serve_release.h"
#include "timef/demo.h"
#include "timef/error.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {
using testing::TempDir;

bool ValuesLoaded(const model::Record& record) {
  bool all = true;
  for (const auto& signal : record.Signals()) {
    all = all && signal->has_values() && signal->values()->is_loaded();
  }
  return all;
}

bool AnyValuesLoaded(const model::Record& record) {
  for (const auto& signal : record.Signals()) {
    if (signal->has_values() && signal->values()->is_loaded()) return true;
  }
  return false;
}

// In the fixture, forecast (input: vitals) derives from answer (input: ecg, long packed prompt,
// rationale and text target), which derives from classify (input: ecg).
TEST(LoadPlanTest, AnEagerPlanDoesNotReachFromTasksParents) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const auto forecast =
      reader.GetTask(*w->fixture.forecast->id(), std::nullopt, LoadPlan::AllEager());
  ASSERT_EQ(forecast->inputs().size(), 1u);
  EXPECT_TRUE(ValuesLoaded(*forecast->inputs()[0]));
  ASSERT_EQ(forecast->from_tasks().size(), 1u);
  const auto& answer = forecast->from_tasks()[0];
  ASSERT_TRUE(answer->prompt().has_value());
  EXPECT_FALSE(answer->prompt()->is_loaded());
  EXPECT_FALSE(answer->rationale()->is_loaded());
  ASSERT_EQ(answer->inputs().size(), 1u);
  EXPECT_FALSE(AnyValuesLoaded(*answer->inputs()[0]));
  // Still readable, lazily.
  EXPECT_EQ(answer->prompt()->Read(), w->fixture.long_prompt);

  // The same task requested itself is loaded.
  const auto direct = reader.GetTask(*w->fixture.answer->id(), std::nullopt, LoadPlan::AllEager());
  EXPECT_TRUE(direct->prompt()->is_loaded());
  EXPECT_TRUE(direct->rationale()->is_loaded());
  EXPECT_TRUE(ValuesLoaded(*direct->inputs()[0]));
  // Its parent classify shares the ecg record with it: a record a requested task uses is loaded
  // even when a parent uses it too.
  ASSERT_EQ(direct->from_tasks().size(), 1u);
  EXPECT_EQ(direct->from_tasks()[0]->inputs()[0], direct->inputs()[0]);
}

TEST(LoadPlanTest, ATaskInTheBatchIsLoadedEvenWhenAnotherDerivesFromIt) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const auto tasks = reader.ReadTasks({.load = LoadPlan::AllEager()});
  ASSERT_EQ(tasks.size(), 3u);
  for (const auto& task : tasks) {
    SCOPED_TRACE(*task->id());
    if (task->prompt()) {
      EXPECT_TRUE(task->prompt()->is_loaded());
    }
    for (const auto& input : task->inputs()) EXPECT_TRUE(ValuesLoaded(*input));
  }
  // Batches of one: forecast's batch builds answer only as a parent, so it stays lazy there.
  TaskStream stream = reader.IterTasks({.batch_size = 1, .load = LoadPlan::AllEager()});
  int checked = 0;
  while (auto batch = stream.Next()) {
    const auto& task = batch->front();
    if (*task->id() != *w->fixture.forecast->id()) continue;
    EXPECT_FALSE(task->from_tasks()[0]->prompt()->is_loaded());
    EXPECT_FALSE(AnyValuesLoaded(*task->from_tasks()[0]->inputs()[0]));
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

// read_tasks(inputs=records): the tasks use the caller's Record objects, annotations included,
// and the plan does not touch them.
TEST(InputRecordsTest, TasksReuseTheRecordsYouPassAndLeaveThemAsTheyAre) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const auto records = reader.GetRecords(std::vector<int64_t>{*w->fixture.ecg->id()});
  const auto& ecg = records.front();
  ASSERT_FALSE(AnyValuesLoaded(*ecg));
  const auto tasks =
      reader.ReadTasks({.input_records = std::vector<std::shared_ptr<model::Record>>{ecg},
                        .load = LoadPlan::AllEager()});
  ASSERT_EQ(tasks.size(), 2u);  // classify and answer use the ECG record
  for (const auto& task : tasks) {
    ASSERT_EQ(task->inputs().size(), 1u);
    EXPECT_EQ(task->inputs()[0], ecg);  // the same object
    if (task->prompt()) {
      EXPECT_TRUE(task->prompt()->is_loaded());  // the task itself: loaded
    }
  }
  EXPECT_FALSE(AnyValuesLoaded(*ecg));  // the caller's record: untouched

  // Streams: every batch uses the same caller objects.
  TaskStream stream = reader.IterTasks(
      {.input_records = std::vector<std::shared_ptr<model::Record>>{ecg}, .batch_size = 1});
  int n = 0;
  while (auto batch = stream.Next()) {
    EXPECT_EQ(batch->front()->inputs()[0], ecg);
    ++n;
  }
  EXPECT_EQ(n, 2);

  // A record that does not match what is stored, or has no ID, is refused.
  auto changed = reader.GetRecords(std::vector<int64_t>{*w->fixture.ecg->id()}).front();
  changed->AddSource("extra");
  EXPECT_THROW(
      reader.ReadTasks({.input_records = std::vector<std::shared_ptr<model::Record>>{changed}}),
      ValidationError);
  auto fresh = std::make_shared<model::Record>();
  EXPECT_THROW(
      reader.ReadTasks({.input_records = std::vector<std::shared_ptr<model::Record>>{fresh}}),
      ValidationError);
  EXPECT_THROW(
      reader.ReadTasks({.inputs = std::vector<std::int64_t>{1},
                        .input_records = std::vector<std::shared_ptr<model::Record>>{ecg}}),
      ValidationError);
}

// Every annotation on a record, its sources and its signals.
std::set<const model::Annotation*> AnnotationsOf(const model::Record& record) {
  std::set<const model::Annotation*> out;
  std::vector<const model::Annotatable*> objects{&record};
  std::vector<std::shared_ptr<model::Source>> sources(record.sources());
  while (!sources.empty()) {
    auto source = sources.back();
    sources.pop_back();
    objects.push_back(source.get());
    sources.insert(sources.end(), source->children().begin(), source->children().end());
  }
  for (const auto& signal : record.Signals()) objects.push_back(signal.get());
  for (const auto* object : objects) {
    for (const auto& a : object->annotations()) out.insert(a.get());
  }
  return out;
}

// Task annotation references into a passed record resolve to the caller's annotations (the
// hello-world localization task references an episode annotated on an ECG lead).
TEST(InputRecordsTest, AnnotationReferencesResolveToTheCallersAnnotations) {
  TempDir root;
  const WriteResult written = WriteRelease(*demo::BuildHelloWorld(), demo::HelloWorldCard(),
                                           root.path(), demo::HelloWorldWriteOptions());
  Reader reader = testing::OpenForRead(written.release_dir);
  int adopted_refs = 0, plain_refs = 0;
  for (const auto& record : reader.GetRecords(reader.RecordIds())) {
    const auto mine = AnnotationsOf(*record);
    auto count = [&](const std::vector<std::shared_ptr<model::Task>>& tasks) {
      int n = 0;
      for (const auto& task : tasks) {
        for (const auto& a : task->input_annotations()) n += mine.contains(a.get());
        for (const auto& a : task->target_annotations()) n += mine.contains(a.get());
      }
      return n;
    };
    adopted_refs += count(
        reader.ReadTasks({.input_records = std::vector<std::shared_ptr<model::Record>>{record}}));
    // By ID, the read builds its own copy of the record: no reference reaches the caller's.
    plain_refs += count(reader.ReadTasks({.inputs = std::vector<std::int64_t>{*record->id()}}));
  }
  EXPECT_GT(adopted_refs, 0);
  EXPECT_EQ(plain_refs, 0);
}

}  // namespace
}  // namespace timef
