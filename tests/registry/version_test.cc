// The version API (include/timef/dataset_version.h, client.h; docs/python.md "Opening a
// version"): what opening a local version checks and what it leaves alone, registries' OpenVersion
// by latest and exact ref, and the client's Open and Load against a plain Reader::Open read.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <functional>
#include <memory>

#include "support/raised.h"
#include "support/release_fixture.h"
#include "timef/client.h"
#include "timef/dataset_version.h"
#include "timef/error.h"
#include "timef/model/dump.h"
#include "timef/reader.h"
#include "timef/registry.h"
#include "timef/writer.h"

namespace timef {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

using testing::FirstPinnedShard;
using testing::Raised;
constexpr const char* kParent = testing::kReuseParent;
constexpr const char* kChild = testing::kReuseChild;

WriteOptions Fast() {
  WriteOptions options;
  options.compression_level = 1;
  return options;
}

// A registry with test/fixture@1.0.0 and @1.1.0 and test/reuse@1.0.0, a child that stores no
// values of its own: its payload source is test/fixture@1.0.0.
void WriteRegistry(const fs::path& root) {
  for (const char* version : {"1.0.0", "1.1.0"}) {
    testing::Fixture f = testing::MakeFixture(1, version);
    WriteRelease(*f.dataset, testing::FixtureCard(), root, Fast());
  }
  testing::WriteReuseChild(root, Fast());
}

// Everything a reader builds, values included.
Json DumpAll(Reader& reader) {
  return model::DumpDataset(*reader.Read(LoadPlan::AllEager()), {.values = true});
}

bool Mentions(const std::exception& e, const std::string& text) {
  return std::string(e.what()).find(text) != std::string::npos;
}

class VersionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = std::make_unique<TempDir>();
    WriteRegistry(registry_->path());
  }
  static void TearDownTestSuite() { registry_.reset(); }
  // The shared registry, for tests that change nothing.
  static fs::path shared() { return registry_->path(); }
  // A private copy, for a test that damages it.
  fs::path copy() {
    if (!copied_) {
      fs::copy(shared(), copy_.path(), fs::copy_options::recursive);
      copied_ = true;
    }
    return copy_.path();
  }

  static inline std::unique_ptr<TempDir> registry_;
  TempDir copy_;
  bool copied_ = false;
};

TEST_F(VersionTest, OpensALocalVersionWithItsSourcesAndReadsLikeReaderOpen) {
  const DatasetVersion version = OpenLocalVersion(shared() / kChild);
  EXPECT_EQ(version.ref().ToString(), "test/reuse@1.0.0");
  EXPECT_EQ(version.manifest().dataset_id, "test/reuse");
  EXPECT_EQ(version.location(), shared() / kChild);
  EXPECT_FALSE(version.remote());
  ASSERT_TRUE(version.sources_root().has_value());
  EXPECT_TRUE(fs::equivalent(*version.sources_root(), shared()));
  const std::vector<DatasetVersion::PayloadSource> sources = version.payload_sources();
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0].ref, "test/fixture@1.0.0");
  EXPECT_TRUE(fs::equivalent(sources[0].location, shared() / kParent));

  Reader from_version = Reader::Open(version);
  // Creating the reader opened nothing: no catalog, no values file.
  const ReaderCounters counters = from_version.counters();
  EXPECT_EQ(counters.catalog_opens, 0u);
  EXPECT_EQ(counters.values_files_opened + counters.payload_files_opened, 0u);
  Reader plain = Reader::Open(shared() / kChild);
  EXPECT_EQ(DumpAll(from_version), DumpAll(plain));
  from_version.Verify();

  // A version without payload sources opens from any directory.
  TempDir elsewhere;
  fs::copy(shared() / kParent, elsewhere.path() / "v", fs::copy_options::recursive);
  const DatasetVersion moved = OpenLocalVersion(elsewhere.path() / "v");
  EXPECT_TRUE(moved.payload_sources().empty());
  EXPECT_FALSE(moved.sources_root().has_value());
}

TEST_F(VersionTest, AReaderOfAnOpenedVersionLooksForNothingAgain) {
  const fs::path root = copy();
  const DatasetVersion version = OpenLocalVersion(root / kChild);
  // A pinned file removed after opening: creating the reader still succeeds (it checks nothing
  // again); reading the values it holds fails naming the file.
  const fs::path shard = FirstPinnedShard(root);
  fs::remove(shard);
  Reader reader = Reader::Open(version);
  EXPECT_FALSE(reader.RecordIds().empty());
  const FileError e = Raised<FileError>([&] { reader.Read(LoadPlan::AllEager()); });
  EXPECT_TRUE(Mentions(e, shard.filename().string())) << e.what();
  // Opening again does check.
  EXPECT_THROW(OpenLocalVersion(root / kChild), FileError);
}

