#include <set>

#include "manifest/check.h"
#include "timef/ids.h"

namespace timef::manifest::internal {

bool IsNotBlank(std::string_view text) {
  return text.find_first_not_of(" \t\n\r\f\v") != std::string_view::npos;
}

void CheckCardValues(const Card& card, const std::string& pointer, Problems& problems) {
  if (!IsValidDatasetId(card.dataset_id)) {
    problems.Add(JoinPointer(pointer, "dataset_id"),
                 "invalid dataset id " + Quote(card.dataset_id) + " (expected org/name)");
  }
  if (!Version::TryParse(card.dataset_version)) {
    problems.Add(JoinPointer(pointer, "dataset_version"),
                 "invalid version " + Quote(card.dataset_version) + " (expected x.y.z)");
  }
  if (!IsNotBlank(card.name)) problems.Add(JoinPointer(pointer, "name"), "must not be blank");
  if (!IsNotBlank(card.description)) {
    problems.Add(JoinPointer(pointer, "description"), "must not be blank");
  }
  std::set<Domain> seen_domains;
  for (size_t i = 0; i < card.domains.size(); ++i) {
    if (!seen_domains.insert(card.domains[i]).second) {
      problems.Add(JoinPointer(JoinPointer(pointer, "domains"), i),
                   "duplicate domain '" + std::string(ToString(card.domains[i])) + "'");
    }
  }
  if (card.license == License::kOther && !card.license_url) {
    problems.Add(JoinPointer(pointer, "license_url"), "required when license is 'other'");
  }
  if (card.access != Access::kOpen && !card.access_url) {
    problems.Add(JoinPointer(pointer, "access_url"),
                 "required when access is '" + std::string(ToString(card.access)) + "'");
  }
  std::string parents_pointer = JoinPointer(pointer, "parents");
  for (size_t i = 0; i < card.parents.size(); ++i) {
    const ParentRelease& parent = card.parents[i];
    std::string at = JoinPointer(parents_pointer, i);
    if (!IsValidAlias(parent.alias)) {
      problems.Add(JoinPointer(at, "alias"),
                   "invalid alias " + Quote(parent.alias) + " (expected ^[a-z][a-z0-9_-]*$)");
    }
    if (!IsValidDatasetId(parent.dataset_id)) {
      problems.Add(JoinPointer(at, "dataset_id"),
                   "invalid dataset id " + Quote(parent.dataset_id) + " (expected org/name)");
    }
    if (!Version::TryParse(parent.version)) {
      problems.Add(JoinPointer(at, "version"),
                   "invalid version " + Quote(parent.version) + " (expected x.y.z)");
    }
  }
}

void CheckCardRules(const Card& card, const std::string& pointer, Problems& problems) {
  std::string parents_pointer = JoinPointer(pointer, "parents");
  std::set<std::string_view> aliases;
  for (size_t i = 0; i < card.parents.size(); ++i) {
    const ParentRelease& parent = card.parents[i];
    std::string at = JoinPointer(parents_pointer, i);
    if (!aliases.insert(parent.alias).second) {
      problems.Add(JoinPointer(at, "alias"), "duplicate parent alias " + Quote(parent.alias));
    }
    if (parent.dataset_id == card.dataset_id && parent.version == card.dataset_version) {
      problems.Add(at, "a release cannot be its own parent (" + parent.Ref() + ")");
    }
  }
}

}  // namespace timef::manifest::internal
