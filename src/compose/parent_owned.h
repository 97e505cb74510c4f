// The parent-owned state of an imported object (docs/format.md §10): what the child may not change.
// Taken at import and compared at write; overlays (annotations without an inherited mark that the
// child attached) and the child-local ID are not part of it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "timef/model.h"

namespace timef::compose {

// (field, value) pairs in a fixed walk order; object identities (specs, axes, values sources,
// annotation contents and occurrences) are compared by address, since a child that replaces one
// of them has changed parent-owned data even when the new one reads equal.
using ParentOwned = std::vector<std::pair<std::string, std::string>>;

ParentOwned ParentOwnedOf(const model::Record& record);
ParentOwned ParentOwnedOf(const model::Task& task);

// ValidationError "parent-owned" naming `object` and the first field that differs.
void CheckUnchanged(const std::string& object, const ParentOwned& before, const ParentOwned& now);

}  // namespace timef::compose
