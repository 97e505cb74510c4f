#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "commands.h"
#include "core/duckdb_version.h"
#include "timef/error.h"
#include "timef/version.h"

int main(int argc, char** argv) {
  using namespace timef;
  CLI::App app{"timef: read, write and check TimeF time-series datasets", "timef"};
  app.require_subcommand(0, 1);
  bool show_version = false;
  app.add_flag("--version", show_version, "Print the timef and DuckDB versions and exit");

  cli::Action action;
  cli::RegisterManifestCommands(app, action);
  cli::RegisterParquetCommands(app, action);
  cli::RegisterDatasetCommands(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return cli::kExitUsage;
  }
  try {
    if (show_version) {
      CheckDuckDBVersion();
      fmt::print("timef {} (TimeF format 1, DuckDB {})\n", kVersion, LoadedDuckDBVersion());
      return cli::kExitOk;
    }
    if (!action) {
      fmt::print(stderr, "{}", app.help());
      return cli::kExitUsage;
    }
    return action();
  } catch (const timef::Error& e) {
    fmt::print(stderr, "timef: error: {}\n", e.what());
    return cli::kExitFailure;
  } catch (const std::exception& e) {
    fmt::print(stderr, "timef: internal error: {}\n", e.what());
    return cli::kExitFailure;
  }
}
