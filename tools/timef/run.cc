// The whole CLI behind one call (main.cc is only its entry point): the in-process tests call it
// with the arguments a shell would pass, so a check of many CLI runs starts no process per run.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "commands.h"
#include "core/duckdb_version.h"
#include "table.h"
#include "timef/error.h"
#include "timef/version.h"

namespace timef::cli {
namespace {

// "timef records" for the deepest command the parser selected ("timef" when none).
std::string SelectedCommand(const CLI::App& app) {
  std::string name = app.get_name();
  const CLI::App* current = &app;
  while (true) {
    std::vector<const CLI::App*> selected =
        current->get_subcommands([](const CLI::App*) { return true; });
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : selected) {
      if (sub->parsed()) next = sub;
    }
    if (next == nullptr) return name;
    name += " " + next->get_name();
    current = next;
  }
}

}  // namespace

int Run(int argc, char** argv) {
  CLI::App app{"timef: read, write and check TimeF time-series datasets", "timef"};
  app.require_subcommand(0, 1);
  bool show_version = false;
  app.add_flag("--version", show_version, "Print the timef and DuckDB versions and exit");

  Action action;
  // Dataset commands first: their groups (Inspect, Verify, Write) order `timef --help`.
  RegisterDatasetCommands(app, action);
  RegisterRegistryCommands(app, action);
  RegisterComposeCommands(app, action);
  RegisterLegacyCommands(app, action);
  RegisterImportCommands(app, action);
  RegisterViewCommands(app, action);
  RegisterParquetCommands(app, action);
  RegisterManifestCommands(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, like every other error: the problem and where help is.
    const std::string command = SelectedCommand(app);
    fmt::print(stderr, "timef: error: {} (see '{} --help')\n", Shown(e.what()), command);
    return kExitUsage;
  }
  try {
    if (show_version) {
      CheckDuckDBVersion();
      fmt::print("timef {} (TimeF format 1, DuckDB {})\n", kVersion, LoadedDuckDBVersion());
      return kExitOk;
    }
    if (!action) {
      fmt::print(stderr, "timef: error: no command given (see 'timef --help')\n");
      return kExitUsage;
    }
    return action();
  } catch (const timef::Error& e) {
    fmt::print(stderr, "timef: error: {}\n", Shown(e.what()));
    return kExitFailure;
  } catch (const std::exception& e) {
    fmt::print(stderr, "timef: error: internal error: {}\n", Shown(e.what()));
    return kExitFailure;
  }
}

}  // namespace timef::cli
