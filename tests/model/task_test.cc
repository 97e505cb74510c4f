// Tasks (T1–T3 and references): targets versus target annotations, references to objects of the
// dataset, scopes and span targets, input modalities, per-type config, from_tasks.
#include <gtest/gtest.h>

#include "sample_dataset.h"
#include "test_util.h"

namespace timef::model {
namespace {

using testing::MakeSample;

TEST(TaskTest, TargetKindsAndAccessors) {
  auto s = MakeSample();
  const auto& targets = *s.localization->targets();
  EXPECT_EQ(targets[0].kind(), TargetKind::kTimeInterval);
  EXPECT_EQ(targets[1].kind(), TargetKind::kTimePoint);
  EXPECT_EQ(targets[2].kind(), TargetKind::kStepInterval);
  EXPECT_EQ(targets[3].kind(), TargetKind::kStepPoint);
  EXPECT_EQ(targets[2].span().start(), 500);
  EXPECT_EQ(targets[2].span().end(), 1000);
  EXPECT_EQ(targets[3].span().end(), std::nullopt);
  const auto& answers = *s.correspondence->targets();
  EXPECT_EQ(answers[0].kind(), TargetKind::kRecord);
  EXPECT_EQ(answers[0].record(), s.hr_record);
  EXPECT_EQ(answers[1].signal(), s.hr_b);
  EXPECT_EQ(answers[2].kind(), TargetKind::kInteger);
  EXPECT_EQ(answers[3].kind(), TargetKind::kBoolean);  // bool stays distinct from integer
  EXPECT_FALSE(answers[2] == TaskTarget::OfBoolean(true));
  EXPECT_VALIDATION_ERROR(answers[2].text(), "task target", "target_kind");
  EXPECT_VALIDATION_ERROR(TaskTarget::OfRecord(nullptr), "task target", "record");
  EXPECT_EQ(ParseTargetKind("step_interval"), TargetKind::kStepInterval);
  EXPECT_EQ(ParseTaskType(ToString(TaskType::kTsCorrespondence)), TaskType::kTsCorrespondence);
}

TEST(TaskTest, NeitherTargetsNorTargetAnnotations) {
  auto s = MakeSample();
  s.scalar->set_targets(std::nullopt);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 2", "targets", "neither");
}

TEST(TaskTest, BothTargetsAndTargetAnnotations) {
  auto s = MakeSample();
  s.scalar->AddTargetAnnotation(s.vocabulary);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 2", "targets", "both");
  // An explicit empty answer plus target annotations is "both" too.
  auto t = MakeSample();
  t.empty_answer->AddTargetAnnotation(t.vocabulary);
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task at position 8", "targets");
}

TEST(TaskTest, ReferencedObjectsMustBelongToTheDataset) {
  auto outsider = std::make_shared<Record>();
  auto s = MakeSample();
  s.scalar->AddInput(outsider);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 2", "inputs[1]",
                              "record without id is not a record of the dataset");
  auto t = MakeSample();
  t.correspondence->AddCandidateRecord(outsider);
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task at position 7", "candidate_records[2]");
  auto u = MakeSample();
  u.forecasting->AddTarget(TaskTarget::OfRecord(outsider));
  EXPECT_VALIDATION_ERROR(u.dataset->Validate(), "task at position 4", "targets[2]");
  auto v = MakeSample();
  auto loose = std::make_shared<Signal>("loose", v.lead_i->spec(), v.lead_i->axis(), int64_t{5});
  v.scalar->AddTarget(TaskTarget::OfSignal(loose));
  EXPECT_VALIDATION_ERROR_MSG(v.dataset->Validate(), "task at position 2", "targets[1]",
                              "signal 'loose' is not a signal of the dataset");
  auto w = MakeSample();
  w.localization->AddTarget(TaskTarget::OfSpan(ScopedSpan{TimePoint{5}, {loose}}));
  EXPECT_VALIDATION_ERROR(w.dataset->Validate(), "task at position 3", "targets[4].signals[0]");
}

TEST(TaskTest, AnnotationReferencesNameAttachedOrRegisteredOccurrences) {
  auto s = MakeSample();
  auto stray = std::make_shared<Annotation>(std::make_shared<AnnotationContent>("stray"));
  s.scalar->AddInputAnnotation(stray);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 2", "input_annotations[1]",
                              "neither attached");
  auto t = MakeSample();
  t.answer->AddTargetAnnotation(stray);
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task at position 1", "target_annotations[1]");
  // An occurrence on another task is a valid reference.
  auto u = MakeSample();
  u.scalar->AddInputAnnotation(u.classification->annotations()[0]);
  EXPECT_NO_THROW(u.dataset->Validate());
}

