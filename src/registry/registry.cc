// Registry listing and resolution (docs/format.md §3.2): a committed version is a subdirectory
// whose name matches the version regex and that holds manifest.json; anything else (staging
// directories, stray files) is ignored.
#include "timef/registry.h"

#include <algorithm>
#include <system_error>

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

}  // namespace

Registry Registry::Open(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    throw FileError({.file = root}, "registry root is not a directory",
                    ec ? ec : std::make_error_code(std::errc::not_a_directory));
  }
  return Registry(root);
}

std::vector<std::string> Registry::Datasets() const {
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
  return IsValidDatasetId(text) || ReleaseRef::TryParse(text).has_value();
}

RegistryRelease Registry::Resolve(std::string_view text) const {
  ReleaseRef ref;
  if (IsValidDatasetId(text)) {
    ref = ReleaseRef{std::string(text), Latest(text)};
  } else if (std::optional<ReleaseRef> exact = ReleaseRef::TryParse(text)) {
    ref = *exact;
  } else {
    throw ValidationError({.file = root_, .where = "ref"},
                          "'" + std::string(text) + "' is not org/name or org/name@x.y.z");
  }
  const fs::path dir = root_ / ref.dataset_id / ref.version.ToString();
  if (!HoldsManifest(dir)) {
    throw NotFoundError({.file = root_, .where = ref.ToString()}, "no committed release");
  }
  return RegistryRelease{std::move(ref), dir};
}

manifest::Manifest Registry::ReadManifest(const RegistryRelease& release) const {
  const fs::path file = release.dir / manifest::kManifestFileName;
  manifest::Manifest m = manifest::ReadManifest(file);
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
  return m;
}

Reader Registry::OpenRelease(std::string_view ref, ReaderOptions options) const {
  const RegistryRelease release = Resolve(ref);
  ReadManifest(release);
  options.sources_root = root_;
  return Reader::Open(release.dir, options);
}

}  // namespace timef
