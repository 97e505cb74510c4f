// Imports on write (FORMAT.md §4, §10): a child importing records and tasks from a parent reads
// them back equal, from the parent's files, with child-local IDs and import rows.
#include "timef/compose.h"

#include <gtest/gtest.h>

#include <memory>

#include "support/release_fixture.h"
#include "timef/error.h"

namespace timef {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

constexpr const char* kParentDir = "test/fixture/1.0.0";

WriteOptions Fast() {
  WriteOptions options;
  options.compression_level = 1;
  options.chunk_max_bytes = 16 * 1024;
  return options;
}

std::string What(const std::function<void()>& f) {
  try {
    f();
  } catch (const ValidationError& e) {
    return e.what();
  }
  return "nothing raised";
}

class ComposeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = std::make_unique<TempDir>();
    testing::Fixture f = testing::MakeFixture(2);
    WriteRelease(*f.dataset, testing::FixtureCard(), root_->path(), Fast());
  }
  static void TearDownTestSuite() { root_.reset(); }
  static fs::path root() { return root_->path(); }
  static inline std::unique_ptr<TempDir> root_;

  // A child importing parent records `ids` (with their tasks when `tasks`), plus one record of
  // its own and an overlay annotation on the first import.
  WriteResult WriteChild(const std::vector<int64_t>& ids, bool tasks,
                         const std::string& name = "test/child") {
    Reader parent = Reader::Open(root() / kParentDir);
    model::Dataset child(name, "1.0.0");
    Composer composer(child);
    composer.AddParent("fx", parent);
    auto imported = composer.ImportRecords("fx", ids);
    imported.front()->Annotate(std::make_shared<model::AnnotationContent>(
        "reviewed", model::AnnotationValue::OfBoolean(true)));
    auto own = child.AddRecord();
    auto spec = model::Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
    own->AddSource("own")->AddSignal(
        std::make_shared<model::Signal>("lead_I", spec, model::TimeAxis::RegularFromRate(500),
                                        model::ValueArray::Of(std::vector<float>(1000, 0.5f))));
    if (tasks) composer.ImportTasksOfImportedRecords("fx");
    return composer.Write(testing::FixtureCard(), root(), Fast());
  }
};

