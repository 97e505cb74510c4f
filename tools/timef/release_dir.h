// Resolving a command's release argument. A directory without manifest.json that holds releases
// below it (a dataset directory <root>/<org>/<name>, an organization or a registry root) is named
// as such, with the versions or datasets found there, instead of "manifest.json: no such file".
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>

#include "timef/reader.h"

namespace timef::cli {

// Throws FileError (exit 1) naming `dir` and the releases below it when `dir` is such a directory;
// returns otherwise (a release directory, a file, or a path that does not exist).
void CheckReleaseDirectory(const std::filesystem::path& dir);

// The registry root of refs: --root when given (AddRootOption), else $TIMEF_ROOT; nullopt when
// neither is set.
std::optional<std::filesystem::path> RegistryRoot();

// Adds `--root DIR` to `command`. The option sets TIMEF_ROOT for this process, so that every
// release argument of the command, wherever it is opened, resolves refs in the one root the user
// named (the environment is the single carrier: `--root` overrides an exported $TIMEF_ROOT).
void AddRootOption(CLI::App& command);

// A release argument: a directory holding manifest.json opens as such (payload sources found
// under the registry root when one is given, else under the root holding it); otherwise a ref
// `org/name[@x.y.z]` resolves in the registry root (ValidationError when there is none); anything
// else goes through CheckReleaseDirectory and Reader::Open.
Reader OpenRelease(const std::string& argument);

}  // namespace timef::cli
