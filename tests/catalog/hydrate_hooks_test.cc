// Packed text on write (PayloadSink::PackText / PackTextList) and what hydration hands a
// ValueResolver (text, text lists, chunk locators), with a fake sink and resolver that keep packed
// text in a std::map.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "catalog/audit/audit.h"
#include "catalog/duckdb/duckdb_database.h"
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
using model::TaskTarget;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr std::string_view kTextFile = "payloads/text-00000000.parquet";
constexpr std::string_view kShard = "time_series/part-00000000.parquet";
constexpr std::string_view kBase = "acme/base@1.0.0";  // a parent release holding signal b

// A fake text payload file: rows in packing order, values longer than 4 bytes (or lists of more
// than two elements) are packed.
struct FakeTextFile {
  std::vector<std::string> texts;  // by row
  std::vector<std::vector<std::string>> lists;
  std::map<int64_t, std::vector<std::string>> rows;  // row -> value (a text is a 1-element list)
  int lazy_writes = 0;                               // lazy Texts the pack hook was handed
  int64_t next_row = 0;

  std::optional<TextLocator> Pack(const model::Text& text) {
    if (!text.is_loaded()) ++lazy_writes;
    if (text.size() <= 4) return std::nullopt;
    rows[next_row] = {text.Read()};
    return TextLocator{.file = std::string(kTextFile), .row = next_row++, .length = text.size()};
  }
  std::optional<TextLocator> PackList(const model::TextList& list) {
    if (list.size() <= 2) return std::nullopt;
    rows[next_row] = list.Read();
    return TextLocator{.file = std::string(kTextFile), .row = next_row++, .length = list.size()};
  }
};

class MapText final : public model::LazyText {
 public:
  MapText(const FakeTextFile& file, TextLocator row) : file_(file), row_(std::move(row)) {}
  int64_t size() const override { return row_.length; }
  std::string Read() const override { return file_.rows.at(row_.row).at(0); }

 private:
  const FakeTextFile& file_;
  TextLocator row_;
};

class MapTextList final : public model::LazyTextList {
 public:
  MapTextList(const FakeTextFile& file, TextLocator row) : file_(file), row_(std::move(row)) {}
  int64_t size() const override { return row_.length; }
  std::vector<std::string> Read() const override { return file_.rows.at(row_.row); }

 private:
  const FakeTextFile& file_;
  TextLocator row_;
};

// Values that only remember where they come from.
class LocatedValues final : public model::SignalValues {
 public:
  explicit LocatedValues(std::vector<ChunkLocator> chunks) : chunks_(std::move(chunks)) {}
  std::shared_ptr<const model::ValueArray> Load() const override {
    throw Error({.object = "test"}, "not readable");
  }
  bool is_loaded() const override { return false; }
  const std::vector<ChunkLocator>& chunks() const { return chunks_; }

 private:
  std::vector<ChunkLocator> chunks_;
};

// One record with three signals (2, 1 and 0 chunks), annotations with text and text-list values
// (short and long), and tasks with prompts, rationales and text targets (short and long).
std::unique_ptr<model::Dataset> MakeDataset() {
  auto d = std::make_unique<model::Dataset>("acme/text", "1.0.0");
  auto spec = model::Spec::Make({.spec_type = "ecg_lead", .name = "ECG lead", .unit = "mV"});
  auto axis = model::TimeAxis::Regular(1000);
  auto record = d->AddRecord();
  auto source = record->AddSource("device");
  source->AddSignal(std::make_shared<model::Signal>("a", spec, axis, 30));
  source->AddSignal(std::make_shared<model::Signal>("b", spec, axis, 10));
  source->AddSignal(std::make_shared<model::Signal>("c", spec, axis, 5));
  record->Annotate(std::make_shared<AnnotationContent>(
      "note", AnnotationValue::OfText("a long note about the record")));
  record->Annotate(std::make_shared<AnnotationContent>("tag", AnnotationValue::OfText("ok")));
  record->Annotate(std::make_shared<AnnotationContent>(
      "labels", AnnotationValue::OfTextList(model::TextList{"x", "", "zed"})));
  record->Annotate(std::make_shared<AnnotationContent>(
      "pair", AnnotationValue::OfTextList(model::TextList{"p", "q"})));
  auto t1 = d->AddTask(model::TaskType::kAnswer);
  t1->AddInput(record);
  t1->set_prompt(model::Text("What happens in this recording?"));
  t1->set_rationale(model::Text("because the trace says so"));
  t1->AddTarget(TaskTarget::OfText("a long answer"));
  t1->AddTarget(TaskTarget::OfText("yes"));
  auto t2 = d->AddTask(model::TaskType::kClassification);
  t2->AddInput(record);
  t2->set_prompt(model::Text(""));  // empty stays inline ''
  t2->AddTarget(TaskTarget::OfText("normal rhythm"));
  return d;
}

