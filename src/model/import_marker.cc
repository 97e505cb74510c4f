#include "timef/model/import_marker.h"

#include "model/checks.h"
#include "timef/ids.h"

namespace timef::model {

void ImportMarker::Check(const std::string& object, const std::string& field) const {
  if (!IsValidAlias(alias)) {
    internal::Fail(object, field + ".alias",
                   "parent alias " + internal::Quoted(alias) + " must match ^[a-z][a-z0-9_-]*$");
  }
  if (parent_id <= 0) {
    internal::Fail(object, field + ".parent_id",
                   "a parent ID is > 0, got " + std::to_string(parent_id));
  }
}

}  // namespace timef::model
