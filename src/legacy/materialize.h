// The native form of a legacy directory, for Reader::Open (docs/format.md §15.1: the legacy reader
// exposes exactly the objects and IDs an upgrade writes). The legacy read is written once as a
// native release into a scratch directory, which the Reader then reads like any release.
//
// Ownership: `scratch` owns the scratch directory and removes it when its last holder goes (the
// Reader's state and its lazy handles hold it). Errors: those of ReadLegacy and WriteRelease.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "timef/manifest.h"

namespace timef::legacy {

struct MaterializedRelease {
  std::filesystem::path native_dir;
  std::shared_ptr<void> scratch;
  // Every part the legacy manifest lists, relative to the legacy directory (what Verify hashes).
  std::vector<manifest::FilePart> legacy_files;
};

MaterializedRelease Materialize(const std::filesystem::path& legacy_dir);

}  // namespace timef::legacy
