// Payload sources on read (FORMAT.md §10, §11): a release whose values, offsets and text live in
// another release. The child here is a rewrite of a read release under another dataset ID, which
// reuses every stored payload (seed "Writing a read dataset reuses its stored payloads").
#include <gtest/gtest.h>

#include <fstream>
#include <memory>

#include "support/raised.h"
#include "support/release_fixture.h"
#include "timef/error.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

using testing::FirstPinnedShard;
using testing::Raised;
constexpr const char* kParent = testing::kReuseParent;
constexpr const char* kChild = testing::kReuseChild;

class PayloadSourcesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = std::make_unique<TempDir>();
    testing::Fixture f = testing::MakeFixture();
    WriteOptions options;
    options.compression_level = 1;
    options.chunk_max_bytes = 16 * 1024;  // several chunks per lead
    WriteRelease(*f.dataset, testing::FixtureCard(), registry_->path(), options);
    WriteOptions child_options;  // the child's values are pins: no chunking of its own
    child_options.compression_level = 1;
    testing::WriteReuseChild(registry_->path(), child_options);
  }
  static void TearDownTestSuite() { registry_.reset(); }

  // A private copy of the registry for a test that damages it.
  void SetUp() override { fs::copy(registry_->path(), copy_.path(), fs::copy_options::recursive); }
  fs::path root() const { return copy_.path(); }
  manifest::Manifest ChildManifest() const {
    return manifest::ReadManifest(root() / kChild / "manifest.json");
  }
  static inline std::unique_ptr<TempDir> registry_;
  TempDir copy_;
};

TEST_F(PayloadSourcesTest, ChildStoresNoCopyAndPinsTheParentFiles) {
  const manifest::Manifest child = ChildManifest();
  const manifest::Manifest parent = manifest::ReadManifest(root() / kParent / "manifest.json");
  EXPECT_TRUE(child.files.time_series.empty());
  EXPECT_TRUE(child.files.payloads.empty());
  ASSERT_EQ(child.payload_sources.size(), 1u);
  const auto& pins = child.payload_sources.at("test/fixture@1.0.0");
  // Every parent values and payload file is used by some locator, so every one is pinned, equal.
  std::vector<manifest::FilePart> listed = parent.files.time_series;
  listed.insert(listed.end(), parent.files.payloads.begin(), parent.files.payloads.end());
  std::sort(listed.begin(), listed.end(), [](auto& a, auto& b) { return a.path < b.path; });
  EXPECT_EQ(pins, listed);
  EXPECT_NO_THROW(Reader::Open(root() / kChild).Verify());
}

TEST_F(PayloadSourcesTest, ReadsEverythingFromTheParentFilesBitExact) {
  Reader parent = Reader::Open(root() / kParent);
  Reader child = Reader::Open(root() / kChild);
  std::unique_ptr<model::Dataset> p = parent.Read(LoadPlan::AllEager());
  std::unique_ptr<model::Dataset> c = child.Read(LoadPlan::AllEager());
  ASSERT_EQ(p->records().size(), c->records().size());
  int64_t signals = 0;
  for (size_t i = 0; i < p->records().size(); ++i) {
    auto ps = p->records()[i]->Signals();
    auto cs = c->records()[i]->Signals();
    ASSERT_EQ(ps.size(), cs.size());
    for (size_t j = 0; j < ps.size(); ++j) {
      EXPECT_EQ(*ps[j]->LoadValues(), *cs[j]->LoadValues()) << ps[j]->Describe();
      if (ps[j]->axis()->type() == model::AxisType::kIrregular) {
        EXPECT_EQ(*ps[j]->axis()->LoadOffsets(), *cs[j]->axis()->LoadOffsets());
      }
      ++signals;
    }
  }
  EXPECT_GT(signals, 5);
  ASSERT_EQ(p->tasks().size(), c->tasks().size());
  for (size_t i = 0; i < p->tasks().size(); ++i) {
    EXPECT_EQ(p->tasks()[i]->prompt(), c->tasks()[i]->prompt());
    EXPECT_EQ(p->tasks()[i]->rationale(), c->tasks()[i]->rationale());
  }
  // The child opened values and payload files, all of them the parent's.
  const ReaderCounters counters = child.counters();
  EXPECT_GT(counters.values_files_opened, 0u);
  EXPECT_GT(counters.payload_files_opened, 0u);
}

TEST_F(PayloadSourcesTest, ParentMissing) {
  fs::remove_all(root() / kParent);
  const FileError e = Raised<FileError>([&] { Reader::Open(root() / kChild); });
  EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
  EXPECT_NE(std::string(e.what()).find("test/fixture@1.0.0"), std::string::npos) << e.what();
}

