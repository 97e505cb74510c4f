// Upgrading a legacy directory (docs/format.md §15.6) to a native release: ReadLegacy
// (timef/legacy.h) followed by a native write (timef/writer.h). The one part of legacy support that
// writes; reading a legacy directory (Reader::Open) never does.
//
// Ownership: the result is the caller's. Threading: one upgrade per call, on the calling thread
// (options.write.threads compress values shards in parallel); `warn` runs on the calling thread.
// Errors: those of ReadLegacy and WriteRelease, and the ValidationError below.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "timef/legacy.h"
#include "timef/writer.h"

namespace timef {

struct UpgradeOptions {
  // The version written; nullopt = the legacy version.
  std::optional<std::string> version;
  // Options of the native write (its upgraded_from is set by Upgrade).
  WriteOptions write;
  // Called once per warning as it is found (the result lists them too).
  std::function<void(const std::string&)> warn;
};

struct UpgradeResult {
  WriteResult written;
  std::vector<std::string> warnings;
};

// docs/format.md §15.6: ReadLegacy + WriteRelease into `<out_root>/<dataset_id>/<version>`, with
// `build_env.upgraded_from`. ValidationError when the target is the legacy directory itself (same
// root at the same version).
UpgradeResult Upgrade(const std::filesystem::path& legacy_dir,
                      const std::filesystem::path& out_root, const UpgradeOptions& options = {});

}  // namespace timef
