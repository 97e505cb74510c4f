// A parent release (docs/format.md §5.2 `metadata.parents`, §6.3 `dataset_parents`): the one type
// the model (Dataset::parents), the manifest card and the catalog identity check all use.
#pragma once

#include <string>

namespace timef::model {

// One exact parent release under a local alias. Plain data: copyable, no threading concerns; the
// rules on its fields are checked where it is used (Dataset::AddParent, the manifest checks).
struct ParentRelease {
  std::string alias;       // ^[a-z][a-z0-9_-]*$
  std::string dataset_id;  // org/name
  std::string version;     // x.y.z

  std::string Ref() const { return dataset_id + "@" + version; }
  bool operator==(const ParentRelease&) const = default;
};

}  // namespace timef::model
