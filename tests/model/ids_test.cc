// Public ID assignment (FORMAT.md §4) and import markers.
#include <gtest/gtest.h>

#include "sample_dataset.h"
#include "test_util.h"

namespace timef::model {
namespace {

using testing::MakeSample;

std::shared_ptr<Signal> MakeSignal(const std::string& name) {
  static const auto spec = Spec::Make({.spec_type = "x", .name = "X"});
  return std::make_shared<Signal>(name, spec, TimeAxis::Ordinal(), int64_t{1});
}

TEST(IdsTest, NewDatasetNumbersEachKindInWriteOrder) {
  Dataset dataset("org/name", "1.0.0");
  auto r1 = dataset.AddRecord();
  auto r2 = dataset.AddRecord();
  // r1: root a (signals a1, a2; child b with b1; child c with c1), root d (d1).
  auto a = r1->AddSource("a");
  auto a1 = MakeSignal("a1"), a2 = MakeSignal("a2"), b1 = MakeSignal("b1"), c1 = MakeSignal("c1");
  auto d1 = MakeSignal("d1"), e1 = MakeSignal("e1");
  auto b = a->AddChild("b");
  auto c = a->AddChild("c");
  // Added out of walk order on purpose: the walk, not the call order, decides.
  c->AddSignal(c1);
  b->AddSignal(b1);
  a->AddSignal(a1);
  a->AddSignal(a2);
  r1->AddSource("d")->AddSignal(d1);
  r2->AddSource("e")->AddSignal(e1);
  auto t1 = dataset.AddTask(TaskType::kAnswer);
  auto t2 = dataset.AddTask(TaskType::kAnswer);

  IdHighWater marks = dataset.AssignIds();
  EXPECT_EQ(r1->id(), 1);
  EXPECT_EQ(r2->id(), 2);
  EXPECT_EQ(a1->id(), 1);
  EXPECT_EQ(a2->id(), 2);
  EXPECT_EQ(b1->id(), 3);
  EXPECT_EQ(c1->id(), 4);
  EXPECT_EQ(d1->id(), 5);
  EXPECT_EQ(e1->id(), 6);
  EXPECT_EQ(t1->id(), 1);
  EXPECT_EQ(t2->id(), 2);
  EXPECT_EQ(marks, (IdHighWater{2, 6, 2}));
  EXPECT_EQ(r1->Signals(), (std::vector<std::shared_ptr<Signal>>{a1, a2, b1, c1, d1}));
  // A second call changes nothing.
  EXPECT_EQ(dataset.AssignIds(), marks);
  EXPECT_EQ(c1->id(), 4);
}

TEST(IdsTest, EditKeepsExplicitIdsAndNumbersNewObjectsAboveTheHighWaterMark) {
  Dataset dataset("org/name", "1.1.0");
  dataset.set_id_base(IdHighWater{10, 20, 30});
  auto kept = dataset.AddRecord();
  kept->set_id(4);
  auto added = dataset.AddRecord();
  auto kept_signal = MakeSignal("kept");
  kept_signal->set_id(17);
  auto new_signal = MakeSignal("new");
  auto source = kept->AddSource("s");
  source->AddSignal(new_signal);
  source->AddSignal(kept_signal);
  auto task = dataset.AddTask(TaskType::kAnswer);

  IdHighWater marks = dataset.AssignIds();
  EXPECT_EQ(kept->id(), 4);
  EXPECT_EQ(added->id(), 11);  // the removed IDs 5..10 are never reused
  EXPECT_EQ(kept_signal->id(), 17);
  EXPECT_EQ(new_signal->id(), 21);
  EXPECT_EQ(task->id(), 31);
  EXPECT_EQ(marks, (IdHighWater{11, 21, 31}));
}

TEST(IdsTest, ExplicitIdsAboveTheBaseRaiseTheNextId) {
  Dataset dataset("org/name", "1.0.0");
  auto a = dataset.AddRecord();
  auto b = dataset.AddRecord();
  b->set_id(7);
  dataset.AssignIds();
  EXPECT_EQ(a->id(), 8);
  EXPECT_EQ(dataset.HighWater().max_record_id, 8);
}

TEST(IdsTest, DuplicateIdsAreRejectedBeforeAnythingChanges) {
  Dataset dataset("org/name", "1.0.0");
  auto a = dataset.AddRecord();
  auto b = dataset.AddRecord();
  auto c = dataset.AddRecord();
  a->set_id(3);
  c->set_id(3);
  EXPECT_VALIDATION_ERROR_MSG(dataset.AssignIds(), "record 3", "record_id",
                              "duplicate record ID 3");
  EXPECT_FALSE(b->id().has_value());

  Dataset signals("org/name", "1.0.0");
  auto source = signals.AddRecord()->AddSource("s");
  auto x = MakeSignal("x"), y = MakeSignal("y");
  x->set_id(5);
  y->set_id(5);
  source->AddSignal(x);
  source->AddSignal(y);
  EXPECT_VALIDATION_ERROR(signals.AssignIds(), "signal 5 'y'", "signal_id");
  EXPECT_VALIDATION_ERROR(signals.Validate(), "signal 5 'y'", "signal_id");

  Dataset tasks("org/name", "1.0.0");
  tasks.AddTask(TaskType::kAnswer)->set_id(2);
  tasks.AddTask(TaskType::kAnswer)->set_id(2);
  EXPECT_VALIDATION_ERROR(tasks.AssignIds(), "task 2", "task_id");
}

TEST(IdsTest, ValidateRejectsDuplicateIds) {
  auto s = MakeSample();
  s.ecg_record->set_id(9);
  s.audio_record->set_id(9);
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "record 9", "record_id", "also used by");
  auto t = MakeSample();
  t.answer->set_id(4);
  t.generation->set_id(4);
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "task 4", "task_id");
}

