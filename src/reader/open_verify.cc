// Reader::Open and Reader::Verify (docs/format.md §11): presence and size at open (own files,
// then the pinned files of each payload source), hashes on verify in the same order.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <system_error>

#include "core/checksum.h"
#include "core/json_forms.h"
#include "core/paths.h"
#include "core/release_files.h"
#include "legacy/legacy_catalog.h"
#include "legacy/legacy_manifest.h"
#include "manifest/decode.h"
#include "manifest/release_directory.h"
#include "reader/payload_sources.h"
#include "reader/reader_state.h"
#include "reader/version_parts.h"
#include "remote/url.h"
#include "timef/dataset_version.h"
#include "timef/error.h"
#include "timef/legacy.h"
#include "timef/reader.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

// Every own file with its record, in the order verify() checks them: sorted by path.
std::vector<const manifest::FilePart*> OwnFiles(const manifest::Manifest& m) {
  std::vector<const manifest::FilePart*> parts{&m.files.control};
  for (const auto& p : m.files.time_series) parts.push_back(&p);
  for (const auto& p : m.files.payloads) parts.push_back(&p);
  std::sort(parts.begin(), parts.end(),
            [](const auto* a, const auto* b) { return a->path < b->path; });
  return parts;
}

// Only an absent file is "missing": one that cannot be stat'ed for another reason (a permission,
// a path component that is not a directory) is reported with its own cause. A link or a special
// file is refused (§3.1), so no message shows the size or hash of a file outside the release.
std::int64_t SizeOrThrow(const fs::path& file) {
  return ReleaseFileSize(file, "listed in manifest.json but missing");
}

// docs/format.md §3.1: a release holds manifest.json and exactly the files it lists. Anything else
// could change a read without changing a listed byte (DuckDB replays a `control.duckdb.wal` on a
// read-only open), so an unlisted entry that is not a directory (a file, a link, a FIFO, ...) is a
// FormatError naming every such entry. Links are not followed.
void CheckOnlyListedFiles(const fs::path& release_dir, const manifest::Manifest& m) {
  std::set<std::string> listed{std::string(manifest::kManifestFileName)};
  for (const manifest::FilePart* part : OwnFiles(m)) listed.insert(part->path);
  std::vector<std::string> unlisted;
  std::error_code ec;
  fs::recursive_directory_iterator it(release_dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_directory(status)) continue;
    std::string rel = it->path().lexically_relative(release_dir).generic_string();
    if (!listed.contains(rel)) unlisted.push_back(std::move(rel));
  }
  if (ec) throw FileError({.file = release_dir}, "cannot list the release: " + ec.message(), ec);
  if (unlisted.empty()) return;
  std::sort(unlisted.begin(), unlisted.end());
  std::string names;
  for (const std::string& name : unlisted) names += (names.empty() ? "" : ", ") + name;
  throw FormatError({.file = release_dir / unlisted.front()},
                    "the release holds " + std::to_string(unlisted.size()) +
                        " file(s) that manifest.json does not list (" + names +
                        "); a reader refuses them, since they could change what is read");
}

// The manifest of a local release directory (after the §3.2 directory check), read and parsed
// once: nullopt for a legacy directory (§15), whose reader reads its own manifest. A document
// that is not JSON is reported by the native parser.
std::optional<manifest::Manifest> ReadLocalManifest(const fs::path& dir) {
  // A dataset directory or registry root given instead is named for what it is (before the
  // legacy probe, which reads manifest.json).
  manifest::CheckReleaseDirectory(dir);
  const fs::path path = dir / manifest::kManifestFileName;
  const std::string bytes = manifest::ReadManifestBytes(path);
  const std::optional<Json> document = ParseJsonStrict(bytes, nullptr);
  if (!document) return manifest::ParseManifest(bytes, path);  // raises the syntax problem
  if (legacy::IsLegacyManifest(*document, path)) return std::nullopt;
  return manifest::internal::ParseManifestDocument(*document, path);
}

// The version of the native release at `dir` whose manifest is `m`: every own file present with
// its listed size, nothing unlisted, the payload sources resolved.
DatasetVersion LocalVersion(const fs::path& dir, manifest::Manifest m,
                            const std::optional<fs::path>& sources_root) {
  for (const manifest::FilePart* part : OwnFiles(m)) {
    const fs::path file = dir / part->path;
    const std::int64_t size = SizeOrThrow(file);
    if (size != part->size) {
      throw FileError({.file = file, .where = "size"}, "expected " + std::to_string(part->size) +
                                                           " bytes (manifest.json), found " +
                                                           std::to_string(size));
    }
  }
  // After the listed files, so that a missing one is reported as such (§11.1).
  CheckOnlyListedFiles(dir, m);
  auto parts = std::make_shared<DatasetVersion::Parts>();
  parts->location = dir;
  parts->sources = ResolvePayloadSources(dir, m, sources_root);
  if (!m.payload_sources.empty())
    parts->sources_root = sources_root ? sources_root : RegistryRootOf(dir, m);
  parts->manifest = std::move(m);
  return DatasetVersion(std::move(parts));
}

}  // namespace

