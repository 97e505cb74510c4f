#include "catalog/hydrate/cell_site.h"

#include <optional>
#include <string>

#include "core/json_forms.h"

namespace timef::catalog {

ErrorSite CellSite(std::string_view table_column) {
  const std::size_t dot = table_column.find('.');
  if (dot == std::string_view::npos) return ErrorSite{.object = std::string(table_column)};
  return ErrorSite{.object = std::string(table_column.substr(0, dot)),
                   .where = std::string(table_column.substr(dot + 1))};
}

Json ParseJsonCell(std::string_view text, std::string_view table_column) {
  // Most metadata cells are the empty object: one per task, occurrence and record.
  if (text == "{}") return Json::object();
  std::string problem;
  std::optional<Json> json = ParseJsonStrict(text, &problem);
  if (!json) throw FormatError(CellSite(table_column), problem);
  return std::move(*json);
}

}  // namespace timef::catalog