TEST(IdsTest, IdsArePositive) {
  Record record;
  EXPECT_VALIDATION_ERROR(record.set_id(0), "record", "record_id");
  Task task(TaskType::kAnswer);
  EXPECT_VALIDATION_ERROR(task.set_id(-1), "task", "task_id");
  auto signal = MakeSignal("s");
  EXPECT_VALIDATION_ERROR(signal->set_id(0), "signal 's'", "signal_id");
}

TEST(IdsTest, ImportMarkersNeedAKnownAliasAndAPositiveParentId) {
  Record record;
  EXPECT_VALIDATION_ERROR(record.set_import_marker(ImportMarker{"Base", 1}), "record",
                          "import.alias");
  EXPECT_VALIDATION_ERROR(record.set_import_marker(ImportMarker{"base", 0}), "record",
                          "import.parent_id");

  auto s = MakeSample();
  s.notes_record->set_import_marker(ImportMarker{"other", 2});
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "record at position 2", "import.alias",
                              "not one of the dataset's parents");
}

TEST(IdsTest, OneParentObjectIsImportedOnce) {
  auto s = MakeSample();
  s.notes_record->set_import_marker(ImportMarker{"base", 41});  // hr_record has (base, 41)
  EXPECT_VALIDATION_ERROR_MSG(s.dataset->Validate(), "record at position 2", "import",
                              "already imported as record at position 1");
  auto t = MakeSample();
  t.hr_b->set_import_marker(ImportMarker{"base", 7});
  EXPECT_VALIDATION_ERROR(t.dataset->Validate(), "signal 'hr_b'", "import");
  auto u = MakeSample();
  u.scalar->set_import_marker(ImportMarker{"base", 3});
  EXPECT_VALIDATION_ERROR(u.dataset->Validate(), "task at position 5", "import");
  // The same parent ID under another kind is fine.
  auto v = MakeSample();
  v.notes_record->set_import_marker(ImportMarker{"base", 7});
  EXPECT_NO_THROW(v.dataset->Validate());
}

}  // namespace
}  // namespace timef::model
