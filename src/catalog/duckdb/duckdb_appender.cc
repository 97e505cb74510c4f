#include "catalog/duckdb/duckdb_appender.h"

#include <cstring>
#include <utility>

#include "catalog/duckdb/duckdb_types.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

std::vector<std::string> TableColumnNames(duckdb_connection connection, const std::string& table,
                                          idx_t count) {
  std::vector<std::string> names;
  duckdb_table_description description = nullptr;
  if (duckdb_table_description_create(connection, nullptr, table.c_str(), &description) ==
      DuckDBSuccess) {
    for (idx_t i = 0; i < count; ++i) {
      char* name = duckdb_table_description_get_column_name(description, i);
      names.emplace_back(name != nullptr ? name : "");
      duckdb_free(name);
    }
  }
  duckdb_table_description_destroy(&description);
  names.resize(count);
  return names;
}

}  // namespace

Appender::Appender(std::shared_ptr<ConnectionHandle> connection, std::shared_ptr<void> keep_alive,
                   std::string_view table)
    : connection_(std::move(connection)), keep_alive_(std::move(keep_alive)), table_(table) {
  connection_->CheckAlive(table_);
  if (duckdb_appender_create(connection_->get(), nullptr, table_.c_str(), &appender_) !=
      DuckDBSuccess) {
    // The failed appender still owns its error and must be destroyed (duckdb.h); no destructor
    // runs for a constructor that throws.
    std::string message = "cannot create appender";
    if (duckdb_error_data error = duckdb_appender_error_data(appender_)) {
      if (duckdb_error_data_has_error(error)) {
        message += std::string(": ") + duckdb_error_data_message(error);
      }
      duckdb_destroy_error_data(&error);
    }
    duckdb_appender_destroy(&appender_);
    appender_ = nullptr;
    connection_->CheckAlive(table_);
    throw Error(ErrorSite{.file = connection_->path(), .where = table_}, message);
  }
  idx_t count = duckdb_appender_column_count(appender_);
  std::vector<std::string> names = TableColumnNames(connection_->get(), table_, count);
  std::vector<duckdb_logical_type> types;
  types.reserve(count);
  for (idx_t i = 0; i < count; ++i) {
    duckdb_logical_type type = duckdb_appender_column_type(appender_, i);
    columns_.push_back(Column{names[i], ClassifyType(type), LogicalTypeName(type)});
    types.push_back(type);
  }
  chunk_ = duckdb_create_data_chunk(types.data(), count);
  for (duckdb_logical_type& type : types) duckdb_destroy_logical_type(&type);
  capacity_ = duckdb_vector_size();
}

Appender::~Appender() { Release(); }

Appender::Appender(Appender&& other) noexcept
    : connection_(std::move(other.connection_)),
      keep_alive_(std::move(other.keep_alive_)),
      table_(std::move(other.table_)),
      appender_(std::exchange(other.appender_, nullptr)),
      chunk_(std::exchange(other.chunk_, nullptr)),
      columns_(std::move(other.columns_)),
      capacity_(other.capacity_),
      row_(other.row_),
      column_(other.column_),
      rows_(other.rows_) {}

Appender& Appender::operator=(Appender&& other) noexcept {
  if (this != &other) {
    Release();
    connection_ = std::move(other.connection_);
    keep_alive_ = std::move(other.keep_alive_);
    table_ = std::move(other.table_);
    appender_ = std::exchange(other.appender_, nullptr);
    chunk_ = std::exchange(other.chunk_, nullptr);
    columns_ = std::move(other.columns_);
    capacity_ = other.capacity_;
    row_ = other.row_;
    column_ = other.column_;
    rows_ = other.rows_;
  }
  return *this;
}

void Appender::Release() {
  bool leaked = connection_ != nullptr && connection_->leaked();
  if (chunk_ != nullptr && !leaked) duckdb_destroy_data_chunk(&chunk_);
  chunk_ = nullptr;
  if (appender_ != nullptr && !leaked) duckdb_appender_destroy(&appender_);
  appender_ = nullptr;
}

void Appender::ThrowAppenderError(std::string_view action) {
  std::string message(action);
  if (appender_ != nullptr) {
    duckdb_error_data error = duckdb_appender_error_data(appender_);
    if (error != nullptr) {
      if (duckdb_error_data_has_error(error)) {
        message += ": ";
        message += duckdb_error_data_message(error);
      }
      duckdb_destroy_error_data(&error);
    }
  }
  connection_->CheckAlive(table_);
  throw Error(ErrorSite{.file = connection_->path(), .where = table_}, message);
}

void Appender::ThrowUsage(std::string_view problem) {
  std::string where = table_;
  if (column_ < columns_.size()) where += "." + columns_[column_].name;
  throw Error(ErrorSite{.file = connection_->path(), .where = where}, problem);
}

duckdb_vector Appender::Next(ColumnKind kind, std::string_view appended) {
  if (appender_ == nullptr) ThrowUsage("appender already closed");
  if (column_ >= columns_.size()) {
    ThrowUsage("row has only " + std::to_string(columns_.size()) + " columns");
  }
  const Column& c = columns_[column_];
  if (kind != ColumnKind::kOther && c.kind != kind) {
    ThrowUsage("cannot append " + std::string(appended) + " to a " + c.type_name + " column");
  }
  return duckdb_data_chunk_get_vector(chunk_, column_++);
}

