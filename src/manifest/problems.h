// Collects manifest problems with their JSON pointers, so the reader can report all of them (CLI)
// or throw the first (library).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "timef/manifest.h"

namespace timef::manifest::internal {

// `parent` + "/" + `token`, with "~" and "/" in the token escaped as RFC 6901 requires.
std::string JoinPointer(std::string_view parent, std::string_view token);
std::string JoinPointer(std::string_view parent, size_t index);

class Problems {
 public:
  void Add(std::string pointer, std::string message) {
    list_.push_back({ManifestProblem::Kind::kManifest, std::move(pointer), std::move(message)});
  }
  void AddPath(std::string pointer, std::string message) {
    list_.push_back({ManifestProblem::Kind::kPath, std::move(pointer), std::move(message)});
  }
  bool empty() const { return list_.empty(); }
  size_t size() const { return list_.size(); }
  std::vector<ManifestProblem> Take() { return std::move(list_); }

 private:
  std::vector<ManifestProblem> list_;
};

// "'text'" with control characters escaped, shortened when long, for messages.
std::string Quote(std::string_view text);

}  // namespace timef::manifest::internal