TEST_F(ComposeTest, ChildReadsImportsFromTheParentFiles) {
  const WriteResult w = WriteChild({3, 1, 2}, true);
  const manifest::Manifest& m = w.manifest;
  // Own values: only the child's own record (one ecg shard); the rest is pinned in the parent.
  EXPECT_EQ(m.files.time_series.size(), 1u);
  ASSERT_EQ(m.payload_sources.size(), 1u);
  const manifest::Manifest parent_m = manifest::ReadManifest(root() / kParentDir / "manifest.json");
  for (const auto& pin : m.payload_sources.at("test/fixture@1.0.0")) {
    std::vector<manifest::FilePart> listed = parent_m.files.time_series;
    listed.insert(listed.end(), parent_m.files.payloads.begin(), parent_m.files.payloads.end());
    EXPECT_NE(std::find(listed.begin(), listed.end(), pin), listed.end()) << pin.path;
  }
  ASSERT_EQ(m.metadata.parents.size(), 1u);
  EXPECT_EQ(m.metadata.parents[0].alias, "fx");
  EXPECT_EQ(m.parent_cards.at("fx").Ref(), "test/fixture@1.0.0");
  EXPECT_TRUE(m.lineage.contains("test/fixture@1.0.0"));

  Reader parent = Reader::Open(root() / kParentDir);
  Reader child = Reader::Open(w.release_dir);
  child.Verify();
  // Child-local IDs in import order: parent 3 → 1, 1 → 2, 2 → 3; the own record → 4.
  std::unique_ptr<model::Dataset> c = child.Read(LoadPlan::AllEager());
  ASSERT_EQ(c->records().size(), 4u);
  std::map<int64_t, std::shared_ptr<model::Record>> by_id;
  for (const auto& r : c->records()) by_id[*r->id()] = r;
  const std::vector<int64_t> parent_ids{3, 1, 2};
  for (int64_t local = 1; local <= 3; ++local) {
    const auto& r = by_id.at(local);
    ASSERT_TRUE(r->import_marker());
    EXPECT_EQ(*r->import_marker(), (model::ImportMarker{"fx", parent_ids[local - 1]}));
    auto p = parent.GetRecord(parent_ids[local - 1], LoadPlan::AllEager());
    EXPECT_EQ(p->metadata(), r->metadata());
    auto ps = p->Signals();
    auto cs = r->Signals();
    ASSERT_EQ(ps.size(), cs.size());
    for (size_t i = 0; i < ps.size(); ++i) {
      EXPECT_EQ(ps[i]->name(), cs[i]->name());
      EXPECT_EQ(*ps[i]->LoadValues(), *cs[i]->LoadValues()) << cs[i]->Describe();
      ASSERT_TRUE(cs[i]->import_marker());
      EXPECT_EQ(cs[i]->import_marker()->parent_id, *ps[i]->id());
    }
    for (const auto& a : r->annotations()) {
      if (a->key() == "reviewed") {
        EXPECT_FALSE(a->inherited());  // the overlay
      } else {
        EXPECT_EQ(a->inherited_from(), std::optional<std::string>("fx"));
      }
    }
  }
  EXPECT_FALSE(by_id.at(4)->import_marker());
  // Tasks whose inputs are all imported came along, with imported_tasks rows.
  std::vector<std::shared_ptr<model::Task>> tasks = child.ReadTasks();
  EXPECT_FALSE(tasks.empty());
  for (const auto& t : tasks) {
    ASSERT_TRUE(t->import_marker());
    EXPECT_EQ(t->import_marker()->alias, "fx");
    auto p = parent.GetTask(t->import_marker()->parent_id, std::nullopt, LoadPlan::AllEager());
    EXPECT_EQ(p->type(), t->type());
    EXPECT_EQ(p->prompt(), t->prompt());
  }
}

TEST_F(ComposeTest, LookupsByParentId) {
  const WriteResult w = WriteChild({3, 1, 2}, true, "test/lookups");
  Reader parent = Reader::Open(root() / kParentDir);
  Reader child = Reader::Open(w.release_dir);
  const ParentRef fx = ParentAlias{"fx"};
  const ParentRef ref = ReleaseRef::Parse("test/fixture@1.0.0");
  EXPECT_EQ(*child.GetRecord(fx, 3)->id(), 1);
  EXPECT_EQ(*child.GetRecord(ref, 1)->id(), 2);
  EXPECT_EQ(child.GetRecord(fx, 2)->import_marker()->parent_id, 2);
  // A parent signal of record 1 (parent IDs 1 and 2 are its leads).
  const auto signal = child.GetSignal(fx, 2, LoadPlan::AllEager());
  EXPECT_EQ(signal->import_marker()->parent_id, 2);
  EXPECT_EQ(*signal->LoadValues(), *parent.GetSignal(2, LoadPlan::AllEager())->LoadValues());
  const auto tasks = child.ReadTasks();
  ASSERT_FALSE(tasks.empty());
  const int64_t parent_task = tasks.front()->import_marker()->parent_id;
  EXPECT_EQ(child.GetTask(fx, parent_task)->id(), tasks.front()->id());

  EXPECT_THROW(child.GetRecord(ParentAlias{"nope"}, 1), NotFoundError);
  EXPECT_THROW(child.GetRecord(ReleaseRef::Parse("test/fixture@9.0.0"), 1), NotFoundError);
  EXPECT_THROW(child.GetRecord(fx, 99), NotFoundError);
  // A parent ID imported as a signal only, asked for as a record: another kind.
  std::optional<int64_t> signal_only;
  const std::unique_ptr<model::Dataset> read = child.Read();
  for (const auto& r : read->records()) {
    for (const auto& s : r->Signals()) {
      if (s->import_marker() && s->import_marker()->parent_id > 3) {
        signal_only = s->import_marker()->parent_id;
      }
    }
  }
  ASSERT_TRUE(signal_only);
  EXPECT_NO_THROW(child.GetSignal(fx, *signal_only));
  EXPECT_THROW(child.GetRecord(fx, *signal_only), NotFoundError);
  EXPECT_THROW(child.GetTask(fx, parent_task,
                             model::TaskType::kForecasting == tasks.front()->type()
                                 ? model::TaskType::kAnswer
                                 : model::TaskType::kForecasting),
               NotFoundError);
  EXPECT_THROW(child.GetRecord(fx, 0), ValidationError);
}

