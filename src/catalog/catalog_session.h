// A read-only catalog connection that opens lazily, closes on Close() and around fork(), and opens
// again on the next lease (docs/format.md §11.4; reader.txt fork rules).
//
// Reads happen through a CatalogLease. A lease and every result, chunk and statement made through
// it carry a token; the connection is really closed (DuckDB handles freed) only once no token is
// left, so Close() or a fork in another thread never frees memory under a running read. Instead it
// interrupts the read, which then raises ReaderError at its next step.
//
// REQUIRES of lease holders: a lease is used by one thread at a time, and a thread that holds one
// must not block on anything a forking thread may hold (such as Python's GIL): the fork waits for
// other threads' leases to end.
#pragma once

#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/duckdb_statement.h"
#include "catalog/duckdb/fork_registry.h"

namespace timef::catalog {

class CatalogSession;

// A span of reads on one open connection. Cheap to move; results outlive it safely.
class CatalogLease {
 public:
  explicit CatalogLease(Connection connection) : connection_(std::move(connection)) {}

  Result Query(std::string_view sql, std::string_view what) { return connection_.Query(sql, what); }
  PreparedStatement Prepare(std::string_view sql, std::string_view what) {
    return connection_.Prepare(sql, what);
  }
  Connection& connection() { return connection_; }

 private:
  Connection connection_;
};

class CatalogSession : public ForkParticipant, public std::enable_shared_from_this<CatalogSession> {
 public:
  // Runs once, on the first successful open, before the first lease is handed out (the §6.1
  // checks). If it throws, the open is undone and the next lease tries again.
  using FirstOpenCheck = std::function<void(Connection&)>;

  // Registers with the fork registry; use Make(), which returns the shared_ptr it needs.
  static std::shared_ptr<CatalogSession> Make(std::filesystem::path path, FirstOpenCheck check);
  ~CatalogSession() override;

  // Opens the catalog if it is closed. ReaderError while a fork is being prepared.
  CatalogLease Lease();
  // Closes the connection: reads in flight in other threads raise ReaderError; the next Lease()
  // opens again. Does not wait for those reads.
  void Close();
  // True while a connection is open (for tests).
  bool is_open();
  const std::filesystem::path& path() const { return path_; }

  void PrepareFork() noexcept override;
  void AfterForkInParent() noexcept override;
  void AfterForkInChild() noexcept override;

 private:
  struct User {
    std::thread::id thread;
    std::shared_ptr<ConnectionHandle> handle;
    const void* token;
  };
  class Token;

  CatalogSession(std::filesystem::path path, FirstOpenCheck check)
      : path_(std::move(path)), check_(std::move(check)) {}
  void Release(const void* token);
  static bool LockUnlessForking(std::unique_lock<std::mutex>& lock);
  // REQUIRES: mutex_ held.
  bool HasUsers(const ConnectionHandle* handle) const;

  const std::filesystem::path path_;
  const FirstOpenCheck check_;

  std::mutex mutex_;
  std::condition_variable released_;
  bool checked_ = false;
  std::shared_ptr<ConnectionHandle> open_;  // the connection new leases use
  std::vector<User> users_;                 // live tokens, of any generation
  // Handles the forking thread itself was using: left alone in the parent, abandoned in the child.
  std::vector<std::shared_ptr<ConnectionHandle>> forked_in_use_;
};

}  // namespace timef::catalog
