// Builds an ArrowTable (include/timef/arrow_table.h) column by column, row by row: the catalog's
// table exports fill one from query results. Each exported array owns its buffers through its
// private data, so a consumer that takes the batch needs nothing of the builder or the catalog.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "timef/arrow_table.h"

namespace timef::catalog {

enum class ArrowType { kInt64, kDouble, kBool, kString, kInt64List, kStringList };

// A schema node owning its strings and children (released by its release callback).
ArrowSchema MakeArrowSchema(std::string_view format, std::string_view name, int64_t flags,
                            std::vector<ArrowSchema> children, std::string metadata = {});
// A deep copy of `schema` (format, name, metadata, flags, children, dictionary).
ArrowSchema CopyArrowSchema(const ArrowSchema& schema);

class ArrowTableBuilder {
 public:
  ArrowTableBuilder();
  ~ArrowTableBuilder();
  ArrowTableBuilder(const ArrowTableBuilder&) = delete;
  ArrowTableBuilder& operator=(const ArrowTableBuilder&) = delete;

  // Declares the next column (every column is nullable); returns its index.
  std::size_t AddColumn(std::string name, ArrowType type);

  // Each appends one cell to column `column`, whose type must match (std::logic_error otherwise).
  void AppendNull(std::size_t column);
  void AppendInt64(std::size_t column, int64_t value);
  void AppendDouble(std::size_t column, double value);
  void AppendBool(std::size_t column, bool value);
  void AppendString(std::size_t column, std::string_view value);
  void AppendInt64List(std::size_t column, std::span<const int64_t> values);
  void AppendStringList(std::size_t column, std::span<const std::string> values);

  // The table; every column must hold the same number of cells (std::logic_error otherwise).
  // The builder is empty afterwards.
  ArrowTable Finish();

 private:
  struct Column;
  Column& At(std::size_t column, ArrowType type);
  std::vector<std::unique_ptr<Column>> columns_;
};

}  // namespace timef::catalog
