// The promises of include/timef/reader.h that a caller builds on (issue 11, scope item 5): empty
// ID lists mean nothing, returned objects outlive the call and the reader, the threading contract
// of lazy handles, the error classes and messages of §12. Each test names the promise it checks.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "core/checksum.h"
#include "reader/lazy_handles.h"
#include "release_fixture.h"
#include "support/serve_release.h"
#include "timef/error.h"
#include "timef/reader.h"

namespace timef {
namespace {
namespace fs = std::filesystem;

// Runs `sql` on the release's catalog and records the catalog's new size and checksum in the
// manifest, so that the release still opens and only the changed rows are wrong.
void TamperCatalog(const fs::path& release_dir, const std::vector<std::string>& sql) {
  const fs::path control = release_dir / manifest::kControlFileName;
  {
    catalog::Database db = catalog::Database::Open(control, catalog::AccessMode::kReadWrite);
    catalog::Connection connection(db);
    for (const std::string& statement : sql) connection.Execute(statement, "test sql");
    connection.Execute("CHECKPOINT", "test sql");
  }
  const fs::path manifest_path = release_dir / manifest::kManifestFileName;
  manifest::Manifest m = manifest::ReadManifest(manifest_path);
  m.files.control.size = static_cast<std::int64_t>(fs::file_size(control));
  m.files.control.checksum = FileChecksum(control);
  std::ofstream(manifest_path, std::ios::binary | std::ios::trunc) << manifest::WriteManifest(m);
}

// File descriptors and memory maps of this process that point below `dir`.
int OpenFilesUnder(const fs::path& dir) {
  const std::string prefix = fs::canonical(dir).string() + "/";
  int count = 0;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(entry.path(), ec);
    if (!ec && target.string().starts_with(prefix)) ++count;
  }
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.find(prefix) != std::string::npos) ++count;
  }
  return count;
}

template <class F>
std::string NotFoundMessage(F&& call) {
  try {
    call();
  } catch (const NotFoundError& e) {
    return e.what();
  }
  return "(no NotFoundError)";
}

template <class F>
std::string FormatErrorMessage(F&& call) {
  try {
    call();
  } catch (const FormatError& e) {
    return e.what();
  }
  return "(no FormatError)";
}

bool Contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// ---- an empty list means nothing ----

TEST(ContractsTest, EmptyIdListMeansNothing) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::vector<std::int64_t> none;
  EXPECT_TRUE(reader.GetRecords(none).empty());
  EXPECT_TRUE(reader.GetSignals(none).empty());
  EXPECT_TRUE(reader.GetSignalValues(none).empty());
  EXPECT_TRUE(reader.GetTasks(none).empty());
  RecordStream records = reader.IterRecords({.ids = none});
  EXPECT_FALSE(records.Next().has_value());
  // Absent still means every record.
  RecordStream all = reader.IterRecords({});
  auto first = all.Next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->size(), 3u);
}

TEST(ContractsTest, EmptyInputsMeanNoTasks) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  EXPECT_EQ(reader.ReadTasks({}).size(), 3u);
  EXPECT_TRUE(reader.ReadTasks({.inputs = std::vector<std::int64_t>{}}).empty());
  EXPECT_FALSE(reader.IterTasks({.inputs = std::vector<std::int64_t>{}}).Next().has_value());
  EXPECT_EQ(reader.ReadTaskTable({.inputs = std::vector<std::int64_t>{}}).num_rows(), 0);
  EXPECT_EQ(reader.ReadTargetTable({.inputs = std::vector<std::int64_t>{}}).num_rows(), 0);
  const std::vector<std::shared_ptr<model::Record>> no_records;
  EXPECT_TRUE(reader.ReadTasks({.input_records = no_records}).empty());
  EXPECT_FALSE(reader.IterTasks({.input_records = no_records}).Next().has_value());
}

// ---- GetSignal(s) ----

