// The decoded-dictionary cache: LRU eviction under its byte budget, reads that stay bit-exact when
// their dictionary comes from the cache or was evicted, and a reader's entries leaving with it.
#include "parquet/dictionary_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/writer_test_util.h"

namespace timef::parquet {
namespace {

std::shared_ptr<const Dictionary> FloatDictionary(std::size_t entries) {
  std::vector<float> values(entries);
  for (std::size_t i = 0; i < entries; ++i) values[i] = static_cast<float>(i) * 0.5f;
  auto dictionary = std::make_shared<Dictionary>();
  dictionary->Load(Type::kFloat, 0, std::as_bytes(std::span<const float>(values)), entries);
  return dictionary;
}

TEST(DictionaryCacheTest, EvictsLeastRecentlyUsedUnderBudget) {
  const auto a = FloatDictionary(1000);
  const auto b = FloatDictionary(1000);
  const auto c = FloatDictionary(1000);
  // Room for two of them, not three.
  DictionaryCache cache(2 * a->bytes() + a->bytes() / 2);
  cache.Put({1, 0, 0}, a);
  cache.Put({1, 1, 0}, b);
  EXPECT_EQ(cache.Find({1, 0, 0}), a);  // a is now the most recently used
  cache.Put({1, 2, 0}, c);              // evicts b
  EXPECT_EQ(cache.Find({1, 1, 0}), nullptr);
  EXPECT_EQ(cache.Find({1, 0, 0}), a);
  EXPECT_EQ(cache.Find({1, 2, 0}), c);
  const DictionaryCacheStats stats = cache.stats();
  EXPECT_EQ(stats.entries, 2u);
  EXPECT_EQ(stats.evictions, 1u);
  EXPECT_LE(stats.bytes, cache.budget_bytes());
  EXPECT_EQ(stats.hits, 3u);
  EXPECT_EQ(stats.misses, 1u);
  // b stays valid for whoever still holds it.
  EXPECT_EQ(b->size(), 1000u);
}

TEST(DictionaryCacheTest, KeepsNothingLargerThanItsBudget) {
  const auto big = FloatDictionary(10000);
  DictionaryCache cache(big->bytes() - 1);
  cache.Put({1, 0, 0}, big);
  EXPECT_EQ(cache.Find({1, 0, 0}), nullptr);
  EXPECT_EQ(cache.stats().bytes, 0u);
  DictionaryCache none(0);
  none.Put({1, 0, 0}, FloatDictionary(1));
  EXPECT_EQ(none.stats().entries, 0u);
}

TEST(DictionaryCacheTest, EraseFileDropsOnlyThatFile) {
  DictionaryCache cache(1 << 20);
  cache.Put({1, 0, 0}, FloatDictionary(10));
  cache.Put({2, 0, 0}, FloatDictionary(10));
  cache.Put({1, 3, 1}, FloatDictionary(10));
  cache.EraseFile(1);
  EXPECT_EQ(cache.stats().entries, 1u);
  EXPECT_NE(cache.Find({2, 0, 0}), nullptr);
  EXPECT_EQ(cache.Find({1, 3, 1}), nullptr);
}

// A values-shard-like file: required lists of required floats, dictionary encoded, zstd, several
// pages per row group, `groups` row groups of distinct dictionaries.
std::vector<std::byte> ShardLikeFile(int groups,
                                     std::vector<std::vector<writer_testing::Rows>>& all) {
  using writer_testing::Cell;
  const ColumnDescriptor column =
      writer_testing::Column("values", Type::kFloat, false, /*is_list=*/true, false);
  WriterOptions options;
  options.compression = CompressionCodec::kZstd;
  options.compression_level = 3;
  options.data_page_target_bytes = 512;
  options.columns.push_back(ColumnWriteOptions{Encoding::kRleDictionary});
  std::mt19937_64 rng(7);
  for (int g = 0; g < groups; ++g) {
    writer_testing::Rows rows(40);
    for (Cell& cell : rows) {
      const std::size_t n = 1 + rng() % 60;
      for (std::size_t i = 0; i < n; ++i) {
        cell.items.push_back(writer_testing::Raw(static_cast<float>(g * 1000 + rng() % 200)));
      }
    }
    all.push_back({rows});
  }
  return writer_testing::WriteFile({column}, all, options);
}

bool SameData(const ColumnData& a, const ColumnData& b) {
  return a.num_rows == b.num_rows && a.values == b.values && a.list_offsets == b.list_offsets &&
         a.validity == b.validity && a.list_validity == b.list_validity;
}

TEST(DictionaryCacheTest, RowReadsStayExactThroughHitsAndEvictions) {
  std::vector<std::vector<writer_testing::Rows>> groups;
  const auto bytes = ShardLikeFile(6, groups);
  auto file = std::make_shared<MemoryFile>(std::vector<std::byte>(bytes));
  FileReader plain = FileReader::Open(file);
  // Measure one dictionary, then give the cache room for two of the six.
  auto sizing = std::make_shared<DictionaryCache>(std::size_t{1} << 30);
  std::size_t one = 0;
  {
    FileReader sized = FileReader::Open(file, {}, ReaderOptions{.dictionary_cache = sizing});
    ColumnData data;
    sized.ReadRows(0, 0, 0, 1, data);
    ASSERT_EQ(sizing->stats().entries, 1u);
    one = sizing->stats().bytes;
  }
  EXPECT_EQ(sizing->stats().entries, 0u) << "a reader's entries leave with it";

  auto cache = std::make_shared<DictionaryCache>(2 * one + one / 2);
  FileReader cached = FileReader::Open(file, {}, ReaderOptions{.dictionary_cache = cache});
  std::mt19937_64 rng(11);
  ColumnData want, got;
  for (int i = 0; i < 300; ++i) {
    const int g = static_cast<int>(rng() % groups.size());
    const std::int64_t row = static_cast<std::int64_t>(rng() % 40);
    plain.ReadRows(g, 0, row, row + 1, want);
    cached.ReadRows(g, 0, row, row + 1, got);
    ASSERT_TRUE(SameData(want, got)) << "row group " << g << ", row " << row;
    ASSERT_LE(cache->stats().bytes, cache->budget_bytes());
  }
  const DictionaryCacheStats stats = cache->stats();
  EXPECT_GT(stats.hits, 0u);
  EXPECT_GT(stats.evictions, 0u);
  EXPECT_EQ(stats.entries, 2u);
  // Every dictionary decode was a miss of the cache (or a first read).
  EXPECT_EQ(cached.stats().dictionary_pages_decoded, stats.misses);
}

TEST(DictionaryCacheTest, ReadersSharingACacheDecodeEachDictionaryOnce) {
  std::vector<std::vector<writer_testing::Rows>> groups;
  const auto bytes = ShardLikeFile(4, groups);
  auto file = std::make_shared<MemoryFile>(std::vector<std::byte>(bytes));
  auto cache = std::make_shared<DictionaryCache>(std::size_t{1} << 30);
  FileReader reader = FileReader::Open(file, {}, ReaderOptions{.dictionary_cache = cache});
  ColumnData data;
  for (int pass = 0; pass < 3; ++pass) {
    for (int g = 0; g < 4; ++g) {
      for (std::int64_t row : {0, 39, 17}) reader.ReadRows(g, 0, row, row + 1, data);
    }
  }
  EXPECT_EQ(reader.stats().dictionary_pages_decoded, 4u);
  // A scan of a whole chunk uses the cached dictionary too.
  reader.ReadColumnChunk(2, 0, data);
  EXPECT_EQ(reader.stats().dictionary_pages_decoded, 4u);
  ColumnData want;
  FileReader::Open(file).ReadColumnChunk(2, 0, want);
  EXPECT_TRUE(SameData(want, data));
}

}  // namespace
}  // namespace timef::parquet