TEST_F(ComposeTest, RefNamedByTwoAliasesIsAmbiguous) {
  Reader parent = Reader::Open(root() / kParentDir);
  model::Dataset child("test/twoalias", "1.0.0");
  Composer composer(child);
  composer.AddParent("fx", parent);
  composer.AddParent("fy", parent);
  composer.ImportRecords("fx", std::vector<int64_t>{1});
  composer.ImportRecords("fy", std::vector<int64_t>{1});  // one object, two aliases: allowed
  const WriteResult w = composer.Write(testing::FixtureCard(), root(), Fast());
  Reader reader = Reader::Open(w.release_dir);
  EXPECT_EQ(*reader.GetRecord(ParentAlias{"fy"}, 1)->id(), 2);
  try {
    reader.GetRecord(ReleaseRef::Parse("test/fixture@1.0.0"), 1);
    FAIL() << "expected ValidationError";
  } catch (const NotFoundError& e) {
    FAIL() << "ambiguity is a ValidationError, not NotFoundError: " << e.what();
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("aliases"), std::string::npos) << e.what();
  }
}

TEST_F(ComposeTest, EditKeepsIdsNeverReusesOneAndCopiesNoValues) {
  Reader base = Reader::Open(root() / kParentDir);
  const std::vector<int64_t> base_ids = base.RecordIds();
  const model::IdHighWater marks = base.Read()->id_base();
  Editor edit(base, "1.1.0");
  const std::vector<int64_t> removed_tasks = edit.RemoveRecords(std::vector<int64_t>{2});
  EXPECT_THROW(edit.RemoveRecords(std::vector<int64_t>{2}), NotFoundError);
  auto added = edit.dataset().AddRecord();
  auto spec = model::Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
  added->AddSource("new")->AddSignal(
      std::make_shared<model::Signal>("lead_I", spec, model::TimeAxis::RegularFromRate(500),
                                      model::ValueArray::Of(std::vector<float>(500, 1.5f))));
  const WriteResult w = edit.Write(root(), Fast());
  EXPECT_EQ(w.manifest.files.time_series.size(), 1u);  // the added record's values only
  EXPECT_TRUE(w.manifest.payload_sources.contains("test/fixture@1.0.0"));

  Reader edited = Reader::Open(w.release_dir);
  edited.Verify();
  std::vector<int64_t> ids = edited.RecordIds();
  std::sort(ids.begin(), ids.end());
  std::vector<int64_t> expected;
  for (int64_t id : base_ids) {
    if (id != 2) expected.push_back(id);
  }
  expected.push_back(marks.max_record_id + 1);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(ids, expected);  // survivors keep their IDs, 2 is gone, the new one is max+1
  EXPECT_THROW(edited.GetRecord(2), NotFoundError);
  for (int64_t id : base_ids) {
    if (id == 2) continue;
    auto a = base.GetRecord(id, LoadPlan::AllEager());
    auto b = edited.GetRecord(id, LoadPlan::AllEager());
    ASSERT_EQ(a->Signals().size(), b->Signals().size());
    for (size_t i = 0; i < a->Signals().size(); ++i) {
      EXPECT_EQ(a->Signals()[i]->id(), b->Signals()[i]->id());
      EXPECT_EQ(*a->Signals()[i]->LoadValues(), *b->Signals()[i]->LoadValues());
    }
  }
  for (int64_t t : removed_tasks) EXPECT_THROW(edited.GetTask(t), NotFoundError);
  EXPECT_EQ(edited.ReadTasks().size() + removed_tasks.size(), base.ReadTasks().size());
}

