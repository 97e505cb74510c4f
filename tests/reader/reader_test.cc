// Reader: round trip (FORMAT.md §13), laziness (§11), integrity (§11 verify), lookups (§12).
#include "timef/reader.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <limits>

#include "core/checksum.h"
#include "release_fixture.h"
#include "support/serve_release.h"
#include "timef/error.h"
#include "timef/model/dump.h"
#include "timef/writer.h"

namespace timef {
namespace {
namespace fs = std::filesystem;
using testing::FixtureCard;
using testing::MakeFixture;
using testing::TempDir;

TEST(ReaderTest, RoundTripRestoresEveryFieldAndValue) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const Json expected = model::DumpDataset(*w->fixture.dataset, {.values = true});
  EXPECT_EQ(model::DumpDataset(*reader.Read(), {.values = true}), expected);
  EXPECT_EQ(model::DumpDataset(*reader.Read(LoadPlan::AllEager()), {.values = true}), expected);
}

TEST(ReaderTest, SpecialFloatsAreBitExact) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const auto loaded = reader.GetSignal(*w->fixture.lead->id())->LoadValues();
  auto values = loaded->values<float>();
  EXPECT_EQ(std::bit_cast<uint32_t>(values[testing::kNanStep]), testing::kNanBits);
  EXPECT_EQ(values[testing::kPosInfStep], std::numeric_limits<float>::infinity());
  EXPECT_EQ(values[testing::kNegInfStep], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(std::bit_cast<uint32_t>(values[testing::kNegZeroStep]), 0x8000'0000u);
  auto hr = reader.GetSignal(*w->fixture.hr_a->id())->LoadValues();
  EXPECT_FALSE(hr->IsValid(1));
  EXPECT_EQ(std::bit_cast<uint64_t>(hr->values<double>()[3]), 0x8000'0000'0000'0000u);
}

TEST(ReaderTest, OpenAndReadingRecordsTouchNoValueOrPayloadFile) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  EXPECT_EQ(reader.counters().catalog_opens, 0u);
  auto dataset = reader.Read();
  const ReaderCounters c = reader.counters();
  EXPECT_EQ(c.catalog_opens, 1u);
  EXPECT_EQ(c.values_files_opened, 0u);
  EXPECT_EQ(c.payload_files_opened, 0u);
  // Packed text has its length without a read.
  auto answer = reader.GetTask(*w->fixture.answer->id(), model::TaskType::kAnswer);
  ASSERT_TRUE(answer->prompt().has_value());
  EXPECT_FALSE(answer->prompt()->is_loaded());
  EXPECT_EQ(answer->prompt()->size(), static_cast<int64_t>(w->fixture.long_prompt.size()));
  EXPECT_EQ(reader.counters().payload_values_read, 0u);
  EXPECT_EQ(answer->prompt()->Read(), w->fixture.long_prompt);
  EXPECT_TRUE(*answer->prompt() == std::string_view(w->fixture.long_prompt));
  auto eager = reader.GetTask(*w->fixture.answer->id(), std::nullopt, {.text = Loading::kEager});
  EXPECT_TRUE(eager->prompt()->is_loaded());
  EXPECT_TRUE(*eager->rationale() == std::string_view(w->fixture.long_rationale));
}

TEST(ReaderTest, OneSignalOpensOnlyItsShardAndOneWindowOnlyItsChunk) {
  WriteOptions options;
  options.chunk_max_bytes = 4096;              // 1,024 steps per chunk
  options.row_group_target_bytes = 16 * 1024;  // 4 chunks per row group
  options.shard_target_bytes = 32 * 1024;      // several shards per spec_type
  options.data_page_target_bytes = 1024;       // each chunk spans several pages
  auto w = testing::WriteFixture(options);
  Reader reader = testing::OpenForRead(w->result.release_dir);
  auto lead = reader.GetSignal(*w->fixture.lead2->id());
  ASSERT_EQ(reader.counters().values_files_opened, 0u);
  const model::ValueArray window = lead->ReadSteps(2'050, 2'060);  // inside chunk 2
  ReaderCounters c = reader.counters();
  EXPECT_EQ(c.values_files_opened, 1u);
  EXPECT_EQ(c.chunks_read, 1u);
  const uint64_t pages_one_chunk = c.data_pages_decoded;
  EXPECT_GT(pages_one_chunk, 0u);
  EXPECT_EQ(window, w->fixture.lead2->LoadValues()->SliceSteps(2'050, 2'060, 1));
  // A window over three chunks decodes three chunks.
  lead->ReadSteps(1'000, 3'000);
  EXPECT_EQ(reader.counters().chunks_read, 1u + 3u);
  // The whole series: 20 chunks, stitched in order.
  EXPECT_EQ(*lead->LoadValues(), *w->fixture.lead2->LoadValues());
  EXPECT_EQ(reader.counters().chunks_read, 4u + 20u);
}

TEST(ReaderTest, StepWindowsClampKeepDtypeAndRejectBadBounds) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  auto lead = reader.GetSignal(*w->fixture.lead->id());
  const model::ValueArray empty = lead->ReadSteps(5, 5);
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.dtype(), model::DType::kFloat32);
  EXPECT_EQ(lead->ReadSteps(testing::kLeadSteps - 3, testing::kLeadSteps + 100).size(), 3);
  EXPECT_THROW(lead->ReadSteps(10, 5), ValidationError);
  EXPECT_THROW(lead->ReadSteps(-1, 5), ValidationError);
  auto text = reader.GetSignal(*w->fixture.text->id());
  EXPECT_EQ(text->ReadSteps(2, 4).values<std::string>()[1], "x\ny");
}

