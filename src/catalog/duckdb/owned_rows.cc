#include "catalog/duckdb/owned_rows.h"

#include <cstring>
#include <string_view>
#include <utility>

namespace timef::catalog {

// One column being copied. Strings are gathered as (offset, length) into one byte heap and turned
// into duckdb_string_t values at Finish(), once the heap no longer moves.
class RowsBuilder::ColumnBuilder {
 public:
  explicit ColumnBuilder(ColumnKind kind) : kind_(kind) {
    if (kind == ColumnKind::kBigintList)
      child_ = std::make_unique<ColumnBuilder>(ColumnKind::kBigint);
    if (kind == ColumnKind::kVarcharList) {
      child_ = std::make_unique<ColumnBuilder>(ColumnKind::kVarchar);
    }
  }

  idx_t rows() const { return rows_; }

  size_t bytes() const {
    return fixed_.size() + spans_.size() * sizeof(duckdb_string_t) + heap_.size() +
           validity_.size() * sizeof(uint64_t) + (child_ ? child_->bytes() : 0);
  }

  void AppendNull() {
    switch (kind_) {
      case ColumnKind::kVarchar:
        spans_.push_back({0, 0});
        break;
      case ColumnKind::kBigintList:
      case ColumnKind::kVarcharList:
        PushFixed(duckdb_list_entry{child_->rows(), 0});
        break;
      case ColumnKind::kBigint:
        PushFixed(int64_t{0});
        break;
      case ColumnKind::kDouble:
        PushFixed(0.0);
        break;
      case ColumnKind::kBoolean:
        PushFixed(false);
        break;
      case ColumnKind::kOther:
        break;
    }
    EndRow(false);
  }

  template <typename T>
  void AppendFixed(T value) {
    PushFixed(value);
    EndRow(true);
  }

  void AppendString(std::string_view text) {
    spans_.push_back({heap_.size(), text.size()});
    if (text.size() > 12) heap_.insert(heap_.end(), text.begin(), text.end());
    // Short strings are inlined at Finish(); keep their bytes in a side buffer meanwhile.
    else
      short_.insert(short_.end(), text.begin(), text.end());
    EndRow(true);
  }

  // A non-null list whose `length` elements the caller appends to child() next.
  void AppendListEntry(uint64_t length) {
    PushFixed(duckdb_list_entry{child_->rows(), length});
    EndRow(true);
  }
  ColumnBuilder& child() { return *child_; }

  OwnedColumn Finish() {
    OwnedColumn out;
    out.validity = std::move(validity_);
    if (kind_ == ColumnKind::kVarchar) {
      out.heap = std::move(heap_);
      out.data.resize(spans_.size() * sizeof(duckdb_string_t));
      auto* strings = reinterpret_cast<duckdb_string_t*>(out.data.data());
      size_t short_at = 0;
      for (size_t i = 0; i < spans_.size(); ++i) {
        const auto [offset, length] = spans_[i];
        duckdb_string_t& s = strings[i];
        std::memset(&s, 0, sizeof(s));
        if (length <= 12) {
          s.value.inlined.length = static_cast<uint32_t>(length);
          if (length > 0) std::memcpy(s.value.inlined.inlined, short_.data() + short_at, length);
          short_at += length;
        } else {
          s.value.pointer.length = static_cast<uint32_t>(length);
          std::memcpy(s.value.pointer.prefix, out.heap.data() + offset, 4);
          s.value.pointer.ptr = out.heap.data() + offset;
        }
      }
    } else {
      out.data = std::move(fixed_);
    }
    if (child_) out.child = std::make_unique<OwnedColumn>(child_->Finish());
    *this = ColumnBuilder(kind_);
    return out;
  }

 private:
  template <typename T>
  void PushFixed(T value) {
    const auto* bytes = reinterpret_cast<const std::byte*>(&value);
    fixed_.insert(fixed_.end(), bytes, bytes + sizeof(T));
  }
  void EndRow(bool valid) {
    if (rows_ % 64 == 0) validity_.push_back(0);
    if (valid) validity_.back() |= uint64_t{1} << (rows_ % 64);
    ++rows_;
  }

