#include "catalog/hydrate/spec_row.h"

#include <string>

#include "catalog/hydrate/cell_site.h"
#include "timef/error.h"

namespace timef::catalog {

void UnknownCellValue(std::string_view column, std::string_view value, std::string_view expected) {
  throw FormatError(CellSite(column),
                    "unknown value '" + std::string(value) + "'" + std::string(expected));
}

model::Spec SpecAt(const Chunk& c, idx_t row, idx_t first) {
  model::Spec spec;
  spec.spec_type = c.Varchar(first).Get(row);
  spec.name = c.Varchar(first + 1).Get(row);
  if (auto unit = c.Varchar(first + 2).Optional(row)) spec.unit = std::string(*unit);
  std::string_view dtype = c.Varchar(first + 3).Get(row);
  spec.dtype = ParsedCell(model::ParseDType(dtype), "signals.dtype", dtype);
  spec.categories = c.VarcharList(first + 4).Get(row);
  spec.value_shape = c.Int64List(first + 5).Get(row);
  spec.dimension_names = c.VarcharList(first + 6).Get(row);
  spec.nullable = c.Bool(first + 7).Get(row);
  std::string_view modality = c.Varchar(first + 8).Get(row);
  spec.modality = ParsedCell(model::ParseModality(modality), "signals.modality", modality);
  return spec;
}

}  // namespace timef::catalog
