// The reader's catalog row cache (docs/architecture.md "Read caches"): the whole results of the
// fixed queries that build records (records, sources, signals with their axes, signal_chunks,
// annotation occurrences), copied once into timef's memory and indexed by key, so that a lookup by
// ID (GetRecord, GetSignal) builds its objects from memory instead of running SQL. A result that
// does not fit the byte budget left is never held: its query then runs with its keys as before.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/owned_rows.h"

namespace timef::catalog {

// A catalog query by key. `sql` contains `{keys}` where a one-column relation `k` of keys is
// joined in (CatalogQuery binds them as $1); `key_column` is the result column that holds each
// row's key; `domain` selects every key the query can match, each once, as column `k` (it stands
// in for {keys} when the whole result is loaded). key_column < 0: a query without keys (no
// {keys}; the whole result every time).
struct KeyedQuery {
  std::string_view what;  // table named in messages
  std::string sql;
  int key_column = -1;
  std::string_view domain;

  // `sql` with {keys} bound to $1 (the per-call form) or to `domain` (the whole-result form).
  std::string KeyedSql() const;
  std::string WholeSql() const;
};

// A whole result held in memory: rows in result order, and for each key its rows.
class CachedRows {
 public:
  CachedRows(std::shared_ptr<const OwnedRows> rows, std::shared_ptr<const ResultShape> shape,
             int key_column);
  // The rows whose key is one of `keys`, in result order (so a query's ORDER BY holds), each row
  // once however often its key is listed: a view of the held rows (they stay alive with it).
  Chunk Select(std::span<const int64_t> keys) const;
  // Every row.
  Chunk All() const;
  size_t bytes() const { return bytes_; }

 private:
  std::shared_ptr<const ResultShape> shape_;
  std::shared_ptr<const OwnedRows> rows_;
  std::vector<std::pair<int64_t, uint32_t>> by_key_;  // (key, row), sorted
  size_t bytes_ = 0;
};

// Rows of one query as chunks: DuckDB's result, or a single chunk of cached rows.
class RowStream {
 public:
  explicit RowStream(Result result) : result_(std::move(result)) {}
  explicit RowStream(Chunk rows) : rows_(std::move(rows)) {}
  std::optional<Chunk> Next();

 private:
  std::optional<Result> result_;
  std::optional<Chunk> rows_;
};

// Thread-safe (one mutex; a load runs under it). The cache holds no DuckDB handle: Close() of the
// catalog or a fork leaves it valid. Clear() drops every entry (entries in use stay alive with
// their users).
class CatalogRowCache {
 public:
  explicit CatalogRowCache(int64_t budget_bytes) : budget_(budget_bytes) {}

  // The whole result of `query`, loaded with one query through `connection` on first use; nullptr
  // when it does not fit the budget left (remembered until Clear()). Errors of the load (e.g.
  // ReaderError when Close() or a fork interrupts it) propagate and leave nothing remembered.
  std::shared_ptr<const CachedRows> Rows(Connection& connection, const KeyedQuery& query);
  void Clear();
  int64_t bytes();
  // Whole results loaded since construction (for tests and counters).
  uint64_t loads();

 private:
  std::mutex mutex_;
  const int64_t budget_;
  int64_t used_ = 0;
  uint64_t loads_ = 0;
  std::map<std::string, std::shared_ptr<const CachedRows>, std::less<>> tables_;
};

// Runs `query` for `keys`: from `cache` when it holds (or can load) the whole result, else as SQL
// with the keys bound. `cache` may be null.
RowStream RunKeyed(Connection& connection, CatalogRowCache* cache, const KeyedQuery& query,
                   std::span<const int64_t> keys);

}  // namespace timef::catalog
