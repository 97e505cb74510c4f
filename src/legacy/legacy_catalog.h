// The metadata catalog of a legacy directory (docs/format.md §15.8): what Reader::Open reads a
// legacy directory through. The legacy read (legacy_read.h) is written once as a native catalog
// (control.duckdb, the irregular offsets and packed text as payload files, and a manifest.json
// that lists them) whose chunk locators name the legacy shards, so values are read in place and
// never copied. It lives in the cache directory (core/paths.h DefaultCacheDir()), under
// `legacy-catalogs/<key>`, where <key> is the sha256 of the legacy manifest's checksum, the
// path, size and modification time of every file it lists, and this timef's version: a changed
// legacy directory gets a catalog of its own.
//
// Concurrency: a catalog is built into a directory of its own (`<key>.<pid>.<n>.part`) and
// renamed into place when complete; a process that loses the race to another uses the other's.
// A catalog found incomplete or unreadable is built again. Errors: those of ReadLegacy (at the
// first open of a content, every chunk of values is read once and checked, as an upgrade would);
// FileError when the cache cannot be written.
#pragma once

#include <filesystem>
#include <vector>

#include "timef/manifest.h"

namespace timef::legacy {

struct LegacyCatalog {
  std::filesystem::path dir;  // the cache entry: manifest.json, control.duckdb, payloads/
  // The native manifest of the legacy read: files.control and files.payloads are relative to
  // `dir`; files.time_series are the legacy manifest's values parts, relative to the legacy
  // directory.
  manifest::Manifest manifest;
  // Every part the legacy manifest lists, relative to the legacy directory (what Verify hashes).
  std::vector<manifest::FilePart> legacy_files;
};

// The catalog of `legacy_dir` in `cache_dir`, built when missing.
LegacyCatalog OpenLegacyCatalog(const std::filesystem::path& legacy_dir,
                                const std::filesystem::path& cache_dir);

}  // namespace timef::legacy