TEST_F(PayloadSourcesTest, PinnedFileMissing) {
  const fs::path shard = FirstPinnedShard(root());
  fs::remove(shard);
  const FileError e = Raised<FileError>([&] { Reader::Open(root() / kChild); });
  EXPECT_EQ(e.path(), shard);
  EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
}

TEST_F(PayloadSourcesTest, PinnedFileResized) {
  const fs::path shard = FirstPinnedShard(root());
  std::ofstream(shard, std::ios::app | std::ios::binary) << "extra";
  const FileError e = Raised<FileError>([&] { Reader::Open(root() / kChild); });
  EXPECT_EQ(e.path(), shard);
  EXPECT_EQ(e.where(), "size");
}

TEST_F(PayloadSourcesTest, ParentManifestChangedPinDiffers) {
  const fs::path file = root() / kParent / "manifest.json";
  manifest::Manifest parent = manifest::ReadManifest(file);
  parent.files.time_series.front().checksum = "sha256:" + std::string(64, 'e');
  std::ofstream(file, std::ios::trunc | std::ios::binary) << manifest::WriteManifest(parent);
  try {
    Reader::Open(root() / kChild);
    ADD_FAILURE() << "expected FormatError";
  } catch (const FileError& e) {
    ADD_FAILURE() << "a FileError, not a pin mismatch: " << e.what();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("pin differs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(parent.files.time_series.front().path), std::string::npos);
  }
}

TEST_F(PayloadSourcesTest, CorruptedParentShardCaughtByChildVerify) {
  const fs::path shard = FirstPinnedShard(root());
  testing::FlipByte(shard, 100);
  Reader child = Reader::Open(root() / kChild);  // sizes are unchanged: Open passes
  const FileError e = Raised<FileError>([&] { child.Verify(); });
  EXPECT_EQ(e.path(), shard);
  EXPECT_EQ(e.where(), "checksum");
}

TEST_F(PayloadSourcesTest, VerifyChecksOwnFilesFirst) {
  testing::FlipByte(FirstPinnedShard(root()), 100);
  testing::FlipByte(root() / kChild / "control.duckdb", -10);
  const FileError e = Raised<FileError>([&] { Reader::Open(root() / kChild).Verify(); });
  EXPECT_EQ(e.path(), root() / kChild / "control.duckdb");
}

TEST_F(PayloadSourcesTest, SourcesRootNeededAndAbsent) {
  TempDir elsewhere;
  const fs::path moved = elsewhere.path() / "child";
  fs::copy(root() / kChild, moved, fs::copy_options::recursive);
  const ValidationError e = Raised<ValidationError>([&] { Reader::Open(moved); });
  EXPECT_NE(std::string(e.what()).find("sources_root"), std::string::npos) << e.what();
  // With the root named explicitly it opens and reads.
  Reader child = Reader::Open(moved, ReaderOptions{.sources_root = root()});
  EXPECT_NO_THROW(child.Verify());
  EXPECT_FALSE(child.Read(LoadPlan::AllEager())->records().empty());
}

TEST_F(PayloadSourcesTest, WrongSourcesRootIsAMissingParent) {
  TempDir empty;
  EXPECT_THROW(Reader::Open(root() / kChild, ReaderOptions{.sources_root = empty.path()}),
               FileError);
}

TEST_F(PayloadSourcesTest, RewritingTheChildPinsTheStoringReleaseNotTheChild) {
  // A read of the child written again: locators keep naming the parent (the storing release),
  // never the intermediate child.
  Reader child = Reader::Open(root() / kChild);
  std::unique_ptr<model::Dataset> read = child.Read();
  model::Dataset grandchild("test/again", "1.0.0");
  for (const auto& record : read->records()) grandchild.AddRecord(record);
  for (const auto& task : read->tasks()) grandchild.AddTask(task);
  for (const auto& a : read->registered_annotations()) grandchild.RegisterAnnotation(a);
  WriteResult w = WriteRelease(grandchild, testing::FixtureCard(), root());
  ASSERT_EQ(w.manifest.payload_sources.size(), 1u);
  EXPECT_TRUE(w.manifest.payload_sources.contains("test/fixture@1.0.0"));
  EXPECT_TRUE(w.manifest.files.time_series.empty());
  Reader again = Reader::Open(w.release_dir);
  again.Verify();
  EXPECT_EQ(again.Read(LoadPlan::AllEager())->records().size(), read->records().size());
}

}  // namespace
}  // namespace timef