// Chunks as the fake values plane placed them ("b" lives in a parent release's Zarr store, "c" in
// one chunk unless `c_without_chunks`), long text packed into a FakeTextFile unless `pack` is off.
class FakeSink : public PayloadSink {
 public:
  FakeSink(FakeTextFile& file, bool c_without_chunks)
      : file_(file), c_without_chunks_(c_without_chunks) {}
  std::vector<ChunkLocator> Chunks(const model::Signal& signal) override {
    std::vector<ChunkLocator> out;
    const int64_t n = signal.n_values();
    if (signal.name() == "a") {
      out.push_back({.value_path = std::string(kShard), .major = 0, .minor = 0, .n_values = 20});
      out.push_back(
          {.value_path = std::string(kShard), .major = 1, .minor = 0, .n_values = n - 20});
    } else if (signal.name() == "b") {
      out.push_back({.payload_source = std::string(kBase),
                     .value_path = "time_series.zarr/b",
                     .major = 64,
                     .n_values = n});
    } else if (!c_without_chunks_) {
      out.push_back({.value_path = std::string(kShard), .major = 2, .minor = 7, .n_values = n});
    }
    return out;
  }
  std::optional<OffsetsLocator> StoreOffsets(const model::TimeAxis&) override {
    return std::nullopt;
  }
  std::optional<TextLocator> PackText(const model::Text& text) override {
    return pack ? file_.Pack(text) : std::nullopt;
  }
  std::optional<TextLocator> PackTextList(const model::TextList& list) override {
    return pack ? file_.PackList(list) : std::nullopt;
  }

  bool pack = true;

 private:
  FakeTextFile& file_;
  bool c_without_chunks_;
};

// Packed text as lazy MapText / MapTextList, each request recorded; values as LocatedValues (each
// call recorded) when `locate_values`, else none.
class FakeResolver final : public ValueResolver {
 public:
  explicit FakeResolver(const FakeTextFile& file, bool locate_values = false)
      : file_(file), locate_values_(locate_values) {}
  std::shared_ptr<const model::SignalValues> Values(
      const model::Signal& signal, std::vector<ChunkLocator> chunks) const override {
    if (!locate_values_) return nullptr;
    value_calls.emplace_back(signal.name(), chunks);
    return std::make_shared<LocatedValues>(std::move(chunks));
  }
  std::shared_ptr<const model::TimeOffsets> Offsets(const OffsetsLocator&, int64_t,
                                                    int64_t) const override {
    throw Error({.object = "test"}, "no irregular axes here");
  }
  model::Text Text(const TextLocator& locator, int64_t text_key) const override {
    text_rows.emplace_back(text_key, locator);
    return model::Text::Lazy(std::make_shared<MapText>(file_, locator));
  }
  model::TextList TextList(const TextLocator& locator, int64_t text_key) const override {
    text_rows.emplace_back(text_key, locator);
    return model::TextList::Lazy(std::make_shared<MapTextList>(file_, locator));
  }

  mutable std::vector<std::pair<int64_t, TextLocator>> text_rows;  // (text_key, locator)
  mutable std::vector<std::pair<std::string, std::vector<ChunkLocator>>> value_calls;

 private:
  const FakeTextFile& file_;
  bool locate_values_;
};