TEST(TaskTest, FromTasksAreKnownAndAcyclic) {
  auto s = MakeSample();
  auto outsider = std::make_shared<Task>(TaskType::kAnswer);
  s.scalar->AddFromTask(outsider);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 2", "from_tasks[0]",
                              "task without id is not a task of the dataset");
  auto t = MakeSample();
  t.scalar->AddFromTask(t.scalar);
  EXPECT_VALIDATION_ERROR_MSG(t.dataset->Validate(), "task at position 2", "from_tasks[0]",
                              "itself");
  t.scalar->set_from_tasks({});
  auto u = MakeSample();
  u.classification->AddFromTask(u.empty_answer);  // empty_answer → answer → classification
  EXPECT_VALIDATION_ERROR_MSG(u.dataset->Validate(), "task", "from_tasks", "cycle");
  u.classification->set_from_tasks({});  // break the shared_ptr cycle so nothing leaks
}

TEST(TaskTest, TimeScopeResolvesToExactlyOneInputRecord) {
  auto s = MakeSample();
  s.localization->AddInput(s.audio_record);
  s.localization->set_scope(ScopedSpan{TimeInterval{0, 10}, {}});
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 3", "scope",
                              "the task has 2 inputs");
  auto t = MakeSample();
  t.generation->set_scope(ScopedSpan{TimePoint{0}, {}});
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task at position 6", "scope");
  auto u = MakeSample();
  u.localization->set_scope(ScopedSpan{TimePoint{0}, {u.hr_a}});
  EXPECT_VALIDATION_ERROR_MSG(u.dataset->Validate(), "task at position 3", "scope",
                              "not an input of the task");
  auto v = MakeSample();
  v.localization->AddInput(v.hr_record);
  v.localization->set_scope(ScopedSpan{TimePoint{0}, {v.lead_i, v.hr_a}});
  EXPECT_VALIDATION_ERROR(v.dataset->Validate(), "task at position 3", "scope.signals[1]");
  // With signals naming one record, several inputs are fine.
  auto w = MakeSample();
  w.localization->set_targets(std::vector<TaskTarget>{(*w.localization->targets())[1]});
  w.localization->AddInput(w.hr_record);
  EXPECT_NO_THROW(w.dataset->Validate());
}

TEST(TaskTest, TimeSpansNeedATimelineAndLieInTheWindow) {
  auto s = MakeSample();
  s.empty_answer->set_scope(ScopedSpan{TimePoint{0}, {}});
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 8", "scope",
                              "only ordinal signals");
  auto t = MakeSample();
  t.empty_answer->set_scope(ScopedSpan{TimePoint{0}, {t.notes}});
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task at position 8", "scope.signals[0]");
  auto u = MakeSample();
  u.forecasting->AddTarget(TaskTarget::OfSpan(ScopedSpan{TimeInterval{9'000'000, 11'000'000}, {}}));
  EXPECT_VALIDATION_ERROR_MSG(u.dataset->Validate(), "task at position 4", "targets[2]",
                              "lies outside");
  auto v = MakeSample();
  v.localization->set_scope(ScopedSpan{TimePoint{10'000'000}, {}});
  EXPECT_VALIDATION_ERROR(v.dataset->Validate(), "task at position 3", "scope");
}

