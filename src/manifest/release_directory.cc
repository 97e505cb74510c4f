#include "manifest/release_directory.h"

#include <algorithm>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "timef/error.h"
#include "timef/manifest.h"

namespace timef::manifest {
namespace {

namespace fs = std::filesystem;

// A registry is <root>/<org>/<name>/<version>: releases lie at most three levels down.
constexpr int kMaxDepth = 3;
constexpr size_t kMaxListed = 10;

// Paths (relative to `root`, '/'-separated) of the release directories below `dir`.
void FindReleases(const fs::path& root, const fs::path& dir, int depth,
                  std::vector<std::string>& out) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_directory(ec)) continue;
    if (fs::exists(entry.path() / kManifestFileName, ec)) {
      out.push_back(fs::relative(entry.path(), root, ec).generic_string());
    } else if (depth < kMaxDepth) {
      FindReleases(root, entry.path(), depth + 1, out);
    }
  }
}

std::string JoinListed(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < kMaxListed; ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  if (items.size() > kMaxListed)
    out += ", and " + std::to_string(items.size() - kMaxListed) + " more";
  return out;
}

}  // namespace

void CheckReleaseDirectory(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || fs::exists(dir / kManifestFileName, ec)) return;
  std::vector<std::string> releases;
  FindReleases(dir, dir, 1, releases);
  if (releases.empty()) return;
  std::sort(releases.begin(), releases.end());
  const std::string problem = "not a release directory (no " + std::string(kManifestFileName) + ")";
  const ErrorSite site{.file = dir};
  size_t depth = 0;  // slashes in the deepest release path
  for (const std::string& release : releases) {
    depth = std::max(depth, static_cast<size_t>(std::count(release.begin(), release.end(), '/')));
  }
  const std::string example =
      " (pass a version directory, e.g. " + (dir / releases.front()).string() + ")";
  if (depth == 0) {
    throw MissingFileError(site, problem + " but a dataset directory; its versions: " +
                                     JoinListed(releases) + example);
  }
  // Group "<dataset path>/<version>" by dataset.
  std::map<std::string, std::vector<std::string>> versions;
  for (const std::string& release : releases) {
    const size_t slash = release.rfind('/');
    const std::string dataset = slash == std::string::npos ? "." : release.substr(0, slash);
    versions[dataset].push_back(release.substr(slash == std::string::npos ? 0 : slash + 1));
  }
  std::vector<std::string> datasets;
  for (const auto& [dataset, list] : versions) {
    datasets.push_back(dataset + " (" + JoinListed(list) + ")");
  }
  const char* kind = depth == 1 ? " but an organization directory" : " but a registry root";
  throw MissingFileError(site,
                         problem + kind + "; its datasets: " + JoinListed(datasets) + example);
}

}  // namespace timef::manifest
