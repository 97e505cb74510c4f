// A dataset version opened for reading (docs/python.md "Opening a version", docs/format.md §11.1):
// its parsed manifest and the file systems of the version and of each payload source it reads
// from, checked but not read. A Reader opens from it (Reader::Open(const DatasetVersion&)) with no
// further checks; OpenLocalVersion, Registry::OpenVersion and Client::OpenVersion return one.
//
// What opening checks, in this order, and nothing more (no hashing, no catalog, no values):
//   - manifest.json is present (MissingFileError), valid and of a supported format version
//     (ManifestError);
//   - a local version: each file the manifest lists, control.duckdb included, is present with its
//     recorded size (MissingFileError / FileError naming it), and the directory holds no file the
//     manifest does not list (FormatError, docs/format.md §3.1);
//   - each payload source the manifest lists (only those: a source's own sources are not opened)
//     is found under the sources root (ValidationError when it is needed and cannot be
//     determined), its manifest read, and each pin recorded there identically (FormatError "pin
//     differs"); each pinned file of a local source is present with its recorded size.
// A remote version (an http:// or https:// URL, docs/remote.md) has its manifest and its sources'
// manifests fetched; its files are not looked for: their sizes come from the manifests and every
// read checks them.
//
// A DatasetVersion is an immutable value (copies share one state) and may be used from any thread;
// each Reader opened from it has state of its own.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "timef/ids.h"
#include "timef/manifest.h"

namespace timef {

class DatasetVersion {
 public:
  // A payload source of the version: its ref (org/name@x.y.z) and where it was found (a
  // directory, or a URL for a remote one).
  struct PayloadSource {
    std::string ref;
    std::filesystem::path location;
  };

  const manifest::Manifest& manifest() const;
  // org/name@x.y.z of the manifest.
  ReleaseRef ref() const;
  // The version's directory, or its URL (no trailing '/') for a remote version.
  const std::filesystem::path& location() const;
  bool remote() const;
  // The registry root the payload sources were resolved against: the sources_root given, else the
  // root holding the version; nullopt when the version lists no payload source.
  const std::optional<std::filesystem::path>& sources_root() const;
  // The payload sources, sorted by ref.
  std::vector<PayloadSource> payload_sources() const;

  // Internal: what a Reader needs (src/reader/version_parts.h).
  struct Parts;
  explicit DatasetVersion(std::shared_ptr<const Parts> parts) : parts_(std::move(parts)) {}
  const Parts& parts() const { return *parts_; }

 private:
  std::shared_ptr<const Parts> parts_;
};

// Opens the version in the directory `dir`, with the checks above. Payload sources are found as
// `<sources_root>/<org>/<name>/<version>`; without `sources_root`, under the root that holds the
// version as `<root>/<org>/<name>/<version>`, and a version with payload sources stored otherwise
// raises ValidationError. A legacy release (docs/format.md §15) raises FormatError (open it with
// Reader::Open, which reads it through its native form, or upgrade it).
DatasetVersion OpenLocalVersion(const std::filesystem::path& dir,
                                const std::optional<std::filesystem::path>& sources_root = {});

// OpenLocalVersion for a directory; for an http:// or https:// URL the remote version (its
// payload sources resolved against the same remote root, or `sources_root`). ValidationError for
// a URL with credentials or a query string; the transport's errors (MissingFileError when the
// manifest is absent) name the URL.
DatasetVersion OpenVersion(const std::filesystem::path& dir_or_url,
                           const std::optional<std::filesystem::path>& sources_root = {});

}  // namespace timef