TEST_F(VersionTest, AMissingListedFileIsAMissingFileError) {
  const fs::path root = copy();
  const manifest::Manifest m = manifest::ReadManifest(root / kParent / "manifest.json");
  const fs::path file = root / kParent / m.files.time_series.front().path;
  fs::remove(file);
  const MissingFileError e = Raised<MissingFileError>([&] { OpenLocalVersion(root / kParent); });
  EXPECT_EQ(e.path(), file);
  fs::remove(root / kParent / "control.duckdb");  // control.duckdb is checked too
  EXPECT_THROW(OpenLocalVersion(root / kParent), MissingFileError);
}

TEST_F(VersionTest, AFileOfAnotherSizeIsAFileError) {
  const fs::path root = copy();
  const fs::path control = root / kParent / "control.duckdb";
  std::ofstream(control, std::ios::app | std::ios::binary) << "extra";
  const FileError e = Raised<FileError>([&] { OpenLocalVersion(root / kParent); });
  EXPECT_EQ(e.path(), control);
  EXPECT_EQ(e.where(), "size");
}

TEST_F(VersionTest, AMissingPayloadSourceIsAMissingFileError) {
  const fs::path root = copy();
  fs::remove_all(root / kParent);
  const MissingFileError e = Raised<MissingFileError>([&] { OpenLocalVersion(root / kChild); });
  EXPECT_TRUE(Mentions(e, "test/fixture@1.0.0")) << e.what();
}

TEST_F(VersionTest, ASourceThatRecordsAPinnedFileOtherwiseIsAFormatError) {
  const fs::path root = copy();
  const fs::path file = root / kParent / "manifest.json";
  manifest::Manifest parent = manifest::ReadManifest(file);
  parent.files.time_series.front().checksum = "sha256:" + std::string(64, 'e');
  std::ofstream(file, std::ios::trunc | std::ios::binary) << manifest::WriteManifest(parent);
  try {
    OpenLocalVersion(root / kChild);
    ADD_FAILURE() << "expected FormatError";
  } catch (const FileError& e) {
    ADD_FAILURE() << "a FileError, not a pin mismatch: " << e.what();
  } catch (const FormatError& e) {
    EXPECT_TRUE(Mentions(e, "pin differs")) << e.what();
  }
}

TEST_F(VersionTest, APinnedFileOfALocalSourceIsCheckedForPresenceAndSize) {
  const fs::path root = copy();
  const fs::path shard = FirstPinnedShard(root);
  std::ofstream(shard, std::ios::app | std::ios::binary) << "extra";
  const FileError resized = Raised<FileError>([&] { OpenLocalVersion(root / kChild); });
  EXPECT_EQ(resized.path(), shard);
  fs::remove(shard);
  const MissingFileError missing =
      Raised<MissingFileError>([&] { OpenLocalVersion(root / kChild); });
  EXPECT_EQ(missing.path(), shard);
}

TEST_F(VersionTest, AMissingOrInvalidManifest) {
  const fs::path root = copy();
  fs::remove(root / kParent / "manifest.json");
  EXPECT_THROW(OpenLocalVersion(root / kParent), MissingFileError);
  std::ofstream(root / "test/fixture/1.1.0/manifest.json", std::ios::trunc) << "{\"format\": 1";
  EXPECT_THROW(OpenLocalVersion(root / "test/fixture/1.1.0"), ManifestError);
}

TEST_F(VersionTest, SourcesOutsideTheRegistryLayoutNeedASourcesRoot) {
  TempDir elsewhere;
  const fs::path moved = elsewhere.path() / "child";
  fs::copy(shared() / kChild, moved, fs::copy_options::recursive);
  const ValidationError e = Raised<ValidationError>([&] { OpenLocalVersion(moved); });
  EXPECT_TRUE(Mentions(e, "sources_root")) << e.what();
  const DatasetVersion version = OpenLocalVersion(moved, shared());
  EXPECT_EQ(version.sources_root(), shared());
  Reader from_version = Reader::Open(version);
  Reader plain = Reader::Open(shared() / kChild);
  EXPECT_EQ(DumpAll(from_version), DumpAll(plain));
  // A sources root without the source: the source is missing.
  TempDir empty;
  EXPECT_THROW(OpenLocalVersion(moved, empty.path()), MissingFileError);
}

