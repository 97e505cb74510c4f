// The DuckDB library timef is built against is pinned (docs/format.md §6.1); this checks the one
// loaded.
#pragma once

#include <string>

namespace timef {

// The version string of the libduckdb.so loaded at run time, e.g. "v1.4.4".
std::string LoadedDuckDBVersion();

// Throws Error when the loaded DuckDB is not the pinned version (kPinnedDuckDBVersion).
void CheckDuckDBVersion();

}  // namespace timef
