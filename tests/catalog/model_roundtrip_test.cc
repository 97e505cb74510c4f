// Round trip of a dataset that uses every part of the model through WriteCatalog and
// CatalogHydrator (issue 4 acceptance list), compared with model::DumpDataset.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>

#include "catalog/audit/audit.h"
#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "catalog/hydrate/hydrate.h"
#include "catalog/hydrate/value_resolver.h"
#include "catalog/write/model_writer.h"
#include "catalog_test_util.h"
#include "timef/error.h"
#include "timef/model.h"

namespace timef::catalog {
namespace {

using model::AnnotationContent;
using model::AnnotationValue;
using model::ScopedSpan;
using model::TaskTarget;
using model::TaskType;
using model::TimeAxis;

constexpr std::string_view kDigest =
    "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

// Chunk and offsets locators the way a values plane would hand them out: one chunk per signal in
// one shard (minor = running row), one offsets row per irregular axis.
// Text stays inline.
class Locators : public PayloadSink {
 public:
  std::vector<ChunkLocator> Chunks(const model::Signal& signal) override {
    return std::vector<ChunkLocator>{ChunkLocator{.value_path = "time_series/part-00000000.parquet",
                                                  .major = 0,
                                                  .minor = next_row_++,
                                                  .n_values = signal.n_values()}};
  }
  std::optional<OffsetsLocator> StoreOffsets(const model::TimeAxis& axis) override {
    if (!store_offsets) return std::nullopt;
    const int64_t row = static_cast<int64_t>(offsets_by_row.size());
    offsets_by_row[row] = *axis.LoadOffsets();
    return OffsetsLocator{.path = "payloads/offsets-00000000.parquet",
                          .row = row,
                          .n_values = axis.n_values(),
                          .digest = std::string(kDigest)};
  }
  std::optional<TextLocator> PackText(const model::Text&) override { return std::nullopt; }
  std::optional<TextLocator> PackTextList(const model::TextList&) override { return std::nullopt; }

  std::map<int64_t, std::vector<int64_t>> offsets_by_row;
  bool store_offsets = true;

 private:
  int64_t next_row_ = 0;
};

// Offsets from the sink's map; no values (signals come back without a values source); no packed
// text (the sink packs none).
class MapResolver final : public ValueResolver {
 public:
  explicit MapResolver(const Locators& locators) : locators_(locators) {}
  std::shared_ptr<const model::SignalValues> Values(const model::Signal&,
                                                    std::vector<ChunkLocator>) const override {
    return nullptr;
  }
  std::shared_ptr<const model::TimeOffsets> Offsets(const OffsetsLocator& locator, int64_t,
                                                    int64_t) const override;
  model::Text Text(const TextLocator&, int64_t text_key) const override {
    throw Error({.object = "test"}, "unexpected packed text " + std::to_string(text_key));
  }
  model::TextList TextList(const TextLocator&, int64_t text_key) const override {
    throw Error({.object = "test"}, "unexpected packed text list " + std::to_string(text_key));
  }

 private:
  const Locators& locators_;
};

class MapOffsets final : public model::TimeOffsets {
 public:
  explicit MapOffsets(std::vector<int64_t> offsets)
      : offsets_(std::make_shared<const std::vector<int64_t>>(std::move(offsets))) {}
  std::shared_ptr<const std::vector<int64_t>> Load() const override { return offsets_; }
  bool is_loaded() const override { return false; }