TEST(RegistryRefTest, ParsesTheTwoFormsAndNothingElse) {
  const RegistryRef latest = RegistryRef::Parse("org/name");
  EXPECT_EQ(latest.dataset_id, "org/name");
  EXPECT_FALSE(latest.version.has_value());
  EXPECT_EQ(latest.ToString(), "org/name");
  const RegistryRef exact = RegistryRef::Parse("org/name@1.10.0");
  ASSERT_TRUE(exact.version.has_value());
  EXPECT_EQ(exact.version->ToString(), "1.10.0");
  EXPECT_EQ(exact.ToString(), "org/name@1.10.0");
  for (const char* bad : {"", "org", "org/name/1.0.0", "org/name@1.0", "org/na me", "org/name@"}) {
    EXPECT_FALSE(RegistryRef::TryParse(bad).has_value()) << bad;
    EXPECT_THROW(RegistryRef::Parse(bad), ValidationError) << bad;
  }
}

TEST_F(VersionTest, RegistryOpensTheLatestOrAnExactVersion) {
  const Registry registry = Registry::Open(shared());
  EXPECT_FALSE(registry.remote());
  EXPECT_EQ(registry.OpenVersion("test/fixture").ref().ToString(), "test/fixture@1.1.0");
  const DatasetVersion exact = registry.OpenVersion("test/fixture@1.0.0");
  EXPECT_EQ(exact.ref().ToString(), "test/fixture@1.0.0");
  EXPECT_EQ(exact.location(), shared() / kParent);
  const DatasetVersion child = registry.OpenVersion("test/reuse");
  EXPECT_EQ(child.sources_root(), shared());
  EXPECT_THROW(registry.OpenVersion("test/fixture@9.0.0"), NotFoundError);
  EXPECT_THROW(registry.OpenVersion("test/absent"), NotFoundError);
  EXPECT_THROW(registry.OpenVersion("test/fixture/1.0.0"), ValidationError);
}

TEST_F(VersionTest, RegistryRefusesAVersionInTheWrongPlace) {
  const fs::path root = copy();
  fs::rename(root / "test/fixture/1.1.0", root / "test/fixture/2.0.0");
  const FormatError e =
      Raised<FormatError>([&] { Registry::Open(root).OpenVersion("test/fixture"); });
  EXPECT_EQ(e.where(), "/metadata/dataset_version");
}

TEST_F(VersionTest, ClientOpensAndLoadsFromTheFirstRegistryHoldingTheRef) {
  TempDir empty;
  TempDir cache;
  const Client client(ClientOptions{.registries = {empty.path().string(), shared().string()},
                                    .cache_dir = cache.path()});
  ASSERT_EQ(client.registries().size(), 2u);
  EXPECT_EQ(client.cache_dir(), cache.path());
  EXPECT_EQ(client.OpenVersion("test/fixture").ref().ToString(), "test/fixture@1.1.0");
  Reader plain = Reader::Open(shared() / kChild);
  const Json expected = DumpAll(plain);
  Reader opened = client.Open("test/reuse");
  EXPECT_EQ(DumpAll(opened), expected);
  EXPECT_EQ(model::DumpDataset(*client.Load("test/reuse@1.0.0"), {.values = true}), expected);
  const NotFoundError e = Raised<NotFoundError>([&] { client.Open("test/fixture@3.0.0"); });
  EXPECT_TRUE(Mentions(e, empty.path().string())) << e.what();
  EXPECT_TRUE(Mentions(e, shared().string())) << e.what();
  EXPECT_THROW(client.Open("not a ref"), ValidationError);
}

TEST_F(VersionTest, ClientTakesItsRegistriesFromTheEnvironment) {
  TempDir empty;
  ::setenv("TIMEF_REGISTRIES", (empty.path().string() + ",," + shared().string()).c_str(), 1);
  ::setenv("TIMEF_ROOT", "/nonexistent-root-never-used", 1);
  const Client from_list;
  ASSERT_EQ(from_list.registries().size(), 2u);
  EXPECT_EQ(from_list.registries()[1].root(), shared());
  EXPECT_EQ(from_list.OpenVersion("test/reuse").ref().ToString(), "test/reuse@1.0.0");
  ::unsetenv("TIMEF_REGISTRIES");
  ::setenv("TIMEF_ROOT", shared().c_str(), 1);
  const Client from_root;
  ASSERT_EQ(from_root.registries().size(), 1u);
  ::unsetenv("TIMEF_ROOT");
  EXPECT_THROW(Client(), ValidationError);
  // Given registries win over the environment.
  ::setenv("TIMEF_REGISTRIES", "/nonexistent-registry", 1);
  EXPECT_EQ(Client(ClientOptions{.registries = {shared().string()}}).registries().size(), 1u);
  ::unsetenv("TIMEF_REGISTRIES");
}

}  // namespace
}  // namespace timef
