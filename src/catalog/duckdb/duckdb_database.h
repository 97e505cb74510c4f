// RAII wrappers over DuckDB's C API: Database, Connection and Transaction. Every failure raises
// timef::Error (FormatError/ReaderError where docs/format.md §11/§12 asks) naming the file and the
// table or purpose of the statement, with DuckDB's message.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

#include "catalog/duckdb/duckdb_handles.h"

namespace timef::catalog {

class Appender;
class PreparedStatement;
class Result;

// DuckDB's memory_limit for read-only opens (docs/format.md §6.12).
inline constexpr const char* kReadOnlyMemoryLimit = "1GiB";

class Database {
 public:
  // kReadOnly: access_mode=READ_ONLY, no temp directory, no external file access, a memory limit
  // of kReadOnlyMemoryLimit and a locked configuration, so the open never writes a byte
  // (docs/format.md §6.1). A missing file raises FileError (no_such_file_or_directory); a file that
  // is not a DuckDB database raises FormatError. kReadWrite creates the file when it does not
  // exist, with blocks of `new_file_block_size` bytes (a power of two from 16 KiB to 256 KiB; 0 =
  // DuckDB's default, 256 KiB); an existing file keeps its block size, which readers take from its
  // header. Both modes turn extension auto-install and auto-load off.
  static Database Open(const std::filesystem::path& path, AccessMode mode,
                       int64_t new_file_block_size = 0);

  const std::filesystem::path& path() const { return handle_->path(); }
  AccessMode mode() const { return handle_->mode(); }
  const std::shared_ptr<DatabaseHandle>& handle() const { return handle_; }

 private:
  explicit Database(std::shared_ptr<DatabaseHandle> handle) : handle_(std::move(handle)) {}
  std::shared_ptr<DatabaseHandle> handle_;
};

// One DuckDB connection. Copies share the connection. `keep_alive` (optional) is stored in every
// result, statement and appender made through this Connection, so that its owner can tell when
// they are all gone (see CatalogLease).
// A connection serves one thread at a time; only Abort() may come from another thread.
class Connection {
 public:
  explicit Connection(const Database& db);
  Connection(std::shared_ptr<ConnectionHandle> handle, std::shared_ptr<void> keep_alive)
      : handle_(std::move(handle)), keep_alive_(std::move(keep_alive)) {}

  // Runs `sql` and returns its materialized result. `what` names the table or purpose for errors.
  Result Query(std::string_view sql, std::string_view what);
  // Runs `sql` and returns its result as DuckDB streams it, chunk by chunk, without materializing
  // it first. Until the result is exhausted, no other statement may run on this connection:
  // Result::Next() raises Error when one did (DuckDB would end the stream silently).
  Result Stream(std::string_view sql, std::string_view what);
  // Runs `sql` (one or more statements) and discards the result.
  void Execute(std::string_view sql, std::string_view what);
  PreparedStatement Prepare(std::string_view sql, std::string_view what);
  // An appender for `table` in schema main.
  Appender Append(std::string_view table);

  // Interrupts the running query; later calls raise ReaderError. Thread-safe.
  void Abort() { handle_->Abort(); }
  const std::filesystem::path& path() const { return handle_->path(); }
  const std::shared_ptr<ConnectionHandle>& handle() const { return handle_; }
  const std::shared_ptr<void>& keep_alive() const { return keep_alive_; }

 private:
  std::shared_ptr<ConnectionHandle> handle_;
  std::shared_ptr<void> keep_alive_;
};

// BEGIN TRANSACTION on construction; rolls back on destruction unless committed.
class Transaction {
 public:
  explicit Transaction(Connection& connection);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void Commit();

 private:
  Connection& connection_;
  bool open_ = true;
};

}  // namespace timef::catalog