TEST(ContractsTest, GetSignalReachesItsSourceAndRecordAfterTheCall) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  std::shared_ptr<model::Signal> lead = reader.GetSignal(*w->fixture.lead->id());
  std::shared_ptr<model::Source> source = lead->source();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->name(), "leads");
  ASSERT_NE(source->parent(), nullptr);
  std::shared_ptr<model::Record> record = source->record();
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->id(), w->fixture.ecg->id());
  EXPECT_EQ(record->Signals().size(), 3u);

  const auto signals = reader.GetSignals(std::vector<std::int64_t>{*w->fixture.hr_b->id()});
  ASSERT_EQ(signals.size(), 1u);
  ASSERT_NE(signals[0]->source(), nullptr);
  EXPECT_EQ(signals[0]->source()->record()->id(), w->fixture.vitals->id());
}

TEST(ContractsTest, GetSignalLoadPlanLoadsThatSignalOnly) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  std::shared_ptr<model::Signal> lead =
      reader.GetSignal(*w->fixture.lead->id(), LoadPlan::AllEager());
  EXPECT_TRUE(lead->values()->is_loaded());
  const ReaderCounters after_one = reader.counters();
  ASSERT_NE(lead->source(), nullptr);
  for (const auto& sibling : lead->source()->record()->Signals()) {
    if (sibling == lead) continue;
    EXPECT_FALSE(sibling->values()->is_loaded()) << sibling->Describe();
  }
  // One signal of one chunk: one chunk read.
  EXPECT_EQ(after_one.chunks_read, 1u);

  // The irregular axis of hr_a is hr_a's own (hr_b shares the axis object, so it is loaded too).
  std::shared_ptr<model::Signal> hr =
      reader.GetSignal(*w->fixture.hr_a->id(), LoadPlan::AllEager());
  EXPECT_TRUE(hr->values()->is_loaded());
  EXPECT_TRUE(hr->axis()->offsets_loaded());
  for (const auto& sibling : hr->source()->record()->Signals()) {
    if (sibling == hr) continue;
    EXPECT_FALSE(sibling->values()->is_loaded()) << sibling->Describe();
  }
}

// ---- lifetime ----

TEST(ContractsTest, DestroyingTheReaderClosesIt) {
  auto w = testing::WriteFixture();
  const fs::path dir = w->result.release_dir;
  std::shared_ptr<model::Signal> lazy;
  std::shared_ptr<model::Task> answer;
  {
    Reader reader = testing::OpenForRead(dir);
    lazy = reader.GetSignal(*w->fixture.lead->id());
    answer = reader.GetTask(*w->fixture.answer->id());
    ASSERT_EQ(lazy->LoadValues()->size(), testing::kLeadSteps);
    ASSERT_EQ(answer->prompt()->Read(), w->fixture.long_prompt);
    ASSERT_GT(OpenFilesUnder(dir), 0);
  }
  // The lazy handles outlive the reader, but hold no file open...
  EXPECT_EQ(OpenFilesUnder(dir), 0);
  // ...and reopen what they read.
  EXPECT_EQ(lazy->LoadValues()->size(), testing::kLeadSteps);
  EXPECT_EQ(answer->prompt()->Read(), w->fixture.long_prompt);
}

TEST(ContractsTest, EagerObjectsKeepNoReaderStateAlive) {
  auto w = testing::WriteFixture();
  const fs::path dir = w->result.release_dir;
  std::weak_ptr<ReaderState> state;
  std::unique_ptr<model::Dataset> dataset;
  std::shared_ptr<model::Record> vitals;
  {
    Reader reader = testing::OpenForRead(dir);
    dataset = reader.Read(LoadPlan::AllEager());
    vitals = reader.GetRecord(*w->fixture.vitals->id(), LoadPlan::AllEager());
    const SignalValuesRef ref = reader.GetSignalValues(*w->fixture.lead->id());
    const auto* values = dynamic_cast<const LazySignalValues*>(ref.source().get());
    ASSERT_NE(values, nullptr);
    state = values->state();
    ASSERT_FALSE(state.expired());
  }
  EXPECT_TRUE(state.expired());
  EXPECT_EQ(OpenFilesUnder(dir), 0);
  EXPECT_EQ(model::DumpDataset(*dataset, {.values = true}),
            model::DumpDataset(*w->fixture.dataset, {.values = true}));
  // Offsets included.
  EXPECT_TRUE(vitals->Signals()[0]->axis()->offsets_loaded());
  EXPECT_EQ(vitals->Signals()[0]->axis()->LoadOffsets()->size(), 5u);
}

