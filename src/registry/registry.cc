// Registry listing and resolution (docs/format.md §3.2): a committed version is a subdirectory
// whose name matches the version regex and that holds manifest.json; anything else (staging
// directories, stray files) is ignored.
#include "timef/registry.h"

#include <algorithm>
#include <system_error>

#include "remote/url.h"
#include "timef/error.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

// Names of the subdirectories of `dir`, sorted; none when it cannot be listed.
std::vector<std::string> SubdirectoryNames(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return out;
  for (const fs::directory_entry& entry : it) {
    std::error_code kind_ec;
    if (entry.is_directory(kind_ec)) out.push_back(entry.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool HoldsManifest(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / manifest::kManifestFileName, ec);
}

// The FormatError of a manifest whose dataset_id or dataset_version differs from its place.
void CheckPlace(const manifest::Manifest& m, const RegistryRelease& release, const fs::path& file) {
  if (m.dataset_id != release.ref.dataset_id) {
    throw FormatError({.file = file, .where = "/dataset_id"},
                      "'" + m.dataset_id + "' differs from the registry directory '" +
                          release.ref.dataset_id + "'");
  }
  if (m.metadata.dataset_version != release.ref.version.ToString()) {
    throw FormatError({.file = file, .where = "/metadata/dataset_version"},
                      "'" + m.metadata.dataset_version + "' differs from the registry directory '" +
                          release.ref.version.ToString() + "'");
  }
}

}  // namespace

Registry Registry::Open(const fs::path& root) {
  if (remote::IsUrl(root.string())) {
    remote::Url url = remote::Url::Parse(root.string());
    if (!url.userinfo.empty() || !url.query.empty()) {
      throw ValidationError({.object = "URL", .where = url.Redacted()},
                            "a registry URL carries no credentials or query string (a bearer "
                            "token goes in $TIMEF_HTTP_TOKEN, docs/remote.md)");
    }
    std::string text = url.Full();
    while (text.ends_with('/')) text.pop_back();
    return Registry(fs::path(text), true);
  }
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    throw FileError({.file = root}, "registry root is not a directory",
                    ec ? ec : std::make_error_code(std::errc::not_a_directory));
  }
  return Registry(root, false);
}

void Registry::RequireListing(std::string_view what) const {
  if (!remote_) return;
  throw ValidationError({.file = root_, .where = std::string(what)},
                        "an HTTP(S) registry cannot be listed (a web server offers no listing); "
                        "name an exact version org/name@x.y.z");
}

std::vector<std::string> Registry::Datasets() const {
  RequireListing("datasets");
  std::vector<std::string> out;
  for (const std::string& org : SubdirectoryNames(root_)) {
    for (const std::string& name : SubdirectoryNames(root_ / org)) {
      const std::string id = org + "/" + name;
      if (IsValidDatasetId(id) && !Versions(id).empty()) out.push_back(id);
    }
  }
  return out;
}

std::vector<Version> Registry::Versions(std::string_view dataset_id) const {
  if (!IsValidDatasetId(dataset_id)) {
    throw ValidationError({.file = root_, .where = "dataset_id"},
                          "'" + std::string(dataset_id) + "' is not a dataset ID (org/name)");
  }
  RequireListing(std::string(dataset_id) + " (versions)");
  const fs::path dir = root_ / std::string(dataset_id);
  std::vector<Version> out;
  for (const std::string& name : SubdirectoryNames(dir)) {
    std::optional<Version> version = Version::TryParse(name);
    if (version && HoldsManifest(dir / name)) out.push_back(*version);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Version Registry::Latest(std::string_view dataset_id) const {
  std::vector<Version> versions = Versions(dataset_id);
  if (versions.empty()) {
    throw NotFoundError({.file = root_, .where = std::string(dataset_id)},
                        "no committed version of this dataset");
  }
  return versions.back();
}

bool Registry::LooksLikeRef(std::string_view text) {
  return RegistryRef::TryParse(text).has_value();
}

RegistryRelease Registry::Resolve(std::string_view text) const {
  std::optional<RegistryRef> parsed = RegistryRef::TryParse(text);
  if (!parsed) {
    throw ValidationError({.file = root_, .where = "ref"},
                          "'" + std::string(text) + "' is not org/name or org/name@x.y.z");
  }
  if (!parsed->version) parsed->version = Latest(parsed->dataset_id);
  ReleaseRef ref{std::move(parsed->dataset_id), *parsed->version};
  const fs::path dir = root_ / ref.dataset_id / ref.version.ToString();
  if (remote_) return RegistryRelease{std::move(ref), dir};
  if (!HoldsManifest(dir)) {
    throw NotFoundError({.file = root_, .where = ref.ToString()}, "no committed release");
  }
  return RegistryRelease{std::move(ref), dir};
}

manifest::Manifest Registry::ReadManifest(const RegistryRelease& release) const {
  const fs::path file = release.dir / manifest::kManifestFileName;
  manifest::Manifest m = manifest::ReadManifest(file);
  CheckPlace(m, release, file);
  return m;
}

DatasetVersion Registry::OpenVersion(std::string_view ref) const {
  const RegistryRelease release = Resolve(ref);
  const fs::path manifest_file = release.dir / manifest::kManifestFileName;
  std::optional<DatasetVersion> version;
  try {
    version = timef::OpenVersion(release.dir, root_);
  } catch (const MissingFileError& e) {
    // Only the release's own manifest missing means "not here"; a missing source or file is
    // the error it is.
    if (!remote_ || e.path() != fs::path(remote::RedactedUrl(manifest_file.string()))) throw;
    throw NotFoundError({.file = root_, .where = release.ref.ToString()}, "no committed release");
  }
  CheckPlace(version->manifest(), release, remote::RedactedUrl(manifest_file.string()));
  return *std::move(version);
}

Reader Registry::OpenRelease(std::string_view ref, ReaderOptions options) const {
  return Reader::Open(OpenVersion(ref), options);
}

}  // namespace timef
