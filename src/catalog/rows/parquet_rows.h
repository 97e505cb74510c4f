// Rows of a Parquet file of another writer, read through DuckDB's Parquet reader (docs/format.md
// §15.4): the legacy control tables nest structs and lists of structs, which the engine in
// src/parquet/ (flat columns and lists of primitives) does not assemble, so their rows come from
// DuckDB as JSON objects. UUID columns (FIXED_LEN_BYTE_ARRAY(16) with the UUID logical type) arrive
// as canonical lowercase strings.
//
// Ownership and threading: a ParquetRowReader owns one in-memory DuckDB database with file access
// on; use it from one thread at a time. Errors: FileError for a missing file, FormatError naming
// the file for one DuckDB cannot read.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace timef::catalog {

struct ParquetColumnType {
  std::string name;
  std::string type;  // DuckDB's type text, e.g. "UUID", "VARCHAR[]", "STRUCT(a BIGINT)[]"
};

class ParquetRowReader {
 public:
  ParquetRowReader();
  ~ParquetRowReader();
  ParquetRowReader(ParquetRowReader&&) noexcept;
  ParquetRowReader& operator=(ParquetRowReader&&) noexcept;

  // The top-level columns of `file` in schema order, with their DuckDB types.
  std::vector<ParquetColumnType> Columns(const std::filesystem::path& file);
  // Every row of `file` in file order, each as compact JSON text of an object keyed by column name.
  std::vector<std::string> RowsAsJson(const std::filesystem::path& file);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace timef::catalog