TEST(ReaderTest, IrregularOffsetsAreReadOnceAndSharedWithinARead) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  auto record = reader.GetRecord(*w->fixture.vitals->id());
  auto signals = record->Signals();
  std::shared_ptr<model::Signal> a, b;
  for (auto& s : signals) {
    if (s->name() == "hr_a") a = s;
    if (s->name() == "hr_b") b = s;
  }
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->axis(), b->axis());
  EXPECT_FALSE(a->axis()->offsets_loaded());
  EXPECT_EQ(*a->axis()->LoadOffsets(),
            (std::vector<int64_t>{0, 900'000, 2'000'000, 3'100'000, 3'100'000}));
  EXPECT_TRUE(b->axis()->offsets_loaded());
  b->axis()->LoadOffsets();
  EXPECT_EQ(reader.counters().payload_values_read, 1u);
}

TEST(ReaderTest, LookupsByIdKeepOrderShareObjectsAndNameEveryMissingId) {
  auto w = testing::WriteFixture(3);
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::vector<int64_t> ids{3, 1, 3};
  auto records = reader.GetRecords(ids);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(*records[0]->id(), 3);
  EXPECT_EQ(*records[1]->id(), 1);
  EXPECT_EQ(records[0], records[2]);
  try {
    reader.GetRecords(std::vector<int64_t>{1, 77, 88});
    FAIL();
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("77, 88"), std::string::npos) << e.what();
  }
  EXPECT_THROW(reader.GetTask(*w->fixture.answer->id(), model::TaskType::kForecasting),
               NotFoundError);
  EXPECT_THROW(reader.GetSignal(999), NotFoundError);
  EXPECT_THROW(reader.GetRecord(0), ValidationError);
  auto forecast = reader.GetTask(*w->fixture.forecast->id());
  ASSERT_EQ(forecast->from_tasks().size(), 1u);
  EXPECT_EQ(*forecast->from_tasks()[0]->id(), *w->fixture.answer->id());
}

TEST(ReaderTest, RecordStreamsAreBoundedAndCheckIdsFirst) {
  auto w = testing::WriteFixture(5);
  Reader reader = testing::OpenForRead(w->result.release_dir);
  EXPECT_EQ(reader.RecordIds().size(), 7u);
  RecordStream all = reader.IterRecords({.batch_size = 3});
  std::vector<int64_t> seen;
  while (auto batch = all.Next()) {
    EXPECT_LE(batch->size(), 3u);
    for (auto& r : *batch) seen.push_back(*r->id());
  }
  EXPECT_EQ(seen, reader.RecordIds());
  EXPECT_THROW(reader.IterRecords({.ids = std::vector<std::int64_t>{2, 999}}), NotFoundError);
  RecordStream some = reader.IterRecords({.ids = std::vector<std::int64_t>{4, 2}, .batch_size = 1});
  EXPECT_EQ(*(*some.Next())[0]->id(), 4);
  EXPECT_EQ(*(*some.Next())[0]->id(), 2);
  EXPECT_FALSE(some.Next().has_value());
}

TEST(ReaderTest, TaskStreamsFilterAndCoverEveryTask) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  EXPECT_EQ(reader.ReadTasks().size(), 3u);
  EXPECT_EQ(reader.ReadTasks({.split = model::Split::kTest}).size(), 1u);
  EXPECT_EQ(reader.ReadTasks({.type = model::TaskType::kForecasting}).size(), 1u);
  EXPECT_EQ(reader.ReadTasks({.inputs = std::vector<std::int64_t>{*w->fixture.ecg->id()}}).size(),
            2u);
  // Modality filters run in SQL: the two prompted tasks have text, the forecast has none.
  using model::InputModality;
  EXPECT_EQ(reader.ReadTasks({.required_modalities = {InputModality::kText}}).size(), 2u);
  const auto series_only = reader.ReadTasks({.supported_modalities = {InputModality::kTimeSeries}});
  ASSERT_EQ(series_only.size(), 1u);
  EXPECT_EQ(*series_only[0]->id(), *w->fixture.forecast->id());
  TaskStream stream = reader.IterTasks({.batch_size = 2});
  size_t n = 0, batches = 0;
  while (auto batch = stream.Next()) {
    n += batch->size();
    ++batches;
  }
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(batches, 2u);
}