DatasetVersion OpenLocalVersion(const fs::path& dir, const std::optional<fs::path>& sources_root) {
  if (remote::IsUrl(dir.string())) {
    throw ValidationError({.file = remote::RedactedUrl(dir.string())},
                          "a URL is not a local version; open it with OpenVersion");
  }
  std::optional<manifest::Manifest> m = ReadLocalManifest(dir);
  if (!m) {
    throw FormatError({.file = dir / manifest::kManifestFileName},
                      "a legacy release (docs/format.md §15) is not a version: open it with "
                      "Reader::Open (timef.open), which reads its native form, or upgrade it");
  }
  return LocalVersion(dir, std::move(*m), sources_root);
}

Reader Reader::Open(const fs::path& release_dir, const ReaderOptions& options) {
  if (remote::IsUrl(release_dir.string())) {
    return Open(OpenVersion(release_dir, options.sources_root), options);
  }
  std::optional<manifest::Manifest> m = ReadLocalManifest(release_dir);
  if (!m) {
    // docs/format.md §15.8: the native form the upgrade would write, as a metadata catalog in the
    // cache directory whose locators name the legacy shards (values read in place).
    legacy::LegacyCatalog catalog = legacy::OpenLegacyCatalog(
        release_dir, options.cache_dir ? *options.cache_dir : DefaultCacheDir());
    return Reader(std::make_shared<ReaderState>(
        release_dir, std::move(catalog.manifest), options, ResolvedSources{}, nullptr,
        LegacyOrigin{release_dir, std::move(catalog.legacy_files), catalog.dir}));
  }
  return Open(LocalVersion(release_dir, std::move(*m), options.sources_root), options);
}

void Reader::Verify() const { Verify(nullptr); }

void Reader::Verify(const VerifyProgress& progress) const {
  // Own files sorted by path, then each source's pins (sources by ref, pins by path): §11.
  std::vector<std::pair<fs::path, const manifest::FilePart*>> files;
  if (const auto& legacy = state_->locators().legacy_origin()) {
    // A legacy directory: the parts its own manifest lists, in manifest order (§15.2).
    for (const manifest::FilePart& part : legacy->files) {
      files.emplace_back(legacy->dir / part.path, &part);
    }
  } else {
    // Files that appeared since Open() are reported too (§3.1, §11.3); a remote release cannot be
    // listed.
    if (!state_->catalog().remote())
      CheckOnlyListedFiles(state_->locators().release_dir(), state_->manifest());
    for (const manifest::FilePart* part : OwnFiles(state_->manifest())) {
      files.emplace_back(state_->locators().release_dir() / part->path, part);
    }
  }
  for (const auto& [ref, source] : state_->locators().sources()) {
    for (const manifest::FilePart& pin : source.pins)
      files.emplace_back(source.dir / pin.path, &pin);
  }
  std::int64_t total = 0;
  for (const auto& [file, part] : files) total += part->size;
  std::int64_t done = 0;
  if (progress) progress(0, total);
  for (const auto& [file, part] : files) {
    if (state_->catalog().remote()) {
      // Through the release's transport: every response checked against the manifest's size.
      const std::string checksum = state_->Checksum(file);
      if (checksum != part->checksum) {
        throw FileError({.file = file, .where = "checksum"},
                        "expected " + part->checksum + ", found " + checksum);
      }
      done += part->size;
      if (progress) progress(done, total);
      continue;
    }
    const std::int64_t size = SizeOrThrow(file);
    if (size != part->size) {
      throw FileError({.file = file, .where = "size"}, "expected " + std::to_string(part->size) +
                                                           " bytes, found " + std::to_string(size));
    }
    const std::int64_t file_start = done;
    const std::string checksum = progress ? FileChecksum(file,
                                                         [&](std::int64_t bytes) {
                                                           done += bytes;
                                                           progress(done, total);
                                                         })
                                          : FileChecksum(file);
    if (checksum != part->checksum) {
      throw FileError({.file = file, .where = "checksum"},
                      "expected " + part->checksum + ", found " + checksum);
    }
    done = file_start + part->size;
    if (progress) progress(done, total);
  }
}

}  // namespace timef
