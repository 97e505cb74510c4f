// Registry listing, resolution, the directory-name check and Gc (FORMAT.md §3.1, §3.2).
#include "timef/registry.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>

#include "core/directory_lock.h"
#include "support/release_fixture.h"
#include "timef/error.h"
#include "writer/staging.h"

namespace timef {
namespace {

namespace fs = std::filesystem;
using testing::FixtureCard;
using testing::MakeFixture;
using testing::TempDir;

WriteOptions Fast() {
  WriteOptions options;
  options.compression_level = 1;
  return options;
}

void WriteVersion(const fs::path& root, const std::string& version) {
  testing::Fixture f = MakeFixture(1, version);
  WriteRelease(*f.dataset, FixtureCard(), root, Fast());
}

void Touch(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "x";
}

class RegistryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = std::make_unique<TempDir>();
    // 1.10.0 sorts after 1.9.0 numerically, before it as text.
    for (const char* v : {"1.0.0", "1.9.0", "1.10.0"}) WriteVersion(root_->path(), v);
  }
  static void TearDownTestSuite() { root_.reset(); }
  static const fs::path& root() { return root_->path(); }
  static inline std::unique_ptr<TempDir> root_;
};

TEST_F(RegistryTest, ListsDatasetsAndVersionsNumerically) {
  // Ignored: a staging directory, a version without manifest, a non-version name, a stray file.
  TempDir copy;
  fs::copy(root(), copy.path(), fs::copy_options::recursive);
  const fs::path dataset = copy.path() / "test/fixture";
  fs::create_directories(dataset / ("2.0.0.tmp-" + std::string(32, 'a')));
  Touch(dataset / ("2.0.0.tmp-" + std::string(32, 'a')) / "manifest.json");
  fs::create_directories(dataset / "3.0.0");
  fs::create_directories(dataset / "latest");
  Touch(dataset / "latest" / "manifest.json");
  Touch(copy.path() / "other/empty/README");

  Registry registry = Registry::Open(copy.path());
  EXPECT_EQ(registry.Datasets(), std::vector<std::string>{"test/fixture"});
  std::vector<std::string> versions;
  for (const Version& v : registry.Versions("test/fixture")) versions.push_back(v.ToString());
  EXPECT_EQ(versions, (std::vector<std::string>{"1.0.0", "1.9.0", "1.10.0"}));
  EXPECT_EQ(registry.Latest("test/fixture").ToString(), "1.10.0");
  EXPECT_TRUE(registry.Versions("other/empty").empty());
  EXPECT_THROW(registry.Latest("other/empty"), NotFoundError);
  EXPECT_THROW(registry.Versions("not-an-id"), ValidationError);
}

TEST_F(RegistryTest, ResolvesLatestAndExactRefs) {
  Registry registry = Registry::Open(root());
  RegistryRelease latest = registry.Resolve("test/fixture");
  EXPECT_EQ(latest.ref.ToString(), "test/fixture@1.10.0");
  EXPECT_EQ(latest.dir, root() / "test/fixture/1.10.0");
  EXPECT_EQ(registry.Resolve("test/fixture@1.9.0").dir, root() / "test/fixture/1.9.0");
  EXPECT_THROW(registry.Resolve("test/fixture@2.0.0"), NotFoundError);
  EXPECT_THROW(registry.Resolve("test/absent"), NotFoundError);
  EXPECT_THROW(registry.Resolve("test/fixture@1.0"), ValidationError);
  EXPECT_TRUE(Registry::LooksLikeRef("a/b@1.2.3"));
  EXPECT_TRUE(Registry::LooksLikeRef("a/b"));
  EXPECT_FALSE(Registry::LooksLikeRef("a/b/c"));
  EXPECT_FALSE(Registry::LooksLikeRef("a"));
}

TEST_F(RegistryTest, OpensAReleaseByRef) {
  Registry registry = Registry::Open(root());
  Reader reader = registry.OpenRelease("test/fixture@1.9.0");
  EXPECT_EQ(reader.manifest().metadata.dataset_version, "1.9.0");
  EXPECT_EQ(reader.path(), root() / "test/fixture/1.9.0");
  EXPECT_FALSE(reader.RecordIds().empty());
}

TEST_F(RegistryTest, DirectoryNamesMustEqualTheManifest) {
  TempDir copy;
  // A release copied under another version's name and another dataset's name.
  fs::create_directories(copy.path() / "test/fixture");
  fs::copy(root() / "test/fixture/1.0.0", copy.path() / "test/fixture/4.0.0",
           fs::copy_options::recursive);
  fs::create_directories(copy.path() / "test/renamed");
  fs::copy(root() / "test/fixture/1.0.0", copy.path() / "test/renamed/1.0.0",
           fs::copy_options::recursive);
  Registry registry = Registry::Open(copy.path());
  try {
    registry.OpenRelease("test/fixture@4.0.0");
    FAIL() << "expected FormatError";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("/metadata/dataset_version"), std::string::npos)
        << e.what();
  }
  try {
    registry.OpenRelease("test/renamed");
    FAIL() << "expected FormatError";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("/dataset_id"), std::string::npos) << e.what();
  }
  // A direct open does not check the place (§3.1).
  EXPECT_NO_THROW(Reader::Open(copy.path() / "test/fixture/4.0.0"));
}