class HydrateHooksTest : public ::testing::Test {
 protected:
  FakeSink WriteOptions() { return FakeSink(file_, c_without_chunks_); }
  std::shared_ptr<const FakeResolver> ReadOptions(bool locate_values = false) {
    resolver_ = std::make_shared<const FakeResolver>(file_, locate_values);
    return resolver_;
  }
  std::filesystem::path Write(model::Dataset& dataset, FakeSink sink) {
    const auto path = dir_ / ("c" + std::to_string(n_++) + ".duckdb");
    summary_ = testing::WriteValidated(path, dataset, sink);
    AuditFacts facts = testing::FactsFromModel(dataset, summary_);
    facts.payload_sources[std::string(kBase)] = {"time_series.zarr/b/zarr.json"};
    if (!c_without_chunks_) Audit(path, facts);  // V1 wants chunks for every signal
    return path;
  }
  std::vector<std::string> Rows(const std::filesystem::path& path, std::string_view sql) {
    Database db = Database::Open(path, AccessMode::kReadOnly);
    Connection c(db);
    return testing::QueryRows(c, sql);
  }

  testing::ScratchDir dir_;
  FakeTextFile file_;
  std::shared_ptr<const FakeResolver> resolver_;  // the last one ReadOptions() made
  ModelWriteSummary summary_;
  int n_ = 0;
  bool c_without_chunks_ = false;
};

TEST_F(HydrateHooksTest, PackedTextIsKeyedInPackingOrderAndInlineColumnsAreNull) {
  auto d = MakeDataset();
  const auto path = Write(*d, WriteOptions());
  // Packing order: prompts and rationales by task, then text targets, then contents.
  EXPECT_THAT(Rows(path, "SELECT * FROM text_payloads ORDER BY text_key"),
              ElementsAre("1|NULL|payloads/text-00000000.parquet|0|text|31",
                          "2|NULL|payloads/text-00000000.parquet|1|text|25",
                          "3|NULL|payloads/text-00000000.parquet|2|text|13",
                          "4|NULL|payloads/text-00000000.parquet|3|text|13",
                          "5|NULL|payloads/text-00000000.parquet|4|text|28",
                          "6|NULL|payloads/text-00000000.parquet|5|text_list|3"));
  EXPECT_EQ(file_.rows.at(0).at(0), "What happens in this recording?");
  EXPECT_EQ(file_.rows.at(4).at(0), "a long note about the record");
  EXPECT_THAT(Rows(path,
                   "SELECT task_id, prompt, prompt_text_key, rationale, rationale_text_key "
                   "FROM tasks ORDER BY task_id"),
              ElementsAre("1|NULL|1|NULL|2", "2||NULL|NULL|NULL"));
  EXPECT_THAT(Rows(path,
                   "SELECT task_key, position, text_value, text_value_text_key FROM task_targets "
                   "ORDER BY task_key, position"),
              ElementsAre("7|0|NULL|3", "7|1|yes|NULL", "8|0|NULL|4"));
  EXPECT_THAT(Rows(path,
                   "SELECT name, text_value, text_value_text_key, text_list_value IS NULL, "
                   "text_list_value_text_key FROM annotation_contents ORDER BY content_key"),
              ElementsAre("note|NULL|5|true|NULL", "tag|ok|NULL|true|NULL",
                          "labels|NULL|NULL|true|6", "pair|NULL|NULL|false|NULL"));
  EXPECT_THAT(summary_.payload_paths, ElementsAre(std::string(kTextFile)));
  EXPECT_THAT(testing::FactsFromModel(*d, summary_).own_payloads,
              ElementsAre(std::string(kTextFile)));
}

TEST_F(HydrateHooksTest, PackedTextRoundTripsThroughTheHooksAsLazyValues) {
  auto d = MakeDataset();
  const auto path = Write(*d, WriteOptions());
  Database db = Database::Open(path, AccessMode::kReadOnly);
  auto read = CatalogHydrator(Connection(db), ReadOptions()).ReadDataset();
  EXPECT_EQ(model::DumpDataset(*read), model::DumpDataset(*d));
  const model::Task& t1 = *read->tasks().at(0);
  ASSERT_TRUE(t1.prompt() && t1.rationale());
  EXPECT_FALSE(t1.prompt()->is_loaded());
  EXPECT_EQ(t1.prompt()->size(), 31);
  EXPECT_FALSE(t1.targets()->at(0).text().is_loaded());
  EXPECT_TRUE(t1.targets()->at(1).text().is_loaded());
  EXPECT_TRUE(read->tasks().at(1)->prompt()->is_loaded());
  EXPECT_TRUE(*read->tasks().at(1)->prompt() == std::string_view());
  const auto& annotations = read->records().at(0)->annotations();
  EXPECT_FALSE(annotations.at(0)->content()->value().text().is_loaded());
  EXPECT_FALSE(annotations.at(2)->content()->value().text_list().is_loaded());
  EXPECT_EQ(annotations.at(2)->content()->value().text_list(),
            (std::vector<std::string>{"x", "", "zed"}));
  // Records (and their annotation contents) are built before tasks.
  const auto& text_rows = resolver_->text_rows;
  ASSERT_EQ(text_rows.size(), 6u);
  EXPECT_EQ(text_rows[0].first, 5);
  EXPECT_EQ(text_rows[0].second,
            (TextLocator{.file = std::string(kTextFile), .row = 4, .length = 28}));
  EXPECT_EQ(text_rows[2].first, 1);
  EXPECT_EQ(text_rows[2].second,
            (TextLocator{.file = std::string(kTextFile), .row = 0, .length = 31}));
}