TEST_F(ComposeTest, EditOfAChildDropsTheRemovedImport) {
  const WriteResult child = WriteChild({1, 2}, false, "test/editedchild");
  Reader base = Reader::Open(child.release_dir);
  Editor edit(base, "1.1.0");
  edit.RemoveRecords(std::vector<int64_t>{*base.GetRecord(ParentAlias{"fx"}, 2)->id()});
  const WriteResult w = edit.Write(root(), Fast());
  EXPECT_EQ(w.manifest.parent_cards.size(), 1u);
  Reader edited = Reader::Open(w.release_dir);
  edited.Verify();
  EXPECT_NO_THROW(edited.GetRecord(ParentAlias{"fx"}, 1));
  EXPECT_THROW(edited.GetRecord(ParentAlias{"fx"}, 2), NotFoundError);
  // The parent's values are pinned in the parent, the child's own in the child 1.0.0.
  EXPECT_TRUE(w.manifest.payload_sources.contains("test/fixture@1.0.0"));
  EXPECT_TRUE(w.manifest.payload_sources.contains("test/editedchild@1.0.0"));
  EXPECT_TRUE(w.manifest.files.time_series.empty());
}

TEST_F(ComposeTest, ParentOwnedChangesAreRefused) {
  Reader parent = Reader::Open(root() / kParentDir);
  model::Dataset child("test/changed", "1.0.0");
  Composer composer(child);
  composer.AddParent("fx", parent);
  auto imported = composer.ImportRecords("fx", std::vector<int64_t>{1});
  imported[0]->set_metadata(Json{{"changed", true}});
  const std::string what = What([&] { composer.Write(testing::FixtureCard(), root(), Fast()); });
  EXPECT_NE(what.find("parent-owned"), std::string::npos) << what;
  EXPECT_NE(what.find("metadata"), std::string::npos) << what;
  EXPECT_FALSE(fs::exists(root() / "test/changed/1.0.0"));
}

TEST_F(ComposeTest, RemovingAnInheritedAnnotationIsRefused) {
  Reader parent = Reader::Open(root() / kParentDir);
  model::Dataset child("test/stripped", "1.0.0");
  Composer composer(child);
  composer.AddParent("fx", parent);
  auto imported = composer.ImportRecords("fx", std::vector<int64_t>{1});
  ASSERT_FALSE(imported[0]->annotations().empty());
  imported[0]->ClearAnnotations();
  const std::string what = What([&] { composer.Write(testing::FixtureCard(), root(), Fast()); });
  EXPECT_NE(what.find("parent-owned"), std::string::npos) << what;
}

TEST_F(ComposeTest, ImportingOneObjectTwiceUnderOneAliasIsRefused) {
  Reader parent = Reader::Open(root() / kParentDir);
  model::Dataset child("test/twice", "1.0.0");
  Composer composer(child);
  composer.AddParent("fx", parent);
  composer.ImportRecords("fx", std::vector<int64_t>{1});
  std::string what = What([&] { composer.ImportRecords("fx", std::vector<int64_t>{2, 1}); });
  EXPECT_NE(what.find("already imported"), std::string::npos) << what;
  what = What([&] { composer.ImportRecords("fx", std::vector<int64_t>{3, 3}); });
  EXPECT_NE(what.find("already imported"), std::string::npos) << what;
  EXPECT_EQ(child.records().size(), 1u);  // nothing of a refused call was imported
}

