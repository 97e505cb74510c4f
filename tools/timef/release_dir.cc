#include "release_dir.h"

#include <stdlib.h>

#include <cstdlib>
#include <system_error>

#include "remote/url.h"
#include "timef/error.h"
#include "timef/manifest.h"
#include "timef/registry.h"
#include "timef/remote.h"

namespace timef::cli {

namespace fs = std::filesystem;

std::optional<fs::path> RegistryRoot() {
  const char* root = std::getenv("TIMEF_ROOT");
  if (root == nullptr || *root == '\0') return std::nullopt;
  return fs::path(root);
}

void AddRootOption(CLI::App& command) {
  command.add_option_function<std::string>(
      "--root", [](const std::string& root) { setenv("TIMEF_ROOT", root.c_str(), 1); },
      "Registry root for refs org/name[@x.y.z] and payload sources (default $TIMEF_ROOT)");
}

Reader OpenRelease(const std::string& argument) {
  const std::optional<fs::path> root = RegistryRoot();
  std::error_code ec;
  if (fs::is_regular_file(fs::path(argument) / manifest::kManifestFileName, ec)) {
    // The root holding the release finds its payload sources first (docs/format.md §10); the
    // registry root is the fallback for a release outside that layout, so an exported $TIMEF_ROOT
    // never redirects a release that sits in its own registry.
    try {
      return Reader::Open(argument);
    } catch (const ValidationError&) {
      if (!root) throw;
    }
    ReaderOptions options;
    options.sources_root = root;
    return Reader::Open(argument, options);
  }
  if (Registry::LooksLikeRef(argument)) {
    if (!root) {
      throw ValidationError({.object = argument},
                            "a ref needs a registry root: pass --root DIR or set TIMEF_ROOT "
                            "(or name a release directory)");
    }
    if (remote::IsUrl(root->string())) {
      // A registry on S3: the ref's latest (or named) version found by listing it.
      return Reader::Open(ResolveRemoteRef(root->string(), argument));
    }
    return Registry::Open(*root).OpenRelease(argument);
  }
  return Reader::Open(argument);
}

}  // namespace timef::cli
