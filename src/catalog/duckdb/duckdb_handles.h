// Shared ownership of DuckDB's C handles. Results, statements and appenders keep the connection
// (and through it the database) alive, because DuckDB frees a result's memory through the database
// that produced it; destroying the database first would be a use-after-free.
#pragma once

#include <duckdb.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace timef::catalog {

enum class AccessMode { kReadWrite, kReadOnly };

// Owns one duckdb_database. After Leak() the destructor leaves the handle alone: a child process
// that forked while another thread used this database must not touch DuckDB's copied state.
class DatabaseHandle {
 public:
  DatabaseHandle(duckdb_database db, std::filesystem::path path, AccessMode mode)
      : db_(db), path_(std::move(path)), mode_(mode) {}
  ~DatabaseHandle();
  DatabaseHandle(const DatabaseHandle&) = delete;
  DatabaseHandle& operator=(const DatabaseHandle&) = delete;

  duckdb_database get() const { return db_; }
  const std::filesystem::path& path() const { return path_; }
  AccessMode mode() const { return mode_; }
  // Closes the database now (idempotent); the destructor does it otherwise.
  void Close();
  void Leak() { leaked_.store(true); }
  bool leaked() const { return leaked_.load(); }

 private:
  duckdb_database db_;
  std::filesystem::path path_;
  AccessMode mode_;
  std::atomic<bool> closed_{false};
  std::atomic<bool> leaked_{false};
};

// Owns one duckdb_connection. Abort() may be called from any thread: it interrupts the running
// query and makes every later operation through this connection (or anything made from it) raise
// ReaderError.
class ConnectionHandle {
 public:
  ConnectionHandle(duckdb_connection conn, std::shared_ptr<DatabaseHandle> db)
      : conn_(conn), db_(std::move(db)) {}
  ~ConnectionHandle();
  ConnectionHandle(const ConnectionHandle&) = delete;
  ConnectionHandle& operator=(const ConnectionHandle&) = delete;

  duckdb_connection get() const { return conn_; }
  DatabaseHandle& database() const { return *db_; }
  const std::filesystem::path& path() const { return db_->path(); }
  bool read_only() const { return db_->mode() == AccessMode::kReadOnly; }

  void Abort();
  bool aborted() const { return aborted_.load(); }
  // Disconnects now and closes the database too (idempotent). REQUIRES: nothing made from this
  // connection still calls DuckDB; CatalogSession guarantees that through its lease tokens.
  void Close();
  // Marks this connection and its database as abandoned (see DatabaseHandle::Leak()).
  void Leak();
  bool leaked() const { return leaked_.load(); }

  // Throws ReaderError when the connection was aborted; called before and after every DuckDB call.
  void CheckAlive(std::string_view what) const;
  // Counts the statements prepared or run through this connection (one thread at a time, like the
  // connection): a streamed result is read only while no other statement ran since it started,
  // because DuckDB ends it without an error when one does.
  uint64_t BeginStatement() { return ++statements_; }
  uint64_t statements() const { return statements_; }

  // Raises the error class docs/format.md §11/§12 asks for: ReaderError when aborted, FormatError
  // for a missing table/column/type on a read-only catalog, Error otherwise. `what` names the table
  // or the purpose of the statement.
  [[noreturn]] void ThrowError(std::string_view what, duckdb_error_type type,
                               std::string_view message) const;
  // Same, for errors that come without a type (prepare): the type is taken from the message prefix.
  [[noreturn]] void ThrowError(std::string_view what, std::string_view message) const;

 private:
  duckdb_connection conn_;
  std::shared_ptr<DatabaseHandle> db_;
  std::atomic<bool> aborted_{false};
  std::atomic<bool> closed_{false};
  std::atomic<bool> leaked_{false};
  uint64_t statements_ = 0;
};

// DuckDB's error text without the native stack trace that some builds append to fatal errors
// (a user sees one line: "... No space left on device", not forty frames of libduckdb.so).
std::string DuckDbErrorText(std::string_view raw);

}  // namespace timef::catalog