 private:
  std::shared_ptr<const std::vector<int64_t>> offsets_;
};

std::shared_ptr<const model::TimeOffsets> MapResolver::Offsets(const OffsetsLocator& locator,
                                                               int64_t, int64_t) const {
  return std::make_shared<MapOffsets>(locators_.offsets_by_row.at(locator.row));
}

std::shared_ptr<const AnnotationContent> Content(std::string name, AnnotationValue value,
                                                 std::optional<std::string> unit = std::nullopt) {
  auto content = std::make_shared<AnnotationContent>(std::move(name), std::move(value));
  if (unit) content->set_unit(*unit);
  return content;
}

struct Fixture {
  std::unique_ptr<model::Dataset> dataset;
  std::shared_ptr<const AnnotationContent> shared_content;
};

Fixture BuildDataset() {
  Fixture f;
  f.dataset = std::make_unique<model::Dataset>("acme/demo", "1.0.0");
  model::Dataset& d = *f.dataset;
  d.AddParent({"base", "acme/base", "1.0.0"});

  auto ecg = model::Spec::Make({.spec_type = "ecg_lead", .name = "ECG lead", .unit = "mV"});
  auto state = model::Spec::Make({.spec_type = "sleep_stage",
                                  .name = "Sleep stage",
                                  .dtype = model::DType::kEnum,
                                  .categories = {"wake", "rem", "n1"},
                                  .nullable = true});
  auto audio = model::Spec::Make({.spec_type = "mic",
                                  .name = "Microphone",
                                  .dtype = model::DType::kInt16,
                                  .modality = model::Modality::kAudio});
  // 44.1 kHz: period 10000/441 µs, starting at step 5, offset 100 µs; shared by two signals.
  auto clock = TimeAxis::Regular(10000, 441, 5, 100);
  auto irregular = TimeAxis::Irregular({0, 10, 10, 900});
  auto ordinal = TimeAxis::Ordinal();

  f.shared_content = Content("quality", AnnotationValue::OfText("göod ✓"));

  auto r1 = d.AddRecord();
  r1->set_start_time_us(1700000000000000);
  r1->set_time_span(model::TimeInterval{0, 10000000});
  // Keys in stored (sorted) order: §13 does not keep metadata key order.
  r1->set_metadata(Json::parse(R"({"nested":{"a":true},"site":"Zürich","日本":[1,2.5,null]})"));
  auto device = r1->AddSource("device");
  device->set_metadata(Json::parse(R"({"model":"X-1"})"));
  auto board = device->AddChild("board");
  auto channel = board->AddChild("channel");
  auto lead_i = std::make_shared<model::Signal>("I", ecg, clock, 441);
  lead_i->set_source_id("raw-1");
  lead_i->set_metadata(Json::parse(R"({"gain":2})"));
  auto lead_ii = std::make_shared<model::Signal>("II", ecg, clock, 441);
  channel->AddSignal(lead_i);
  channel->AddSignal(lead_ii);
  auto stage = std::make_shared<model::Signal>("stage", state, irregular, 4);
  board->AddSignal(stage);
  auto mic = std::make_shared<model::Signal>("mic", audio, ordinal, 7);
  r1->AddSource("zeta")->AddSignal(mic);
  r1->AddSource("alpha");  // sibling order by name on read

  auto r2 = d.AddRecord();  // no anchor, no span
  auto r2_src = r2->AddSource("acc");
  auto r2_sig = std::make_shared<model::Signal>("x", ecg, TimeAxis::Regular(1000), 10);
  r2_src->AddSignal(r2_sig);

  auto r3 = d.AddRecord();
  r3->set_import_marker(model::ImportMarker{"base", 11});
  auto r3_sig = std::make_shared<model::Signal>("imp", ecg, clock, 5);
  r3_sig->set_import_marker(model::ImportMarker{"base", 21});
  r3->AddSource("imp")->AddSignal(r3_sig);

  // Every value kind, span shape and object kind; one content on five objects.
  d.Annotate(f.shared_content);
  r1->Annotate(f.shared_content);
  device->Annotate(f.shared_content);
  lead_i->Annotate(f.shared_content);
  device->Annotate(Content("event", AnnotationValue::OfInteger(3)), model::TimePoint{5});
  lead_i->Annotate(Content("segment", AnnotationValue::OfText("st")), model::TimeInterval{10, 20});
  auto marker = lead_ii->Annotate(Content("beat", AnnotationValue::Marker()), model::TimePoint{7});
  marker->set_confidence(0.25);
  marker->set_provenance(Json::parse(R"({"by":"rater","n":[1]})"));
  marker->set_metadata(Json::parse(R"({"k":"v"})"));
  auto count = r1->Annotate(Content("count", AnnotationValue::OfInteger(-42), "count"));
  auto score = Content("score", AnnotationValue::OfFloat(-0.0));
  channel->Annotate(score, model::TimeInterval{0, 0});
  auto flag = r2->Annotate(Content("artifact", AnnotationValue::OfBoolean(false)));
  auto tags_content = std::make_shared<AnnotationContent>(
      "tags", AnnotationValue::OfTextList(model::TextList{"a", "", "ç\nd"}));
  tags_content->set_description("free tags");
  tags_content->set_metadata(Json::parse(R"({"src":"x"})"));
  stage->Annotate(tags_content, model::TimePoint{10});
  auto inherited = r3->Annotate(Content("origin", AnnotationValue::OfText("")));
  inherited->set_inherited_from("base");
  auto vocab = d.RegisterAnnotation(
      Content("vocab", AnnotationValue::OfTextList(model::TextList{"normal", "afib"})));

  // classification: text target, prompt, split, input annotation refs (occurrence + registered).
  auto classify = d.AddTask(TaskType::kClassification);
  classify->AddInput(r1);
  classify->set_prompt(model::Text("Rhythm?"));
  classify->set_split(model::Split::kTrain);
  classify->set_target_schema("rhythm");
  classify->AddTarget(TaskTarget::OfText("normal"));
  classify->AddInputAnnotation(vocab);
  classify->AddInputAnnotation(count);
  classify->Annotate(f.shared_content);
  classify->set_metadata(Json::parse(R"({"k":[1,2]})"));

  // answer: explicit empty answer, empty prompt (≠ absent), rationale.
  auto answer = d.AddTask(TaskType::kAnswer);
  answer->AddInput(r2);
  answer->set_prompt(model::Text(""));
  answer->set_rationale(model::Text("because\nso"));
  answer->set_targets(std::vector<TaskTarget>{});
  answer->AddFromTask(classify);

  auto scalar = d.AddTask(TaskType::kScalarPrediction);
  scalar->AddInput(r1);
  scalar->set_unit("mV");
  scalar->set_target_name("amplitude");
  scalar->AddTarget(TaskTarget::OfFloat(1.5));
  scalar->set_split(model::Split::kTest);

  auto localize = d.AddTask(TaskType::kTemporalLocalization);
  localize->AddInput(r1);
  localize->set_mode(model::LocalizationMode::kExhaustive);
  localize->set_scope(ScopedSpan{model::TimeInterval{0, 5000}, {lead_i, lead_ii}});
  localize->AddTarget(TaskTarget::OfSpan(ScopedSpan{model::TimePoint{100}, {}}));
  localize->AddTarget(TaskTarget::OfSpan(ScopedSpan{model::TimeInterval{10, 20}, {lead_ii}}));
  localize->AddTarget(TaskTarget::OfSpan(ScopedSpan{model::StepPoint{3}, {lead_i}}));
  localize->AddTarget(TaskTarget::OfSpan(ScopedSpan{model::StepInterval{1, 4}, {stage}}));
  localize->AddFromTask(answer);
  localize->AddFromTask(classify);

  // No inline answer: the answer is a target annotation.
  auto edit = d.AddTask(TaskType::kTsEditing);
  edit->AddInput(r1);
  edit->AddTargetAnnotation(marker);
  edit->AddTargetAnnotation(inherited);
  edit->AddInputAnnotation(flag);
  edit->set_split(model::Split::kValidation);

  auto generate = d.AddTask(TaskType::kTsGeneration);
  generate->set_prompt(model::Text("make one"));
  generate->AddTarget(TaskTarget::OfBoolean(true));
  generate->AddTarget(TaskTarget::OfInteger(1));
  generate->AddTarget(TaskTarget::OfSignal(lead_ii));

  auto forecast = d.AddTask(TaskType::kForecasting);
  forecast->AddInput(r2);
  forecast->set_scope(ScopedSpan{model::StepInterval{0, 5}, {r2_sig}});
  forecast->AddTarget(TaskTarget::OfSignal(r2_sig));

  auto correspond = d.AddTask(TaskType::kTsCorrespondence);
  correspond->AddInput(r1);
  correspond->AddCandidateRecord(r3);
  correspond->AddCandidateRecord(r2);
  correspond->AddTarget(TaskTarget::OfRecord(r2));
  correspond->set_import_marker(model::ImportMarker{"base", 31});
  return f;
}

class ModelRoundTripTest : public ::testing::Test {
 protected:
  std::filesystem::path Write(model::Dataset& dataset) {
    const std::filesystem::path path = dir_.path() / ("c" + std::to_string(n_++) + ".duckdb");
    summary_ = testing::WriteValidated(path, dataset, locators_);
    Audit(path, testing::FactsFromModel(dataset, summary_));
    return path;
  }
  std::shared_ptr<const ValueResolver> ReadOptions() {
    return std::make_shared<MapResolver>(locators_);
  }
  int64_t Count(const std::filesystem::path& path, std::string_view sql) {
    Database db = Database::Open(path, AccessMode::kReadOnly);
    Connection c(db);
    Result r = c.Query(sql, "test");
    return r.Next()->Int64(0).Get(0);
  }

