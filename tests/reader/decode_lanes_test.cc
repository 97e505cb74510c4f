// Decoding on several threads (ReaderOptions::decode_threads, docs/architecture.md "Decode lanes"):
// batch reads cut their signals into runs decoded at once, lazy handles of one reader decode on up
// to that many threads, and the values are the same for any thread count. That the work really
// went to several lanes is checked by counters (each lane opens the shard for itself), not by time.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <thread>

#include "release_fixture.h"
#include "support/serve_release.h"
#include "timef/error.h"
#include "timef/reader.h"

namespace timef {
namespace {

// Six ECG records with small pages (many pages and row groups per shard).
std::unique_ptr<testing::WrittenFixture> WriteEcgRecords() {
  WriteOptions options;
  options.data_page_target_bytes = 8 * 1024;
  options.row_group_target_bytes = 64 * 1024;
  return testing::CopyOfWrittenFixture("small pages", options, 6);
}

// The written values of every signal that has values, by signal ID (ID order is storage order).
std::map<int64_t, std::shared_ptr<const model::ValueArray>> Written(
    const testing::WrittenFixture& w) {
  std::map<int64_t, std::shared_ptr<const model::ValueArray>> out;
  for (const auto& record : w.fixture.dataset->records()) {
    for (const auto& signal : record->Signals()) {
      if (signal->has_values()) out[*signal->id()] = signal->LoadValues();
    }
  }
  return out;
}

std::vector<int64_t> Ids(const std::map<int64_t, std::shared_ptr<const model::ValueArray>>& m) {
  std::vector<int64_t> ids;
  for (const auto& [id, values] : m) ids.push_back(id);
  return ids;
}

// The largest shard (it holds the float32 leads).
std::filesystem::path LargestShard(const testing::WrittenFixture& w) {
  std::filesystem::path shard;
  for (const auto& part : w.result.manifest.files.time_series) {
    const auto path = w.result.release_dir / part.path;
    if (shard.empty() || std::filesystem::file_size(path) > std::filesystem::file_size(shard)) {
      shard = path;
    }
  }
  return shard;
}

TEST(DecodeLanesTest, ThreadCountsOutsideOneTo256AreRefusedAtOpen) {
  auto w = WriteEcgRecords();
  for (int threads : {0, -1, 257}) {
    try {
      Reader::Open(w->result.release_dir, ReaderOptions{.decode_threads = threads});
      FAIL() << threads;
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find("decode_threads"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(Reader::Open(w->result.release_dir, ReaderOptions{.decode_threads = 256}));
}

TEST(DecodeLanesTest, ABatchLoadIsTheSameForAnyThreadCountAndSplitsAcrossLanes) {
  auto w = WriteEcgRecords();
  const auto written = Written(*w);
  const std::vector<int64_t> ids = Ids(written);
  const auto shards = w->result.manifest.files.time_series.size();
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    Reader reader =
        testing::OpenForRead(w->result.release_dir, ReaderOptions{.decode_threads = threads});
    const std::vector<SignalValuesRef> refs = reader.GetSignalValues(ids);
    const auto loaded = reader.LoadValues(refs);
    ASSERT_EQ(loaded.size(), ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
      ASSERT_EQ(*loaded[i], *written.at(ids[i])) << "signal " << ids[i];
    }
    const ReaderCounters c = reader.counters();
    // Each lane opens the shards of its run for itself: one lane opens each shard once, several
    // open the shards that their runs share (the float32 shard holds most of every run) again.
    if (threads == 1) {
      EXPECT_EQ(c.values_files_opened, shards);
    } else {
      EXPECT_GT(c.values_files_opened, shards);
      EXPECT_LE(c.values_files_opened, shards * static_cast<std::uint64_t>(threads));
    }
    // Each chunk is read once; a run's chunks go on with the pages it parked.
    std::uint64_t chunks = 0;
    for (const SignalValuesRef& ref : refs) chunks += ref.n_values() > 0 ? 1 : 0;
    EXPECT_GE(c.chunks_read, chunks);
    EXPECT_EQ(c.data_pages_decoded + c.data_pages_resumed, c.chunks_read);
    // Empty and single batches.
    EXPECT_TRUE(reader.LoadValues(std::span<const SignalValuesRef>{}).empty());
    EXPECT_EQ(*reader.LoadValues(std::span(refs).first(1)).front(), *written.at(ids[0]));
  }
}

TEST(DecodeLanesTest, EagerRecordReadsDecodeTheirBatchOnTheLanes) {
  auto w = WriteEcgRecords();
  const auto written = Written(*w);
  Reader reader = testing::OpenForRead(w->result.release_dir, ReaderOptions{.decode_threads = 2});
  RecordQuery query;
  query.load.signal_values = Loading::kEager;
  std::size_t seen = 0;
  RecordStream stream = reader.IterRecords(query);
  while (auto batch = stream.Next()) {
    for (const auto& record : *batch) {
      for (const auto& signal : record->Signals()) {
        if (!signal->has_values()) continue;
        ASSERT_TRUE(signal->values()->is_loaded()) << signal->Describe();
        ASSERT_EQ(*signal->LoadValues(), *written.at(*signal->id())) << signal->Describe();
        ++seen;
      }
    }
  }
  EXPECT_EQ(seen, written.size());
  EXPECT_GT(reader.counters().values_files_opened, w->result.manifest.files.time_series.size());

  // GetRecords and GetSignals load through the same batch.
  const auto records = reader.GetRecords({*w->fixture.ecg->id()}, LoadPlan::AllEager());
  for (const auto& signal : records.front()->Signals()) {
    if (signal->has_values()) {
      EXPECT_EQ(*signal->LoadValues(), *written.at(*signal->id()));
    }
  }
  const auto signals =
      reader.GetSignals({*w->fixture.lead->id(), *w->fixture.lead2->id()}, LoadPlan::AllEager());
  for (const auto& signal : signals) {
    ASSERT_TRUE(signal->values()->is_loaded());
    EXPECT_EQ(*signal->LoadValues(), *written.at(*signal->id()));
  }
}

// A run that fails stops at its failing signal while the others finish; the batch then throws
// what a one-by-one pass would have thrown first, and the reader stays usable.
TEST(DecodeLanesTest, AFailingRunReportsTheFirstFailureInRefOrder) {
  auto w = WriteEcgRecords();
  const auto written = Written(*w);
  const std::vector<int64_t> ids = Ids(written);
  const std::filesystem::path shard = LargestShard(*w);
  // A byte in the middle of the shard: inside a data page of some signal in the second half.
  testing::FlipByte(shard, static_cast<int64_t>(std::filesystem::file_size(shard) * 3 / 5));

  std::string first_failure;
  std::size_t failing = 0;
  {
    Reader one = testing::OpenForRead(w->result.release_dir);
    for (int64_t id : ids) {
      try {
        one.GetSignalValues(id).LoadValues();
      } catch (const FormatError& e) {
        if (failing++ == 0) first_failure = e.what();
      }
    }
  }
  ASSERT_GE(failing, 1u) << "the flipped byte hit no page";
  ASSERT_LT(failing, ids.size());

  Reader reader = testing::OpenForRead(w->result.release_dir, ReaderOptions{.decode_threads = 3});
  const std::vector<SignalValuesRef> refs = reader.GetSignalValues(ids);
  try {
    reader.LoadValues(refs);
    FAIL() << "the batch read a damaged page";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), first_failure);
  }
  // The first signal reads fine afterwards, on any lane.
  EXPECT_EQ(*reader.LoadValues(std::span(refs).first(1)).front(), *written.at(ids[0]));
}

// What each Next() of an eager IterRecords gave: the record IDs of a batch, or the error that
// ended the stream.
std::vector<std::string> EagerBatches(const std::filesystem::path& release, int threads) {
  Reader reader = testing::OpenForRead(release, ReaderOptions{.decode_threads = threads});
  RecordQuery query;
  query.batch_size = 1;
  query.load.signal_values = Loading::kEager;
  RecordStream stream = reader.IterRecords(query);
  std::vector<std::string> seen;
  try {
    while (auto batch = stream.Next()) {
      std::string ids;
      for (const auto& record : *batch) {
        ids += std::to_string(*record->id()) + " ";
        for (const auto& signal : record->Signals()) {
          if (signal->has_values() && !signal->values()->is_loaded()) return {"not loaded"};
        }
      }
      seen.push_back(ids);
    }
  } catch (const FormatError& e) {
    seen.push_back(std::string("error: ") + e.what());
  }
  return seen;
}

// Running one batch ahead changes when a batch is decoded, not what the caller sees: the same
// batches, then a damaged page's error from the Next() that would have returned its batch.
TEST(DecodeLanesTest, ARunningAheadStreamYieldsWhatAOneThreadStreamYields) {
  auto w = WriteEcgRecords();
  const std::vector<std::string> clean = EagerBatches(w->result.release_dir, 2);
  EXPECT_EQ(clean, EagerBatches(w->result.release_dir, 1));
  ASSERT_EQ(clean.size(), w->fixture.dataset->records().size());

  testing::FlipByte(LargestShard(*w),
                    static_cast<int64_t>(std::filesystem::file_size(LargestShard(*w)) * 3 / 5));
  const std::vector<std::string> damaged = EagerBatches(w->result.release_dir, 1);
  ASSERT_FALSE(damaged.empty());
  ASSERT_TRUE(damaged.back().starts_with("error: ")) << "the flipped byte hit no page";
  EXPECT_EQ(EagerBatches(w->result.release_dir, 2), damaged);
  EXPECT_EQ(EagerBatches(w->result.release_dir, 3), damaged);
}

TEST(DecodeLanesTest, HandlesOfOneReaderDecodeFromFourThreadsOnTwoLanes) {
  auto w = WriteEcgRecords();
  const auto written = Written(*w);
  const std::vector<int64_t> ids = Ids(written);
  Reader reader = testing::OpenForRead(w->result.release_dir, ReaderOptions{.decode_threads = 2});
  const std::vector<SignalValuesRef> refs = reader.GetSignalValues(ids);
  std::atomic<int> failures{0};
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        for (int round = 0; round < 4; ++round) {
          for (std::size_t i = 0; i < refs.size(); ++i) {
            const std::size_t at = (i + static_cast<std::size_t>(t) * 7) % refs.size();
            if (!(*refs[at].LoadValues() == *written.at(ids[at]))) ++failures;
          }
        }
      });
    }
    // Batches from this thread at the same time.
    for (int round = 0; round < 3; ++round) {
      const auto loaded = reader.LoadValues(refs);
      for (std::size_t i = 0; i < refs.size(); ++i) {
        if (!(*loaded[i] == *written.at(ids[i]))) ++failures;
      }
    }
  }
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(reader.counters().values_files_opened, 2 * w->result.manifest.files.time_series.size());
}

}  // namespace
}  // namespace timef