// ---- threading ----

TEST(ContractsTest, LazyHandlesOfOneReaderWorkFromFourThreadsWhileItCloses) {
  WriteOptions options;
  options.chunk_max_bytes = 4096;
  options.row_group_target_bytes = 16 * 1024;
  options.shard_target_bytes = 32 * 1024;
  auto w = testing::WriteFixture(options);
  Reader opened = testing::OpenForRead(w->result.release_dir);
  const auto records = opened.GetRecords(std::vector<std::int64_t>{
      *w->fixture.ecg->id(), *w->fixture.vitals->id(), *w->fixture.notes->id()});
  const auto answer = opened.GetTask(*w->fixture.answer->id());
  const auto hr = opened.GetSignal(*w->fixture.hr_a->id());
  const auto window = opened.GetSignalValues(*w->fixture.lead2->id());
  Reader reader = std::move(opened);
  reader.Close();

  std::vector<std::shared_ptr<model::Signal>> signals;
  for (const auto& record : records) {
    for (auto& signal : record->Signals()) signals.push_back(std::move(signal));
  }
  std::vector<model::ValueArray> expected;
  for (const auto& record : w->fixture.dataset->records()) {
    for (const auto& signal : record->Signals()) expected.push_back(*signal->LoadValues());
  }
  ASSERT_EQ(signals.size(), expected.size());
  const model::ValueArray expected_window = w->fixture.lead2->ReadSteps(5000, 9000);

  std::atomic<int> failures{0};
  std::atomic<int> running{4};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 6; ++round) {
        for (std::size_t i = 0; i < signals.size(); ++i) {
          const std::size_t at = (i + static_cast<std::size_t>(t)) % signals.size();
          if (!(*signals[at]->LoadValues() == expected[at])) ++failures;
        }
        if (!(window.ReadSteps(5000, 9000) == expected_window)) ++failures;
        if (answer->prompt()->Read() != w->fixture.long_prompt) ++failures;
        if (hr->axis()->LoadOffsets()->size() != 5u) ++failures;
      }
      --running;
    });
  }
  // The owning thread closes the reader while the handles read: they reopen what they need.
  while (running.load() > 0) {
    reader.Close();
    std::this_thread::yield();
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

// ---- stat failures, stored marks, windows, Zarr ----

TEST(ContractsTest, AnUnstatableFileIsNotReportedMissing) {
  auto w = testing::WriteFixture();
  const fs::path dir = w->result.release_dir;
  const std::string payload = w->result.manifest.files.payloads.at(0).path;
  // A symlink to itself cannot be stat'ed (ELOOP); the file is not absent.
  fs::remove(dir / payload);
  fs::create_symlink((dir / payload).filename(), dir / payload);
  try {
    Reader::Open(dir);
    ADD_FAILURE() << "Open accepted an unstatable file";
  } catch (const FileError& e) {
    EXPECT_NE(e.code(), std::make_error_code(std::errc::no_such_file_or_directory)) << e.what();
    EXPECT_FALSE(Contains(e.what(), "missing")) << e.what();
    EXPECT_TRUE(Contains(e.what(), payload)) << e.what();
  }
}

TEST(ContractsTest, AnUnstatableCatalogIsNotReportedMissing) {
  auto w = testing::WriteFixture();
  const fs::path dir = w->result.release_dir;
  Reader reader = testing::OpenForRead(dir);
  const fs::path control = dir / manifest::kControlFileName;
  fs::remove(control);
  fs::create_symlink(control.filename(), control);
  try {
    reader.RecordIds();
    ADD_FAILURE() << "the catalog opened";
  } catch (const FileError& e) {
    EXPECT_NE(e.code(), std::make_error_code(std::errc::no_such_file_or_directory)) << e.what();
    EXPECT_FALSE(Contains(e.what(), "not found")) << e.what();
  }
  // Verify() stats the same way.
  try {
    reader.Verify();
    ADD_FAILURE() << "Verify passed";
  } catch (const FileError& e) {
    EXPECT_NE(e.code(), std::make_error_code(std::errc::no_such_file_or_directory)) << e.what();
    EXPECT_FALSE(Contains(e.what(), "missing")) << e.what();
  }
}

TEST(ContractsTest, MalformedHighWaterMarkIsFormatError) {
  auto w = testing::WriteFixture();
  TamperCatalog(w->result.release_dir,
                {"UPDATE control_metadata SET \"value\" = '12x' WHERE \"key\" = 'max_signal_id'"});
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::string message = FormatErrorMessage([&] { reader.Read(); });
  EXPECT_TRUE(Contains(message, "control_metadata")) << message;
  EXPECT_TRUE(Contains(message, "max_signal_id")) << message;
}

TEST(ContractsTest, ReadStepsOfAnEmptyWindowDecodesNothing) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const auto lead = reader.GetSignal(*w->fixture.lead->id());
  const SignalValuesRef ref = reader.GetSignalValues(*w->fixture.lead2->id());
  const ReaderCounters before = reader.counters();
  for (std::int64_t k : {std::int64_t{0}, std::int64_t{1234}, testing::kLeadSteps}) {
    const model::ValueArray a = lead->ReadSteps(k, k);
    EXPECT_EQ(a.size(), 0);
    EXPECT_EQ(a.dtype(), model::DType::kFloat32);
    EXPECT_EQ(ref.ReadSteps(k, k).size(), 0);
  }
  const ReaderCounters after = reader.counters();
  EXPECT_EQ(after.chunks_read, before.chunks_read);
  EXPECT_EQ(after.data_pages_decoded, before.data_pages_decoded);
  EXPECT_EQ(after.values_files_opened, before.values_files_opened);
}

