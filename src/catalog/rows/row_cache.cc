#include "catalog/rows/row_cache.h"

#include <algorithm>

#include "catalog/duckdb/duckdb_statement.h"

namespace timef::catalog {
namespace {

std::string Replaced(std::string sql, std::string_view with) {
  constexpr std::string_view kMarker = "{keys}";
  for (size_t at = sql.find(kMarker); at != std::string::npos; at = sql.find(kMarker, at)) {
    sql.replace(at, kMarker.size(), with);
    at += with.size();
  }
  return sql;
}

}  // namespace

std::string KeyedQuery::KeyedSql() const {
  return Replaced(sql, "(SELECT unnest($1::BIGINT[]) AS k)");
}

std::string KeyedQuery::WholeSql() const {
  std::string relation;
  relation.reserve(domain.size() + 2);
  relation.append("(").append(domain).append(")");
  return Replaced(sql, relation);
}

CachedRows::CachedRows(std::shared_ptr<const OwnedRows> rows,
                       std::shared_ptr<const ResultShape> shape, int key_column)
    : shape_(std::move(shape)), rows_(std::move(rows)) {
  bytes_ = sizeof(*this);
  for (const OwnedColumn& column : rows_->columns) {
    bytes_ += column.data.size() + column.heap.size() + column.validity.size() * sizeof(uint64_t);
    if (column.child) {
      bytes_ += column.child->data.size() + column.child->heap.size() +
                column.child->validity.size() * sizeof(uint64_t);
    }
  }
  if (key_column < 0) return;
  const Chunk all = All();
  const Int64Column keys = all.Int64(static_cast<idx_t>(key_column));
  by_key_.reserve(all.size());
  for (idx_t row = 0; row < all.size(); ++row) {
    // A NULL key matches no key of a join, so such a row is never selected.
    if (!keys.IsNull(row)) by_key_.emplace_back(keys.Get(row), static_cast<uint32_t>(row));
  }
  std::sort(by_key_.begin(), by_key_.end());
  bytes_ += by_key_.size() * sizeof(by_key_[0]);
}

Chunk CachedRows::All() const { return Chunk(rows_, shape_); }

Chunk CachedRows::Select(std::span<const int64_t> keys) const {
  std::vector<uint32_t> rows;
  for (int64_t key : keys) {
    auto range =
        std::equal_range(by_key_.begin(), by_key_.end(), std::pair<int64_t, uint32_t>{key, 0},
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto it = range.first; it != range.second; ++it) rows.push_back(it->second);
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  // A view of the held rows: copying them into a new Chunk was half of a cached record batch
  // (issue 37).
  return Chunk(rows_, shape_, std::move(rows));
}

std::optional<Chunk> RowStream::Next() {
  if (result_) return result_->Next();
  std::optional<Chunk> out = std::move(rows_);
  rows_.reset();
  // Like a DuckDB result, an empty one yields no chunk at all.
  if (out && out->size() == 0) return std::nullopt;
  return out;
}

std::shared_ptr<const CachedRows> CatalogRowCache::Rows(Connection& connection,
                                                        const KeyedQuery& query) {
  std::lock_guard lock(mutex_);
  if (auto found = tables_.find(query.sql); found != tables_.end()) return found->second;
  // Only a finished decision is remembered: a load that throws (e.g. interrupted by Close() or a
  // fork) leaves no entry, so the next lookup tries again.
  auto does_not_fit = [&]() -> std::shared_ptr<const CachedRows> {
    tables_.emplace(query.sql, nullptr);
    return nullptr;
  };
  const int64_t room = budget_ - used_;
  if (room <= 0) return does_not_fit();
  Result result = connection.Query(query.WholeSql(), query.what);
  if (!RowsBuilder::CanCopy(*result.shape())) return does_not_fit();
  RowsBuilder builder(result.shape());
  while (std::optional<Chunk> chunk = result.Next()) {
    for (idx_t row = 0; row < chunk->size(); ++row) builder.Append(*chunk, row);
    if (static_cast<int64_t>(builder.bytes()) > room) return does_not_fit();
  }
  ++loads_;
  auto [rows, shape] = builder.FinishRows();
  auto cached =
      std::make_shared<const CachedRows>(std::move(rows), std::move(shape), query.key_column);
  if (static_cast<int64_t>(cached->bytes()) > room) return does_not_fit();
  used_ += static_cast<int64_t>(cached->bytes());
  tables_.emplace(query.sql, cached);
  return cached;
}

void CatalogRowCache::Clear() {
  std::lock_guard lock(mutex_);
  tables_.clear();
  used_ = 0;
}

int64_t CatalogRowCache::bytes() {
  std::lock_guard lock(mutex_);
  return used_;
}

uint64_t CatalogRowCache::loads() {
  std::lock_guard lock(mutex_);
  return loads_;
}

RowStream RunKeyed(Connection& connection, CatalogRowCache* cache, const KeyedQuery& query,
                   std::span<const int64_t> keys) {
  if (cache != nullptr) {
    if (auto rows = cache->Rows(connection, query)) {
      return RowStream(query.key_column < 0 ? rows->All() : rows->Select(keys));
    }
  }
  if (query.key_column < 0) return RowStream(connection.Query(query.sql, query.what));
  PreparedStatement statement = connection.Prepare(query.KeyedSql(), query.what);
  statement.BindInt64List(1, keys);
  return RowStream(statement.Execute());
}

}  // namespace timef::catalog
