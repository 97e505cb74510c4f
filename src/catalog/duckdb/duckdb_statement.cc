#include "catalog/duckdb/duckdb_statement.h"

#include <utility>
#include <vector>

#include "timef/error.h"

namespace timef::catalog {
namespace {

// Owns the duckdb_values that make up one list value.
class ListValue {
 public:
  ListValue(duckdb_type element_type, std::vector<duckdb_value> elements) {
    duckdb_logical_type type = duckdb_create_logical_type(element_type);
    // DuckDB answers nullptr for a null `values` pointer even when the count is 0.
    duckdb_value none = nullptr;
    value_ =
        duckdb_create_list_value(type, elements.empty() ? &none : elements.data(), elements.size());
    duckdb_destroy_logical_type(&type);
    for (duckdb_value& v : elements) duckdb_destroy_value(&v);
  }
  ~ListValue() {
    if (value_ != nullptr) duckdb_destroy_value(&value_);
  }
  ListValue(const ListValue&) = delete;
  ListValue& operator=(const ListValue&) = delete;
  duckdb_value get() const {
    if (value_ == nullptr) throw Error("cannot create a DuckDB list value");
    return value_;
  }

 private:
  duckdb_value value_ = nullptr;
};

}  // namespace

PreparedStatement::PreparedStatement(std::shared_ptr<ConnectionHandle> connection,
                                     std::shared_ptr<void> keep_alive, std::string_view sql,
                                     std::string_view what)
    : connection_(std::move(connection)), keep_alive_(std::move(keep_alive)), what_(what) {
  connection_->CheckAlive(what_);
  connection_->BeginStatement();
  std::string text(sql);
  duckdb_state state = duckdb_prepare(connection_->get(), text.c_str(), &statement_);
  if (state != DuckDBSuccess) {
    std::string message = duckdb_prepare_error(statement_);
    Release();
    connection_->ThrowError(what_, message);
  }
  connection_->CheckAlive(what_);
}

PreparedStatement::~PreparedStatement() { Release(); }

PreparedStatement::PreparedStatement(PreparedStatement&& other) noexcept
    : connection_(std::move(other.connection_)),
      keep_alive_(std::move(other.keep_alive_)),
      what_(std::move(other.what_)),
      statement_(std::exchange(other.statement_, nullptr)) {}

PreparedStatement& PreparedStatement::operator=(PreparedStatement&& other) noexcept {
  if (this != &other) {
    Release();
    connection_ = std::move(other.connection_);
    keep_alive_ = std::move(other.keep_alive_);
    what_ = std::move(other.what_);
    statement_ = std::exchange(other.statement_, nullptr);
  }
  return *this;
}

void PreparedStatement::Release() {
  if (statement_ != nullptr && !connection_->leaked()) duckdb_destroy_prepare(&statement_);
  statement_ = nullptr;
}

idx_t PreparedStatement::parameter_count() const { return duckdb_nparams(statement_); }

void PreparedStatement::CheckBind(duckdb_state state, idx_t param) {
  if (state == DuckDBSuccess) return;
  throw Error(ErrorSite{.file = connection_->path(), .where = what_},
              "cannot bind parameter $" + std::to_string(param) + " (statement has " +
                  std::to_string(parameter_count()) + " parameters)");
}

PreparedStatement& PreparedStatement::BindInt64(idx_t param, int64_t value) {
  CheckBind(duckdb_bind_int64(statement_, param, value), param);
  return *this;
}

PreparedStatement& PreparedStatement::BindDouble(idx_t param, double value) {
  CheckBind(duckdb_bind_double(statement_, param, value), param);
  return *this;
}

PreparedStatement& PreparedStatement::BindBool(idx_t param, bool value) {
  CheckBind(duckdb_bind_boolean(statement_, param, value), param);
  return *this;
}

PreparedStatement& PreparedStatement::BindVarchar(idx_t param, std::string_view value) {
  CheckBind(duckdb_bind_varchar_length(statement_, param, value.data(), value.size()), param);
  return *this;
}

PreparedStatement& PreparedStatement::BindNull(idx_t param) {
  CheckBind(duckdb_bind_null(statement_, param), param);
  return *this;
}

PreparedStatement& PreparedStatement::BindInt64List(idx_t param, std::span<const int64_t> values) {
  std::vector<duckdb_value> elements;
  elements.reserve(values.size());
  for (int64_t v : values) elements.push_back(duckdb_create_int64(v));
  ListValue list(DUCKDB_TYPE_BIGINT, std::move(elements));
  CheckBind(duckdb_bind_value(statement_, param, list.get()), param);
  return *this;
}

PreparedStatement& PreparedStatement::BindVarcharList(idx_t param,
                                                      std::span<const std::string_view> values) {
  std::vector<duckdb_value> elements;
  elements.reserve(values.size());
  for (std::string_view v : values) {
    elements.push_back(duckdb_create_varchar_length(v.data(), v.size()));
  }
  ListValue list(DUCKDB_TYPE_VARCHAR, std::move(elements));
  CheckBind(duckdb_bind_value(statement_, param, list.get()), param);
  return *this;
}

PreparedStatement& PreparedStatement::BindVarcharList(idx_t param,
                                                      std::span<const std::string> values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  return BindVarcharList(param, std::span<const std::string_view>(views));
}

void PreparedStatement::ClearBindings() { duckdb_clear_bindings(statement_); }

std::unique_ptr<duckdb_result> PreparedStatement::Run(bool streaming) {
  auto result = std::make_unique<duckdb_result>();
  const duckdb_state state = streaming ? duckdb_execute_prepared_streaming(statement_, result.get())
                                       : duckdb_execute_prepared(statement_, result.get());
  if (state != DuckDBSuccess) {
    std::string message = duckdb_result_error(result.get());
    duckdb_error_type type = duckdb_result_error_type(result.get());
    duckdb_destroy_result(result.get());
    connection_->ThrowError(what_, type, message);
  }
  return result;
}

Result PreparedStatement::Execute() {
  connection_->CheckAlive(what_);
  connection_->BeginStatement();
  auto result = Run(/*streaming=*/false);
  // Wrap first so that the result is freed if the connection was closed meanwhile.
  Result out(connection_, keep_alive_, what_, std::move(result));
  connection_->CheckAlive(what_);
  return out;
}

Result PreparedStatement::ExecuteStreaming(std::shared_ptr<PreparedStatement> self) {
  connection_->CheckAlive(what_);
  const uint64_t statement = connection_->BeginStatement();
  auto result = Run(/*streaming=*/true);
  Result out(connection_, keep_alive_, what_, std::move(result));
  out.Streamed(statement, std::move(self));
  connection_->CheckAlive(what_);
  return out;
}

}  // namespace timef::catalog
