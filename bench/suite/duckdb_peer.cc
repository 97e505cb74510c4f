#include "suite/duckdb_peer.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

namespace timef::bench {
namespace {

// Owns a duckdb_result.
class Result {
 public:
  Result() = default;
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  ~Result() { duckdb_destroy_result(&result_); }
  duckdb_result* get() { return &result_; }
  void Check(duckdb_state state, const std::string& what) {
    if (state != DuckDBSuccess) {
      const char* error = duckdb_result_error(&result_);
      throw std::runtime_error("duckdb: " + what + ": " + (error ? error : "?"));
    }
  }

 private:
  duckdb_result result_{};
};

// Owns a fetched chunk.
class Chunk {
 public:
  explicit Chunk(duckdb_data_chunk chunk) : chunk_(chunk) {}
  Chunk(const Chunk&) = delete;
  Chunk& operator=(const Chunk&) = delete;
  ~Chunk() {
    if (chunk_) duckdb_destroy_data_chunk(&chunk_);
  }
  explicit operator bool() const { return chunk_ != nullptr; }
  duckdb_data_chunk get() const { return chunk_; }

 private:
  duckdb_data_chunk chunk_;
};

// Appends the float list values of `column` of every row of `chunk`, row by row, to `rows` (one
// vector per row).
void AppendLists(duckdb_data_chunk chunk, idx_t column, std::vector<std::vector<float>>& rows) {
  const idx_t n = duckdb_data_chunk_get_size(chunk);
  duckdb_vector list = duckdb_data_chunk_get_vector(chunk, column);
  const auto* entries = static_cast<const duckdb_list_entry*>(duckdb_vector_get_data(list));
  const auto* values =
      static_cast<const float*>(duckdb_vector_get_data(duckdb_list_vector_get_child(list)));
  for (idx_t i = 0; i < n; ++i) {
    rows.emplace_back(values + entries[i].offset, values + entries[i].offset + entries[i].length);
  }
}

std::vector<float> Concat(std::vector<std::vector<float>>& rows) {
  if (rows.size() == 1) return std::move(rows[0]);
  std::size_t total = 0;
  for (const auto& r : rows) total += r.size();
  std::vector<float> out;
  out.reserve(total);
  for (const auto& r : rows) out.insert(out.end(), r.begin(), r.end());
  return out;
}

}  // namespace

DuckDb::DuckDb(const std::filesystem::path& path, bool read_only, int threads) {
  duckdb_config config = nullptr;
  duckdb_create_config(&config);
  duckdb_set_config(config, "threads", std::to_string(threads).c_str());
  if (read_only) duckdb_set_config(config, "access_mode", "READ_ONLY");
  char* error = nullptr;
  const std::string p = path.string();
  const duckdb_state state = duckdb_open_ext(p.empty() ? nullptr : p.c_str(), &db_, config, &error);
  duckdb_destroy_config(&config);
  if (state != DuckDBSuccess) {
    std::string message = error ? error : "?";
    duckdb_free(error);
    throw std::runtime_error("duckdb open " + p + ": " + message);
  }
  if (duckdb_connect(db_, &con_) != DuckDBSuccess) throw std::runtime_error("duckdb connect");
}

DuckDb::~DuckDb() {
  duckdb_disconnect(&con_);
  duckdb_close(&db_);
}

void DuckDb::Execute(const std::string& sql) {
  Result result;
  result.Check(duckdb_query(con_, sql.c_str(), result.get()), sql);
}

std::int64_t DuckDb::FetchAll(const std::string& sql) {
  Result result;
  result.Check(duckdb_query(con_, sql.c_str(), result.get()), sql);
  std::int64_t rows = 0;
  for (;;) {
    Chunk chunk(duckdb_fetch_chunk(*result.get()));
    if (!chunk) break;
    rows += static_cast<std::int64_t>(duckdb_data_chunk_get_size(chunk.get()));
  }
  return rows;
}

double DuckDb::Scalar(const std::string& sql) {
  Result result;
  result.Check(duckdb_query(con_, sql.c_str(), result.get()), sql);
  return duckdb_value_double(result.get(), 0, 0);
}

std::string QuoteSql(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

ParquetPeer::ParquetPeer(std::vector<std::filesystem::path> shards, int threads)
    : db_({}, false, threads) {
  files_ = "[";
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (i) files_ += ", ";
    files_ += QuoteSql(shards[i].string());
  }
  files_ += "]";
  db_.Execute("SET parquet_metadata_cache = true");
}

ParquetPeer::~ParquetPeer() = default;

std::vector<float> ParquetPeer::FetchSeries(const std::string& sql) {
  Result result;
  result.Check(duckdb_query(db_.connection(), sql.c_str(), result.get()), sql);
  std::vector<std::vector<float>> rows;
  for (;;) {
    Chunk chunk(duckdb_fetch_chunk(*result.get()));
    if (!chunk) break;
    AppendLists(chunk.get(), 0, rows);
  }
  return Concat(rows);
}

double ParquetPeer::ScanSum() {
  return db_.Scalar("SELECT sum(v) FROM (SELECT unnest(values) AS v FROM read_parquet(" + files_ +
                    "))");
}

std::vector<float> ParquetPeer::ReadSeries(std::int64_t signal_id) {
  return FetchSeries("SELECT values FROM read_parquet(" + files_ +
                     ") WHERE signal_id = " + std::to_string(signal_id) + " ORDER BY chunk_idx");
}

std::vector<std::vector<float>> ParquetPeer::ReadSeriesBatch(std::span<const std::int64_t> ids) {
  std::string in;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) in += ',';
    in += std::to_string(ids[i]);
  }
  const std::string sql = "SELECT signal_id, values FROM read_parquet(" + files_ +
                          ") WHERE signal_id IN (" + in + ") ORDER BY signal_id, chunk_idx";
  Result result;
  result.Check(duckdb_query(db_.connection(), sql.c_str(), result.get()), "batch lookup");
  std::map<std::int64_t, std::vector<float>> by_id;
  for (;;) {
    Chunk chunk(duckdb_fetch_chunk(*result.get()));
    if (!chunk) break;
    const auto* sids = static_cast<const std::int64_t*>(
        duckdb_vector_get_data(duckdb_data_chunk_get_vector(chunk.get(), 0)));
    std::vector<std::vector<float>> rows;
    AppendLists(chunk.get(), 1, rows);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      auto& dst = by_id[sids[i]];
      dst.insert(dst.end(), rows[i].begin(), rows[i].end());
    }
  }
  std::vector<std::vector<float>> out;
  out.reserve(ids.size());
  for (std::int64_t id : ids) out.push_back(by_id[id]);
  return out;
}