// A Parquet release whose catalog points at a Zarr array it does not store: the error names the
// array's zarr.json, which the manifest does not list (docs/format.md §8.6).
TEST(ContractsTest, AZarrLocatorOfAnUnlistedArrayNamesItsZarrJson) {
  auto w = testing::WriteFixture();
  const std::int64_t lead = *w->fixture.lead->id();
  TamperCatalog(w->result.release_dir,
                {"UPDATE signal_chunks SET value_path = 'time_series.zarr/ecg', "
                 "chunk_minor_index = NULL WHERE signal_key = (SELECT signal_key FROM signals "
                 "WHERE signal_id = " +
                 std::to_string(lead) + ")"});
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::string hydrated = FormatErrorMessage([&] { reader.GetSignal(lead); });
  EXPECT_TRUE(Contains(hydrated,
                       "'time_series.zarr/ecg/zarr.json', which the manifest does not "
                       "list"))
      << hydrated;
  EXPECT_TRUE(Contains(hydrated, "signal_chunks")) << hydrated;
  Reader fresh = testing::OpenForRead(w->result.release_dir);
  const std::string indexed = FormatErrorMessage([&] { fresh.GetSignalValues(lead); });
  EXPECT_TRUE(Contains(indexed, "time_series.zarr/ecg/zarr.json")) << indexed;
}

// A catalog whose signal row says fewer steps than its chunks hold (a writer's audit refuses it;
// a reader does not audit): no ref is made for it, so a caller's buffer sized from the signal row
// is never handed to chunks that hold more (ReaderState::ReadSignalIntoOn checks again).
TEST(ContractsTest, ASignalUndercountingItsChunksGetsNoRefToFillABuffer) {
  auto w = testing::WriteFixture();
  const std::int64_t lead = *w->fixture.lead->id();
  TamperCatalog(
      w->result.release_dir,
      {"UPDATE signals SET n_values = n_values - 1 WHERE signal_id = " + std::to_string(lead)});
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::string message = FormatErrorMessage([&] { reader.GetSignalValues(lead); });
  EXPECT_TRUE(Contains(message, "signals.n_values is " + std::to_string(testing::kLeadSteps - 1)))
      << message;
}

