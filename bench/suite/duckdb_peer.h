// The DuckDB peer: DuckDB 1.4.4 reading the very shards a release wrote, with read_parquet
// (parquet metadata cache on, so repeated lookups are warm like timef's open reader), and plain
// SQL over a release's control.duckdb for the task-hydration floor.
#pragma once

#include <duckdb.h>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace timef::bench {

class DuckDb {
 public:
  // `path` empty = in-memory database. `threads` = DuckDB worker threads.
  DuckDb(const std::filesystem::path& path, bool read_only, int threads);
  DuckDb(const DuckDb&) = delete;
  DuckDb& operator=(const DuckDb&) = delete;
  ~DuckDb();

  void Execute(const std::string& sql);
  // Runs `sql` and fetches every chunk; returns the row count. Touches every vector's data so the
  // rows are really materialized.
  std::int64_t FetchAll(const std::string& sql);
  // The first column of the first row as a double.
  double Scalar(const std::string& sql);

  duckdb_connection connection() const { return con_; }

 private:
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

// A SQL string literal of `text` (single quotes doubled).
std::string QuoteSql(const std::string& text);

class ParquetPeer {
 public:
  ParquetPeer(std::vector<std::filesystem::path> shards, int threads);
  ParquetPeer(const ParquetPeer&) = delete;
  ParquetPeer& operator=(const ParquetPeer&) = delete;
  ~ParquetPeer();

  // SELECT sum(v) FROM (SELECT unnest(values) AS v FROM read_parquet(...)): every value decoded.
  double ScanSum();
  // One series' values (chunks in chunk_idx order) via WHERE signal_id = <id>.
  std::vector<float> ReadSeries(std::int64_t signal_id);
  // Several series in one query (WHERE signal_id IN (...)), in the order given.
  std::vector<std::vector<float>> ReadSeriesBatch(std::span<const std::int64_t> ids);
  // One step window [begin, end) per series, one query per distinct chunk range (WHERE signal_id
  // IN (...) AND chunk_idx BETWEEN ...): only the chunks that intersect are selected, each series
  // holding `chunk_values` steps per chunk. Returns the windows in the order given.
  struct Window {
    std::int64_t signal_id, begin, end;
  };
  std::vector<std::vector<float>> ReadWindows(std::span<const Window> windows,
                                              std::int64_t chunk_values);

 private:
  // Runs `sql` (one float list column) and concatenates the rows. Literal SQL rather than a
  // prepared statement: with a constant, DuckDB prunes row groups by the signal_id statistics.
  std::vector<float> FetchSeries(const std::string& sql);

  std::string files_;  // the read_parquet file list literal
  DuckDb db_;
};

}  // namespace timef::bench