TEST(RegistryOpen, RootMustBeADirectory) {
  TempDir dir;
  EXPECT_THROW(Registry::Open(dir.path() / "absent"), FileError);
  Touch(dir.path() / "file");
  EXPECT_THROW(Registry::Open(dir.path() / "file"), FileError);
}

TEST(RegistryGc, RemovesOnlyStaleStagingDirectories) {
  TempDir root;
  const fs::path dataset = root.path() / "org/name";
  const fs::path stale = dataset / ("1.0.0.tmp-" + std::string(32, 'b'));
  const fs::path young = dataset / ("1.1.0.tmp-" + std::string(32, 'c'));
  const fs::path not_staging = dataset / "1.2.0.tmp-short";
  const fs::path release = dataset / "1.0.0";
  Touch(stale / "time_series/part-00000000.parquet");
  Touch(young / "control.duckdb");
  Touch(not_staging / "x");
  Touch(release / "manifest.json");
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(48);
  for (const fs::path& p :
       {stale, stale / "time_series", stale / "time_series/part-00000000.parquet", not_staging,
        not_staging / "x", release, release / "manifest.json"}) {
    fs::last_write_time(p, old);
  }
  // The young one has an old directory time but a file written just now: still in use.
  fs::last_write_time(young, old);

  std::vector<StaleStaging> dry = Gc(root.path(), std::chrono::hours(24), /*dry_run=*/true);
  ASSERT_EQ(dry.size(), 1u);
  EXPECT_EQ(dry[0].dir, stale);
  EXPECT_EQ(dry[0].bytes, 1);
  EXPECT_GE(dry[0].age, std::chrono::hours(47));
  EXPECT_TRUE(fs::exists(stale));

  std::vector<StaleStaging> removed = Gc(root.path(), std::chrono::hours(24));
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(young));
  EXPECT_TRUE(fs::exists(not_staging));
  EXPECT_TRUE(fs::exists(release / "manifest.json"));

  // older_than 0 takes the young one too.
  EXPECT_EQ(Gc(root.path(), std::chrono::seconds(0)).size(), 1u);
  EXPECT_FALSE(fs::exists(young));
  EXPECT_THROW(Gc(root.path(), std::chrono::seconds(-1)), ValidationError);
  EXPECT_THROW(Gc(root.path() / "absent"), FileError);
}

// Issue 31 item 5: gc never touches the staging directory of a live writer, however old its files.
TEST(RegistryGc, LeavesTheStagingDirectoryOfALiveWriter) {
  TempDir root;
  const fs::path dataset = root.path() / "org/name";
  writer::StagingDir live(dataset / "1.0.0");
  const fs::path dead = dataset / ("1.1.0.tmp-" + std::string(32, 'd'));
  Touch(live.path() / "control.duckdb");
  Touch(dead / "control.duckdb");
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(48);
  for (const fs::path& p :
       {live.path(), live.path() / "control.duckdb", dead, dead / "control.duckdb"}) {
    fs::last_write_time(p, old);
  }
  const std::vector<StaleStaging> removed = Gc(root.path(), std::chrono::seconds(0));
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0].dir, dead);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live.path() / "control.duckdb"));
  live.CheckPresent();
}

// The staging directory of the write in progress under `dataset` (exactly one).
fs::path OnlyStagingDirectory(const fs::path& dataset) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(dataset)) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) {
      found.push_back(entry.path());
    }
  }
  EXPECT_EQ(found.size(), 1u);
  return found.empty() ? fs::path() : found.front();
}

// A writer whose staging directory is removed under it (as an unlocked gc did) fails with a
// FileError naming that directory, whatever stage it was in, and publishes nothing.
class VanishedStagingTest : public ::testing::TestWithParam<WriteStage> {};

TEST_P(VanishedStagingTest, IsAFileErrorNamingTheDirectory) {
  TempDir root;
  testing::Fixture f = MakeFixture(1, "1.0.0");
  const fs::path dataset = root.path() / f.dataset->dataset_id();
  WriteOptions options = Fast();
  fs::path removed;
  options.progress = [&](const WriteProgress& progress) {
    if (progress.stage != GetParam() || !removed.empty()) return;
    removed = OnlyStagingDirectory(dataset);
    fs::remove_all(removed);
  };
  try {
    WriteRelease(*f.dataset, FixtureCard(), root.path(), options);
    ADD_FAILURE() << "the write succeeded without its staging directory";
  } catch (const FileError& e) {
    EXPECT_EQ(e.path(), removed) << e.what();
    EXPECT_NE(std::string(e.what()).find("vanished"), std::string::npos) << e.what();
  }
  ASSERT_FALSE(removed.empty());
  EXPECT_FALSE(fs::exists(dataset / "1.0.0"));
}

INSTANTIATE_TEST_SUITE_P(Stages, VanishedStagingTest,
                         ::testing::Values(WriteStage::kValues, WriteStage::kCatalog,
                                           WriteStage::kChecksums, WriteStage::kPublish),
                         [](const auto& info) { return ToString(info.param); });

}  // namespace
}  // namespace timef
