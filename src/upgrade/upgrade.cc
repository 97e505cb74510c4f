// timef upgrade (docs/format.md §15.6): a legacy read followed by a native write.
#include "timef/upgrade.h"

#include <system_error>

#include "timef/error.h"

namespace timef {

UpgradeResult Upgrade(const std::filesystem::path& legacy_dir,
                      const std::filesystem::path& out_root, const UpgradeOptions& options) {
  LegacyDataset legacy = ReadLegacy(legacy_dir, LegacyReadOptions{options.version});
  for (const std::string& warning : legacy.warnings) {
    if (options.warn) options.warn(warning);
  }
  const std::filesystem::path target =
      out_root / legacy.card.dataset_id / legacy.card.dataset_version;
  std::error_code ec;
  if (std::filesystem::exists(target, ec) && std::filesystem::equivalent(target, legacy_dir, ec)) {
    throw ValidationError(ErrorSite{.file = target},
                          "the upgrade target is the legacy release itself: choose another --out "
                          "root or --version");
  }
  WriteOptions write = options.write;
  write.upgraded_from = legacy.upgraded_from;
  UpgradeResult result{WriteRelease(*legacy.dataset, legacy.card, out_root, write),
                       std::move(legacy.warnings)};
  return result;
}

}  // namespace timef
