// The client (docs/python.md "The client", docs/remote.md "Registries"): refs resolved against a
// list of local and remote registries, versions opened with the download cache of remote
// releases, and a dataset loaded whole in one call.
//
// A Client is a value (copies are independent) holding the registries and options; each call
// reads the registries again. Safe to use from several threads at once; each Reader it opens is
// the caller's.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/dataset_version.h"
#include "timef/reader.h"
#include "timef/registry.h"

namespace timef {

// The environment variable listing a client's registries: roots and URLs separated by ','.
inline constexpr std::string_view kRegistriesEnv = "TIMEF_REGISTRIES";

struct ClientOptions {
  // Registry roots (directories) and URLs, searched in this order. Empty: $TIMEF_REGISTRIES
  // (entries separated by ','; empty entries skipped), else $TIMEF_ROOT (the CLI's registry root).
  std::vector<std::string> registries;
  // The download cache of remote catalogs; nullopt: $TIMEF_CACHE_DIR, else
  // $XDG_CACHE_HOME/timef, else ~/.cache/timef. Overrides reader.cache_dir.
  std::optional<std::filesystem::path> cache_dir;
  // The options of the readers the client opens (sources_root is not used: a version's payload
  // sources are found in the registry that holds it).
  ReaderOptions reader;
};

class Client {
 public:
  // Opens each registry (Registry::Open: FileError for a root that is not a directory,
  // ValidationError for a bad URL). ValidationError when no registry is given or configured.
  explicit Client(ClientOptions options = {});

  const std::vector<Registry>& registries() const { return registries_; }
  const std::optional<std::filesystem::path>& cache_dir() const { return reader_.cache_dir; }

  // The version `ref` names (RegistryRef: `org/name` or `org/name@x.y.z`), from the first
  // registry, in order, that holds it. `org/name` takes the latest version of the first registry
  // that has any version of the dataset; URL registries cannot be listed and are passed over for
  // it. ValidationError for a malformed ref; NotFoundError naming the ref and every registry
  // searched when none holds it; the errors of Registry::OpenVersion otherwise.
  DatasetVersion OpenVersion(std::string_view ref) const;
  // A reader of OpenVersion(ref), with the client's reader options and cache.
  Reader Open(std::string_view ref) const;
  // The whole dataset with every value loaded (LoadPlan::AllEager()); the reader is closed
  // before it returns.
  std::unique_ptr<model::Dataset> Load(std::string_view ref) const;

 private:
  std::vector<Registry> registries_;
  ReaderOptions reader_;
};

}  // namespace timef