  testing::ScratchDir dir_;
  Locators locators_;
  ModelWriteSummary summary_;
  int n_ = 0;
};

TEST_F(ModelRoundTripTest, EverythingComesBackEqual) {
  Fixture f = BuildDataset();
  const auto path = Write(*f.dataset);
  Database db = Database::Open(path, AccessMode::kReadOnly);
  CatalogHydrator hydrator(Connection(db), ReadOptions());
  std::unique_ptr<model::Dataset> read = hydrator.ReadDataset();
  const std::string got = model::DumpDataset(*read).dump(1);
  const std::string want = model::DumpDataset(*f.dataset).dump(1);
  if (got != want) {
    std::ofstream(dir_.path().parent_path() / "catalogio-got.json") << got;
    std::ofstream(dir_.path().parent_path() / "catalogio-want.json") << want;
  }
  EXPECT_TRUE(got == want) << "dumps differ (catalogio-got.json / catalogio-want.json in temp)";
  EXPECT_EQ(read->id_base(), f.dataset->HighWater());
  read->Validate();
}

TEST_F(ModelRoundTripTest, OneContentOnManyObjectsIsOneRow) {
  Fixture f = BuildDataset();
  const auto path = Write(*f.dataset);
  EXPECT_EQ(Count(path, "SELECT count(*)::BIGINT FROM annotation_contents WHERE name = 'quality'"),
            1);
  EXPECT_EQ(Count(path,
                  "SELECT count(*)::BIGINT FROM annotation_occurrences o JOIN "
                  "annotation_contents c USING (content_key) WHERE c.name = 'quality'"),
            5);
  Database db = Database::Open(path, AccessMode::kReadOnly);
  auto read = CatalogHydrator(Connection(db), ReadOptions()).ReadDataset();
  const auto& content = read->annotations().at(0)->content();
  EXPECT_EQ(read->records()[0]->annotations().at(0)->content(), content);
  EXPECT_EQ(read->tasks()[0]->annotations().at(0)->content(), content);
}

TEST_F(ModelRoundTripTest, AxesAreSharedAndExact) {
  Fixture f = BuildDataset();
  const auto path = Write(*f.dataset);
  Database db = Database::Open(path, AccessMode::kReadOnly);
  auto records =
      CatalogHydrator(Connection(db), ReadOptions()).RecordsById(std::vector<int64_t>{1, 3});
  ASSERT_EQ(records.size(), 2u);
  auto signals = records[0]->Signals();
  std::map<std::string, std::shared_ptr<model::Signal>> by_name;
  for (const auto& s : signals) by_name[s->name()] = s;
  ASSERT_TRUE(by_name.count("I") && by_name.count("II") && by_name.count("stage"));
  EXPECT_EQ(by_name["I"]->axis(), by_name["II"]->axis());
  EXPECT_EQ(records[1]->Signals().at(0)->axis(), by_name["I"]->axis());  // across records
  const TimeAxis& clock = *by_name["I"]->axis();
  EXPECT_EQ(clock.period_numerator_us(), 10000);
  EXPECT_EQ(clock.period_denominator(), 441);
  EXPECT_EQ(clock.start_index(), 5);
  EXPECT_EQ(clock.offset_us(), 100);
  const TimeAxis& irregular = *by_name["stage"]->axis();
  ASSERT_TRUE(irregular.is_irregular());
  EXPECT_FALSE(irregular.offsets_loaded());
  EXPECT_EQ(*irregular.LoadOffsets(), (std::vector<int64_t>{0, 10, 10, 900}));
  EXPECT_EQ(irregular.first_us(), 0);
  EXPECT_EQ(irregular.last_us(), 900);
  EXPECT_TRUE(by_name["mic"]->axis()->is_ordinal());
}

TEST_F(ModelRoundTripTest, SourcesNestThreeLevelsAndSortByName) {
  Fixture f = BuildDataset();
  const auto path = Write(*f.dataset);
  Database db = Database::Open(path, AccessMode::kReadOnly);
  auto r = CatalogHydrator(Connection(db), ReadOptions()).RecordsById(std::vector<int64_t>{1});
  const auto& roots = r.at(0)->sources();
  ASSERT_EQ(roots.size(), 3u);
  EXPECT_EQ(roots[0]->name(), "alpha");
  EXPECT_EQ(roots[1]->name(), "device");
  EXPECT_EQ(roots[2]->name(), "zeta");
  const auto& channel = roots[1]->children().at(0)->children().at(0);
  EXPECT_EQ(channel->name(), "channel");
  ASSERT_EQ(channel->signals().size(), 2u);
  // Signal IDs follow the pre-order walk: board's "stage" is 1, then the channel's I and II.
  EXPECT_EQ(channel->signals()[0]->id(), 2);
  EXPECT_EQ(channel->signals()[1]->id(), 3);
  EXPECT_EQ(roots[1]->metadata(), Json::parse(R"({"model":"X-1"})"));
}

TEST_F(ModelRoundTripTest, UnknownIdsAreAllListedBeforeAnythingIsBuilt) {
  Fixture f = BuildDataset();
  const auto path = Write(*f.dataset);
  Database db = Database::Open(path, AccessMode::kReadOnly);
  CatalogHydrator hydrator(Connection(db), ReadOptions());
  try {
    hydrator.RecordsById(std::vector<int64_t>{2, 99, 1, 77});
    FAIL() << "expected NotFoundError";
  } catch (const NotFoundError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("99, 77"));
  }
  auto records = hydrator.RecordsById(std::vector<int64_t>{3, 1, 3});
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0]->id(), 3);
  EXPECT_EQ(records[1]->id(), 1);
  EXPECT_EQ(records[0], records[2]);  // one graph per call
}