  ColumnKind kind_;
  idx_t rows_ = 0;
  std::vector<std::byte> fixed_;
  std::vector<uint64_t> validity_;
  std::vector<std::pair<size_t, size_t>> spans_;
  // A vector, not a std::string: moving it keeps the buffer, so pointers into it stay valid.
  std::vector<char> heap_;
  std::vector<char> short_;
  std::unique_ptr<ColumnBuilder> child_;
};

RowsBuilder::RowsBuilder(std::shared_ptr<const ResultShape> shape) : shape_(std::move(shape)) {
  for (const ResultColumn& column : shape_->columns) {
    columns_.push_back(std::make_unique<ColumnBuilder>(column.kind));
  }
}

RowsBuilder::~RowsBuilder() = default;

bool RowsBuilder::CanCopy(const ResultShape& shape) {
  for (const ResultColumn& column : shape.columns) {
    if (column.kind == ColumnKind::kOther) return false;
  }
  return true;
}

namespace {

template <typename Column, typename Builder>
void AppendScalar(const Column& column, idx_t row, Builder& out) {
  if (column.IsNull(row)) {
    out.AppendNull();
  } else {
    out.AppendFixed(column.Get(row));
  }
}

template <typename List, typename Builder>
void AppendList(const List& list, idx_t row, Builder& out) {
  if (list.IsNull(row)) return out.AppendNull();
  const duckdb_list_entry& entry = list.entry(row);
  out.AppendListEntry(entry.length);
  for (idx_t i = entry.offset; i < entry.offset + entry.length; ++i) {
    if (list.child().IsNull(i)) {
      out.child().AppendNull();
    } else if constexpr (std::is_same_v<List, VarcharListColumn>) {
      out.child().AppendString(list.child().Get(i));
    } else {
      out.child().AppendFixed(list.child().Get(i));
    }
  }
}

}  // namespace

void RowsBuilder::Append(const Chunk& chunk, idx_t row) {
  for (idx_t c = 0; c < columns_.size(); ++c) {
    ColumnBuilder& out = *columns_[c];
    switch (shape_->columns[c].kind) {
      case ColumnKind::kBigint:
        AppendScalar(chunk.Int64(c), row, out);
        break;
      case ColumnKind::kDouble:
        AppendScalar(chunk.Double(c), row, out);
        break;
      case ColumnKind::kBoolean:
        AppendScalar(chunk.Bool(c), row, out);
        break;
      case ColumnKind::kVarchar: {
        const VarcharColumn column = chunk.Varchar(c);
        if (column.IsNull(row)) {
          out.AppendNull();
        } else {
          out.AppendString(column.Get(row));
        }
        break;
      }
      case ColumnKind::kBigintList:
        AppendList(chunk.Int64List(c), row, out);
        break;
      case ColumnKind::kVarcharList:
        AppendList(chunk.VarcharList(c), row, out);
        break;
      case ColumnKind::kOther:
        ThrowColumnError(*shape_, c, "cannot copy a cell of type " + shape_->columns[c].type_name);
    }
  }
  ++size_;
}

size_t RowsBuilder::bytes() const {
  size_t total = 0;
  for (const auto& column : columns_) total += column->bytes();
  return total;
}

Chunk RowsBuilder::Finish() {
  auto [rows, shape] = FinishRows();
  return Chunk(std::move(rows), std::move(shape));
}

std::pair<std::shared_ptr<const OwnedRows>, std::shared_ptr<const ResultShape>>
RowsBuilder::FinishRows() {
  auto rows = std::make_shared<OwnedRows>();
  rows->size = size_;
  rows->columns.reserve(columns_.size());
  for (auto& column : columns_) rows->columns.push_back(column->Finish());
  size_ = 0;
  auto shape = std::make_shared<ResultShape>(*shape_);
  shape->connection = nullptr;
  return {std::move(rows), std::move(shape)};
}

}  // namespace timef::catalog