namespace timef {
namespace {

// The lanes' worker threads stay between batches; a child of fork() has none of them, so its first
// batch starts workers of its own (the parent's are abandoned there, not joined) and the parent's
// go on serving the parent. A hang in the child ends it through alarm().
TEST(DecodeLanesTest, AChildOfForkDecodesOnWorkersOfItsOwn) {
  auto w = WriteEcgRecords();
  const auto written = Written(*w);
  const std::vector<int64_t> ids = Ids(written);
  Reader reader = testing::OpenForRead(w->result.release_dir, ReaderOptions{.decode_threads = 2});
  const std::vector<SignalValuesRef> refs = reader.GetSignalValues(ids);
  auto matches = [&](const std::vector<std::shared_ptr<const model::ValueArray>>& loaded) {
    if (loaded.size() != ids.size()) return false;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (!(*loaded[i] == *written.at(ids[i]))) return false;
    }
    return true;
  };
  ASSERT_TRUE(matches(reader.LoadValues(refs)));  // the workers now run

  const pid_t child = fork();
  ASSERT_NE(child, -1);
  if (child == 0) {
    alarm(60);
    // Nothing may leave this block but _exit: an exception reaching GoogleTest would go on running
    // the other tests in the child, beside the parent's.
    bool ok = true;
    try {
      for (int pass = 0; pass < 3 && ok; ++pass) ok = matches(reader.LoadValues(refs));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "child: %s\n", e.what());
      ok = false;
    }
    _exit(ok ? 0 : 1);
  }
  EXPECT_TRUE(matches(reader.LoadValues(refs)));
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child was ended by signal "
                                 << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child read other values";
}

}  // namespace
}  // namespace timef