TEST_F(ComposeTest, UnknownAliasAndUnknownIds) {
  Reader parent = Reader::Open(root() / kParentDir);
  model::Dataset child("test/unknown", "1.0.0");
  Composer composer(child);
  composer.AddParent("fx", parent);
  EXPECT_THROW(composer.ImportRecords("nope", std::vector<int64_t>{1}), ValidationError);
  EXPECT_THROW(composer.ImportRecords("fx", std::vector<int64_t>{99}), NotFoundError);
  EXPECT_THROW(composer.ImportTasks("fx", std::vector<int64_t>{1}), ValidationError);
  EXPECT_TRUE(child.records().empty());
}

TEST_F(ComposeTest, WriteReleaseWithParentsNeedsTheComposer) {
  model::Dataset child("test/bare", "1.0.0");
  child.AddParent({"fx", "test/fixture", "1.0.0"});
  EXPECT_THROW(WriteRelease(child, testing::FixtureCard(), root()), ValidationError);
}

// The fixture's tasks: classify (input: the first ECG record), answer (from classify), forecast
// (from answer, input: vitals).
struct FixtureTasks {
  int64_t classify = 0, answer = 0, forecast = 0;
  int64_t ecg_record = 0, vitals_record = 0;
};
FixtureTasks TasksOf(Reader& parent) {
  FixtureTasks out;
  for (const auto& t : parent.ReadTasks()) {
    if (t->type() == model::TaskType::kClassification) out.classify = *t->id();
    if (t->type() == model::TaskType::kAnswer) out.answer = *t->id();
    if (t->type() == model::TaskType::kForecasting) {
      out.forecast = *t->id();
      out.vitals_record = *t->inputs().at(0)->id();
    }
    if (t->type() == model::TaskType::kClassification) out.ecg_record = *t->inputs().at(0)->id();
  }
  return out;
}

TEST_F(ComposeTest, TasksBuiltFromTasksImportWithThem) {
  Reader parent = Reader::Open(root() / kParentDir);
  const FixtureTasks ft = TasksOf(parent);
  model::Dataset child("test/fromtasks", "1.0.0");
  Composer composer(child);
  composer.AddParent("fx", parent);
  composer.ImportRecords("fx", std::vector<int64_t>{ft.ecg_record, ft.vitals_record});
  // answer without classify: refused, nothing imported.
  std::string what = What([&] { composer.ImportTasks("fx", std::vector<int64_t>{ft.answer}); });
  EXPECT_NE(what.find("from_tasks"), std::string::npos) << what;
  EXPECT_TRUE(child.tasks().empty());
  // classify and answer in one call (answer first), forecast in a second call.
  composer.ImportTasks("fx", std::vector<int64_t>{ft.answer, ft.classify});
  composer.ImportTasks("fx", std::vector<int64_t>{ft.forecast});
  ASSERT_EQ(child.tasks().size(), 3u);
  const auto& answer = child.tasks()[0];
  const auto& classify = child.tasks()[1];
  const auto& forecast = child.tasks()[2];
  ASSERT_EQ(answer->from_tasks().size(), 1u);
  EXPECT_EQ(answer->from_tasks()[0], classify);  // the child's copy, not the parent's object
  ASSERT_EQ(forecast->from_tasks().size(), 1u);
  EXPECT_EQ(forecast->from_tasks()[0], answer);
  const WriteResult w = composer.Write(testing::FixtureCard(), root(), Fast());

  Reader read = Reader::Open(w.release_dir);
  read.Verify();
  std::map<int64_t, std::shared_ptr<model::Task>> by_parent;
  for (const auto& t : read.ReadTasks()) by_parent[t->import_marker()->parent_id] = t;
  ASSERT_EQ(by_parent.size(), 3u);
  EXPECT_EQ(*by_parent.at(ft.answer)->from_tasks().at(0)->id(), *by_parent.at(ft.classify)->id());
  EXPECT_EQ(*by_parent.at(ft.forecast)->from_tasks().at(0)->id(), *by_parent.at(ft.answer)->id());
  EXPECT_EQ(by_parent.at(ft.answer)->prompt(), parent.GetTask(ft.answer)->prompt());
}

