// Builds the manifest of a staged release from what the write produced (docs/format.md §5).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "catalog/audit/audit.h"
#include "timef/manifest.h"
#include "timef/model.h"

namespace timef::writer {

// producer, compiler and the versions of the libraries that shape the bytes (duckdb, zstd).
manifest::BuildEnv CurrentBuildEnv();

// Hashes each relative path under `release_dir` into a FilePart, calling `hashed` with the bytes
// hashed so far after each file.
std::vector<manifest::FilePart> HashFiles(const std::filesystem::path& release_dir,
                                          const std::vector<std::string>& paths,
                                          const std::function<void(std::int64_t)>& hashed);

}  // namespace timef::writer
