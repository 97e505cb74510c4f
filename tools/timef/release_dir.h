// Resolving a command's release argument. A directory without manifest.json that holds releases
// below it (a dataset directory <root>/<org>/<name>, an organization or a registry root) is named
// as such, with the versions or datasets found there, instead of "manifest.json: no such file".
#pragma once

#include <filesystem>
#include <string>

#include "timef/reader.h"

namespace timef::cli {

// Throws FileError (exit 1) naming `dir` and the releases below it when `dir` is such a directory;
// returns otherwise (a release directory, a file, or a path that does not exist).
void CheckReleaseDirectory(const std::filesystem::path& dir);

// CheckReleaseDirectory, then Reader::Open.
Reader OpenRelease(const std::string& argument);

}  // namespace timef::cli