// One task per batch: later batches reuse the records earlier ones built (lazy plan), Close()
// between batches is harmless, and every task equals its ReadTasks twin.
TEST(ReaderTest, IterTasksSharesRecordsAcrossBatches) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const auto all = reader.ReadTasks();
  auto stream_all = [&](const LoadPlan& load) {
    std::vector<std::shared_ptr<model::Task>> out;
    TaskStream stream = reader.IterTasks({.batch_size = 1, .load = load});
    while (auto batch = stream.Next()) {
      EXPECT_EQ(batch->size(), 1u);
      out.insert(out.end(), batch->begin(), batch->end());
      reader.Close();  // the next batch takes a fresh lease on a reopened catalog
    }
    return out;
  };
  auto ids = [](const auto& objects) {
    std::vector<std::int64_t> out;
    for (const auto& o : objects) out.push_back(*o->id());
    return out;
  };
  for (const LoadPlan& load : {LoadPlan::AllLazy(), LoadPlan::AllEager()}) {
    const auto streamed = stream_all(load);
    ASSERT_EQ(ids(streamed), ids(all));
    for (std::size_t i = 0; i < all.size(); ++i) {
      SCOPED_TRACE(*all[i]->id());
      EXPECT_EQ(streamed[i]->type(), all[i]->type());
      EXPECT_EQ(ids(streamed[i]->from_tasks()), ids(all[i]->from_tasks()));
      EXPECT_EQ(model::DumpRecords(streamed[i]->inputs(), {.values = true}),
                model::DumpRecords(all[i]->inputs(), {.values = true}));
    }
    // classify and answer (batches 1 and 2) both take the ECG record as input.
    ASSERT_EQ(*streamed[0]->inputs().at(0)->id(), *streamed[1]->inputs().at(0)->id());
    if (load.signal_values == Loading::kLazy) {
      EXPECT_EQ(streamed[0]->inputs()[0], streamed[1]->inputs()[0]) << "one object per record";
    } else {
      EXPECT_NE(streamed[0]->inputs()[0], streamed[1]->inputs()[0]) << "eager: a graph per batch";
    }
  }
}

TEST(ReaderTest, HandlesStayReadableAfterClose) {
  auto w = testing::WriteFixture();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  auto lead = reader.GetSignal(*w->fixture.lead->id());
  reader.Close();
  EXPECT_EQ(*lead->LoadValues(), *w->fixture.lead->LoadValues());
  EXPECT_EQ(reader.RecordIds().size(), 3u);  // the catalog reopens
}

// ---- integrity ----