TEST_F(HydrateHooksTest, LazyTextIsHandedToThePackHookOrWrittenInline) {
  auto d = MakeDataset();
  const auto first = Write(*d, WriteOptions());
  Database db = Database::Open(first, AccessMode::kReadOnly);
  auto read = CatalogHydrator(Connection(db), ReadOptions()).ReadDataset();

  FakeSink inline_sink = WriteOptions();
  inline_sink.pack = false;
  const auto second = Write(*read, inline_sink);
  EXPECT_THAT(Rows(second, "SELECT count(*) FROM text_payloads"), ElementsAre("0"));
  EXPECT_THAT(Rows(second, "SELECT prompt, rationale FROM tasks ORDER BY task_id"),
              ElementsAre("What happens in this recording?|because the trace says so", "|NULL"));
  EXPECT_THAT(Rows(second, "SELECT text_list_value FROM annotation_contents WHERE name='labels'"),
              ElementsAre("[x,,zed]"));
  EXPECT_TRUE(summary_.payload_paths.empty());

  file_.lazy_writes = 0;
  const size_t rows_before = file_.rows.size();
  const auto third = Write(*read, WriteOptions());
  EXPECT_EQ(file_.lazy_writes, 5);  // prompt, rationale, target, note (the list is not a Text)
  EXPECT_EQ(file_.rows.size(), rows_before + 6);
  Database db3 = Database::Open(third, AccessMode::kReadOnly);
  auto again = CatalogHydrator(Connection(db3), ReadOptions()).ReadDataset();
  EXPECT_EQ(model::DumpDataset(*again), model::DumpDataset(*d));
}

TEST_F(HydrateHooksTest, DanglingOrMiskindedTextKeyIsAFormatError) {
  auto d = MakeDataset();
  const auto path = Write(*d, WriteOptions());
  testing::RunSql(path, {"UPDATE text_payloads SET kind = 'text_list' WHERE text_key = 3"});
  {
    Database db = Database::Open(path, AccessMode::kReadOnly);
    EXPECT_THROW(
        {
          try {
            CatalogHydrator(Connection(db), ReadOptions()).Tasks({}, 0, 10);
          } catch (const FormatError& e) {
            EXPECT_THAT(e.what(), HasSubstr("task_targets: text_value_text_key"));
            EXPECT_THAT(e.what(), HasSubstr("kind 'text_list'"));
            throw;
          }
        },
        FormatError);
  }
  testing::RunSql(path, {"DELETE FROM text_payloads WHERE text_key = 2"});
  Database db = Database::Open(path, AccessMode::kReadOnly);
  try {
    CatalogHydrator(Connection(db), ReadOptions()).Tasks({}, 0, 10);
    ADD_FAILURE() << "expected FormatError";
  } catch (const FormatError& e) {
    EXPECT_THAT(e.what(), HasSubstr("tasks: rationale_text_key"));
    EXPECT_THAT(e.what(), HasSubstr("text key 2 names no text_payloads row"));
  }
}

