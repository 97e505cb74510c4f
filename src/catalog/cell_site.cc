#include "catalog/cell_site.h"

#include <string>

namespace timef::catalog {

ErrorSite CellSite(std::string_view table_column) {
  const std::size_t dot = table_column.find('.');
  if (dot == std::string_view::npos) return ErrorSite{.object = std::string(table_column)};
  return ErrorSite{.object = std::string(table_column.substr(0, dot)),
                   .where = std::string(table_column.substr(dot + 1))};
}

}  // namespace timef::catalog
