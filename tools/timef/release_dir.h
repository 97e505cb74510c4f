// Resolving a command's release argument: a release directory, or a ref in the registry root. A
// dataset directory, organization or registry root given instead is named as such by the library
// (manifest::CheckReleaseDirectory, called by Reader::Open).
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>

#include "timef/reader.h"

namespace timef::cli {

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
// else goes to Reader::Open.
Reader OpenRelease(const std::string& argument);

}  // namespace timef::cli
