// Fork safety (FORMAT.md §11 "Connections", reader.txt): catalog connections close before fork()
// and reopen on the next lease in parent and child; a read cut short by Close() or a fork in
// another thread raises ReaderError.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog_reader.h"
#include "catalog_test_util.h"
#include "timef/error.h"

// Set when AddressSanitizer instruments this file: GCC defines __SANITIZE_ADDRESS__, clang answers
// __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define TIMEF_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TIMEF_UNDER_ASAN 1
#endif
#endif

namespace timef::catalog {
namespace {

using testing::MakeValidCatalog;
using testing::QueryRows;
using testing::ScratchDir;
using testing::ValidIdentity;

// A query that runs for minutes unless interrupted.
constexpr char kEndlessQuery[] =
    "SELECT count(*) FROM range(1000000000) a, range(1000000000) b WHERE a.range + b.range < 0";

std::vector<std::string> RecordIds(CatalogReader& reader) {
  CatalogLease lease = reader.Lease();
  return QueryRows(lease.connection(), "SELECT record_id FROM records ORDER BY read_order");
}

// Runs `child` in a forked process; returns its exit status (0 = success).
template <typename Fn>
int RunInChild(Fn child) {
  pid_t pid = fork();
  if (pid == 0) {
    int code = 1;
    try {
      code = child() ? 0 : 2;
    } catch (...) {
      code = 3;
    }
    _exit(code);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

const std::vector<std::string> kIds = {"1", "2", "3"};

TEST(CatalogForkTest, ReadForkReadInChildAndParent) {
  ScratchDir dir;
  MakeValidCatalog(dir / "control.duckdb");
  CatalogReader reader(dir / "control.duckdb", ValidIdentity());
  ASSERT_EQ(RecordIds(reader), kIds);
  ASSERT_TRUE(reader.is_open());

  int status = RunInChild([&] {
    // The fork closed the connection; the child's first lease reopens it.
    if (reader.is_open()) return false;
    return RecordIds(reader) == kIds && reader.is_open();
  });
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(reader.is_open());  // closed in the parent too
  EXPECT_EQ(RecordIds(reader), kIds);
  EXPECT_TRUE(reader.is_open());
}

TEST(CatalogForkTest, SeveralReadersAndRepeatedForks) {
  ScratchDir dir;
  MakeValidCatalog(dir / "a.duckdb");
  MakeValidCatalog(dir / "b.duckdb");
  CatalogReader a(dir / "a.duckdb", ValidIdentity());
  CatalogReader b(dir / "b.duckdb", ValidIdentity());
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(RecordIds(a), kIds);
    ASSERT_EQ(RecordIds(b), kIds);
    EXPECT_EQ(RunInChild([&] {
                // A grandchild too: the handlers run in every fork.
                int nested = RunInChild([&] { return RecordIds(b) == kIds; });
                return nested == 0 && RecordIds(a) == kIds && RecordIds(b) == kIds;
              }),
              0);
  }
}

TEST(CatalogForkTest, LeaseHeldByTheForkingThreadIsCutShortInTheChildOnly) {
  ScratchDir dir;
  MakeValidCatalog(dir / "control.duckdb");
  CatalogReader reader(dir / "control.duckdb", ValidIdentity());
  CatalogLease held = reader.Lease();
  Result pending = held.Query("SELECT record_id FROM records", "records");
  int status = RunInChild([&] {
    // The held handles belong to the parent's DuckDB: every use raises ReaderError, and a new
    // lease opens a connection of the child's own.
    try {
      pending.Next();
      return false;
    } catch (const ReaderError&) {
    }
    try {
      held.Query("SELECT 1", "records");
      return false;
    } catch (const ReaderError&) {
    }
    return RecordIds(reader) == kIds;
  });
  EXPECT_EQ(status, 0);
  // In the parent the fork closed the connection too: the read in flight is cut short.
  EXPECT_THROW(pending.Next(), ReaderError);
  EXPECT_EQ(RecordIds(reader), kIds);
}

TEST(CatalogForkTest, CloseInterruptsAQueryInAnotherThread) {
  ScratchDir dir;
  MakeValidCatalog(dir / "control.duckdb");
  CatalogReader reader(dir / "control.duckdb", ValidIdentity());
  std::promise<void> started;
  auto outcome = std::async(std::launch::async, [&]() -> std::string {
    CatalogLease lease = reader.Lease();
    started.set_value();
    try {
      lease.Query(kEndlessQuery, "records");
      return "finished";
    } catch (const ReaderError&) {
      return "ReaderError";
    } catch (const std::exception& e) {
      return e.what();
    }
  });
  started.get_future().wait();
  // Give the query a moment to start; the outcome is ReaderError either way.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  reader.Close();
  EXPECT_EQ(outcome.get(), "ReaderError");
  EXPECT_EQ(RecordIds(reader), kIds);
}

TEST(CatalogForkTest, CloseCutsShortAResultBeingReadInAnotherThread) {
  ScratchDir dir;
  MakeValidCatalog(dir / "control.duckdb");
  CatalogReader reader(dir / "control.duckdb", ValidIdentity());
  std::promise<void> first_chunk;
  std::promise<void> closed;
  auto outcome = std::async(std::launch::async, [&]() -> std::string {
    CatalogLease lease = reader.Lease();
    Result result = lease.Query("SELECT range FROM range(100000)", "range");
    auto chunk = result.Next();
    first_chunk.set_value();
    closed.get_future().wait();
    try {
      while (result.Next()) {
      }
      return "finished";
    } catch (const ReaderError&) {
      return "ReaderError";
    }
  });
  first_chunk.get_future().wait();
  reader.Close();  // returns at once: the other thread's result keeps the handles alive
  closed.set_value();
  EXPECT_EQ(outcome.get(), "ReaderError");
}

TEST(CatalogForkTest, ForkInterruptsAQueryInAnotherThread) {
#ifdef TIMEF_UNDER_ASAN
  // The AddressSanitizer runtimes of GCC 12 and clang 14 (the sanitizer tree's compiler) do not
  // hold their allocator's locks across fork() (LLVM's does since version 17). Here the other
  // thread is still unwinding its interrupted query, and allocating, while fork() returns, so the
  // child can inherit a size class's lock held by a thread it does not have and wait forever at
  // its first allocation of that size (seen once in the sanitizer stage of CI, 2026-12-07). That
  // would test the sanitizer's runtime, not timef's fork handling, which this case checks in the
  // optimised tree (`make test`).
  GTEST_SKIP() << "fork() beside an allocating thread can deadlock the ASan allocator";
#endif
  ScratchDir dir;
  MakeValidCatalog(dir / "control.duckdb");
  CatalogReader reader(dir / "control.duckdb", ValidIdentity());
  std::promise<void> started;
  auto outcome = std::async(std::launch::async, [&]() -> std::string {
    CatalogLease lease = reader.Lease();
    started.set_value();
    try {
      lease.Query(kEndlessQuery, "records");
      return "finished";
    } catch (const ReaderError&) {
      return "ReaderError";
    } catch (const std::exception& e) {
      return e.what();
    }
  });
  started.get_future().wait();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // fork() waits for the other thread's read to stop, then closes the connection.
  int status = RunInChild([&] { return RecordIds(reader) == kIds; });
  EXPECT_EQ(status, 0);
  EXPECT_EQ(outcome.get(), "ReaderError");
  EXPECT_EQ(RecordIds(reader), kIds);
}

}  // namespace
}  // namespace timef::catalog