TEST_F(ComposeTest, WithTasksSkipsATaskWhoseFromTasksAreSkipped) {
  Reader parent = Reader::Open(root() / kParentDir);
  const FixtureTasks ft = TasksOf(parent);
  {
    // Only vitals: forecast's input is imported, but it is built from answer, whose input is not.
    model::Dataset child("test/skipfrom", "1.0.0");
    Composer composer(child);
    composer.AddParent("fx", parent);
    composer.ImportRecords("fx", std::vector<int64_t>{ft.vitals_record});
    EXPECT_TRUE(composer.ImportTasksOfImportedRecords("fx").empty());
  }
  model::Dataset child("test/allfrom", "1.0.0");
  Composer composer(child);
  composer.AddParent("fx", parent);
  composer.ImportRecords("fx", std::vector<int64_t>{ft.ecg_record, ft.vitals_record});
  std::vector<int64_t> parents;
  for (const auto& t : composer.ImportTasksOfImportedRecords("fx")) {
    parents.push_back(t->import_marker()->parent_id);
  }
  std::sort(parents.begin(), parents.end());
  std::vector<int64_t> expected{ft.classify, ft.answer, ft.forecast};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(parents, expected);
}

TEST_F(ComposeTest, ARegisteredAnnotationIsRegisteredOnceAcrossImportCalls) {
  model::Dataset p("test/registered", "1.0.0");
  auto record = p.AddRecord();
  auto spec = model::Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
  record->AddSource("s")->AddSignal(
      std::make_shared<model::Signal>("lead_I", spec, model::TimeAxis::RegularFromRate(100),
                                      model::ValueArray::Of(std::vector<float>(100, 0.25f))));
  auto label = p.RegisterAnnotation(
      std::make_shared<model::AnnotationContent>("label", model::AnnotationValue::OfText("AF")));
  for (int i = 0; i < 2; ++i) {
    auto task = p.AddTask(model::TaskType::kClassification);
    task->AddInput(record);
    task->set_input_annotations({label});
    task->AddTarget(model::TaskTarget::OfText(i == 0 ? "AF" : "SR"));
  }
  const WriteResult pw = WriteRelease(p, testing::FixtureCard(), root(), Fast());

  Reader parent = Reader::Open(pw.release_dir);
  model::Dataset child("test/registeredchild", "1.0.0");
  Composer composer(child);
  composer.AddParent("reg", parent);
  composer.ImportRecords("reg", std::vector<int64_t>{1});
  composer.ImportTasks("reg", std::vector<int64_t>{1});
  composer.ImportTasks("reg", std::vector<int64_t>{2});
  ASSERT_EQ(child.registered_annotations().size(), 1u);
  ASSERT_EQ(child.tasks().size(), 2u);
  EXPECT_EQ(child.tasks()[0]->input_annotations().at(0),
            child.tasks()[1]->input_annotations().at(0));
  const WriteResult w = composer.Write(testing::FixtureCard(), root(), Fast());
  Reader read = Reader::Open(w.release_dir);
  std::unique_ptr<model::Dataset> back = read.Read();
  ASSERT_EQ(back->registered_annotations().size(), 1u);
  EXPECT_EQ(back->registered_annotations()[0]->inherited_from(), std::optional<std::string>("reg"));
  ASSERT_EQ(back->tasks().size(), 2u);
  EXPECT_EQ(back->tasks()[0]->input_annotations().at(0),
            back->tasks()[1]->input_annotations().at(0));
}

