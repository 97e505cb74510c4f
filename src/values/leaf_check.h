// §7.5/§7.6 reader side: whether a file's `values` leaf can hold a spec's dtype.
#pragma once

#include <string>

#include "parquet/schema.h"
#include "timef/model.h"

namespace timef::values {

// The problem with `leaf` as the `values` column for `spec` ("" when it fits): not a standard
// 3-level list (flat or legacy 2-level), or a physical type, integer width or signedness that is
// not the dtype's. Integer annotations come from the logical type, else the converted type; an
// unannotated INT32 is int32.
std::string ValuesLeafProblem(const parquet::ColumnDescriptor& leaf, const model::Spec& spec);

}  // namespace timef::values
