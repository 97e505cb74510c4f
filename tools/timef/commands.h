// Sub-command registration. Each command group lives in its own cmd_<group>.cc and adds itself
// to the CLI11 app; the action it installs runs after parsing and returns the process exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>

namespace timef::cli {

// Exit codes: 0 success, 1 the input is bad or an operation failed, 2 usage error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// The groups of `timef --help`, by task.
inline constexpr const char* kGroupInspect = "Inspect";
inline constexpr const char* kGroupVerify = "Verify";
inline constexpr const char* kGroupCompose = "Compose";
inline constexpr const char* kGroupWrite = "Write";

// Set by the sub-command that parsing selected; called by Run().
using Action = std::function<int()>;

// Parses `argv` as `timef` does and runs the selected command; returns the exit code (kExit*).
// Prints to stdout and stderr. Errors are caught and printed (never thrown), so a caller may run
// it many times in one process (the bad-input matrix does).
int Run(int argc, char** argv);

// One per command group, each in its own cmd_<group>.cc.
void RegisterManifestCommands(CLI::App& app, Action& action);  // timef manifest ...
void RegisterParquetCommands(CLI::App& app, Action& action);   // timef parquet ...
// timef info|records|tasks|signals|cat|verify|demo
void RegisterDatasetCommands(CLI::App& app, Action& action);
void RegisterRegistryCommands(CLI::App& app, Action& action);  // timef ls|gc
void RegisterComposeCommands(CLI::App& app, Action& action);   // timef edit|derive
void RegisterLegacyCommands(CLI::App& app, Action& action);    // timef upgrade
void RegisterImportCommands(CLI::App& app, Action& action);    // timef import
void RegisterViewCommands(CLI::App& app, Action& action);      // timef view

}  // namespace timef::cli
