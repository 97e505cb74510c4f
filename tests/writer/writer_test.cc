// WriteRelease: publish protocol (FORMAT.md §3.2), layout (§3.1, §7.2) and failure cleanup.
#include "timef/writer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <stdexcept>

#include "core/checksum.h"
#include "parquet/file_reader.h"
#include "release_fixture.h"
#include "timef/error.h"
#include "timef/reader.h"

namespace timef {
namespace {
namespace fs = std::filesystem;
using testing::FixtureCard;
using testing::ListFiles;
using testing::MakeFixture;
using testing::TempDir;

WriteOptions Fast() {
  WriteOptions options;
  options.compression_level = 3;
  return options;
}

std::vector<std::string> ManifestPaths(const manifest::Manifest& m) {
  std::vector<std::string> out{std::string(manifest::kManifestFileName), m.files.control.path};
  for (const auto& p : m.files.time_series) out.push_back(p.path);
  for (const auto& p : m.files.payloads) out.push_back(p.path);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(WriterTest, ReleaseHoldsExactlyTheListedFilesAndNoStaging) {
  TempDir root;
  auto f = MakeFixture();
  const WriteResult result = WriteRelease(*f.dataset, FixtureCard(), root.path(), Fast());
  EXPECT_EQ(result.release_dir, root.path() / "test/fixture/1.0.0");
  EXPECT_EQ(ListFiles(result.release_dir), ManifestPaths(result.manifest));
  // Long prompt, rationale, annotation text and list were packed; the irregular axis too.
  ASSERT_EQ(result.manifest.files.payloads.size(), 2u);
  EXPECT_EQ(result.manifest.files.payloads[0].path, "payloads/offsets-00000000.parquet");
  EXPECT_EQ(result.manifest.files.payloads[1].path, "payloads/text-00000000.parquet");
  for (const auto& entry : fs::directory_iterator(root.path() / "test/fixture")) {
    EXPECT_EQ(entry.path().filename(), "1.0.0") << "left behind: " << entry.path();
  }
  EXPECT_EQ(manifest::ReadManifest(result.release_dir / "manifest.json"), result.manifest);
  ASSERT_TRUE(result.manifest.build_env.producer.has_value());
  EXPECT_EQ(result.manifest.build_env.producer->name, "timef");
  EXPECT_EQ(result.manifest.counts.records, 3);
  EXPECT_EQ(result.manifest.counts.signals, 8);
  EXPECT_EQ(result.manifest.value_encoding.size(), 6u);  // one per spec_type with own shards
}

TEST(WriterTest, RefusesACommittedVersionAndLeavesItUnchanged) {
  TempDir root;
  auto f = MakeFixture();
  const WriteResult first = WriteRelease(*f.dataset, FixtureCard(), root.path(), Fast());
  const std::string before = FileChecksum(first.release_dir / "manifest.json");
  auto again = MakeFixture();
  try {
    WriteRelease(*again.dataset, FixtureCard(), root.path(), Fast());
    FAIL() << "expected ValidationError";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("already holds a committed version"), std::string::npos);
  }
  EXPECT_EQ(FileChecksum(first.release_dir / "manifest.json"), before);
  EXPECT_EQ(ListFiles(root.path() / "test/fixture").size(), ListFiles(first.release_dir).size());
}

TEST(WriterTest, LoaderThatThrowsHalfwayPublishesNothing) {
  TempDir root;
  auto f = MakeFixture(3);
  int calls = 0;
  // The last signal in (spec_type, name, id) order throws, after shards of others were written.
  auto spec = model::Spec::Make({.spec_type = "zz_last", .name = "Last"});
  auto bad =
      std::make_shared<model::Signal>("bad", spec, model::TimeAxis::Regular(1000), int64_t{100});
  bad->SetLoader([&calls]() -> model::ValueArray {
    ++calls;
    throw std::runtime_error("sensor file vanished");
  });
  f.notes->sources()[0]->AddSignal(bad);
  WriteOptions options = Fast();
  options.shard_target_bytes = 1;  // every row group closes a shard: files exist when it throws
  EXPECT_THROW(
      {
        try {
          WriteRelease(*f.dataset, FixtureCard(), root.path(), options);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "sensor file vanished");
          throw;
        }
      },
      std::runtime_error);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(fs::is_empty(root.path() / "test/fixture"));
}

TEST(WriterTest, BadOptionsFailBeforeTheDiskIsTouched) {
  TempDir root;
  auto f = MakeFixture();
  WriteOptions options = Fast();
  options.compression = "gzip";
  EXPECT_THROW(WriteRelease(*f.dataset, FixtureCard(), root.path(), options), ValidationError);
  options = Fast();
  options.chunk_max_bytes = 0;
  EXPECT_THROW(WriteRelease(*f.dataset, FixtureCard(), root.path(), options), ValidationError);
  manifest::Card card = FixtureCard();
  card.dataset_version = "2.0.0";  // disagrees with the dataset
  EXPECT_THROW(WriteRelease(*f.dataset, card, root.path(), Fast()), ValidationError);
  EXPECT_TRUE(fs::is_empty(root.path()));
}

TEST(WriterTest, ValueShapedSpecIsRefusedOnParquet) {
  TempDir root;
  auto f = MakeFixture();
  auto spec = model::Spec::Make(
      {.spec_type = "acc", .name = "Acc", .value_shape = {3}, .dimension_names = {"axis"}});
  f.notes->sources()[0]->AddSignal(
      std::make_shared<model::Signal>("acc", spec, model::TimeAxis::Regular(1000),
                                      model::ValueArray::Of<float>({1, 2, 3, 4, 5, 6})));
  EXPECT_THROW(WriteRelease(*f.dataset, FixtureCard(), root.path(), Fast()), ValidationError);
  EXPECT_TRUE(fs::is_empty(root.path()));
}

TEST(WriterTest, LeftoverReleaseDirectoryWithoutManifestIsReplaced) {
  TempDir root;
  fs::create_directories(root.path() / "test/fixture/1.0.0/time_series");
  std::ofstream(root.path() / "test/fixture/1.0.0/time_series/junk.parquet") << "crash";
  auto f = MakeFixture();
  const WriteResult result = WriteRelease(*f.dataset, FixtureCard(), root.path(), Fast());
  EXPECT_EQ(ListFiles(result.release_dir), ManifestPaths(result.manifest));
}

TEST(WriterTest, TinyChunksSplitSeriesAndEachShardHoldsOneSpecType) {
  TempDir root;
  auto f = MakeFixture(2);
  WriteOptions options = Fast();
  options.chunk_max_bytes = 4096;              // 1,024 float32 steps per chunk
  options.row_group_target_bytes = 16 * 1024;  // 4 chunks per row group
  options.shard_target_bytes = 64 * 1024;
  const WriteResult result = WriteRelease(*f.dataset, FixtureCard(), root.path(), options);
  // 4 leads × ⌈20,000 / 1,024⌉ = 20 chunks each, plus one chunk per other signal.
  EXPECT_EQ(result.manifest.counts.signal_chunks, 4 * 20 + 7);
  EXPECT_GT(result.manifest.files.time_series.size(), 6u);
  for (const auto& part : result.manifest.files.time_series) {
    auto file = parquet::FileReader::OpenFile(result.release_dir / part.path);
    std::set<std::string> kv;
    for (const auto& entry :
         file.metadata().key_value_metadata.value_or(std::vector<parquet::KeyValue>{})) {
      if (entry.key == "timef.spec_type") kv.insert(entry.value.value_or(""));
    }
    EXPECT_EQ(kv.size(), 1u) << part.path;
  }
  Reader reader = Reader::Open(result.release_dir);
  auto lead = reader.GetSignal(*f.lead->id());
  EXPECT_EQ(*lead->LoadValues(), *f.lead->LoadValues());
}

TEST(WriterTest, ReportsEveryStageAndEachShard) {
  TempDir root;
  auto f = MakeFixture();
  std::vector<WriteStage> stages;
  std::vector<std::string> shards;
  WriteOptions options = Fast();
  options.progress = [&](const WriteProgress& p) {
    if (stages.empty() || stages.back() != p.stage) stages.push_back(p.stage);
    if (!p.shard.empty()) shards.push_back(p.shard);
  };
  const WriteResult result = WriteRelease(*f.dataset, FixtureCard(), root.path(), options);
  EXPECT_EQ(stages, (std::vector<WriteStage>{WriteStage::kValues, WriteStage::kCatalog,
                                             WriteStage::kAudit, WriteStage::kChecksums,
                                             WriteStage::kPublish, WriteStage::kDone}));
  EXPECT_EQ(shards.size(), result.manifest.files.time_series.size());
}

}  // namespace
}  // namespace timef