TEST(ReaderIntegrityTest, VerifyPassesAfterReadsAndNamesEachCorruptFile) {
  auto w = testing::WriteFixture();
  const fs::path dir = w->result.release_dir;
  {
    Reader reader = testing::OpenForRead(dir);
    reader.Read(LoadPlan::AllEager());
    EXPECT_NO_THROW(reader.Verify());
  }
  std::vector<std::string> files{w->result.manifest.files.control.path};
  for (const auto& p : w->result.manifest.files.time_series) files.push_back(p.path);
  for (const auto& p : w->result.manifest.files.payloads) files.push_back(p.path);
  for (const std::string& file : files) {
    testing::FlipByte(dir / file, 100);
    Reader reader = testing::OpenForRead(dir);  // same size: open succeeds
    try {
      reader.Verify();
      ADD_FAILURE() << "corruption of " << file << " not found";
    } catch (const FileError& e) {
      ASSERT_TRUE(e.path().has_value());
      EXPECT_EQ(*e.path(), reader.path() / file);  // the directory, or the URL it is served at
    }
    testing::FlipByte(dir / file, 100);  // restore
  }
  EXPECT_NO_THROW(Reader::Open(dir).Verify());
}

TEST(ReaderIntegrityTest, CorruptManifestFailsOpen) {
  auto w = testing::WriteFixture();
  const fs::path manifest = w->result.release_dir / "manifest.json";
  testing::FlipByte(manifest, 1);  // '{' -> 'z'... any flip in the first bytes breaks the JSON
  EXPECT_THROW(Reader::Open(w->result.release_dir), ManifestError);
}

TEST(ReaderIntegrityTest, MissingOrResizedFileFailsOpenNamingIt) {
  auto w = testing::WriteFixture();
  const fs::path dir = w->result.release_dir;
  const fs::path shard = dir / w->result.manifest.files.time_series.front().path;
  fs::rename(shard, dir / "moved");
  try {
    Reader::Open(dir);
    FAIL();
  } catch (const MissingFileError& e) {
    EXPECT_EQ(*e.path(), shard);
    EXPECT_EQ(e.code(), std::make_error_code(std::errc::no_such_file_or_directory));
  }
  fs::rename(dir / "moved", shard);
  std::ofstream(shard, std::ios::app) << "x";
  EXPECT_THROW(Reader::Open(dir), FileError);
}

TEST(ReaderIntegrityTest, MissingManifestIsAMissingFileError) {
  TempDir dir;
  try {
    Reader::Open(dir.path() / "nowhere");
    FAIL();
  } catch (const MissingFileError& e) {
    EXPECT_EQ(*e.path(), dir.path() / "nowhere" / "manifest.json");
    EXPECT_EQ(e.problem(), "no such file");
  }
}

// A directory above releases is named for what it is, with what it holds (as the CLI says).
TEST(ReaderIntegrityTest, OpenOnADatasetOrRegistryDirectoryNamesTheReleasesInside) {
  auto w = testing::WriteFixture();
  const fs::path release = w->result.release_dir;
  const fs::path dataset = release.parent_path();
  const std::string example = " (pass a version directory, e.g. " + release.string() + ")";
  try {
    Reader::Open(dataset);
    FAIL();
  } catch (const MissingFileError& e) {
    EXPECT_EQ(e.problem(),
              "not a release directory (no manifest.json) but a dataset directory; its versions: " +
                  release.filename().string() + example);
  }
  try {
    Reader::Open(w->root.path());
    FAIL();
  } catch (const MissingFileError& e) {
    const std::string listed = fs::relative(dataset, w->root.path()).generic_string() + " (" +
                               release.filename().string() + ")";
    EXPECT_EQ(e.problem(),
              "not a release directory (no manifest.json) but a registry root; its "
              "datasets: " +
                  listed + example);
  }
}

TEST(ReaderIntegrityTest, ManifestPathWithDotDotIsRefused) {
  auto w = testing::WriteFixture();
  const fs::path file = w->result.release_dir / "manifest.json";
  std::string text = manifest::ReadManifestBytes(file);
  const std::string from = "\"time_series/part-00000000.parquet\"";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "\"time_series/../../part-00000000.parquet\"");
  std::ofstream(file, std::ios::trunc) << text;
  EXPECT_THROW(Reader::Open(w->result.release_dir), ValidationError);
}

}  // namespace
}  // namespace timef