std::vector<std::vector<float>> ParquetPeer::ReadWindows(std::span<const Window> windows,
                                                         std::int64_t chunk_values) {
  // Series at different rates need different chunk ranges: one query per distinct range, so no
  // query selects chunks that a window of another rate would need.
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::int64_t>> by_range;
  for (const Window& w : windows) {
    const std::int64_t first = w.begin / chunk_values;
    const std::int64_t last = std::max<std::int64_t>(w.begin, w.end - 1) / chunk_values;
    by_range[{first, last}].push_back(w.signal_id);
  }
  // (signal, chunk) → the chunk's values.
  std::map<std::pair<std::int64_t, std::int32_t>, std::vector<float>> chunks;
  for (const auto& [range, ids] : by_range) {
    std::string in;
    for (std::int64_t id : ids) {
      if (!in.empty()) in += ',';
      in += std::to_string(id);
    }
    const std::string sql = "SELECT signal_id, chunk_idx, values FROM read_parquet(" + files_ +
                            ") WHERE signal_id IN (" + in + ") AND chunk_idx BETWEEN " +
                            std::to_string(range.first) + " AND " + std::to_string(range.second);
    Result result;
    result.Check(duckdb_query(db_.connection(), sql.c_str(), result.get()), "window lookup");
    for (;;) {
      Chunk chunk(duckdb_fetch_chunk(*result.get()));
      if (!chunk) break;
      const auto* sids = static_cast<const std::int64_t*>(
          duckdb_vector_get_data(duckdb_data_chunk_get_vector(chunk.get(), 0)));
      const auto* idx = static_cast<const std::int32_t*>(
          duckdb_vector_get_data(duckdb_data_chunk_get_vector(chunk.get(), 1)));
      std::vector<std::vector<float>> rows;
      AppendLists(chunk.get(), 2, rows);
      for (std::size_t i = 0; i < rows.size(); ++i) chunks[{sids[i], idx[i]}] = std::move(rows[i]);
    }
  }
  std::vector<std::vector<float>> out;
  for (const Window& w : windows) {
    std::vector<float> values;
    values.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, w.end - w.begin)));
    for (std::int64_t step = w.begin; step < w.end;) {
      const std::int64_t c = step / chunk_values;
      const auto found = chunks.find({w.signal_id, static_cast<std::int32_t>(c)});
      if (found == chunks.end()) break;
      const std::int64_t from = step - c * chunk_values;
      const std::int64_t to = std::min<std::int64_t>(
          static_cast<std::int64_t>(found->second.size()), w.end - c * chunk_values);
      values.insert(values.end(), found->second.begin() + from, found->second.begin() + to);
      step = c * chunk_values + to;
      if (to <= from) break;
    }
    out.push_back(std::move(values));
  }
  return out;
}

}  // namespace timef::bench