TEST_F(ModelRoundTripTest, TaskFiltersRunInSqlAndShareReferencedObjects) {
  Fixture f = BuildDataset();
  const auto path = Write(*f.dataset);
  Database db = Database::Open(path, AccessMode::kReadOnly);
  CatalogHydrator hydrator(Connection(db), ReadOptions());
  auto ids = [](const std::vector<std::shared_ptr<model::Task>>& tasks) {
    std::vector<int64_t> out;
    for (const auto& t : tasks) out.push_back(*t->id());
    return out;
  };
  EXPECT_EQ(ids(hydrator.Tasks({.inputs = std::vector<std::int64_t>{2}}, 0, 100)),
            (std::vector<int64_t>{2, 7}));
  EXPECT_EQ(ids(hydrator.Tasks({.split = model::Split::kTest}, 0, 100)), (std::vector<int64_t>{3}));
  EXPECT_EQ(ids(hydrator.Tasks({.type = TaskType::kTsEditing}, 0, 100)), (std::vector<int64_t>{5}));
  EXPECT_EQ(ids(hydrator.Tasks({}, 2, 3)), (std::vector<int64_t>{3, 4, 5}));
  // Task 4 derives from tasks 2 and 1, which are built in the same graph; its inputs and the
  // inputs of its from_tasks share record objects.
  auto tasks = hydrator.Tasks({.type = TaskType::kTemporalLocalization}, 0, 10);
  ASSERT_EQ(tasks.size(), 1u);
  const auto& from = tasks[0]->from_tasks();
  ASSERT_EQ(from.size(), 2u);
  EXPECT_EQ(from[0]->id(), 2);
  EXPECT_EQ(from[1]->id(), 1);
  EXPECT_EQ(from[0]->from_tasks().at(0), from[1]);
  EXPECT_EQ(tasks[0]->inputs().at(0), from[1]->inputs().at(0));
  int batches = 0;
  int64_t seen = 0;
  CatalogHydrator batched(Connection(db), ReadOptions(), HydrateBatching{.task_batch = 3});
  batched.ForEachTaskBatch({}, [&](std::vector<std::shared_ptr<model::Task>> batch) {
    ++batches;
    seen += static_cast<int64_t>(batch.size());
  });
  EXPECT_EQ(batches, 3);
  EXPECT_EQ(seen, 8);

  // Rounds of whole batches: 4 tasks asked, so rounds of 6 (two batches of 3), then 2.
  Connection connection(db);
  const std::shared_ptr<const ValueResolver> resolver = ReadOptions();
  TaskBatches cursor(resolver, resolver, {}, HydrateBatching{.task_batch = 3, .task_round = 4});
  std::vector<std::vector<int64_t>> got;
  std::vector<bool> built_before;
  std::map<int64_t, const model::Record*> record_of;
  while (!cursor.done()) {
    built_before.push_back(cursor.built());
    auto batch = cursor.Next(connection);
    if (batch.empty()) break;
    got.push_back(ids(batch));
    for (const auto& task : batch) {
      for (const auto& input : task->inputs()) {
        auto [it, fresh] = record_of.emplace(*input->id(), input.get());
        EXPECT_EQ(it->second, input.get()) << "record " << *input->id() << " built twice";
      }
    }
  }
  EXPECT_EQ(got, (std::vector<std::vector<int64_t>>{{1, 2, 3}, {4, 5, 6}, {7, 8}}));
  EXPECT_EQ(built_before, (std::vector<bool>{false, true, false}));
  EXPECT_TRUE(cursor.done());
  EXPECT_TRUE(cursor.Next(connection).empty());
}

