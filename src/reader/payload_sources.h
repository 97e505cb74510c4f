// The payload sources of a release being opened (docs/format.md §10.4, §11.1): each directly
// listed source found at `<sources_root>/<org>/<name>/<version>`, its manifest read and each pin
// checked against it. A source's own sources are never opened, and no source catalog is.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "timef/manifest.h"

namespace timef {

struct ResolvedSource {
  std::string ref;
  std::filesystem::path dir;
  // The pins (sorted by path) and where the source's manifest lists each.
  std::vector<manifest::FilePart> pins;
  std::map<std::string, manifest::FilePart> values;    // path → pin (files.time_series)
  std::map<std::string, manifest::FilePart> payloads;  // path → pin (files.payloads)
};
using ResolvedSources = std::map<std::string, ResolvedSource>;  // by ref, sorted

// `<root>` when `release_dir` is `<root>/<dataset_id>/<version>` of `m`, else nullopt. A release
// URL (docs/remote.md) gives its root URL the same way.
std::optional<std::filesystem::path> RegistryRootOf(const std::filesystem::path& release_dir,
                                                    const manifest::Manifest& m);

// Resolves every key of m.payload_sources. ValidationError when sources are listed and neither
// `sources_root` nor the release's registry layout gives a root; FileError for a missing source
// directory, manifest or pinned file, or a pinned file of another size; ManifestError for an
// invalid source manifest; FormatError "pin differs" for a pin the source does not list
// identically under files.time_series or files.payloads.
//
// A source whose directory is a URL (a remote release's, or a URL sources root) has its manifest
// read by `fetch` (given the manifest's URL) and its files are not looked for: a remote file's
// size is checked when it is read (docs/remote.md). ValidationError for such a source without
// `fetch`.
using ManifestFetch = std::function<manifest::Manifest(const std::filesystem::path& manifest_url)>;
ResolvedSources ResolvePayloadSources(const std::filesystem::path& release_dir,
                                      const manifest::Manifest& m,
                                      const std::optional<std::filesystem::path>& sources_root,
                                      const ManifestFetch& fetch = nullptr);

}  // namespace timef