TEST(TaskTest, StepSpansNameOneSignalAndStayInsideIt) {
  Task task(TaskType::kTemporalLocalization);
  auto s = MakeSample();
  EXPECT_VALIDATION_ERROR_MSG(task.set_scope(ScopedSpan{StepPoint{1}, {}}), "task without id",
                              "scope.signals", "exactly one signal");
  EXPECT_VALIDATION_ERROR(task.set_scope(ScopedSpan{StepPoint{1}, {s.lead_i, s.lead_ii}}),
                          "task without id", "scope.signals");
  EXPECT_VALIDATION_ERROR(task.AddTarget(TaskTarget::OfSpan(ScopedSpan{StepInterval{0, 1}, {}})),
                          "task without id", "targets[0].signals");
  EXPECT_VALIDATION_ERROR(task.set_scope(ScopedSpan{StepInterval{3, 2}, {s.lead_i}}),
                          "task without id", "scope");
  EXPECT_VALIDATION_ERROR(task.set_scope(ScopedSpan{StepPoint{-1}, {s.lead_i}}), "task without id",
                          "scope");
  EXPECT_VALIDATION_ERROR(task.set_scope(ScopedSpan{TimeInterval{3, 2}, {}}), "task without id",
                          "scope");
  EXPECT_VALIDATION_ERROR(task.set_scope(ScopedSpan{TimePoint{3}, {nullptr}}), "task without id",
                          "scope.signals");

  auto t = MakeSample();
  t.localization->AddTarget(TaskTarget::OfSpan(ScopedSpan{StepInterval{4000, 5001}, {t.lead_ii}}));
  EXPECT_VALIDATION_ERROR_MSG(t.dataset->Validate(), "task at position 3", "targets[4]",
                              "exceed the 5000 steps");
  auto u = MakeSample();
  u.localization->AddTarget(TaskTarget::OfSpan(ScopedSpan{StepPoint{5000}, {u.lead_ii}}));
  EXPECT_VALIDATION_ERROR(u.dataset->Validate(), "task at position 3", "targets[4]");
  // A step scope must sit on a signal of an input record.
  auto v = MakeSample();
  v.editing->set_scope(ScopedSpan{StepPoint{1}, {v.lead_i}});
  EXPECT_VALIDATION_ERROR_MSG(v.dataset->Validate(), "task at position 5", "scope.signals[0]",
                              "not an input of the task");
  // Step spans work on ordinal signals.
  auto w = MakeSample();
  w.empty_answer->set_scope(ScopedSpan{StepInterval{0, 3}, {w.notes}});
  EXPECT_NO_THROW(w.dataset->Validate());
}

TEST(TaskTest, CorrespondenceRecordTargetsLieWithinTheCandidates) {
  auto s = MakeSample();
  s.correspondence->AddTarget(TaskTarget::OfRecord(s.notes_record));
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 7", "targets[4]",
                              "not one of the task's candidate_records");
}

TEST(TaskTest, InputModalitiesAreDerived) {
  auto s = MakeSample();
  using M = InputModality;
  EXPECT_EQ(s.classification->InputModalities(), (std::vector<M>{M::kText, M::kTimeSeries}));
  EXPECT_EQ(s.scalar->InputModalities(), (std::vector<M>{M::kTimeSeries}));
  EXPECT_EQ(s.answer->InputModalities(), (std::vector<M>{M::kNoInput, M::kText}));
  EXPECT_EQ(s.empty_answer->InputModalities(), (std::vector<M>{M::kText, M::kTimeSeries}));
  auto audio = std::make_shared<Task>(TaskType::kAnswer);
  audio->AddInput(s.audio_record);
  EXPECT_EQ(audio->InputModalities(), (std::vector<M>{M::kAudio}));
  auto bare = std::make_shared<Record>();
  auto on_bare = std::make_shared<Task>(TaskType::kAnswer);
  on_bare->AddInput(bare);
  EXPECT_EQ(on_bare->InputModalities(), (std::vector<M>{M::kText}));
  // Declared modalities are sorted and de-duplicated.
  s.scalar->set_input_modalities(std::vector<M>{M::kTimeSeries, M::kImage, M::kTimeSeries});
  EXPECT_EQ(s.scalar->InputModalities(), (std::vector<M>{M::kImage, M::kTimeSeries}));
  EXPECT_VALIDATION_ERROR(s.scalar->set_input_modalities(std::vector<M>{}), "task",
                          "input_modalities");
}

