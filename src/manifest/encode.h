// Manifest → JSON value in docs/format.md §5 key order. No validation beyond enum values being in
// range.
#pragma once

#include "timef/json.h"
#include "timef/manifest.h"

namespace timef::manifest::internal {

// Throws ValidationError naming the JSON pointer of an enum value outside its declared range.
Json EncodeManifest(const Manifest& manifest);

}  // namespace timef::manifest::internal
