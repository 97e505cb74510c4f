#include "core/duckdb_version.h"

#include <duckdb.h>

#include "timef/error.h"
#include "timef/version.h"

namespace timef {

std::string LoadedDuckDBVersion() { return duckdb_library_version(); }

void CheckDuckDBVersion() {
  std::string loaded = LoadedDuckDBVersion();
  if (loaded != kPinnedDuckDBVersion) {
    throw Error(ErrorSite{.object = "libduckdb.so"},
                "loaded DuckDB " + loaded + " but timef is pinned to " + kPinnedDuckDBVersion);
  }
}

}  // namespace timef