// §4 "Other dataset": objects read from one dataset and written into another without an import
// are new there; their stored values are still reused by reference.
TEST_F(ComposeTest, ObjectsFromAnotherDatasetGetNewIds) {
  Reader parent = Reader::Open(root() / kParentDir);
  const FixtureTasks ft = TasksOf(parent);
  model::Dataset other("test/other", "1.0.0");
  const auto vitals = parent.GetRecord(ft.vitals_record);
  const auto ecg = parent.GetRecord(ft.ecg_record);
  EXPECT_EQ(vitals->read_from_dataset(), std::optional<std::string>("test/fixture"));
  other.AddRecord(vitals);
  other.AddRecord(ecg);
  auto own = other.AddRecord();
  own->set_id(7);  // an explicit ID of an in-memory object stays
  const auto task = parent.GetTask(ft.classify);
  task->set_inputs({ecg});
  other.AddTask(task);
  const WriteResult w = WriteRelease(other, testing::FixtureCard(), root(), Fast());
  // Numbered like new objects, in write order, around the explicit 7.
  EXPECT_EQ(*vitals->id(), 8);
  EXPECT_EQ(*ecg->id(), 9);
  EXPECT_EQ(*task->id(), 1);
  EXPECT_EQ(vitals->read_from_dataset(), std::optional<std::string>("test/other"));
  EXPECT_TRUE(w.manifest.files.time_series.empty());  // every value reused from the fixture
  EXPECT_TRUE(w.manifest.payload_sources.contains("test/fixture@1.0.0"));

  Reader read = Reader::Open(w.release_dir);
  read.Verify();
  std::vector<int64_t> ids = read.RecordIds();
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<int64_t>{7, 8, 9}));
  const auto back = read.GetRecord(9, LoadPlan::AllEager());
  const auto original = parent.GetRecord(ft.ecg_record, LoadPlan::AllEager());
  ASSERT_EQ(back->Signals().size(), original->Signals().size());
  for (size_t i = 0; i < back->Signals().size(); ++i) {
    EXPECT_EQ(*back->Signals()[i]->LoadValues(), *original->Signals()[i]->LoadValues());
  }
  // Written again into the same dataset, the objects keep the IDs they got there.
  model::Dataset again("test/other", "1.1.0");
  again.AddRecord(vitals);
  WriteRelease(again, testing::FixtureCard(), root(), Fast());
  EXPECT_EQ(*vitals->id(), 8);
}

// docs/format.md §10: a read that loaded its text eagerly still writes it by reference.
TEST_F(ComposeTest, EagerlyLoadedTextAndValuesAreReusedNotRewritten) {
  Reader base = Reader::Open(root() / kParentDir);
  std::unique_ptr<model::Dataset> read = base.Read(LoadPlan::AllEager());
  bool loaded_long_text = false;
  for (const auto& t : read->tasks()) {
    if (t->prompt() && t->prompt()->size() > 256) {
      EXPECT_TRUE(t->prompt()->is_loaded());
      EXPECT_NE(t->prompt()->loaded_from(), nullptr);
      loaded_long_text = true;
    }
  }
  ASSERT_TRUE(loaded_long_text);
  model::Dataset copy("test/fixture", "2.0.0");
  copy.set_id_base(read->id_base());
  for (const auto& r : read->records()) copy.AddRecord(r);
  for (const auto& t : read->tasks()) copy.AddTask(t);
  for (const auto& a : read->registered_annotations()) copy.RegisterAnnotation(a);
  const WriteResult w = WriteRelease(copy, testing::FixtureCard(), root(), Fast());
  EXPECT_TRUE(w.manifest.files.time_series.empty());
  EXPECT_TRUE(w.manifest.files.payloads.empty()) << "packed text or offsets were written again";
  Reader back = Reader::Open(w.release_dir);
  back.Verify();
  TaskQuery eager;
  eager.load = LoadPlan::AllEager();
  for (const auto& t : back.ReadTasks(eager)) {
    EXPECT_EQ(t->prompt(), base.GetTask(*t->id(), std::nullopt, LoadPlan::AllEager())->prompt());
  }
}

}  // namespace
}  // namespace timef
