// The part of a reader that resolves locators to the release's files (docs/architecture.md
// "Reader parts"): which values and payload files the manifest lists (its own) or pins (of a
// payload source), where each one is, and the one place a catalog locator becomes a file to open
// (docs/format.md §9.2). It also gives the pins a writer reusing stored bytes records
// (manifest/stored_payload.h) and, for a legacy directory read in place (§15.8), where that
// directory and its metadata catalog are.
//
// Ownership: owned by the ReaderState; built from the manifest and the resolved payload sources,
// which it keeps. Lifetime: what it was built from does not change, so it is never cleared.
// Threading: thread-safe. Everything but the memo of resolved chunk files is immutable after
// construction; one mutex guards that memo and is never held while a locator is resolved or
// anything else is called. Errors: FormatError naming the release's manifest.json and `what`
// (table.column and object) for a locator it cannot resolve (see ResolveFile).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/locators.h"
#include "manifest/stored_payload.h"
#include "reader/payload_sources.h"
#include "timef/manifest.h"

namespace timef {

// A legacy directory read in place (docs/format.md §15.8): `dir` is the directory the caller
// opened, whose values shards the catalog's locators name; `files` are the legacy manifest's parts
// (what Verify hashes); `catalog_dir` holds the metadata catalog (the manifest's control and
// payload files).
struct LegacyOrigin {
  std::filesystem::path dir;
  std::vector<manifest::FilePart> files;
  std::filesystem::path catalog_dir;
};

class LocatorResolver {
 public:
  LocatorResolver(std::filesystem::path release_dir, const manifest::Manifest& manifest,
                  ResolvedSources sources, std::optional<LegacyOrigin> legacy);

  const std::filesystem::path& release_dir() const { return release_dir_; }
  // Where the own control and payload files are: release_dir(), or a legacy directory's catalog.
  const std::filesystem::path& metadata_dir() const {
    return legacy_ ? legacy_->catalog_dir : release_dir_;
  }
  const std::optional<LegacyOrigin>& legacy_origin() const { return legacy_; }
  // The payload sources Open resolved and checked (docs/format.md §11.1), by ref.
  const ResolvedSources& sources() const { return sources_; }

  // The file a locator names, relative to its storing release: an own file the manifest lists
  // when payload_source is NULL, else a pin of that payload source, in the source's directory
  // (docs/format.md §9.2). FormatError naming `what` (table.column and object) for a
  // payload_source that is not a payload_sources key, a file neither listed nor pinned, or a
  // Parquet chunk without a row index. A Zarr chunk locator resolves to its array directory once
  // the array's zarr.json is listed (docs/format.md §8.6); ResolveStoreFile checks each further
  // store file a read opens the same way.
  std::filesystem::path ResolveFile(const ChunkLocator& locator, const std::string& what) const;
  // The same for the chunks of a hydration, remembered per (payload_source, value_path, has a
  // row index) once it succeeded: a scan resolves the same few shards for every signal. `what`
  // is called only to name a failure.
  std::filesystem::path ResolveChunkFile(const ChunkLocator& locator,
                                         const std::function<std::string()>& what) const;
  std::filesystem::path ResolveFile(const OffsetsLocator& locator, const std::string& what) const;
  std::filesystem::path ResolveFile(const TextLocator& locator, const std::string& what) const;
  // A file of a Zarr store (`path` relative to its storing release), listed or pinned as a values
  // file; the same FormatError.
  std::filesystem::path ResolveStoreFile(const std::optional<std::string>& payload_source,
                                         const std::string& path, const std::string& what) const;

  // The manifest checksum of a payload file (own when `payload_source` is nullopt, else pinned;
  // "" if unknown): identifies stored text across readers.
  const std::string& PayloadChecksum(const std::optional<std::string>& payload_source,
                                     const std::string& path) const;
  // For a writer reusing stored bytes (manifest/stored_payload.h): the ref of the release storing a
  // locator's file, and that file's pin (its FilePart in the storing release's manifest). PinOf
  // REQUIRES a file that resolved (listed or pinned).
  std::string StoringRef(const std::optional<std::string>& payload_source) const;
  StoredFilePin PinOf(const std::optional<std::string>& payload_source,
                      const std::string& path) const;
  // `locators` with payload_source set to the storing release, and the pins of their files
  // (sorted by release and path, unique).
  std::vector<ChunkLocator> StoredLocators(std::vector<ChunkLocator> locators) const;
  std::vector<StoredFilePin> PinsOf(const std::vector<ChunkLocator>& locators) const;

 private:
  enum class StoredFile { kValues, kPayload };
  std::filesystem::path Resolve(const std::optional<std::string>& payload_source,
                                const std::string& path, StoredFile kind, bool missing_row,
                                const std::string& what) const;

  const std::filesystem::path release_dir_;
  const std::string ref_;  // the manifest's org/name@version
  const std::optional<LegacyOrigin> legacy_;
  const ResolvedSources sources_;
  std::set<std::string> own_values_;
  std::map<std::string, std::string> own_payloads_;      // path → checksum
  std::map<std::string, manifest::FilePart> own_parts_;  // path → FilePart (values and payloads)
  // ResolveChunkFile's results: [has row index][payload_source][value_path] (found without
  // building a key string). The manifest they were checked against does not change.
  mutable std::mutex resolved_mutex_;
  mutable std::map<std::optional<std::string>,
                   std::map<std::string, std::filesystem::path, std::less<>>>
      resolved_chunks_[2];
};

}  // namespace timef
