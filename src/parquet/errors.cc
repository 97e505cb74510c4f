#include "parquet/errors.h"

namespace timef::parquet {

ErrorContext ErrorContext::WithRowGroup(std::int64_t index) const {
  ErrorContext copy = *this;
  copy.row_group = index;
  return copy;
}

ErrorContext ErrorContext::WithColumn(std::string path) const {
  ErrorContext copy = *this;
  copy.column = std::move(path);
  return copy;
}

ErrorContext ErrorContext::WithOffset(std::uint64_t file_offset) const {
  ErrorContext copy = *this;
  copy.offset = file_offset;
  return copy;
}

std::string ErrorContext::Where() const {
  std::string where;
  auto append = [&where](std::string_view part) {
    if (!where.empty()) where += ", ";
    where += part;
  };
  if (row_group) append("row group " + std::to_string(*row_group));
  if (!column.empty()) append("column " + column);
  if (offset) append("offset " + std::to_string(*offset));
  return where;
}

FormatError ErrorContext::Error(std::string_view problem) const {
  return FormatError(Site(), problem);
}

void ErrorContext::Throw(std::string_view problem) const { throw Error(problem); }

void ErrorContext::Rethrow(const DecodeError& error, std::uint64_t base) const {
  const auto* located = dynamic_cast<const DecodeErrorAt*>(&error);
  WithOffset(base + (located != nullptr ? located->offset() : 0)).Throw(error.problem());
}

}  // namespace timef::parquet