TEST(TaskTest, InputModalityRules) {
  using M = InputModality;
  auto s = MakeSample();
  s.classification->set_input_modalities(std::vector<M>{M::kTimeSeries});
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "task at position 0", "input_modalities",
                              "prompt");
  auto t = MakeSample();
  t.generation->set_input_modalities(std::vector<M>{M::kNoInput});
  t.generation->set_prompt(std::nullopt);
  EXPECT_VALIDATION_ERROR_MSG(t.dataset->Validate(), "task at position 6", "input_modalities",
                              "only together with text");
  auto u = MakeSample();
  u.scalar->set_input_modalities(std::vector<M>{M::kNoInput, M::kText});
  EXPECT_VALIDATION_ERROR_MSG(u.dataset->Validate(), "task at position 2", "input_modalities",
                              "1 input records");
}

TEST(TaskTest, ConfigBelongsToItsType) {
  Task answer(TaskType::kAnswer);
  EXPECT_VALIDATION_ERROR_MSG(answer.set_target_schema("x"), "task without id", "target_schema",
                              "only classification tasks");
  EXPECT_VALIDATION_ERROR(answer.set_unit("mV"), "task without id", "unit");
  EXPECT_VALIDATION_ERROR(answer.set_target_name("x"), "task without id", "target_name");
  EXPECT_VALIDATION_ERROR(answer.set_mode(LocalizationMode::kSparse), "task without id", "mode");
  EXPECT_VALIDATION_ERROR(answer.AddCandidateRecord(std::make_shared<Record>()), "task without id",
                          "candidate_records");
  Task scalar(TaskType::kScalarPrediction);
  scalar.set_unit("mmHg");
  EXPECT_EQ(scalar.unit(), "millimeter_Hg");
  EXPECT_VALIDATION_ERROR(scalar.set_unit("nonsense"), "task without id", "unit");
  // Clearing is always allowed.
  EXPECT_NO_THROW(answer.set_target_schema(std::nullopt));
}

TEST(TaskTest, InlineTextIsUtf8) {
  auto s = MakeSample();
  s.answer->set_prompt(Text("bad\xff"));
  EXPECT_VALIDATION_ERROR(s.dataset->Validate(), "task at position 1", "prompt");
  auto t = MakeSample();
  t.answer->set_rationale(Text("bad\xff"));
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task at position 1", "rationale");
  auto u = MakeSample();
  u.classification->set_targets(std::vector<TaskTarget>{TaskTarget::OfText("bad\xff")});
  EXPECT_VALIDATION_ERROR(u.dataset->Validate(), "task at position 0", "targets[0]");
}

TEST(TaskTest, ErrorsNameTasksByIdOnceAssigned) {
  auto s = MakeSample();
  s.dataset->AssignIds();
  s.scalar->set_targets(std::nullopt);
  EXPECT_VALIDATION_ERROR(s.dataset->Validate(), "task 3", "targets");
  auto t = MakeSample();
  t.dataset->AssignIds();
  t.notes->Annotate(std::make_shared<AnnotationContent>("w"), TimePoint{0});
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "signal 6 'notes'", "annotations[0].span");
}

}  // namespace
}  // namespace timef::model
