// Parent aliases of imported objects (docs/format.md §10): an imported Record, Signal or Task keeps
// the pair (parent alias, the parent's ID) next to its own child-local ID.
#pragma once

#include <cstdint>
#include <string>

namespace timef::model {

struct ImportMarker {
  std::string alias;      // ^[a-z][a-z0-9_-]*$, one of the dataset's parents
  int64_t parent_id = 0;  // > 0: the object's ID in that parent

  // ValidationError naming `object` and `field` for a bad alias or a parent_id ≤ 0.
  void Check(const std::string& object, const std::string& field) const;

  bool operator==(const ImportMarker&) const = default;
};

}  // namespace timef::model
