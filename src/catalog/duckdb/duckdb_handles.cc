#include "catalog/duckdb/duckdb_handles.h"

#include <string>

#include "timef/error.h"

namespace timef::catalog {

DatabaseHandle::~DatabaseHandle() { Close(); }

void DatabaseHandle::Close() {
  if (leaked() || closed_.exchange(true)) return;
  duckdb_close(&db_);
}

// The database is closed by its own handle once the last connection lets go of it.
ConnectionHandle::~ConnectionHandle() {
  if (leaked() || closed_.exchange(true)) return;
  duckdb_disconnect(&conn_);
}

void ConnectionHandle::Close() {
  if (leaked()) return;
  if (!closed_.exchange(true)) duckdb_disconnect(&conn_);
  db_->Close();
}

void ConnectionHandle::Abort() {
  // The flag goes first: a query that starts after the interrupt (which DuckDB resets at query
  // start) still sees the flag when it returns.
  aborted_.store(true);
  if (!leaked() && !closed_.load()) duckdb_interrupt(conn_);
}

void ConnectionHandle::Leak() {
  leaked_.store(true);
  db_->Leak();
}

void ConnectionHandle::CheckAlive(std::string_view what) const {
  if (aborted()) {
    throw ReaderError(ErrorSite{.file = path(), .where = std::string(what)},
                      "catalog connection closed during the read (close() or fork)");
  }
}

std::string DuckDbErrorText(std::string_view raw) {
  const std::size_t trace = raw.find("Stack Trace:");
  if (trace != std::string_view::npos) raw = raw.substr(0, trace);
  while (!raw.empty() && (raw.back() == '\n' || raw.back() == ' ' || raw.back() == '\r')) {
    raw.remove_suffix(1);
  }
  return std::string(raw);
}

void ConnectionHandle::ThrowError(std::string_view what, duckdb_error_type type,
                                  std::string_view raw_message) const {
  CheckAlive(what);
  const std::string message = DuckDbErrorText(raw_message);
  ErrorSite site{.file = path(), .where = std::string(what)};
  // A committed catalog is opened read-only: a missing table or column, or a block DuckDB cannot
  // read back (checksum mismatch, truncated file, undecodable metadata), is a damaged release.
  const bool schema_problem = type == DUCKDB_ERROR_CATALOG || type == DUCKDB_ERROR_BINDER;
  const bool storage_problem = type == DUCKDB_ERROR_IO || type == DUCKDB_ERROR_SERIALIZATION;
  if (read_only() && (schema_problem || storage_problem)) {
    throw FormatError(std::move(site), message);
  }
  throw Error(std::move(site), message);
}

void ConnectionHandle::ThrowError(std::string_view what, std::string_view message) const {
  duckdb_error_type type = DUCKDB_ERROR_INVALID;
  if (message.starts_with("Catalog Error")) type = DUCKDB_ERROR_CATALOG;
  if (message.starts_with("Binder Error")) type = DUCKDB_ERROR_BINDER;
  if (message.starts_with("IO Error")) type = DUCKDB_ERROR_IO;
  if (message.starts_with("Serialization Error")) type = DUCKDB_ERROR_SERIALIZATION;
  if (message.starts_with("INTERRUPT Error") || message.starts_with("Interrupt")) {
    type = DUCKDB_ERROR_INTERRUPT;
  }
  ThrowError(what, type, message);
}

}  // namespace timef::catalog