TEST_F(ModelRoundTripTest, ReadOrderPutsRecordsWithoutChunksLast) {
  Fixture f = BuildDataset();
  // Only record 2 has chunks: it reads first, then 1 and 3 by record_id.
  class OnlyX final : public Locators {
   public:
    std::vector<ChunkLocator> Chunks(const model::Signal& signal) override {
      std::vector<ChunkLocator> out;
      if (signal.name() == "x")
        out.push_back({.value_path = "time_series/part-00000000.parquet",
                       .minor = 0,
                       .n_values = signal.n_values()});
      return out;
    }
  } sink;
  const auto path = dir_.path() / "order.duckdb";
  testing::WriteValidated(path, *f.dataset, sink);
  Database db = Database::Open(path, AccessMode::kReadOnly);
  std::vector<int64_t> order;
  CatalogHydrator batched(Connection(db), std::make_shared<MapResolver>(sink),
                          HydrateBatching{.record_batch = 2});
  batched.ForEachRecordBatch([&](std::vector<std::shared_ptr<model::Record>> batch) {
    for (const auto& r : batch) order.push_back(*r->id());
  });
  EXPECT_EQ(order, (std::vector<int64_t>{2, 1, 3}));
}

TEST_F(ModelRoundTripTest, IrregularAxisWithoutLocatorIsRefusedAndNoFileRemains) {
  Fixture f = BuildDataset();
  const auto path = dir_.path() / "nooffsets.duckdb";
  locators_.store_offsets = false;
  EXPECT_THROW(testing::WriteValidated(path, *f.dataset, locators_), ValidationError);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(ModelRoundTripTest, ExplicitIdsArePreserved) {
  Fixture f = BuildDataset();
  f.dataset->set_id_base({.max_record_id = 40, .max_signal_id = 50, .max_task_id = 60});
  f.dataset->records()[1]->set_id(7);
  f.dataset->tasks()[2]->set_id(3);
  const auto path = Write(*f.dataset);
  EXPECT_EQ(*f.dataset->records()[0]->id(), 41);
  Database db = Database::Open(path, AccessMode::kReadOnly);
  auto read = CatalogHydrator(Connection(db), ReadOptions()).ReadDataset();
  EXPECT_EQ(model::DumpDataset(*read), model::DumpDataset(*f.dataset));
  EXPECT_EQ(read->id_base().max_task_id, 67);
  EXPECT_EQ(Count(path, "SELECT value::BIGINT FROM control_metadata WHERE key = 'max_record_id'"),
            42);
}

}  // namespace
}  // namespace timef::catalog
