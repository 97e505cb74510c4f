#include "catalog/hydrate/lookup.h"

#include <string>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/duckdb_statement.h"
#include "timef/error.h"

namespace timef::catalog {

std::string ListIds(std::span<const int64_t> ids) {
  std::string out;
  for (size_t i = 0; i < ids.size() && i < 20; ++i) {
    if (i) out += ", ";
    out += std::to_string(ids[i]);
  }
  if (ids.size() > 20) out += ", … (" + std::to_string(ids.size()) + " in all)";
  return out;
}

NotFoundError UnknownIds(std::string_view kind, std::span<const int64_t> ids,
                         std::string_view qualifier) {
  std::string what = "no ";
  if (!qualifier.empty()) what.append(qualifier).append(" ");
  what.append(kind).append(" with ID ").append(ListIds(ids));
  return NotFoundError({.object = std::string(kind) + "s", .where = std::string(kind) + "_id"},
                       what);
}

namespace {

// Runs `sql` with $1 = ids and returns, per input position, column 1 (NULL → nullopt).
std::vector<std::optional<int64_t>> ByPosition(Connection& connection, std::string_view sql,
                                               std::span<const int64_t> ids,
                                               std::string_view what) {
  PreparedStatement statement = connection.Prepare(sql, what);
  statement.BindInt64List(1, ids);
  Result result = statement.Execute();
  std::vector<std::optional<int64_t>> out;
  out.reserve(ids.size());
  while (std::optional<Chunk> chunk = result.Next()) {
    auto value = chunk->Int64(1);
    for (idx_t row = 0; row < chunk->size(); ++row) out.push_back(value.Optional(row));
  }
  return out;
}

constexpr std::string_view kPositions =
    "WITH q AS (SELECT unnest($1::BIGINT[]) AS id, unnest(range(len($1::BIGINT[]))) AS i) ";

}  // namespace

std::vector<int64_t> RecordIdsInReadOrder(Connection& connection) {
  Result result = connection.Query("SELECT record_id FROM records ORDER BY read_order", "records");
  std::vector<int64_t> out;
  while (std::optional<Chunk> chunk = result.Next()) {
    auto id = chunk->Int64(0);
    for (idx_t row = 0; row < chunk->size(); ++row) out.push_back(id.Get(row));
  }
  return out;
}

std::vector<int64_t> SignalIdsInStorageOrder(Connection& connection, bool records_first) {
  const std::string where_values_live =
      "sc.signal_key IS NULL, sc.payload_source NULLS FIRST, sc.value_path NULLS LAST, "
      "sc.chunk_major_index, sc.chunk_minor_index NULLS FIRST";
  const std::string order =
      records_first ? "r.read_order, " + where_values_live : where_values_live + ", r.read_order";
  Result result = connection.Query(
      "SELECT s.signal_id FROM signals s JOIN sources so ON so.source_key = s.source_key "
      "JOIN records r ON r.record_key = so.record_key LEFT JOIN signal_chunks sc ON "
      "sc.signal_key = s.signal_key AND sc.chunk_index = 0 ORDER BY " +
          order + ", s.signal_id",
      "signals");
  std::vector<int64_t> out;
  while (std::optional<Chunk> chunk = result.Next()) {
    auto id = chunk->Int64(0);
    for (idx_t row = 0; row < chunk->size(); ++row) out.push_back(id.Get(row));
  }
  return out;
}

void CheckRecordIds(Connection& connection, std::span<const int64_t> ids) {
  const auto found = ByPosition(connection,
                                std::string(kPositions) +
                                    "SELECT q.i, r.record_id FROM q LEFT JOIN records r "
                                    "ON r.record_id = q.id ORDER BY q.i",
                                ids, "records");
  std::vector<int64_t> missing;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!found[i]) missing.push_back(ids[i]);
  }
  if (!missing.empty()) {
    throw UnknownIds("record", missing);
  }
}

void CheckTaskIds(Connection& connection, std::span<const int64_t> ids,
                  std::optional<model::TaskType> type) {
  std::string sql = std::string(kPositions) +
                    "SELECT q.i, t.task_id FROM q LEFT JOIN tasks t ON t.task_id = q.id";
  if (type) sql += " AND t.task_type = '" + std::string(model::ToString(*type)) + "'";
  sql += " ORDER BY q.i";
  const auto found = ByPosition(connection, sql, ids, "tasks");
  std::vector<int64_t> missing;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!found[i]) missing.push_back(ids[i]);
  }
  if (!missing.empty()) {
    throw UnknownIds("task", missing, type ? model::ToString(*type) : std::string_view());
  }
}

std::optional<int64_t> LocalIdOfImport(Connection& connection, std::string_view kind,
                                       std::string_view alias, int64_t parent_id) {
  PreparedStatement statement = connection.Prepare(
      "SELECT local_id FROM import_refs WHERE kind = $1 AND parent_alias = $2 AND parent_id = $3",
      "import_refs");
  statement.BindVarchar(1, kind).BindVarchar(2, alias).BindInt64(3, parent_id);
  Result result = statement.Execute();
  while (std::optional<Chunk> chunk = result.Next()) {
    if (chunk->size() > 0) return chunk->Int64(0).Get(0);
  }
  return std::nullopt;
}

}  // namespace timef::catalog
