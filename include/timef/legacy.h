// Reading datasets of the legacy layout (docs/format.md §15): Parquet control tables (records/,
// annotations/, time_series_index/, tasks/task=T/), string or 16-byte UUID IDs, values in Parquet
// shards addressed by (chunk_file, row group, row). Upgrading one to a native release is
// timef/upgrade.h.
//
// ReadLegacy() builds exactly the objects and IDs that Upgrade() writes (docs/format.md §15.6,
// §15.7). Reader::Open on a legacy directory reads that same native form without writing it: a
// metadata catalog in the cache directory, whose chunk locators name the legacy shards, so the
// values are read in place (docs/format.md §15.8).
//
// Ownership and lifetime: the returned dataset is the caller's. Signal values stay in the legacy
// shards until loaded: each signal's loader reads them through a shared chunk reader that the
// dataset's signals keep alive, so the legacy directory must stay in place while the dataset is
// used. Irregular offsets are read (and checked) during ReadLegacy.
// Threading: the loaders of one dataset share one lock; a LegacyDataset is used by one thread.
// Errors: FormatError for a legacy artifact that breaks §15 (naming the file, table and column),
// ValidationError for a bad argument or a path that breaks §2.2, FileError for a missing file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "timef/manifest.h"
#include "timef/model.h"

namespace timef {

// True when `release_dir/manifest.json` is a legacy manifest (docs/format.md §15.1: `files` holds
// `records` and no `control`). FormatError ("unsupported legacy layout") for the earliest
// single-file layout (`files` values are plain strings); false for a native manifest, FileError
// when the manifest is missing.
bool IsLegacyRelease(const std::filesystem::path& release_dir);

struct LegacyReadOptions {
  // Version of the dataset built; nullopt = the legacy card's `dataset_version`.
  std::optional<std::string> version;
};

struct LegacyDataset {
  std::unique_ptr<model::Dataset> dataset;  // IDs assigned (docs/format.md §15.6)
  manifest::Card card;                      // the native card (§15.7 O6)
  manifest::UpgradedFrom upgraded_from;     // format version and sha256 of the legacy manifest
  // Every FilePart the legacy manifest lists, in manifest order (what Verify hashes).
  std::vector<manifest::FilePart> files;
  // One line per mapping decision that lost information (unit, license, ignored column, ...).
  std::vector<std::string> warnings;
};

// Reads a legacy directory (only the manifest-listed paths, in manifest order).
LegacyDataset ReadLegacy(const std::filesystem::path& legacy_dir,
                         const LegacyReadOptions& options = {});

// The FileParts the legacy manifest at `legacy_dir` lists, in manifest order (records,
// annotations, time_series_index, tasks, time_series).
std::vector<manifest::FilePart> LegacyFiles(const std::filesystem::path& legacy_dir);

// Hashes every file the legacy manifest lists; FileError naming the first file that is missing or
// whose size or checksum differs.
void VerifyLegacy(const std::filesystem::path& legacy_dir);

}  // namespace timef