void Appender::SetValid(duckdb_vector vector, bool valid) {
  if (valid) {
    // A reset chunk starts all-valid; only a mask that exists can hold a stale bit.
    if (uint64_t* mask = duckdb_vector_get_validity(vector)) {
      duckdb_validity_set_row_valid(mask, row_);
    }
    return;
  }
  duckdb_vector_ensure_validity_writable(vector);
  duckdb_validity_set_row_invalid(duckdb_vector_get_validity(vector), row_);
}

Appender& Appender::Int64(int64_t value) {
  duckdb_vector v = Next(ColumnKind::kBigint, "BIGINT");
  static_cast<int64_t*>(duckdb_vector_get_data(v))[row_] = value;
  SetValid(v, true);
  return *this;
}

Appender& Appender::Double(double value) {
  duckdb_vector v = Next(ColumnKind::kDouble, "DOUBLE");
  static_cast<double*>(duckdb_vector_get_data(v))[row_] = value;
  SetValid(v, true);
  return *this;
}

Appender& Appender::Bool(bool value) {
  duckdb_vector v = Next(ColumnKind::kBoolean, "BOOLEAN");
  static_cast<bool*>(duckdb_vector_get_data(v))[row_] = value;
  SetValid(v, true);
  return *this;
}

Appender& Appender::Varchar(std::string_view value) {
  duckdb_vector v = Next(ColumnKind::kVarchar, "VARCHAR");
  duckdb_vector_assign_string_element_len(v, row_, value.data(), value.size());
  SetValid(v, true);
  return *this;
}

Appender& Appender::Null() {
  ColumnKind kind = column_ < columns_.size() ? columns_[column_].kind : ColumnKind::kOther;
  duckdb_vector v = Next(ColumnKind::kOther, "NULL");
  if (kind == ColumnKind::kBigintList || kind == ColumnKind::kVarcharList) {
    // Keep the entry well-formed even though it is masked out.
    auto* entries = static_cast<duckdb_list_entry*>(duckdb_vector_get_data(v));
    entries[row_] = duckdb_list_entry{duckdb_list_vector_get_size(v), 0};
  }
  SetValid(v, false);
  return *this;
}

Appender& Appender::Int64List(std::span<const int64_t> values) {
  duckdb_vector v = Next(ColumnKind::kBigintList, "BIGINT[]");
  idx_t offset = duckdb_list_vector_get_size(v);
  if (duckdb_list_vector_reserve(v, offset + values.size()) != DuckDBSuccess) {
    ThrowUsage("cannot reserve list space");
  }
  duckdb_vector child = duckdb_list_vector_get_child(v);
  if (!values.empty()) {
    std::memcpy(static_cast<int64_t*>(duckdb_vector_get_data(child)) + offset, values.data(),
                values.size() * sizeof(int64_t));
  }
  duckdb_list_vector_set_size(v, offset + values.size());
  static_cast<duckdb_list_entry*>(duckdb_vector_get_data(v))[row_] =
      duckdb_list_entry{offset, values.size()};
  SetValid(v, true);
  return *this;
}

Appender& Appender::VarcharList(std::span<const std::string_view> values) {
  duckdb_vector v = Next(ColumnKind::kVarcharList, "VARCHAR[]");
  idx_t offset = duckdb_list_vector_get_size(v);
  if (duckdb_list_vector_reserve(v, offset + values.size()) != DuckDBSuccess) {
    ThrowUsage("cannot reserve list space");
  }
  duckdb_vector child = duckdb_list_vector_get_child(v);
  for (idx_t i = 0; i < values.size(); ++i) {
    duckdb_vector_assign_string_element_len(child, offset + i, values[i].data(), values[i].size());
  }
  duckdb_list_vector_set_size(v, offset + values.size());
  static_cast<duckdb_list_entry*>(duckdb_vector_get_data(v))[row_] =
      duckdb_list_entry{offset, values.size()};
  SetValid(v, true);
  return *this;
}

Appender& Appender::VarcharList(std::span<const std::string> values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  return VarcharList(std::span<const std::string_view>(views));
}

void Appender::EndRow() {
  if (appender_ == nullptr) ThrowUsage("appender already closed");
  if (column_ != columns_.size()) {
    ThrowUsage("row ended after " + std::to_string(column_) + " of " +
               std::to_string(columns_.size()) + " columns");
  }
  column_ = 0;
  ++row_;
  ++rows_;
  if (row_ == capacity_) FlushChunk();
}

void Appender::FlushChunk() {
  if (row_ == 0) return;
  connection_->CheckAlive(table_);
  duckdb_data_chunk_set_size(chunk_, row_);
  if (duckdb_append_data_chunk(appender_, chunk_) != DuckDBSuccess) {
    ThrowAppenderError("append failed");
  }
  duckdb_data_chunk_reset(chunk_);
  for (idx_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].kind == ColumnKind::kBigintList ||
        columns_[i].kind == ColumnKind::kVarcharList) {
      duckdb_list_vector_set_size(duckdb_data_chunk_get_vector(chunk_, i), 0);
    }
  }
  row_ = 0;
}

void Appender::Close() {
  if (appender_ == nullptr) return;
  if (column_ != 0) ThrowUsage("row not ended before Close()");
  FlushChunk();
  if (duckdb_appender_close(appender_) != DuckDBSuccess) ThrowAppenderError("flush failed");
  Release();
}

}  // namespace timef::catalog
