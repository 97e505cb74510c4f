// Rows of a query result copied into timef's own memory, read through the same Chunk views as
// DuckDB's vectors. The reader's catalog row cache (catalog/rows/row_cache.h) keeps whole small
// results this way: they belong to no connection, so Close(), a fork or another thread's lease
// never invalidates them.
#pragma once

#include <duckdb.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "catalog/duckdb/duckdb_result.h"

namespace timef::catalog {

// One column: values laid out as DuckDB lays out a vector of its kind (int64_t, double, bool,
// duckdb_string_t, duckdb_list_entry), a validity bit per row, the bytes of strings too long to
// inline, and a LIST column's child.
struct OwnedColumn {
  std::vector<std::byte> data;
  std::vector<uint64_t> validity;
  std::vector<char> heap;  // a vector: moving it keeps the buffer the strings point into
  std::unique_ptr<OwnedColumn> child;

  template <typename T>
  const T* Data() const {
    return reinterpret_cast<const T*>(data.data());
  }
};

struct OwnedRows {
  idx_t size = 0;
  std::vector<OwnedColumn> columns;
};

// Copies chosen rows of chunks of one result shape, in the order they are appended, into one
// owned Chunk. Not thread-safe; one builder per copy.
class RowsBuilder {
 public:
  // CanCopy() says whether every column has a kind the builder copies (every ColumnKind but
  // kOther); Append() raises FormatError naming the column for one that is not.
  explicit RowsBuilder(std::shared_ptr<const ResultShape> shape);
  ~RowsBuilder();
  RowsBuilder(const RowsBuilder&) = delete;
  RowsBuilder& operator=(const RowsBuilder&) = delete;

  static bool CanCopy(const ResultShape& shape);
  // Appends row `row` of `chunk`, whose shape has the same columns.
  void Append(const Chunk& chunk, idx_t row);
  idx_t size() const { return size_; }
  // Bytes the copy holds so far (values, validity, string bytes).
  size_t bytes() const;
  // The rows appended so far as one Chunk that owns them. The builder is empty afterwards.
  Chunk Finish();
  // The same rows and their shape (without a connection), for a holder that hands out many Chunks
  // over them.
  std::pair<std::shared_ptr<const OwnedRows>, std::shared_ptr<const ResultShape>> FinishRows();

 private:
  class ColumnBuilder;
  std::shared_ptr<const ResultShape> shape_;
  std::vector<std::unique_ptr<ColumnBuilder>> columns_;
  idx_t size_ = 0;
};

}  // namespace timef::catalog
