#include "catalog/duckdb_result.h"

#include <string>
#include <type_traits>
#include <utility>

#include "catalog/duckdb_types.h"
#include "timef/error.h"

namespace timef::catalog {

void ThrowColumnError(const ResultShape& shape, idx_t column, std::string_view problem) {
  std::string where = shape.what;
  if (column < shape.columns.size()) {
    if (!where.empty()) where += '.';
    where += shape.columns[column].name;
  }
  throw FormatError(ErrorSite{.file = shape.connection->path(), .where = where}, problem);
}

// ---- Chunk ----

Chunk::Chunk(duckdb_data_chunk chunk, std::shared_ptr<const ResultShape> shape,
             std::shared_ptr<void> keep_alive)
    : chunk_(chunk), shape_(std::move(shape)), keep_alive_(std::move(keep_alive)) {}

Chunk::~Chunk() { Release(); }

Chunk::Chunk(Chunk&& other) noexcept
    : chunk_(std::exchange(other.chunk_, nullptr)),
      shape_(std::move(other.shape_)),
      keep_alive_(std::move(other.keep_alive_)) {}

Chunk& Chunk::operator=(Chunk&& other) noexcept {
  if (this != &other) {
    Release();
    chunk_ = std::exchange(other.chunk_, nullptr);
    shape_ = std::move(other.shape_);
    keep_alive_ = std::move(other.keep_alive_);
  }
  return *this;
}

void Chunk::Release() {
  if (chunk_ != nullptr && !shape_->connection->leaked()) duckdb_destroy_data_chunk(&chunk_);
  chunk_ = nullptr;
}

duckdb_vector Chunk::Vector(idx_t column, ColumnKind kind) const {
  if (column >= shape_->columns.size()) {
    ThrowColumnError(*shape_, column, "column index " + std::to_string(column) + " out of range");
  }
  const ResultColumn& c = shape_->columns[column];
  if (c.kind != kind) {
    ThrowColumnError(
        *shape_, column,
        "expected type " + std::string(ColumnKindName(kind)) + ", found " + c.type_name);
  }
  return duckdb_data_chunk_get_vector(chunk_, column);
}

Int64Column Chunk::Int64(idx_t column) const {
  duckdb_vector v = Vector(column, ColumnKind::kBigint);
  return Int64Column(static_cast<const int64_t*>(duckdb_vector_get_data(v)),
                     Validity(duckdb_vector_get_validity(v)));
}

DoubleColumn Chunk::Double(idx_t column) const {
  duckdb_vector v = Vector(column, ColumnKind::kDouble);
  return DoubleColumn(static_cast<const double*>(duckdb_vector_get_data(v)),
                      Validity(duckdb_vector_get_validity(v)));
}

BoolColumn Chunk::Bool(idx_t column) const {
  duckdb_vector v = Vector(column, ColumnKind::kBoolean);
  return BoolColumn(static_cast<const bool*>(duckdb_vector_get_data(v)),
                    Validity(duckdb_vector_get_validity(v)));
}

VarcharColumn Chunk::Varchar(idx_t column) const {
  duckdb_vector v = Vector(column, ColumnKind::kVarchar);
  return VarcharColumn(static_cast<duckdb_string_t*>(duckdb_vector_get_data(v)),
                       Validity(duckdb_vector_get_validity(v)));
}

Int64ListColumn Chunk::Int64List(idx_t column) const {
  duckdb_vector v = Vector(column, ColumnKind::kBigintList);
  duckdb_vector child = duckdb_list_vector_get_child(v);
  Validity child_validity(duckdb_vector_get_validity(child));
  return Int64ListColumn(
      static_cast<const duckdb_list_entry*>(duckdb_vector_get_data(v)),
      Validity(duckdb_vector_get_validity(v)),
      Int64Column(static_cast<const int64_t*>(duckdb_vector_get_data(child)), child_validity),
      child_validity, shape_.get(), column);
}

VarcharListColumn Chunk::VarcharList(idx_t column) const {
  duckdb_vector v = Vector(column, ColumnKind::kVarcharList);
  duckdb_vector child = duckdb_list_vector_get_child(v);
  Validity child_validity(duckdb_vector_get_validity(child));
  return VarcharListColumn(
      static_cast<const duckdb_list_entry*>(duckdb_vector_get_data(v)),
      Validity(duckdb_vector_get_validity(v)),
      VarcharColumn(static_cast<duckdb_string_t*>(duckdb_vector_get_data(child)), child_validity),
      child_validity, shape_.get(), column);
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
      result_(std::move(other.result_)) {}

Result& Result::operator=(Result&& other) noexcept {
  if (this != &other) {
    Release();
    shape_ = std::move(other.shape_);
    keep_alive_ = std::move(other.keep_alive_);
    result_ = std::move(other.result_);
  }
  return *this;
}

void Result::Release() {
  if (result_ != nullptr && !shape_->connection->leaked()) duckdb_destroy_result(result_.get());
  result_.reset();
}

idx_t Result::ColumnIndex(std::string_view name) const {
  for (idx_t i = 0; i < shape_->columns.size(); ++i) {
    if (shape_->columns[i].name == name) return i;
  }
  throw FormatError(ErrorSite{.file = shape_->connection->path(),
                              .where = shape_->what + "." + std::string(name)},
                    "column missing from the result");
}

int64_t Result::rows_changed() { return static_cast<int64_t>(duckdb_rows_changed(result_.get())); }

std::optional<Chunk> Result::Next() {
  shape_->connection->CheckAlive(shape_->what);
  duckdb_data_chunk chunk = duckdb_fetch_chunk(*result_);
  if (chunk == nullptr) return std::nullopt;
  Chunk out(chunk, shape_, keep_alive_);
  // A close that raced with the fetch: the rows may be cut short, so the read fails as a whole.
  shape_->connection->CheckAlive(shape_->what);
  return out;
}

}  // namespace timef::catalog
