// Query results read chunk by chunk with typed column views. A view checks the column's type once
// (FormatError naming the column on a mismatch) and then reads DuckDB's vectors in place, or the
// timef-owned copy of rows that catalog/duckdb/owned_rows.h makes (the same views over our own
// memory).
#pragma once

#include <duckdb.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/duckdb/duckdb_handles.h"

namespace timef::catalog {

// The column types docs/format.md §6.1 uses. JSON columns read as kVarchar (DuckDB's JSON is an
// alias of VARCHAR).
enum class ColumnKind { kBigint, kDouble, kBoolean, kVarchar, kBigintList, kVarcharList, kOther };

struct ResultColumn {
  std::string name;
  ColumnKind kind = ColumnKind::kOther;
  std::string type_name;  // DuckDB's spelling, for messages
};

// What every chunk of one result shares: the columns and the error context. `connection` is null
// for owned rows (they outlive any connection); `file` is the catalog, for messages.
struct ResultShape {
  std::vector<ResultColumn> columns;
  std::shared_ptr<ConnectionHandle> connection;
  std::filesystem::path file;
  std::string what;
};

struct OwnedRows;

// Validity bitmap of one vector; nullptr means every row is valid.
class Validity {
 public:
  explicit Validity(const uint64_t* bits) : bits_(bits) {}
  bool IsValid(idx_t row) const {
    return bits_ == nullptr || ((bits_[row / 64] >> (row % 64)) & 1);
  }

 private:
  const uint64_t* bits_;
};

// A chunk's row selection: row i of a selected chunk is row selection[i] of the rows it views;
// nullptr = every row in order.
class RowSelection {
 public:
  explicit RowSelection(const uint32_t* selection = nullptr) : selection_(selection) {}
  idx_t operator()(idx_t row) const { return selection_ == nullptr ? row : selection_[row]; }

 private:
  const uint32_t* selection_;
};

template <typename T>
class ScalarColumn {
 public:
  ScalarColumn(const T* data, Validity validity, RowSelection selection = RowSelection())
      : data_(data), validity_(validity), selection_(selection) {}
  bool IsNull(idx_t row) const { return !validity_.IsValid(selection_(row)); }
  // REQUIRES: !IsNull(row)
  T Get(idx_t row) const { return data_[selection_(row)]; }
  std::optional<T> Optional(idx_t row) const {
    const idx_t at = selection_(row);
    return validity_.IsValid(at) ? std::optional<T>(data_[at]) : std::nullopt;
  }

 private:
  const T* data_;
  Validity validity_;
  RowSelection selection_;
};

using Int64Column = ScalarColumn<int64_t>;
using DoubleColumn = ScalarColumn<double>;
using BoolColumn = ScalarColumn<bool>;

class VarcharColumn {
 public:
  VarcharColumn(duckdb_string_t* data, Validity validity, RowSelection selection = RowSelection())
      : data_(data), validity_(validity), selection_(selection) {}
  bool IsNull(idx_t row) const { return !validity_.IsValid(selection_(row)); }
  // REQUIRES: !IsNull(row). The view lives as long as the chunk.
  std::string_view Get(idx_t row) const {
    duckdb_string_t* s = data_ + selection_(row);
    return {duckdb_string_t_data(s), duckdb_string_t_length(*s)};
  }
  std::optional<std::string_view> Optional(idx_t row) const {
    return IsNull(row) ? std::nullopt : std::optional<std::string_view>(Get(row));
  }

 private:
  duckdb_string_t* data_;
  Validity validity_;
  RowSelection selection_;
};

// A LIST column: entries index a child column. Null elements are not part of the format
// (docs/format.md §6.1), so the Get() helpers raise FormatError naming the column when they meet
// one.
template <typename Child, typename Element>
class ListColumn {
 public:
  // `child` is not selected: the entries index it directly.
  ListColumn(const duckdb_list_entry* entries, Validity validity, Child child,
             Validity child_validity, const ResultShape* shape, idx_t column,
             RowSelection selection = RowSelection())
      : entries_(entries),
        validity_(validity),
        child_(child),
        child_validity_(child_validity),
        shape_(shape),
        column_(column),
        selection_(selection) {}
  bool IsNull(idx_t row) const { return !validity_.IsValid(selection_(row)); }
  // REQUIRES: !IsNull(row)
  std::vector<Element> Get(idx_t row) const {
    const duckdb_list_entry& e = entries_[selection_(row)];
    std::vector<Element> out;
    out.reserve(e.length);
    for (idx_t i = e.offset; i < e.offset + e.length; ++i) {
      if (!child_validity_.IsValid(i)) ThrowNullElement();
      out.push_back(Element(child_.Get(i)));
    }
    return out;
  }
  std::optional<std::vector<Element>> Optional(idx_t row) const {
    if (IsNull(row)) return std::nullopt;
    return Get(row);
  }
  // Zero-copy access: the child column and the [offset, offset + length) range of a row.
  const Child& child() const { return child_; }
  const duckdb_list_entry& entry(idx_t row) const { return entries_[selection_(row)]; }

