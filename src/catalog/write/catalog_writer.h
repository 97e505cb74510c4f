// Writes a new control.duckdb (docs/format.md §6.1): the schema in one transaction, then every row
// in a second transaction through one appender per table in §6.3 order, then COMMIT, CHECKPOINT and
// close. Unless Finish() succeeds, the file (and any .wal) is deleted.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

#include "catalog/catalog_schema.h"
#include "catalog/duckdb/duckdb_appender.h"
#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"

namespace timef::catalog {

// DECIDE (catalog block size, docs/format.md §6.1): the DuckDB block size of a new catalog,
// from the number of records, signals and tasks it will hold (IDs up to `marks`). DuckDB's 256 KiB
// default gives every table, index and column at least one block (a 20-record catalog was 4–5 MB);
// 16 KiB blocks are the smallest catalogs up to kSmallCatalogObjects objects, but above that
// DuckDB compresses 16 KiB segments poorly and 64 KiB blocks are smallest.
inline constexpr int64_t kSmallCatalogObjects = 10'000;
int64_t CatalogBlockSize(const HighWaterMarks& marks);

class CatalogWriter {
 public:
  // Creates `path`, which must not exist (ValidationError otherwise; an existing file is never
  // touched) with CatalogBlockSize(marks), writes the schema and control_metadata, and begins the
  // data transaction.
  static CatalogWriter Create(const std::filesystem::path& path, const HighWaterMarks& marks);

  // Deletes the file unless Finish() succeeded.
  ~CatalogWriter();
  CatalogWriter(CatalogWriter&&) noexcept;
  CatalogWriter& operator=(CatalogWriter&&) noexcept;
  CatalogWriter(const CatalogWriter&) = delete;
  CatalogWriter& operator=(const CatalogWriter&) = delete;

  // The appender of `table`. Tables are filled in §6.3 order: asking for the next table closes the
  // previous appender (flushing its rows); asking for a table before the current one raises Error.
  // control_metadata is written by Create(). The reference stays valid until the next call.
  Appender& Append(CatalogTable table);

  // Runs a query inside the data transaction (for writer-side checks). Closes the current
  // appender first so that the query sees its rows; Append() on the same table opens a new one.
  Result Query(std::string_view sql, std::string_view what);

  // Closes the appender, commits, checkpoints and closes the database; afterwards no .wal exists.
  // On failure the file is deleted and the error re-raised.
  void Finish();

  const std::filesystem::path& path() const;

 private:
  struct State;
  explicit CatalogWriter(std::unique_ptr<State> state);
  void Discard() noexcept;

  std::unique_ptr<State> state_;
};

// The path of DuckDB's write-ahead log for `path` ("<path>.wal").
std::filesystem::path WalPath(const std::filesystem::path& path);

}  // namespace timef::catalog