TEST_F(HydrateHooksTest, PackLengthMustMatchTheValue) {
  auto d = MakeDataset();
  class OffByOne final : public FakeSink {
   public:
    using FakeSink::FakeSink;
    std::optional<TextLocator> PackText(const model::Text& text) override {
      return TextLocator{.file = std::string(kTextFile), .row = 0, .length = text.size() + 1};
    }
  } sink(file_, false);
  const auto path = dir_ / "bad.duckdb";
  EXPECT_THROW(testing::WriteValidated(path, *d, sink), ValidationError);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(HydrateHooksTest, ValuesHookGetsEachSignalsLocatorsInChunkOrder) {
  auto d = MakeDataset();
  c_without_chunks_ = true;
  const auto path = Write(*d, WriteOptions());
  Database db = Database::Open(path, AccessMode::kReadOnly);
  auto records =
      CatalogHydrator(Connection(db), ReadOptions(true)).RecordsById(std::vector<int64_t>{1});
  const auto& calls = resolver_->value_calls;
  ASSERT_EQ(calls.size(), 2u);  // "c" has no chunk rows
  EXPECT_EQ(calls[0].first, "a");
  EXPECT_THAT(
      calls[0].second,
      ElementsAre(
          ChunkLocator{.value_path = std::string(kShard), .major = 0, .minor = 0, .n_values = 20},
          ChunkLocator{.value_path = std::string(kShard), .major = 1, .minor = 0, .n_values = 10}));
  EXPECT_EQ(calls[1].first, "b");
  EXPECT_THAT(calls[1].second, ElementsAre(ChunkLocator{.payload_source = std::string(kBase),
                                                        .value_path = "time_series.zarr/b",
                                                        .major = 64,
                                                        .n_values = 10}));
  std::map<std::string, std::shared_ptr<model::Signal>> by_name;
  for (const auto& s : records.at(0)->Signals()) by_name[s->name()] = s;
  auto values = std::dynamic_pointer_cast<const LocatedValues>(by_name.at("a")->values());
  ASSERT_NE(values, nullptr);
  EXPECT_EQ(values->chunks(), calls[0].second);
  EXPECT_FALSE(by_name.at("c")->has_values());
}

TEST_F(HydrateHooksTest, ChunkIndexGapOrWrongTotalIsAFormatError) {
  auto d = MakeDataset();
  const auto path = Write(*d, WriteOptions());
  auto expect_error = [&](const std::string& column, const std::string& detail) {
    Database db = Database::Open(path, AccessMode::kReadOnly);
    try {
      CatalogHydrator(Connection(db), ReadOptions(true)).RecordsInReadOrder(0, 1);
      ADD_FAILURE() << "expected FormatError";
    } catch (const FormatError& e) {
      EXPECT_THAT(e.what(), HasSubstr("signal_chunks: " + column));
      EXPECT_THAT(e.what(), HasSubstr("signal 1"));  // signal_id of "a"
      EXPECT_THAT(e.what(), HasSubstr(detail));
    }
  };
  testing::RunSql(path, {"UPDATE signal_chunks SET chunk_index = 2 WHERE chunk_index = 1"});
  expect_error("chunk_index", "chunk_index 2 where 1 was expected");
  testing::RunSql(path, {"UPDATE signal_chunks SET chunk_index = 1, n_values = 9 "
                         "WHERE chunk_index = 2"});
  expect_error("n_values", "chunks hold 29 values, signals.n_values is 30");
}

TEST_F(HydrateHooksTest, TaskBatchesShareRecordsUpToTheCacheLimit) {
  auto d = MakeDataset();
  const auto path = Write(*d, WriteOptions());
  Database db = Database::Open(path, AccessMode::kReadOnly);
  auto inputs_per_batch = [&](int64_t cache) {
    std::vector<std::shared_ptr<model::Record>> inputs;
    CatalogHydrator(Connection(db), ReadOptions(),
                    HydrateBatching{.task_batch = 1, .task_record_cache = cache})
        .ForEachTaskBatch({}, [&](std::vector<std::shared_ptr<model::Task>> batch) {
          ASSERT_EQ(batch.size(), 1u);
          inputs.push_back(batch[0]->inputs().at(0));
        });
    return inputs;
  };
  const auto shared = inputs_per_batch(20000);
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared[0], shared[1]);  // built once, reused by the second batch
  EXPECT_EQ(shared[0]->Signals().size(), 3u);
  const auto separate = inputs_per_batch(0);
  ASSERT_EQ(separate.size(), 2u);
  EXPECT_NE(separate[0], separate[1]);
  EXPECT_EQ(separate[0]->metadata(), shared[1]->metadata());
  EXPECT_EQ(separate[0]->id(), shared[1]->id());
}

}  // namespace
}  // namespace timef::catalog
