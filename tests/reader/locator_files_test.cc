// Locators become files in one place (LocatorResolver::ResolveFile), and the caches that hold what
// was read from files keep the storing release in their keys: two releases whose files share a
// relative path never answer for each other.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/locators.h"
#include "reader/locator_resolver.h"
#include "reader/signal_index.h"
#include "reader/text_cache.h"
#include "timef/error.h"

namespace timef {
namespace {
namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr std::string_view kShard = "time_series/part-00000000.parquet";
constexpr std::string_view kText = "payloads/text-00000000.parquet";
constexpr std::string_view kBase = "acme/base@1.0.0";

catalog::SignalLocatorRow Row(std::int64_t signal_id, std::optional<std::string> source) {
  catalog::SignalLocatorRow row;
  row.signal_id = signal_id;
  row.record_id = 1;
  row.n_values = 10;
  row.spec = model::Spec::Make({.spec_type = "ecg_lead", .name = "ECG lead"});
  row.chunks = {ChunkLocator{.payload_source = std::move(source),
                             .value_path = std::string(kShard),
                             .major = 0,
                             .minor = 0,
                             .n_values = 10}};
  return row;
}

TEST(LocatorCacheTest, SignalIndexKeepsOneFilePerStoringRelease) {
  const fs::path own = "/releases/acme/child/1.0.0";
  const fs::path base = "/releases/acme/base/1.0.0";
  int resolved = 0;
  const SignalIndex::Resolve resolve = [&](const ChunkLocator& l) {
    ++resolved;
    return (l.payload_source ? base : own) / l.value_path;
  };
  SignalIndex index;
  index.Add(Row(1, std::nullopt), resolve);
  index.Add(Row(2, std::string(kBase)), resolve);
  index.Add(Row(3, std::nullopt), resolve);
  EXPECT_EQ(resolved, 2);  // one per (release, path), not per chunk
  EXPECT_EQ(index.ChunkRefs(*index.Find(1)).at(0).file, own / kShard);
  EXPECT_EQ(index.ChunkRefs(*index.Find(2)).at(0).file, base / kShard);
  EXPECT_EQ(index.ChunkRefs(*index.Find(3)).at(0).file, own / kShard);
}

TEST(LocatorCacheTest, TextCacheKeysByTheResolvedFileRowAndKind) {
  const fs::path own = fs::path("/releases/acme/child/1.0.0") / kText;
  const fs::path base = fs::path("/releases/acme/base/1.0.0") / kText;
  TextCache cache(1 << 20);
  cache.Put(own, 3, false, {"child text"});
  EXPECT_EQ(cache.Find(base, 3, false), nullptr);
  EXPECT_EQ(cache.Find(own, 3, true), nullptr);
  EXPECT_EQ(cache.Find(own, 4, false), nullptr);
  cache.Put(base, 3, false, {"base text"});
  ASSERT_NE(cache.Find(own, 3, false), nullptr);
  EXPECT_EQ(cache.Find(own, 3, false)->front(), "child text");
  EXPECT_EQ(cache.Find(base, 3, false)->front(), "base text");
}

TEST(LocatorCacheTest, TextCacheDropsTheOldestBeyondItsBudgetButKeepsTheNewest) {
  TextCache cache(100);
  cache.Put("a", 0, false, {std::string(50, 'a')});  // 82 bytes with overhead
  cache.Put("b", 0, false, {std::string(50, 'b')});
  EXPECT_EQ(cache.Find("a", 0, false), nullptr);
  ASSERT_NE(cache.Find("b", 0, false), nullptr);
  cache.Put("c", 0, true, {std::string(500, 'c')});  // larger than the budget, kept alone
  EXPECT_EQ(cache.Find("b", 0, false), nullptr);
  EXPECT_NE(cache.Find("c", 0, true), nullptr);
  cache.Put("c", 0, true, {"small"});  // replacing an entry does not count it twice
  EXPECT_EQ(cache.bytes(), 5 + 32);
}

class ResolveFileTest : public ::testing::Test {
 protected:
  ResolveFileTest() : state_("/releases/acme/child/1.0.0", Manifest(), {}, std::nullopt) {}
  static manifest::Manifest Manifest() {
    manifest::Manifest m;
    m.files.time_series = {{std::string(kShard), "", 0}, {"time_series.zarr/ok/zarr.json", "", 0}};
    m.files.payloads = {{std::string(kText), "", 0}};
    return m;
  }
  void ExpectError(const auto& locator, const std::string& detail) {
    try {
      state_.ResolveFile(locator, "table.column");
      ADD_FAILURE() << "expected FormatError with " << detail;
    } catch (const FormatError& e) {
      EXPECT_THAT(e.what(), HasSubstr("table.column"));
      EXPECT_THAT(e.what(), HasSubstr(detail));
    }
  }
  LocatorResolver state_;
};

TEST_F(ResolveFileTest, OwnListedFilesResolveUnderTheRelease) {
  const fs::path dir = "/releases/acme/child/1.0.0";
  EXPECT_EQ(state_.ResolveFile(ChunkLocator{.value_path = std::string(kShard), .minor = 0}, "x"),
            dir / kShard);
  EXPECT_EQ(state_.ResolveFile(TextLocator{.file = std::string(kText)}, "x"), dir / kText);
  // A Zarr locator names an array: it resolves to the array directory once its zarr.json is
  // listed (docs/format.md §8.6).
  EXPECT_EQ(state_.ResolveFile(ChunkLocator{.value_path = "time_series.zarr/ok"}, "x"),
            dir / "time_series.zarr/ok");
}

// ResolveChunkFile remembers what resolved: the same answers as ResolveFile, `what` built only
// for a failure, and a remembered path never answers for a locator that differs in having a row
// index (a Parquet locator needs one, a Zarr locator must not have one).
TEST_F(ResolveFileTest, RememberedChunkFilesGiveTheSameAnswersAndErrors) {
  int named = 0;
  auto what = [&] {
    ++named;
    return std::string("signal_chunks.value_path (signal 7)");
  };
  const ChunkLocator shard{.value_path = std::string(kShard), .minor = 0};
  const ChunkLocator zarr{.value_path = "time_series.zarr/ok"};
  for (int pass = 0; pass < 2; ++pass) {
    EXPECT_EQ(state_.ResolveChunkFile(shard, what), state_.ResolveFile(shard, "x"));
    EXPECT_EQ(state_.ResolveChunkFile(zarr, what), state_.ResolveFile(zarr, "x"));
  }
  EXPECT_EQ(named, 2);  // each built once, for the first (unremembered) resolution
  ChunkLocator shard_without_row = shard;
  shard_without_row.minor.reset();
  ChunkLocator zarr_with_row = zarr;
  zarr_with_row.minor = 0;
  for (const auto& [locator, detail] :
       {std::pair{shard_without_row, "no row index"}, std::pair{zarr_with_row, "Zarr locator"}}) {
    try {
      state_.ResolveChunkFile(locator, what);
      ADD_FAILURE() << "expected FormatError with " << detail;
    } catch (const FormatError& e) {
      EXPECT_THAT(e.what(), HasSubstr("signal_chunks.value_path (signal 7)"));
      EXPECT_THAT(e.what(), HasSubstr(detail));
    }
  }
}

TEST_F(ResolveFileTest, EveryLocatorThatCannotBeReadIsOneFormatError) {
  ExpectError(
      ChunkLocator{
          .payload_source = std::string(kBase), .value_path = std::string(kShard), .minor = 0},
      "payload_source 'acme/base@1.0.0'");
  ExpectError(ChunkLocator{.value_path = "time_series.zarr/ecg"},
              "'time_series.zarr/ecg/zarr.json', which the manifest does not list");
  ExpectError(ChunkLocator{.value_path = "time_series.zarr/ok", .minor = 0}, "Zarr locator");
  ExpectError(ChunkLocator{.value_path = std::string(kShard)}, "no row index");
  ExpectError(ChunkLocator{.value_path = "time_series/part-00000009.parquet", .minor = 0},
              "does not list");
  ExpectError(OffsetsLocator{.path = std::string(kShard)}, "files.payloads");
  ExpectError(TextLocator{.payload_source = std::string(kBase), .file = std::string(kText)},
              "payload_source");
}

}  // namespace
}  // namespace timef
