// Remote releases beyond reading them in place (docs/remote.md): downloading a whole release.
// Reading a release by URL is Reader::Open (timef/reader.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace timef {

struct PullOptions {
  // Files downloaded at once (1..64, else ValidationError).
  int threads = 4;
};

struct PullResult {
  std::filesystem::path release_dir;
  std::int64_t files_downloaded = 0;
  std::int64_t files_kept = 0;  // verified files an earlier, interrupted pull left
  std::int64_t bytes_downloaded = 0;
};

// Downloads the release at `url` (http:// or https://) into the new directory `dir`: its
// manifest.json, checked, then every file the manifest lists, `threads` at a time, each written as
// `<dir>.part/<path>.<pid>.<random>.part`, checked against the manifest's size and sha256 and
// renamed into place; manifest.json is written last and `<dir>.part` is renamed to `dir`, so `dir`
// appears complete or not at all. A pull that stopped leaves `<dir>.part`: pulling again keeps
// the files there whose sha256 matches and fetches the rest. Two pulls into one `dir` take turns
// (a lock on `<dir>.part`). Payload sources are not downloaded (pull each source release too).
//
// Errors: ValidationError for a bad URL or thread count, or when `dir` exists; the transport's
// FileError / MissingFileError naming the URL; FormatError when a downloaded file's sha256
// differs from the manifest's (the file is not kept); ManifestError for an invalid manifest.
PullResult PullRelease(std::string_view url, const std::filesystem::path& dir,
                       const PullOptions& options = {});

}  // namespace timef