 private:
  [[noreturn]] void ThrowNullElement() const;

  const duckdb_list_entry* entries_;
  Validity validity_;
  Child child_;
  Validity child_validity_;
  const ResultShape* shape_;
  idx_t column_;
  RowSelection selection_;
};

using Int64ListColumn = ListColumn<Int64Column, int64_t>;
using VarcharListColumn = ListColumn<VarcharColumn, std::string>;

// One data chunk of a result (up to duckdb_vector_size() rows), or rows copied out of results into
// timef's memory (OwnedRows, any number of rows; no connection behind them, so they survive
// Close() and fork), or a selection of such rows viewed in place. Column views point into it and
// must not outlive it.
class Chunk {
 public:
  Chunk(duckdb_data_chunk chunk, std::shared_ptr<const ResultShape> shape,
        std::shared_ptr<void> keep_alive);
  Chunk(std::shared_ptr<const OwnedRows> rows, std::shared_ptr<const ResultShape> shape);
  // Rows `selection` of `rows`, in that order, without a copy (each index < rows->size).
  Chunk(std::shared_ptr<const OwnedRows> rows, std::shared_ptr<const ResultShape> shape,
        std::vector<uint32_t> selection);
  ~Chunk();
  Chunk(Chunk&& other) noexcept;
  Chunk& operator=(Chunk&& other) noexcept;
  Chunk(const Chunk&) = delete;
  Chunk& operator=(const Chunk&) = delete;

  idx_t size() const;
  const std::shared_ptr<const ResultShape>& shape() const { return shape_; }

  // Each raises FormatError naming the column when its type differs.
  Int64Column Int64(idx_t column) const;
  DoubleColumn Double(idx_t column) const;
  BoolColumn Bool(idx_t column) const;
  VarcharColumn Varchar(idx_t column) const;  // VARCHAR or JSON
  Int64ListColumn Int64List(idx_t column) const;
  VarcharListColumn VarcharList(idx_t column) const;

  // The cell as text for checks and tests that compare rows as strings: nullopt for NULL, numbers
  // in decimal (doubles by std::to_string), booleans as true/false, lists as [a,b]. FormatError
  // naming the column for a type outside ColumnKind.
  std::optional<std::string> Text(idx_t column, idx_t row) const;

 private:
  // Checks the column's kind; then exactly one of the two is set: DuckDB's vector, or the owned
  // column.
  struct ColumnData {
    duckdb_vector vector = nullptr;
    const struct OwnedColumn* owned = nullptr;
  };
  ColumnData Column(idx_t column, ColumnKind kind) const;
  void Release();

  RowSelection Selection() const { return RowSelection(selected_ ? selection_.data() : nullptr); }

  duckdb_data_chunk chunk_ = nullptr;
  const OwnedRows* owned_ = nullptr;  // kept alive by keep_alive_
  bool selected_ = false;
  std::vector<uint32_t> selection_;  // a vector: moving it keeps the buffer views point into
  std::shared_ptr<const ResultShape> shape_;
  std::shared_ptr<void> keep_alive_;
};

// A materialized query result, read chunk by chunk.
class Result {
 public:
  Result(std::shared_ptr<ConnectionHandle> connection, std::shared_ptr<void> keep_alive,
         std::string_view what, std::unique_ptr<duckdb_result> result);
  ~Result();
  Result(Result&&) noexcept;
  Result& operator=(Result&&) noexcept;
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;

  idx_t column_count() const { return shape_->columns.size(); }
  const std::shared_ptr<const ResultShape>& shape() const { return shape_; }
  const ResultColumn& column(idx_t index) const { return shape_->columns.at(index); }
  // FormatError naming the column when the result has none of that name.
  idx_t ColumnIndex(std::string_view name) const;
  int64_t rows_changed();

  // The next chunk, or nullopt when the result is exhausted. ReaderError when the connection was
  // closed (Close() or fork) since the query ran. A streamed result raises the error DuckDB met
  // while producing it, and Error when another statement ran on the connection meanwhile.
  std::optional<Chunk> Next();

  // Marks a result DuckDB streams: `statement` is the connection's statement count when it
  // started (ConnectionHandle::BeginStatement), `owner` what must outlive it (its statement).
  void Streamed(uint64_t statement, std::shared_ptr<void> owner);

 private:
  void Release();

  std::shared_ptr<const ResultShape> shape_;
  std::shared_ptr<void> keep_alive_;
  std::shared_ptr<void> owner_;  // released after result_
  std::unique_ptr<duckdb_result> result_;
  std::optional<uint64_t> streamed_;
};

// FormatError "<file>: <what>.<column>: <problem>".
[[noreturn]] void ThrowColumnError(const ResultShape& shape, idx_t column,
                                   std::string_view problem);

template <typename Child, typename Element>
void ListColumn<Child, Element>::ThrowNullElement() const {
  ThrowColumnError(*shape_, column_, "NULL list element");
}

}  // namespace timef::catalog
