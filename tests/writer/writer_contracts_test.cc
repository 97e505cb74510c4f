// The writer's promises of FORMAT.md §3.2 and §14 under pressure: writers racing for one version
// (exactly one commits, nothing else is left), and writer-side check failures as ValidationError.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <map>
#include <thread>

#include "catalog/duckdb/duckdb_database.h"
#include "release_fixture.h"
#include "timef/error.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {
namespace fs = std::filesystem;

constexpr int kWriters = 8;
constexpr int kCommitted = 0, kLost = 10, kOtherError = 20;

// Staging directories (`*.tmp-*`) next to `release_dir`.
std::vector<std::string> StagingDirsNextTo(const fs::path& release_dir) {
  std::vector<std::string> out;
  if (!fs::exists(release_dir.parent_path())) return out;
  for (const auto& entry : fs::directory_iterator(release_dir.parent_path())) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp-") != std::string::npos) out.push_back(name);
  }
  return out;
}

// A one-signal dataset: each racing writer spends its time publishing, not encoding.
std::shared_ptr<model::Dataset> TinyDataset() {
  auto dataset = std::make_shared<model::Dataset>("acme/race", "1.0.0");
  auto spec = model::Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
  auto signal =
      std::make_shared<model::Signal>("lead_I", spec, model::TimeAxis::RegularFromRate(500),
                                      model::ValueArray::Of<float>({1, 2, 3, 4}));
  dataset->AddRecord()->AddSource("device")->AddSignal(signal);
  return dataset;
}

// Child side: writes the dataset to `release_dir`, waits at the publish step until the parent
// says go (so that every writer publishes at once), and exits with the outcome.
[[noreturn]] void RaceChild(const fs::path& release_dir, int ready_fd, int go_fd) {
  int code = kOtherError;
  try {
    std::shared_ptr<model::Dataset> dataset = TinyDataset();
    WriteOptions options;
    options.compression_level = 1;
    options.progress = [&](const WriteProgress& p) {
      if (p.stage != WriteStage::kPublish) return;
      char byte = 'r';
      if (::write(ready_fd, &byte, 1) != 1) std::_Exit(kOtherError);
      if (::read(go_fd, &byte, 1) != 1) std::_Exit(kOtherError);
    };
    WriteReleaseTo(*dataset, testing::FixtureCard(), release_dir, options);
    code = kCommitted;
  } catch (const ValidationError& e) {
    code = kLost;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "writer failed: %s\n", e.what());
  }
  std::fflush(stderr);
  std::_Exit(code);
}

// Outcome code → number of writers, for kWriters writers racing to publish `release_dir`.
std::map<int, int> Race(const fs::path& release_dir) {
  std::array<int, 2> ready{};
  std::array<int, 2> go{};
  std::map<int, int> outcomes;
  if (::pipe(ready.data()) != 0 || ::pipe(go.data()) != 0) {
    ADD_FAILURE() << "pipe failed";
    return outcomes;
  }
  std::vector<pid_t> children;
  for (int i = 0; i < kWriters; ++i) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(ready[0]);
      ::close(go[1]);
      RaceChild(release_dir, ready[1], go[0]);
    }
    if (pid < 0) ADD_FAILURE() << "fork failed";
    if (pid > 0) children.push_back(pid);
  }
  ::close(ready[1]);
  ::close(go[0]);
  // Wait (at most a minute) until every writer is at its publish step, then release them all.
  int at_publish = 0;
  while (at_publish < static_cast<int>(children.size())) {
    pollfd fd{ready[0], POLLIN, 0};
    if (::poll(&fd, 1, 60'000) <= 0) break;
    char byte = 0;
    if (::read(ready[0], &byte, 1) != 1) break;
    ++at_publish;
  }
  EXPECT_EQ(at_publish, kWriters);
  const std::string go_all(children.size(), 'g');
  EXPECT_EQ(::write(go[1], go_all.data(), go_all.size()), static_cast<ssize_t>(go_all.size()));
  ::close(go[1]);
  ::close(ready[0]);
  for (pid_t pid : children) {
    int status = 0;
    EXPECT_EQ(::waitpid(pid, &status, 0), pid);
    ++outcomes[WIFEXITED(status) ? WEXITSTATUS(status) : kOtherError];
  }
  return outcomes;
}

// A scratch directory on tmpfs when there is one: fsync costs nothing there, so the writers
// reach the commit step together and the race is as tight as it gets.
class RaceRoot {
 public:
  RaceRoot() {
    std::string pattern = fs::is_directory("/dev/shm") ? "/dev/shm/timef-race-XXXXXX"
                                                       : (scratch_.path() / "XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~RaceRoot() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  testing::TempDir scratch_;
  fs::path path_;
};

TEST(WriterContractsTest, RacingPublishersCommitExactlyOnce) {
  RaceRoot root;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const fs::path release_dir = root.path() / std::to_string(round) / "acme" / "race" / "1.0.0";
    // Later rounds start from a crash leftover: a release directory without a manifest, which
    // the winner removes.
    if (round > 0) fs::create_directories(release_dir / "time_series");
    std::map<int, int> outcomes = Race(release_dir);
    EXPECT_EQ(outcomes[kCommitted], 1);
    EXPECT_EQ(outcomes[kLost], kWriters - 1);
    EXPECT_EQ(outcomes[kOtherError], 0);
    Reader reader = Reader::Open(release_dir);
    EXPECT_NO_THROW(reader.Verify());
    EXPECT_EQ(reader.RecordIds().size(), 1u);
    EXPECT_EQ(StagingDirsNextTo(release_dir), std::vector<std::string>{});
  }
}

fs::path OnlyStagingDir(const fs::path& parent) {
  for (const auto& entry : fs::directory_iterator(parent)) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) return entry.path();
  }
  return {};
}

