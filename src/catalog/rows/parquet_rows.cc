#include "catalog/rows/parquet_rows.h"

#include <system_error>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/duckdb/duckdb_result.h"
#include "timef/error.h"

namespace timef::catalog {

namespace {

// A SQL string literal of the file's path.
std::string Literal(const std::filesystem::path& file) {
  std::string out = "'";
  for (char c : file.string()) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

void RequireFile(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    throw MissingFileError(ErrorSite{.file = file}, "missing Parquet file");
  }
}

}  // namespace

struct ParquetRowReader::Impl {
  Database db = Database::Open(":memory:", AccessMode::kReadWrite);
  Connection connection{db};

  // Runs `sql` on `file`, turning DuckDB's refusal into a FormatError naming the file.
  Result Run(const std::filesystem::path& file, const std::string& sql) {
    try {
      return connection.Query(sql, "parquet");
    } catch (const Error& e) {
      throw FormatError(ErrorSite{.file = file}, std::string("cannot read Parquet: ") + e.what());
    }
  }
};

ParquetRowReader::ParquetRowReader() : impl_(std::make_unique<Impl>()) {}
ParquetRowReader::~ParquetRowReader() = default;
ParquetRowReader::ParquetRowReader(ParquetRowReader&&) noexcept = default;
ParquetRowReader& ParquetRowReader::operator=(ParquetRowReader&&) noexcept = default;

std::vector<ParquetColumnType> ParquetRowReader::Columns(const std::filesystem::path& file) {
  RequireFile(file);
  Result result = impl_->Run(
      file, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(" +
                Literal(file) + "))");
  std::vector<ParquetColumnType> out;
  while (std::optional<Chunk> chunk = result.Next()) {
    VarcharColumn names = chunk->Varchar(0);
    VarcharColumn types = chunk->Varchar(1);
    for (idx_t row = 0; row < chunk->size(); ++row) {
      out.push_back({std::string(names.Get(row)), std::string(types.Get(row))});
    }
  }
  return out;
}

std::vector<std::string> ParquetRowReader::RowsAsJson(const std::filesystem::path& file) {
  RequireFile(file);
  // file_row_number is the row's position in the file; the struct excludes it.
  Result result =
      impl_->Run(file,
                 "SELECT CAST(to_json(t) AS VARCHAR) FROM (SELECT * EXCLUDE (file_row_number) FROM "
                 "read_parquet(" +
                     Literal(file) + ", file_row_number = true) ORDER BY file_row_number) t");
  std::vector<std::string> out;
  while (std::optional<Chunk> chunk = result.Next()) {
    VarcharColumn rows = chunk->Varchar(0);
    for (idx_t row = 0; row < chunk->size(); ++row) out.emplace_back(rows.Get(row));
  }
  return out;
}

}  // namespace timef::catalog
