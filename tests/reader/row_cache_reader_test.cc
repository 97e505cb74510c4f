// Lookups by ID through the reader's catalog row cache (ReaderOptions::catalog_cache_bytes) build
// exactly what the per-lookup SQL builds: same records, sources, signals, axes, annotations,
// imports and values, for the demo releases that have them all (hello-world, the composed
// hello-child with imported records and an overlay annotation, the Zarr demo).
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "scratch_dir.h"
#include "support/serve_release.h"
#include "timef/demo.h"
#include "timef/error.h"
#include "timef/model/dump.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {

namespace fs = std::filesystem;

class RowCacheReaderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = std::make_unique<testing::ScratchDir>();
    const fs::path root = scratch_->path();
    auto world = demo::BuildHelloWorld();
    releases_.push_back(
        WriteRelease(*world, demo::HelloWorldCard(), root, demo::HelloWorldWriteOptions())
            .release_dir);
    releases_.push_back(demo::WriteHelloChild(root).release_dir);
    auto zarr = demo::BuildHelloZarr();
    releases_.push_back(
        WriteRelease(*zarr, demo::HelloZarrCard(), root, demo::HelloZarrWriteOptions())
            .release_dir);
  }
  static void TearDownTestSuite() {
    scratch_.reset();
    releases_.clear();
  }

  static ReaderOptions Uncached() {
    ReaderOptions options;
    options.catalog_cache_bytes = 0;
    return options;
  }

  static inline std::unique_ptr<testing::ScratchDir> scratch_;
  static inline std::vector<fs::path> releases_;
};

TEST_F(RowCacheReaderTest, RecordsByIdAreTheSameWithAndWithoutTheCache) {
  for (const fs::path& release : releases_) {
    SCOPED_TRACE(release.string());
    Reader cached = testing::OpenForRead(release);
    Reader uncached = testing::OpenForRead(release, Uncached());
    const std::vector<int64_t> ids = cached.RecordIds();
    ASSERT_GE(ids.size(), 3u);
    const model::DumpOptions with_values{.values = true};
    // All at once, then one at a time (each later lookup is served from what the first loaded),
    // then in reverse order with a repeat.
    EXPECT_EQ(model::DumpRecords(cached.GetRecords(ids), with_values),
              model::DumpRecords(uncached.GetRecords(ids), with_values));
    EXPECT_GT(cached.counters().catalog_cache_loads, 0u);
    EXPECT_EQ(uncached.counters().catalog_cache_loads, 0u);
    for (int64_t id : ids) {
      const auto a = cached.GetRecords({id});
      const auto b = uncached.GetRecords({id});
      EXPECT_EQ(model::DumpRecords(a, with_values), model::DumpRecords(b, with_values)) << id;
      // Sibling order and attach order, which the dump sorts or keeps, as built.
      ASSERT_EQ(a[0]->Signals().size(), b[0]->Signals().size());
      for (size_t i = 0; i < a[0]->Signals().size(); ++i) {
        EXPECT_EQ(a[0]->Signals()[i]->id(), b[0]->Signals()[i]->id());
      }
      EXPECT_EQ(a[0]->annotations().size(), b[0]->annotations().size());
    }
    std::vector<int64_t> reversed(ids.rbegin(), ids.rend());
    reversed.push_back(ids.front());
    const auto a = cached.GetRecords(reversed);
    const auto b = uncached.GetRecords(reversed);
    ASSERT_EQ(a.size(), reversed.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(*a[i]->id(), reversed[i]);
    EXPECT_EQ(a[ids.size() - 1], a.back());  // one graph per call: a repeated ID is one object
    EXPECT_EQ(model::DumpRecords(a), model::DumpRecords(b));
  }
}

TEST_F(RowCacheReaderTest, IterRecordsBatchesAreTheSameWithAndWithoutTheCache) {
  for (const fs::path& release : releases_) {
    SCOPED_TRACE(release.string());
    Reader cached = testing::OpenForRead(release);
    Reader uncached = testing::OpenForRead(release, Uncached());
    RecordStream a = cached.IterRecords({.batch_size = 2});
    RecordStream b = uncached.IterRecords({.batch_size = 2});
    int batches = 0;
    while (auto batch = a.Next()) {
      auto other = b.Next();
      ASSERT_TRUE(other);
      ASSERT_EQ(batch->size(), other->size());
      for (size_t i = 0; i < batch->size(); ++i) {
        EXPECT_EQ((*batch)[i]->id(), (*other)[i]->id());  // read order
      }
      EXPECT_EQ(model::DumpRecords(*batch), model::DumpRecords(*other));
      ++batches;
    }
    EXPECT_FALSE(b.Next());
    EXPECT_GE(batches, 2);
    EXPECT_GT(cached.counters().catalog_cache_loads, 0u);
  }
}

TEST_F(RowCacheReaderTest, SignalsByIdAreTheSameWithAndWithoutTheCache) {
  for (const fs::path& release : releases_) {
    SCOPED_TRACE(release.string());
    Reader cached = testing::OpenForRead(release);
    Reader uncached = testing::OpenForRead(release, Uncached());
    for (const auto& record : cached.GetRecords(cached.RecordIds())) {
      for (const auto& signal : record->Signals()) {
        const auto a = cached.GetSignal(*signal->id(), LoadPlan::AllEager());
        const auto b = uncached.GetSignal(*signal->id(), LoadPlan::AllEager());
        EXPECT_EQ(a->Describe(), b->Describe());
        EXPECT_EQ(a->n_values(), b->n_values());
        ASSERT_EQ(a->has_values(), b->has_values());
        if (a->has_values()) {
          EXPECT_TRUE(*a->LoadValues() == *b->LoadValues()) << a->Describe();
        }
      }
    }
  }
}

TEST_F(RowCacheReaderTest, UnknownIdsAreNamedAndCloseEmptiesTheCache) {
  Reader reader = testing::OpenForRead(releases_.front());
  const std::vector<int64_t> ids = reader.RecordIds();
  reader.GetRecords(ids);
  const uint64_t loads = reader.counters().catalog_cache_loads;
  EXPECT_GT(loads, 0u);
  try {
    reader.GetRecords({ids.front(), 777777, 888888});
    FAIL() << "expected NotFoundError";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("777777, 888888"), std::string::npos) << e.what();
  }
  // Served from memory: nothing new is loaded.
  reader.GetRecords(ids);
  EXPECT_EQ(reader.counters().catalog_cache_loads, loads);
  // After Close() the next lookup loads again (and still builds the same records).
  const Json before = model::DumpRecords(reader.GetRecords(ids));
  reader.Close();
  EXPECT_EQ(model::DumpRecords(reader.GetRecords(ids)), before);
  EXPECT_EQ(reader.counters().catalog_cache_loads, 2 * loads);
}

TEST_F(RowCacheReaderTest, ATinyBudgetFallsBackToSqlWithTheSameResult) {
  ReaderOptions tiny;
  tiny.catalog_cache_bytes = 64;  // smaller than any of the record queries' results
  Reader small = testing::OpenForRead(releases_.front(), tiny);
  Reader uncached = testing::OpenForRead(releases_.front(), Uncached());
  const std::vector<int64_t> ids = small.RecordIds();
  EXPECT_EQ(model::DumpRecords(small.GetRecords(ids)),
            model::DumpRecords(uncached.GetRecords(ids)));
  // Only results of at most 64 bytes (none of the record queries) can have been kept.
  EXPECT_EQ(model::DumpRecords(small.GetRecords({ids.back()})),
            model::DumpRecords(uncached.GetRecords({ids.back()})));
}

}  // namespace
}  // namespace timef