// The write raises ValidationError mentioning `text`, and leaves neither a release nor staging.
void ExpectRefusedWrite(testing::Fixture& fixture, const fs::path& release_dir,
                        const WriteOptions& options, const std::string& text) {
  try {
    WriteReleaseTo(*fixture.dataset, testing::FixtureCard(), release_dir, options);
    ADD_FAILURE() << "the write succeeded";
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  } catch (const Error& e) {
    ADD_FAILURE() << "not a ValidationError: " << e.what();
  }
  EXPECT_FALSE(fs::exists(release_dir));
  EXPECT_EQ(StagingDirsNextTo(release_dir), std::vector<std::string>{});
}

TEST(WriterContractsTest, AStrayStagedFileIsAValidationError) {
  bool planted = false;
  testing::TempDir root;
  testing::Fixture fixture = testing::MakeFixture();
  const fs::path release_dir = root.path() / "acme" / "checks" / "1.0.0";
  WriteOptions options;
  options.compression_level = 1;
  options.progress = [&](const WriteProgress& p) {
    if (p.stage != WriteStage::kCatalog || planted) return;
    planted = true;
    std::FILE* f =
        std::fopen((OnlyStagingDir(release_dir.parent_path()) / "stray.txt").c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
  };
  ExpectRefusedWrite(fixture, release_dir, options, "stray.txt");
  EXPECT_TRUE(planted);
}

TEST(WriterContractsTest, AnAuditFailureAtWriteIsAValidationError) {
  bool tampered = false;
  testing::TempDir root;
  testing::Fixture fixture = testing::MakeFixture();
  const fs::path release_dir = root.path() / "acme" / "checks" / "1.0.0";
  WriteOptions options;
  options.compression_level = 1;
  options.progress = [&](const WriteProgress& p) {
    if (p.stage != WriteStage::kAudit || tampered) return;
    tampered = true;
    // A catalog that disagrees with what is being published: the audit must catch it.
    const fs::path control = OnlyStagingDir(release_dir.parent_path()) / manifest::kControlFileName;
    catalog::Database db = catalog::Database::Open(control, catalog::AccessMode::kReadWrite);
    catalog::Connection connection(db);
    connection.Execute("UPDATE signals SET n_values = 0 WHERE signal_id = 1", "test sql");
    connection.Execute("CHECKPOINT", "test sql");
  };
  // The message still names the invariant.
  ExpectRefusedWrite(fixture, release_dir, options, "H2");
  EXPECT_TRUE(tampered);
}

// WriteOptions::progress runs on the writing thread, even with compression threads, and a throw
// from it ends the write with nothing published, at every stage but kDone, which comes after the
// publish.
TEST(WriterContractsTest, AThrowFromProgressEndsTheWriteExceptAfterTheCommit) {
  struct Stop {};
  const WriteStage stages[] = {WriteStage::kValues,    WriteStage::kCatalog, WriteStage::kAudit,
                               WriteStage::kChecksums, WriteStage::kPublish, WriteStage::kDone};
  for (const WriteStage stop_at : stages) {
    SCOPED_TRACE("throw at " + ToString(stop_at));
    testing::TempDir root;
    testing::Fixture fixture = testing::MakeFixture();
    const fs::path release_dir = root.path() / "acme" / "checks" / "1.0.0";
    const std::thread::id caller = std::this_thread::get_id();
    int calls_on_other_threads = 0;
    WriteOptions options;
    options.compression_level = 1;
    options.threads = 2;
    options.progress = [&](const WriteProgress& p) {
      if (std::this_thread::get_id() != caller) ++calls_on_other_threads;
      if (p.stage == stop_at) throw Stop{};
    };
    EXPECT_THROW(WriteReleaseTo(*fixture.dataset, testing::FixtureCard(), release_dir, options),
                 Stop);
    EXPECT_EQ(calls_on_other_threads, 0);
    EXPECT_EQ(StagingDirsNextTo(release_dir), std::vector<std::string>{});
    if (stop_at == WriteStage::kDone) {
      Reader reader = Reader::Open(release_dir);
      EXPECT_NO_THROW(reader.Verify());
    } else {
      EXPECT_FALSE(fs::exists(release_dir));
    }
  }
}

}  // namespace
}  // namespace timef
