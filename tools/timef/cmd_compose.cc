// `timef edit` and `timef derive`: a new version of a release with records removed, and a child
// release importing records (and their tasks) of a parent. Both write by reference: the values,
// offsets and text they keep stay in the release that stores them (a payload source).
#include <fmt/core.h>

#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "core/enum_table.h"
#include "dataset_text.h"
#include "options.h"
#include "progress.h"
#include "release_dir.h"
#include "timef/compose.h"
#include "timef/error.h"
#include "timef/ids.h"

namespace timef::cli {
namespace {

namespace fs = std::filesystem;

struct EditArgs {
  std::string release;
  std::string version;
  std::vector<int64_t> remove_records;
  std::string values_backend{write_option::values_backend.default_text};
  int threads = static_cast<int>(write_option::threads.default_value);
};

struct DeriveArgs {
  std::string release;
  std::string as;
  std::string alias;
  std::vector<int64_t> records;  // empty = every record
  bool with_tasks = false;
  std::string values_backend{write_option::values_backend.default_text};
  int threads = static_cast<int>(write_option::threads.default_value);
};

// Write options with --values-backend (parquet or zarr, docs/format.md §8) and --threads applied.
WriteOptions BackendOptions(const std::string& backend, int threads) {
  WriteOptions options;
  options.values_backend = *manifest::ParseValuesBackend(backend);  // checked by CLI11
  options.threads = threads;
  return options;
}

void AddBackendOption(CLI::App& cmd, std::string& backend) {
  cmd.add_option("--values-backend", backend,
                 "Backend of the values this release writes itself, parquet or zarr (default " +
                     std::string(write_option::values_backend.default_text) +
                     "): " + std::string(write_option::values_backend.doc))
      ->check(CLI::IsMember(core::EnumNames<manifest::ValuesBackend>()));
}

// Where the new release goes: --root / $TIMEF_ROOT, else the registry holding `reader`'s release.
fs::path OutputRoot(const Reader& reader) {
  if (std::optional<fs::path> root = RegistryRoot()) return *root;
  const manifest::Manifest& m = reader.manifest();
  const fs::path dir = fs::absolute(reader.path()).lexically_normal();
  const fs::path version = dir.filename(), name = dir.parent_path().filename(),
                 org = dir.parent_path().parent_path().filename();
  if (version.string() == m.metadata.dataset_version &&
      org.string() + "/" + name.string() == m.dataset_id) {
    return dir.parent_path().parent_path().parent_path();
  }
  throw ValidationError({.file = reader.path()}, "not in a registry (<root>/" + m.dataset_id + "/" +
                                                     m.metadata.dataset_version +
                                                     "); pass --root DIR");
}

void PrintWritten(const WriteResult& w) {
  size_t pinned = 0;
  for (const auto& [ref, pins] : w.manifest.payload_sources) pinned += pins.size();
  fmt::print(stderr,
             "wrote {}: {} records, {} own values files, {} own bytes, {} files pinned in {} "
             "payload sources\n",
             w.manifest.Ref(), w.manifest.counts.records, w.manifest.files.time_series.size(),
             OwnBytes(w.manifest), pinned, w.manifest.payload_sources.size());
  fmt::print("{}\n", w.release_dir.string());
}

int RunEdit(const EditArgs& args) {
  Version::Parse(args.version, "--version");
  Reader base = OpenRelease(args.release);
  const fs::path root = OutputRoot(base);
  Editor edit(base, args.version);
  if (!args.remove_records.empty()) {
    const std::vector<int64_t> tasks = edit.RemoveRecords(args.remove_records);
    fmt::print(stderr, "removing {} records and the {} tasks that use them\n",
               args.remove_records.size(), tasks.size());
  }
  ProgressBar bar;  // draws only when stderr is a terminal
  const WriteResult written =
      edit.Write(root, WithProgress(bar, BackendOptions(args.values_backend, args.threads)));
  bar.Finish();
  PrintWritten(written);
  return kExitOk;
}

int RunDerive(const DeriveArgs& args) {
  const ReleaseRef as = ReleaseRef::Parse(args.as, "--as");
  if (!IsValidAlias(args.alias)) {
    throw ValidationError({.object = "--alias"},
                          "'" + args.alias + "' is not an alias (^[a-z][a-z0-9_-]*$)");
  }
  Reader parent = OpenRelease(args.release);
  const fs::path root = OutputRoot(parent);
  model::Dataset child(as.dataset_id, as.version.ToString());
  Composer composer(child);
  composer.AddParent(args.alias, parent);
  const std::vector<int64_t> ids = args.records.empty() ? parent.RecordIds() : args.records;
  composer.ImportRecords(args.alias, ids);
  size_t tasks = 0;
  if (args.with_tasks) tasks = composer.ImportTasksOfImportedRecords(args.alias).size();
  fmt::print(stderr, "importing {} records and {} tasks of {} as '{}'\n", ids.size(), tasks,
             parent.manifest().Ref(), args.alias);
  manifest::Card card = parent.manifest().metadata;
  card.dataset_id = as.dataset_id;
  card.dataset_version = as.version.ToString();
  card.parents.clear();
  card.name = card.name + " (derived)";
  ProgressBar bar;
  const WriteResult written = composer.Write(
      card, root, WithProgress(bar, BackendOptions(args.values_backend, args.threads)));
  bar.Finish();
  PrintWritten(written);
  return kExitOk;
}

}  // namespace

void RegisterComposeCommands(CLI::App& app, Action& action) {
  const char* kReleaseHelp =
      "A committed release directory, or a ref org/name[@x.y.z] resolved in --root";
  auto edit = std::make_shared<EditArgs>();
  CLI::App* edit_cmd = app.add_subcommand(
      "edit", "Write a new version of a release (same IDs), reusing its stored values");
  edit_cmd->group(kGroupCompose);
  edit_cmd->add_option("RELEASE", edit->release, kReleaseHelp)->required();
  edit_cmd->add_option("--version", edit->version, "The new version x.y.z")->required();
  edit_cmd
      ->add_option("--remove-records", edit->remove_records,
                   "Record IDs to remove (1,2,...), with the tasks that use them")
      ->delimiter(',')
      ->check(IdNumber());
  AddBackendOption(*edit_cmd, edit->values_backend);
  AddThreadsOption(*edit_cmd, edit->threads);
  AddRootOption(*edit_cmd);
  edit_cmd->callback([&action, edit] { action = [edit] { return RunEdit(*edit); }; });

  auto derive = std::make_shared<DeriveArgs>();
  CLI::App* derive_cmd = app.add_subcommand(
      "derive",
      "Write a child release importing records (and tasks) of a parent, no values copied");
  derive_cmd->group(kGroupCompose);
  derive_cmd->add_option("RELEASE", derive->release, kReleaseHelp)->required();
  derive_cmd->add_option("--as", derive->as, "The child's ref org/name@x.y.z")->required();
  derive_cmd->add_option("--alias", derive->alias, "The parent's alias in the child")->required();
  derive_cmd->add_option("--records", derive->records, "Parent record IDs to import (default all)")
      ->delimiter(',')
      ->check(IdNumber());
  derive_cmd->add_flag("--with-tasks", derive->with_tasks,
                       "Also import the tasks whose inputs are all imported records");
  AddRootOption(*derive_cmd);
  AddBackendOption(*derive_cmd, derive->values_backend);
  AddThreadsOption(*derive_cmd, derive->threads);
  derive_cmd->callback([&action, derive] { action = [derive] { return RunDerive(*derive); }; });
}

}  // namespace timef::cli
