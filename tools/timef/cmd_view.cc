// `timef view RELEASE [--port N] [--host H] [--open]`: serve a release to the browser
// (docs/view.md). The URL is the first line of stdout; the server runs until SIGINT or SIGTERM.
#include <fmt/core.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "release_dir.h"
#include "view/view_server.h"

extern char** environ;

namespace timef::cli {
namespace {

struct ViewArgs {
  std::string release;
  int port = 0;
  std::string host = "127.0.0.1";
  bool open = false;
};

// Starts `xdg-open URL` without waiting for the browser; a missing xdg-open is only a warning.
void OpenBrowser(const std::string& url) {
  pid_t pid = 0;
  std::string program = "xdg-open";
  std::string argument = url;
  char* argv[] = {program.data(), argument.data(), nullptr};
  if (posix_spawnp(&pid, "xdg-open", nullptr, nullptr, argv, environ) != 0) {
    fmt::print(stderr, "warning: cannot start xdg-open; open {} yourself\n", url);
    return;
  }
  int status = 0;
  waitpid(pid, &status, 0);  // xdg-open returns once the browser is started
}

int RunView(const ViewArgs& args) {
  if (!view::IsLoopback(args.host)) {
    fmt::print(stderr,
               "WARNING: timef view is listening on {}, not on loopback: anyone who can reach "
               "this address can read the whole release (no authentication, no TLS).\n",
               args.host);
  }
  auto api = std::make_shared<view::ViewApi>(OpenRelease(args.release));
  // SIGINT and SIGTERM are taken by sigwait below: block them before the server's threads start,
  // so that they inherit the mask and the signal reaches this thread.
  sigset_t stop_signals, previous;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);
  int signal_number = 0;
  {
    view::ViewServer server(api, {.host = args.host, .port = args.port});
    fmt::print("{}\n", server.url());
    std::fflush(stdout);
    if (args.open) OpenBrowser(server.url());
    sigwait(&stop_signals, &signal_number);
    server.Stop();
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  fmt::print(stderr, "timef view: stopped ({})\n", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
  return kExitOk;
}

}  // namespace

void RegisterViewCommands(CLI::App& app, Action& action) {
  auto args = std::make_shared<ViewArgs>();
  CLI::App* view = app.add_subcommand(
      "view",
      "Serve a release to the browser: records, signals with their annotations, tasks. Prints "
      "the URL first, serves until interrupted");
  view->group(kGroupInspect);
  view->add_option("RELEASE", args->release, "Release directory or org/name[@x.y.z]")->required();
  view->add_option("--port", args->port, "Port to listen on (0: a free one)")
      ->check(CLI::Range(0, 65535));
  view->add_option("--host", args->host,
                   "Address to listen on (default 127.0.0.1; anything else is reachable from "
                   "other machines)");
  view->add_flag("--open", args->open, "Open the URL in the desktop's browser (xdg-open)");
  AddRootOption(*view);
  view->callback([&action, args] { action = [args] { return RunView(*args); }; });
}

}  // namespace timef::cli
