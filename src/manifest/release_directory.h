// A directory given where a release directory is expected. A directory without manifest.json that
// holds releases below it (a dataset directory <root>/<org>/<name>, an organization or a registry
// root) is named as such, with the versions or datasets found there, instead of
// "manifest.json: no such file". Reader::Open and the CLI's `manifest` commands share it.
#pragma once

#include <filesystem>

namespace timef::manifest {

// Throws MissingFileError naming `dir`, its kind and the releases below it (up to ten, then "and
// N more"), with an example version directory to pass instead, when `dir` is such a directory;
// returns otherwise (a release directory, a file, a path that does not exist, or a directory
// with no release below it).
void CheckReleaseDirectory(const std::filesystem::path& dir);

}  // namespace timef::manifest