// ---- messages ----

TEST(ContractsTest, MissingIdMessagesAreWordedAlikeOnEveryPath) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::vector<std::int64_t> ids{*w->fixture.ecg->id(), 987};
  const std::string records = "records: record_id: no record with ID 987";
  EXPECT_EQ(NotFoundMessage([&] { reader.GetRecord(987); }), records);
  EXPECT_EQ(NotFoundMessage([&] { reader.GetRecords(ids); }), records);
  EXPECT_EQ(NotFoundMessage([&] { reader.IterRecords({.ids = ids}); }), records);
  const std::string signals = "signals: signal_id: no signal with ID 987";
  EXPECT_EQ(NotFoundMessage([&] { reader.GetSignal(987); }), signals);
  EXPECT_EQ(NotFoundMessage([&] { reader.GetSignals(ids); }), signals);
  EXPECT_EQ(NotFoundMessage([&] { reader.GetSignalValues(987); }), signals);
  const std::string tasks = "tasks: task_id: no task with ID 987";
  EXPECT_EQ(NotFoundMessage([&] { reader.GetTask(987); }), tasks);
  EXPECT_EQ(NotFoundMessage([&] { reader.GetTasks(std::vector<std::int64_t>{987}); }), tasks);
  EXPECT_EQ(
      NotFoundMessage(
          [&] { reader.GetTask(*w->fixture.answer->id(), model::TaskType::kForecasting); }),
      "tasks: task_id: no forecasting task with ID " + std::to_string(*w->fixture.answer->id()));
}

TEST(ContractsTest, HydrationErrorsNameTheTable) {
  auto w = testing::WriteFixture();
  TamperCatalog(w->result.release_dir,
                {"UPDATE signals SET dtype = 'float99' WHERE signal_id = " +
                     std::to_string(*w->fixture.lead->id()),
                 "UPDATE axes SET axis_type = 'sideways' WHERE axis_type = 'irregular'",
                 "UPDATE tasks SET split = 'holdout' WHERE task_id = " +
                     std::to_string(*w->fixture.classify->id())});
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::string spec = FormatErrorMessage([&] { reader.GetRecord(*w->fixture.ecg->id()); });
  // Each names the allowed values too, from the enumeration's one name table.
  EXPECT_TRUE(
      spec.starts_with("signals: dtype: unknown value 'float99' (expected one of bool, "
                       "int8, int16, int32, uint8, uint16, uint32, float32, float64, str, "
                       "enum)"))
      << spec;
  const std::string axis = FormatErrorMessage([&] { reader.GetRecord(*w->fixture.vitals->id()); });
  EXPECT_TRUE(axis.starts_with("axes: axis_type: unknown value 'sideways' (expected one of "))
      << axis;
  const std::string task = FormatErrorMessage([&] { reader.GetTask(*w->fixture.classify->id()); });
  EXPECT_TRUE(task.starts_with(
      "tasks: split: unknown value 'holdout' (expected one of train, validation, test)"))
      << task;

  auto other = testing::WriteFixture();
  TamperCatalog(other->result.release_dir,
                {"UPDATE annotation_occurrences SET span_type = 'sometimes' WHERE occurrence_key = "
                 "(SELECT min(occurrence_key) FROM annotation_occurrences)"});
  Reader annotated = testing::OpenForRead(other->result.release_dir);
  const std::string occurrence = FormatErrorMessage([&] { annotated.Read(); });
  EXPECT_TRUE(
      occurrence.starts_with("annotation_occurrences: span_type: unknown value 'sometimes'"))
      << occurrence;
}

}  // namespace
}  // namespace timef
