// Where a stored cell sits, in the §12 message form: "signals.dtype" names table `signals` and
// column `dtype`, so that a hydration error reads "signals: dtype: unknown value 'x'".
#pragma once

#include <string_view>

#include "timef/error.h"
#include "timef/json.h"

namespace timef::catalog {

// `table_column` is "<table>.<column>"; without a dot it names a table.
ErrorSite CellSite(std::string_view table_column);

// A JSON cell (metadata, provenance) parsed strictly (§12); FormatError at CellSite(table_column).
Json ParseJsonCell(std::string_view text, std::string_view table_column);

// Sets `object`'s metadata from a JSON cell. A model object's metadata starts as the empty object,
// the usual cell, which is then left as it is (no parse, no allocation).
template <class Object>
void SetMetadataCell(Object& object, std::string_view text, std::string_view table_column) {
  if (text != "{}") object.set_metadata(ParseJsonCell(text, table_column));
}

}  // namespace timef::catalog
