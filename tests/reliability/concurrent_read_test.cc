// Readers in 8 threads (one Reader each) and in 4 forked processes read the same committed
// release while other versions are being published into the same registry: no error, and every
// value equals what a reader saw before the writes began (FORMAT.md §3.2: a committed version is
// immutable and a publish only ever adds a directory).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/release_fixture.h"
#include "support/scratch_dir.h"
#include "timef/demo.h"
#include "timef/model/dump.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {

namespace fs = std::filesystem;

std::string FullDump(const fs::path& release) {
  Reader reader = Reader::Open(release);
  auto dataset = reader.Read(LoadPlan::AllEager());
  return model::DumpDataset(*dataset, {.values = true}).dump();
}

TEST(ConcurrentReadTest, ThreadsAndForkedReadersSeeOneReleaseWhileOthersArePublished) {
  testing::ScratchDir scratch;
  const fs::path root = scratch.path() / "registry";
  auto hello = demo::BuildHelloWorld();
  const fs::path release =
      WriteRelease(*hello, demo::HelloWorldCard(), root, demo::HelloWorldWriteOptions())
          .release_dir;
  const std::string expected = FullDump(release);

  constexpr int kRounds = 3;
  // Forked readers first, while this process has no other thread (a fork copies only the forking
  // thread, so a lock held by another would stay held in the child): each reads kRounds times and
  // exits 0 only when every read equals the expected dump. They run on while the publisher and
  // the reader threads below start.
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 0;
      try {
        for (int r = 0; r < kRounds; ++r) {
          if (FullDump(release) != expected) code = 3;
        }
      } catch (...) {
        code = 4;
      }
      _exit(code);
    }
    children.push_back(pid);
  }

  // The publisher keeps adding versions of another dataset to the registry until the readers
  // are done (at least two, so that reads overlap a publish).
  std::atomic<bool> readers_done{false};
  std::atomic<int> published{0};
  std::thread publisher([&] {
    for (int n = 0; n < 2 || !readers_done.load(); ++n) {
      auto fixture = testing::MakeFixture(2, "1.0." + std::to_string(n));
      WriteRelease(*fixture.dataset, testing::FixtureCard(), root);
      published.fetch_add(1);
    }
  });

  std::atomic<int> mismatches{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      try {
        for (int r = 0; r < kRounds; ++r) {
          if (FullDump(release) != expected) mismatches.fetch_add(1);
        }
      } catch (const std::exception& e) {
        errors.fetch_add(1);
        ADD_FAILURE() << "reader thread: " << e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "forked reader died by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "forked reader: 3 = a read differed, 4 = an error";
  }
  readers_done.store(true);
  publisher.join();

  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(errors.load(), 0);
  EXPECT_GE(published.load(), 2);
  // Every published version is complete and verifies.
  for (int n = 0; n < published.load(); ++n) {
    Reader reader = Reader::Open(root / "test/fixture" / ("1.0." + std::to_string(n)));
    EXPECT_NO_THROW(reader.Verify());
  }
  EXPECT_EQ(FullDump(release), expected);
}

}  // namespace
}  // namespace timef
