// `timef ls`, `timef gc` and `timef pull`: a registry root's datasets and versions, the explicit
// cleanup of stale staging directories (docs/format.md §3.3 DECIDE: never automatic), and
// downloading a release.
#include <fmt/core.h>

#include <charconv>
#include <chrono>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "dataset_text.h"
#include "options.h"
#include "release_dir.h"
#include "remote/url.h"
#include "table.h"
#include "timef/error.h"
#include "timef/registry.h"
#include "timef/remote.h"

namespace timef::cli {
namespace {

struct LsArgs {
  std::string root;
  OutputFormat format = OutputFormat::kText;
};

struct GcArgs {
  std::string root;
  std::chrono::seconds older_than = std::chrono::hours(24);
  bool dry_run = false;
};

std::filesystem::path RootOf(const std::string& argument) {
  if (!argument.empty()) return argument;
  if (std::optional<std::filesystem::path> root = RegistryRoot()) return *root;
  throw ValidationError({.object = "registry root"}, "pass ROOT, --root DIR or set TIMEF_ROOT");
}

// One release of a registry listing: the latest of its dataset or not, and how to read its
// manifest (from a local registry, or fetched from S3).
struct ListedRelease {
  std::string dataset_id;
  Version version;
  bool latest = false;
  std::function<manifest::Manifest()> read_manifest;
};

// The `timef ls` table. A release that cannot be read is named on stderr after the others are
// listed (exit 1): one broken release does not hide the rest.
int PrintListing(const std::vector<ListedRelease>& releases, OutputFormat format) {
  Table table({{"DATASET", false, 0, "dataset"},
               {"VERSION", false, 0, "version"},
               {"LATEST", false, 0, "latest"},
               {"RECORDS", true, 0, "records"},
               {"OWN BYTES", true, 0, "own_bytes"},
               {"PAYLOAD SOURCES", false, 0, "payload_sources"}},
              format, {});
  std::vector<std::string> broken;
  for (const ListedRelease& r : releases) {
    manifest::Manifest m;
    try {
      m = r.read_manifest();
    } catch (const Error& e) {
      broken.push_back(r.dataset_id + "@" + r.version.ToString() + ": not listed: " + e.what());
      continue;
    }
    std::vector<std::string> sources;
    for (const auto& [source, pins] : m.payload_sources) sources.push_back(source);
    std::string sources_text;
    for (const std::string& s : sources) sources_text += (sources_text.empty() ? "" : ",") + s;
    table.Add({Cell::Str(r.dataset_id), Cell::Str(r.version.ToString()),
               Cell{r.latest ? "latest" : "", r.latest}, Cell::Int(m.counts.records),
               Cell::Int(OwnBytes(m)), Cell{sources_text.empty() ? "-" : sources_text, sources}});
  }
  table.Flush();
  for (const std::string& message : broken)
    fmt::print(stderr, "timef: error: {}\n", Shown(message));
  return broken.empty() ? kExitOk : kExitFailure;
}

int RunLs(const LsArgs& args) {
  std::vector<ListedRelease> listed;
  const std::string root = RootOf(args.root).string();
  if (remote::IsUrl(root)) {
    // A registry on S3 (docs/remote.md "S3"): each release's manifest fetched.
    const std::vector<RemoteRegistryRelease> releases = ListRemoteRegistry(root);
    for (std::size_t i = 0; i < releases.size(); ++i) {
      const RemoteRegistryRelease& r = releases[i];
      const bool latest = i + 1 == releases.size() || releases[i + 1].dataset_id != r.dataset_id;
      listed.push_back({r.dataset_id, r.version, latest,
                        [url = r.url] { return Reader::Open(url).manifest(); }});
    }
    return PrintListing(listed, args.format);
  }
  const Registry registry = Registry::Open(RootOf(args.root));
  for (const std::string& id : registry.Datasets()) {
    const std::vector<Version> versions = registry.Versions(id);
    for (const Version& version : versions) {
      listed.push_back({id, version, version == versions.back(),
                        [&registry, ref = id + "@" + version.ToString()] {
                          return registry.ReadManifest(registry.Resolve(ref));
                        }});
    }
  }
  return PrintListing(listed, args.format);
}

int RunGc(const GcArgs& args) {
  const std::vector<StaleStaging> found = Gc(RootOf(args.root), args.older_than, args.dry_run);
  int64_t bytes = 0;
  for (const StaleStaging& s : found) {
    fmt::print("{}{} ({} bytes, {} s old)\n", args.dry_run ? "would remove " : "removed ",
               Shown(s.dir.string()), s.bytes, s.age.count());
    bytes += s.bytes;
  }
  fmt::print(stderr, "{} {} staging directories, {} bytes\n",
             args.dry_run ? "would remove" : "removed", found.size(), bytes);
  return kExitOk;
}

// 90s, 30m, 24h, 7d, or a bare number of seconds.
CLI::Validator Duration(std::chrono::seconds& out) {
  return CLI::Validator(
      [&out](std::string& text) -> std::string {
        int64_t value = 0;
        const char* begin = text.data();
        const char* end = begin + text.size();
        auto [ptr, error] = std::from_chars(begin, end, value);
        const std::string unit(ptr, end);
        int64_t scale = 0;
        if (unit.empty() || unit == "s") scale = 1;
        if (unit == "m") scale = 60;
        if (unit == "h") scale = 3600;
        if (unit == "d") scale = 86400;
        if (text.empty() || error != std::errc() || value < 0 || scale == 0 ||
            value > INT64_MAX / scale) {
          return "expected a duration such as 90s, 30m, 24h or 7d, got '" + text + "'";
        }
        out = std::chrono::seconds(value * scale);
        return "";
      },
      "DURATION", "duration");
}

}  // namespace

struct PullArgs {
  std::string url;
  std::string dir;
  int threads = PullOptions{}.threads;
};

// `timef pull URL DIR`: the release at URL downloaded into the new directory DIR
// (docs/remote.md "Pull"); prints what it did on stderr.
int RunPull(const PullArgs& args) {
  const PullResult result = PullRelease(args.url, args.dir, PullOptions{.threads = args.threads});
  std::cerr << "pulled " << result.release_dir.string() << " (" << result.files_downloaded
            << " files, " << result.bytes_downloaded << " bytes downloaded; " << result.files_kept
            << " kept from an earlier pull)\n";
  return kExitOk;
}

struct PushArgs {
  std::string release;
  std::string url;
  int threads = PushOptions{}.threads;
};

// `timef push RELEASE s3://...`: the release uploaded (docs/remote.md "Push"); prints what it did
// on stderr.
int RunPush(const PushArgs& args) {
  const PushResult result =
      PushRelease(args.release, args.url, PushOptions{.threads = args.threads, .on_step = {}});
  std::cerr << "pushed " << result.url << " (" << result.files << " files and manifest.json, "
            << result.bytes_uploaded << " bytes uploaded)\n";
  for (const std::string& left : result.temporary_objects_left) {
    fmt::print(stderr, "timef: warning: could not delete the temporary object {}\n", Shown(left));
  }
  return kExitOk;
}

void RegisterRegistryCommands(CLI::App& app, Action& action) {
  auto ls = std::make_shared<LsArgs>();
  CLI::App* ls_cmd = app.add_subcommand(
      "ls", "List a registry's datasets and versions (latest, records, own bytes, sources)");
  ls_cmd->group(kGroupInspect);
  ls_cmd->add_option("ROOT", ls->root,
                     "Registry root, a directory or s3://bucket/prefix (default --root or "
                     "$TIMEF_ROOT)");
  AddRootOption(*ls_cmd);
  AddFormatOption(*ls_cmd, ls->format);
  ls_cmd->callback([&action, ls] { action = [ls] { return RunLs(*ls); }; });

  auto gc = std::make_shared<GcArgs>();
  CLI::App* gc_cmd = app.add_subcommand(
      "gc", "Remove stale staging directories (<version>.tmp-<hex>) of a registry");
  gc_cmd->group(kGroupWrite);
  gc_cmd->add_option("ROOT", gc->root, "Registry root (default --root or $TIMEF_ROOT)");
  AddRootOption(*gc_cmd);
  gc_cmd->add_option("--older-than", "Only directories untouched for this long (default 24h)")
      ->check(Duration(gc->older_than));
  gc_cmd->add_flag("--dry-run", gc->dry_run, "List what would be removed; remove nothing");
  gc_cmd->callback([&action, gc] { action = [gc] { return RunGc(*gc); }; });

  auto pull = std::make_shared<PullArgs>();
  CLI::App* pull_cmd = app.add_subcommand(
      "pull",
      "Download a release from its http(s) or s3 URL into a new directory (sha256 checked)");
  pull_cmd->group(kGroupWrite);
  pull_cmd->add_option("URL", pull->url, "The release's URL (<root>/<org>/<name>/<version>)")
      ->required();
  pull_cmd
      ->add_option("DIR", pull->dir,
                   "The new release directory; an interrupted pull leaves DIR.part, which "
                   "the next pull resumes")
      ->required();
  pull_cmd->add_option("--threads", pull->threads, "Files downloaded at once (1 to 64, default 4)")
      ->check(CLI::Range(1, 64));
  pull_cmd->callback([&action, pull] { action = [pull] { return RunPull(*pull); }; });

  auto push = std::make_shared<PushArgs>();
  CLI::App* push_cmd = app.add_subcommand(
      "push", "Upload a release to S3 (temporary prefix, server-side copies, manifest.json last)");
  push_cmd->group(kGroupWrite);
  push_cmd->add_option("RELEASE", push->release, "The local release directory")->required();
  push_cmd
      ->add_option("URL", push->url,
                   "s3://bucket/<prefix>/<org>/<name>/<version> (the manifest's ID and version)")
      ->required();
  push_cmd->add_option("--threads", push->threads, "Objects sent at once (1 to 64, default 4)")
      ->check(CLI::Range(1, 64));
  push_cmd->callback([&action, push] { action = [push] { return RunPush(*push); }; });
}

}  // namespace timef::cli
