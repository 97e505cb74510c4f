// Remote releases beyond reading them in place (docs/remote.md): downloading a whole release,
// uploading one to S3, and listing a registry on S3. Reading a release by URL is Reader::Open
// (timef/reader.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/ids.h"

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
// `url` may also be s3:// (docs/remote.md "S3").
//
// Errors: ValidationError for a bad URL or thread count, or when `dir` exists; the transport's
// FileError / MissingFileError naming the URL; FormatError when a downloaded file's sha256
// differs from the manifest's (the file is not kept); ManifestError for an invalid manifest.
PullResult PullRelease(std::string_view url, const std::filesystem::path& dir,
                       const PullOptions& options = {});

struct PushOptions {
  // Objects uploaded, copied or deleted at once (1..64, else ValidationError).
  int threads = 4;
  // Called before each step with the step ("upload", "copy", "manifest" or "cleanup") and the
  // release file's path; from several threads at once. An exception it throws ends the push as a
  // failure of that step would (a progress report, or a test's interruption).
  std::function<void(std::string_view step, std::string_view path)> on_step;
};

struct PushResult {
  std::string url;  // the release's s3:// URL, without a trailing '/'
  std::int64_t files = 0;
  std::int64_t bytes_uploaded = 0;
  // Temporary objects that could not be deleted after the release was in place (named on stderr
  // by the CLI; harmless: no reader opens them).
  std::vector<std::string> temporary_objects_left;
};

// Uploads the local release `release_dir` to `url` (s3://bucket/<prefix>/<org>/<name>/<version>,
// its last three parts the manifest's dataset ID and version) so that a reader never sees half a
// version: every file the manifest lists is checked against it (size and sha256) and uploaded,
// `threads` at a time, below the temporary prefix `<prefix>/<org>/<name>/<version>.tmp-<32 hex>/`
// (each PUT with Content-MD5 and the signed x-amz-content-sha256 of its body, the ETag answered
// compared with its MD5); then each is copied into place on the server (CopyObject, the copy's ETag
// checked); then manifest.json is uploaded (with "If-None-Match: *") and the temporary objects are
// deleted. A push that fails or is interrupted before manifest.json leaves no manifest at `url`:
// no reader opens the version (the objects copied so far are unreferenced, and a later push of the
// same version writes over them). Payload sources are not uploaded (push each source too).
//
// Errors: ValidationError for a URL that is not s3://, whose last parts differ from the manifest,
// or whose manifest.json exists already (releases are immutable); FormatError when a local file
// differs from the manifest or the server stored another body; the transport's FileError
// (code() permission_denied for a 401 or 403) naming the URL without credentials.
PushResult PushRelease(const std::filesystem::path& release_dir, std::string_view url,
                       const PushOptions& options = {});

// One committed release of a registry on S3.
struct RemoteRegistryRelease {
  std::string dataset_id;  // org/name
  Version version;
  std::string url;  // s3://bucket/<prefix>/<org>/<name>/<version>
};

// The committed releases below the registry root `root_url` (s3://bucket[/prefix]), listed with
// ListObjectsV2: every <org>/<name>/<version>/ whose version is x.y.z (staging prefixes
// `<version>.tmp-...` skipped) and that holds manifest.json; sorted by dataset ID, then version
// ascending (numerically). ValidationError for a root that is not s3://; the transport's errors.
std::vector<RemoteRegistryRelease> ListRemoteRegistry(std::string_view root_url);

// The URL of `ref` in the S3 registry `root_url`: `org/name@x.y.z` exactly that version,
// `org/name` its latest committed version (the highest). NotFoundError naming the root and the ref
// when it is not committed there; ValidationError for a malformed ref.
std::string ResolveRemoteRef(std::string_view root_url, std::string_view ref);

}  // namespace timef
