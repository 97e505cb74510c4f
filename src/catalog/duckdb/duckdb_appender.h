// A row appender that fills a DuckDB data chunk column by column and hands full chunks to DuckDB's
// appender (duckdb_append_data_chunk). Writing vectors directly avoids one duckdb_value per cell,
// which matters most for the list columns.
#pragma once

#include <duckdb.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/duckdb/duckdb_handles.h"
#include "catalog/duckdb/duckdb_result.h"

namespace timef::catalog {

class Appender {
 public:
  Appender(std::shared_ptr<ConnectionHandle> connection, std::shared_ptr<void> keep_alive,
           std::string_view table);
  // Rows appended but not yet flushed by Close() are handed to DuckDB's appender and land in the
  // open transaction; a writer that fails rolls that transaction back.
  ~Appender();
  Appender(Appender&&) noexcept;
  Appender& operator=(Appender&&) noexcept;
  Appender(const Appender&) = delete;
  Appender& operator=(const Appender&) = delete;

  // Each call fills the next column of the current row; a type mismatch with the table's column
  // raises Error naming table and column. JSON columns take Varchar().
  Appender& Int64(int64_t value);
  Appender& Double(double value);
  Appender& Bool(bool value);
  Appender& Varchar(std::string_view value);
  Appender& Null();
  Appender& Int64List(std::span<const int64_t> values);
  Appender& VarcharList(std::span<const std::string> values);
  Appender& VarcharList(std::span<const std::string_view> values);

  // NULL when the optional is empty.
  Appender& Int64OrNull(std::optional<int64_t> value) { return value ? Int64(*value) : Null(); }
  Appender& DoubleOrNull(std::optional<double> value) { return value ? Double(*value) : Null(); }
  Appender& BoolOrNull(std::optional<bool> value) { return value ? Bool(*value) : Null(); }
  Appender& VarcharOrNull(std::optional<std::string_view> value) {
    return value ? Varchar(*value) : Null();
  }

  // Ends the row; every column must have been filled.
  void EndRow();
  // Flushes every row to the table. Constraint violations (NOT NULL) surface here or earlier, as
  // Error naming the table. The appender is unusable afterwards.
  void Close();

  const std::string& table() const { return table_; }
  int64_t rows() const { return rows_; }

 private:
  struct Column {
    std::string name;
    ColumnKind kind;
    std::string type_name;
  };

  duckdb_vector Next(ColumnKind kind, std::string_view appended);
  void SetValid(duckdb_vector vector, bool valid);
  void FlushChunk();
  [[noreturn]] void ThrowAppenderError(std::string_view action);
  [[noreturn]] void ThrowUsage(std::string_view problem);
  void Release();

  std::shared_ptr<ConnectionHandle> connection_;
  std::shared_ptr<void> keep_alive_;
  std::string table_;
  duckdb_appender appender_ = nullptr;
  duckdb_data_chunk chunk_ = nullptr;
  std::vector<Column> columns_;
  idx_t capacity_ = 0;
  idx_t row_ = 0;     // row being filled in chunk_
  idx_t column_ = 0;  // next column of that row
  int64_t rows_ = 0;  // rows ended so far
};

}  // namespace timef::catalog
