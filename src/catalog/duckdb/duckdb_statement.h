// Prepared statements with typed binds. Parameters are 1-based, as `$1` in the SQL.
#pragma once

#include <duckdb.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "catalog/duckdb/duckdb_handles.h"
#include "catalog/duckdb/duckdb_result.h"

namespace timef::catalog {

class PreparedStatement {
 public:
  PreparedStatement(std::shared_ptr<ConnectionHandle> connection, std::shared_ptr<void> keep_alive,
                    std::string_view sql, std::string_view what);
  ~PreparedStatement();
  PreparedStatement(PreparedStatement&&) noexcept;
  PreparedStatement& operator=(PreparedStatement&&) noexcept;
  PreparedStatement(const PreparedStatement&) = delete;
  PreparedStatement& operator=(const PreparedStatement&) = delete;

  idx_t parameter_count() const;

  PreparedStatement& BindInt64(idx_t param, int64_t value);
  PreparedStatement& BindDouble(idx_t param, double value);
  PreparedStatement& BindBool(idx_t param, bool value);
  PreparedStatement& BindVarchar(idx_t param, std::string_view value);
  PreparedStatement& BindNull(idx_t param);
  // A BIGINT[] value, for batched lookups such as
  //   SELECT ... FROM records JOIN (SELECT unnest($1::BIGINT[]) AS record_id) USING (record_id)
  // (a join on the unnested list was the fastest form measured; list_contains() is quadratic).
  PreparedStatement& BindInt64List(idx_t param, std::span<const int64_t> values);
  PreparedStatement& BindVarcharList(idx_t param, std::span<const std::string> values);
  PreparedStatement& BindVarcharList(idx_t param, std::span<const std::string_view> values);
  void ClearBindings();

  // Runs the statement with the current binds and returns its materialized result.
  Result Execute();
  // Runs it with its result streamed (see Connection::Stream); the result keeps `self` (this
  // statement) alive while it is read.
  Result ExecuteStreaming(std::shared_ptr<PreparedStatement> self);

 private:
  // Runs the statement (streamed or materialized) and raises DuckDB's error through the
  // connection, the failed result freed.
  std::unique_ptr<duckdb_result> Run(bool streaming);
  void CheckBind(duckdb_state state, idx_t param);
  void Release();

  std::shared_ptr<ConnectionHandle> connection_;
  std::shared_ptr<void> keep_alive_;
  std::string what_;
  duckdb_prepared_statement statement_ = nullptr;
};

}  // namespace timef::catalog
