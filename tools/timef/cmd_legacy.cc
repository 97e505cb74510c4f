// `timef upgrade LEGACY_DIR --out ROOT [--version X.Y.Z] [--threads N]`: rewrite a release of the
// legacy Parquet-control layout as a native release (docs/format.md §15).
#include <fmt/core.h>

#include <memory>
#include <optional>
#include <string>

#include "commands.h"
#include "options.h"
#include "progress.h"
#include "table.h"
#include "timef/upgrade.h"

namespace timef::cli {
namespace {

struct UpgradeArgs {
  std::string legacy;
  std::string out;
  std::optional<std::string> version;
  int threads = static_cast<int>(write_option::threads.default_value);
};

int RunUpgrade(const UpgradeArgs& args) {
  ProgressBar bar;  // draws only when stderr is a terminal
  UpgradeOptions options;
  options.version = args.version;
  options.write.threads = args.threads;
  options.write = WithProgress(bar, options.write);
  // Each warning once, on its own stderr line.
  options.warn = [&bar](const std::string& warning) {
    bar.Finish();
    fmt::print(stderr, "warning: {}\n", Shown(warning));
  };
  const UpgradeResult result = Upgrade(args.legacy, args.out, options);
  bar.Finish();
  const manifest::Counts& c = result.written.manifest.counts;
  std::int64_t tasks = 0;
  for (const auto& [type, n] : c.tasks) tasks += n;
  fmt::print(stderr, "upgraded {}: {} records, {} signals, {} tasks, {} annotation occurrences\n",
             result.written.manifest.Ref(), c.records, c.signals, tasks, c.annotation_occurrences);
  fmt::print("{}\n", result.written.release_dir.string());
  return kExitOk;
}

}  // namespace

void RegisterLegacyCommands(CLI::App& app, Action& action) {
  auto args = std::make_shared<UpgradeArgs>();
  CLI::App* upgrade = app.add_subcommand(
      "upgrade",
      "Rewrite a legacy release (Parquet control tables) as a native release under a root; "
      "prints its directory");
  upgrade->group(kGroupWrite);
  upgrade->add_option("LEGACY_DIR", args->legacy, "The legacy release directory")->required();
  upgrade->add_option("--out", args->out, "Registry root to write <org>/<name>/<version> into")
      ->required();
  upgrade->add_option("--version", args->version,
                      "Version to write (x.y.z; default: the legacy version)");
  AddThreadsOption(*upgrade, args->threads);
  upgrade->callback([&action, args] { action = [args] { return RunUpgrade(*args); }; });
}

}  // namespace timef::cli
