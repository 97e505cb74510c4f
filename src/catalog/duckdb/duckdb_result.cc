#include "catalog/duckdb/duckdb_result.h"

#include <string>
#include <type_traits>
#include <utility>

#include "catalog/duckdb/duckdb_types.h"
#include "catalog/duckdb/owned_rows.h"
#include "timef/error.h"

namespace timef::catalog {

void ThrowColumnError(const ResultShape& shape, idx_t column, std::string_view problem) {
  std::string where = shape.what;
  if (column < shape.columns.size()) {
    if (!where.empty()) where += '.';
    where += shape.columns[column].name;
  }
  throw FormatError(ErrorSite{.file = shape.file, .where = where}, problem);
}

// ---- Chunk ----

Chunk::Chunk(duckdb_data_chunk chunk, std::shared_ptr<const ResultShape> shape,
             std::shared_ptr<void> keep_alive)
    : chunk_(chunk), shape_(std::move(shape)), keep_alive_(std::move(keep_alive)) {}

Chunk::Chunk(std::shared_ptr<const OwnedRows> rows, std::shared_ptr<const ResultShape> shape)
    : owned_(rows.get()),
      shape_(std::move(shape)),
      keep_alive_(std::const_pointer_cast<OwnedRows>(std::move(rows))) {}

Chunk::Chunk(std::shared_ptr<const OwnedRows> rows, std::shared_ptr<const ResultShape> shape,
             std::vector<uint32_t> selection)
    : Chunk(std::move(rows), std::move(shape)) {
  selected_ = true;
  selection_ = std::move(selection);
}

Chunk::~Chunk() { Release(); }

idx_t Chunk::size() const {
  if (selected_) return selection_.size();
  return owned_ != nullptr ? owned_->size : duckdb_data_chunk_get_size(chunk_);
}

Chunk::Chunk(Chunk&& other) noexcept
    : chunk_(std::exchange(other.chunk_, nullptr)),
      owned_(std::exchange(other.owned_, nullptr)),
      selected_(std::exchange(other.selected_, false)),
      selection_(std::move(other.selection_)),
      shape_(std::move(other.shape_)),
      keep_alive_(std::move(other.keep_alive_)) {}

Chunk& Chunk::operator=(Chunk&& other) noexcept {
  if (this != &other) {
    Release();
    chunk_ = std::exchange(other.chunk_, nullptr);
    owned_ = std::exchange(other.owned_, nullptr);
    selected_ = std::exchange(other.selected_, false);
    selection_ = std::move(other.selection_);
    shape_ = std::move(other.shape_);
    keep_alive_ = std::move(other.keep_alive_);
  }
  return *this;
}

void Chunk::Release() {
  if (chunk_ != nullptr && !shape_->connection->leaked()) duckdb_destroy_data_chunk(&chunk_);
  chunk_ = nullptr;
}

Chunk::ColumnData Chunk::Column(idx_t column, ColumnKind kind) const {
  if (column >= shape_->columns.size()) {
    ThrowColumnError(*shape_, column, "column index " + std::to_string(column) + " out of range");
  }
  const ResultColumn& c = shape_->columns[column];
  if (c.kind != kind) {
    ThrowColumnError(
        *shape_, column,
        "expected type " + std::string(ColumnKindName(kind)) + ", found " + c.type_name);
  }
  if (owned_ != nullptr) return {.owned = &owned_->columns[column]};
  return {.vector = duckdb_data_chunk_get_vector(chunk_, column)};
}

namespace {

// The values and validity of one vector or owned column.
template <typename T>
const T* DataOf(duckdb_vector vector, const OwnedColumn* owned) {
  if (owned != nullptr) return owned->Data<T>();
  return static_cast<const T*>(duckdb_vector_get_data(vector));
}

Validity ValidityOf(duckdb_vector vector, const OwnedColumn* owned) {
  if (owned != nullptr) return Validity(owned->validity.data());
  return Validity(duckdb_vector_get_validity(vector));
}

template <typename Column, typename T>
Column ScalarOf(duckdb_vector vector, const OwnedColumn* owned,
                RowSelection selection = RowSelection()) {
  return Column(DataOf<T>(vector, owned), ValidityOf(vector, owned), selection);
}

}  // namespace

Int64Column Chunk::Int64(idx_t column) const {
  ColumnData d = Column(column, ColumnKind::kBigint);
  return ScalarOf<Int64Column, int64_t>(d.vector, d.owned, Selection());
}

DoubleColumn Chunk::Double(idx_t column) const {
  ColumnData d = Column(column, ColumnKind::kDouble);
  return ScalarOf<DoubleColumn, double>(d.vector, d.owned, Selection());
}

BoolColumn Chunk::Bool(idx_t column) const {
  ColumnData d = Column(column, ColumnKind::kBoolean);
  return ScalarOf<BoolColumn, bool>(d.vector, d.owned, Selection());
}

VarcharColumn Chunk::Varchar(idx_t column) const {
  ColumnData d = Column(column, ColumnKind::kVarchar);
  return VarcharColumn(const_cast<duckdb_string_t*>(DataOf<duckdb_string_t>(d.vector, d.owned)),
                       ValidityOf(d.vector, d.owned), Selection());
}

namespace {

// The child of a LIST vector or owned column.
std::pair<duckdb_vector, const OwnedColumn*> ChildOf(duckdb_vector vector,
                                                     const OwnedColumn* owned) {
  if (owned != nullptr) return {nullptr, owned->child.get()};
  return {duckdb_list_vector_get_child(vector), nullptr};
}

}  // namespace

Int64ListColumn Chunk::Int64List(idx_t column) const {
  ColumnData d = Column(column, ColumnKind::kBigintList);
  auto [child, owned_child] = ChildOf(d.vector, d.owned);
  return Int64ListColumn(DataOf<duckdb_list_entry>(d.vector, d.owned),
                         ValidityOf(d.vector, d.owned),
                         ScalarOf<Int64Column, int64_t>(child, owned_child),
                         ValidityOf(child, owned_child), shape_.get(), column, Selection());
}

VarcharListColumn Chunk::VarcharList(idx_t column) const {
  ColumnData d = Column(column, ColumnKind::kVarcharList);
  auto [child, owned_child] = ChildOf(d.vector, d.owned);
  return VarcharListColumn(
      DataOf<duckdb_list_entry>(d.vector, d.owned), ValidityOf(d.vector, d.owned),
      VarcharColumn(const_cast<duckdb_string_t*>(DataOf<duckdb_string_t>(child, owned_child)),
                    ValidityOf(child, owned_child)),
      ValidityOf(child, owned_child), shape_.get(), column, Selection());
}

std::optional<std::string> Chunk::Text(idx_t column, idx_t row) const {
  auto join = [](const auto& list) {
    std::string out = "[";
    for (size_t i = 0; i < list.size(); ++i) {
      if (i > 0) out += ",";
      if constexpr (std::is_same_v<std::decay_t<decltype(list[i])>, std::string>) {
        out += list[i];
      } else {
        out += std::to_string(list[i]);
      }
    }
    return out + "]";
  };
  const ColumnKind kind =
      column < shape_->columns.size() ? shape_->columns[column].kind : ColumnKind::kOther;
  switch (kind) {
    case ColumnKind::kBigint: {
      auto c = Int64(column);
      if (c.IsNull(row)) return std::nullopt;
      return std::to_string(c.Get(row));
    }
    case ColumnKind::kDouble: {
      auto c = Double(column);
      if (c.IsNull(row)) return std::nullopt;
      return std::to_string(c.Get(row));
    }
    case ColumnKind::kBoolean: {
      auto c = Bool(column);
      if (c.IsNull(row)) return std::nullopt;
      return c.Get(row) ? "true" : "false";
    }
    case ColumnKind::kVarchar: {
      auto c = Varchar(column);
      if (c.IsNull(row)) return std::nullopt;
      return std::string(c.Get(row));
    }
    case ColumnKind::kBigintList: {
      auto c = Int64List(column);
      if (c.IsNull(row)) return std::nullopt;
      return join(c.Get(row));
    }
    case ColumnKind::kVarcharList: {
      auto c = VarcharList(column);
      if (c.IsNull(row)) return std::nullopt;
      return join(c.Get(row));
    }
    case ColumnKind::kOther:
      break;
  }
  const std::string type =
      column < shape_->columns.size() ? shape_->columns[column].type_name : "(none)";
  ThrowColumnError(*shape_, column, "cannot render a cell of type " + type + " as text");
}

// ---- Result ----

Result::Result(std::shared_ptr<ConnectionHandle> connection, std::shared_ptr<void> keep_alive,
               std::string_view what, std::unique_ptr<duckdb_result> result)
    : keep_alive_(std::move(keep_alive)), result_(std::move(result)) {
  auto shape = std::make_shared<ResultShape>();
  shape->file = connection->path();
  shape->connection = std::move(connection);
  shape->what = std::string(what);
  idx_t n = duckdb_column_count(result_.get());
  shape->columns.reserve(n);
  for (idx_t i = 0; i < n; ++i) {
    duckdb_logical_type type = duckdb_column_logical_type(result_.get(), i);
    shape->columns.push_back(ResultColumn{.name = duckdb_column_name(result_.get(), i),
                                          .kind = ClassifyType(type),
                                          .type_name = LogicalTypeName(type)});
    duckdb_destroy_logical_type(&type);
  }
  shape_ = std::move(shape);
}

Result::~Result() { Release(); }

Result::Result(Result&& other) noexcept
    : shape_(std::move(other.shape_)),
      keep_alive_(std::move(other.keep_alive_)),
      owner_(std::move(other.owner_)),
      result_(std::move(other.result_)),
      streamed_(std::exchange(other.streamed_, std::nullopt)) {}

Result& Result::operator=(Result&& other) noexcept {
  if (this != &other) {
    Release();
    shape_ = std::move(other.shape_);
    keep_alive_ = std::move(other.keep_alive_);
    owner_ = std::move(other.owner_);
    result_ = std::move(other.result_);
    streamed_ = std::exchange(other.streamed_, std::nullopt);
  }
  return *this;
}

void Result::Release() {
  if (result_ != nullptr && !shape_->connection->leaked()) duckdb_destroy_result(result_.get());
  result_.reset();
  owner_.reset();
}

void Result::Streamed(uint64_t statement, std::shared_ptr<void> owner) {
  streamed_ = statement;
  owner_ = std::move(owner);
}

idx_t Result::ColumnIndex(std::string_view name) const {
  for (idx_t i = 0; i < shape_->columns.size(); ++i) {
    if (shape_->columns[i].name == name) return i;
  }
  throw FormatError(
      ErrorSite{.file = shape_->file, .where = shape_->what + "." + std::string(name)},
      "column missing from the result");
}

int64_t Result::rows_changed() { return static_cast<int64_t>(duckdb_rows_changed(result_.get())); }

std::optional<Chunk> Result::Next() {
  ConnectionHandle& connection = *shape_->connection;
  connection.CheckAlive(shape_->what);
  if (streamed_ && connection.statements() != *streamed_) {
    throw Error(ErrorSite{.file = shape_->file, .where = shape_->what},
                "another statement ran on the connection while this streamed result was read");
  }
  duckdb_data_chunk chunk = duckdb_fetch_chunk(*result_);
  if (chunk == nullptr) {
    if (streamed_) {
      if (const char* message = duckdb_result_error(result_.get())) {
        connection.ThrowError(shape_->what, duckdb_result_error_type(result_.get()), message);
      }
    }
    return std::nullopt;
  }
  Chunk out(chunk, shape_, keep_alive_);
  // A close that raced with the fetch: the rows may be cut short, so the read fails as a whole.
  shape_->connection->CheckAlive(shape_->what);
  return out;
}

}  // namespace timef::catalog
