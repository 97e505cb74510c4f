// The legacy read with the place of every signal's values (docs/format.md §15.8): what ReadLegacy
// builds, and for each signal the chunks of the legacy shards that hold its values, as locators
// relative to the legacy directory. The metadata catalog of a legacy directory (legacy_catalog.h)
// stores these locators, so that a Reader reads the values in place.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <vector>

#include "core/locators.h"
#include "timef/legacy.h"

namespace timef::legacy {

struct LegacyRead {
  LegacyDataset legacy;
  // By signal ID, in chunk_idx order: value_path = the index's chunk_file, major = its row group,
  // minor = its row, n_values as indexed.
  std::map<std::int64_t, std::vector<ChunkLocator>> chunks;
};

// ReadLegacy with the chunk locators; the same errors.
LegacyRead ReadLegacyWithChunks(const std::filesystem::path& legacy_dir,
                                const LegacyReadOptions& options = {});

}  // namespace timef::legacy
