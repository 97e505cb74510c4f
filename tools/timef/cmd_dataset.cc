// `timef demo|info|verify|records|tasks|signals|cat`: write the hello-world demo release and look
// into any committed release. Registration and the manifest-level commands live here; records and
// tasks in cmd_dataset_objects.cc, signals in cmd_dataset_signals.cc, cat in cmd_dataset_cat.cc.
#include "cmd_dataset.h"

#include <fmt/core.h>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <utility>

#include "commands.h"
#include "core/enum_table.h"
#include "dataset_text.h"
#include "options.h"
#include "progress.h"
#include "release_dir.h"
#include "remote/url.h"
#include "table.h"
#include "timef/demo.h"
#include "timef/legacy.h"
#include "timef/manifest.h"
#include "timef/model.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef::cli {
namespace {

std::vector<manifest::FilePart> OwnFiles(const manifest::Manifest& manifest) {
  std::vector<manifest::FilePart> own{manifest.files.control};
  own.insert(own.end(), manifest.files.time_series.begin(), manifest.files.time_series.end());
  own.insert(own.end(), manifest.files.payloads.begin(), manifest.files.payloads.end());
  return own;
}

}  // namespace

namespace {

// Writes the composed demo releases that are not committed yet (after hello-world 1.0.0), one
// stderr line each; stdout stays the hello-world directory alone.
void WriteComposedDemo(const std::filesystem::path& registry) {
  const std::pair<std::string, std::function<WriteResult(const std::filesystem::path&)>> demos[] = {
      {std::string(demo::kHelloChildId) + "/" + std::string(demo::kHelloChildVersion),
       demo::WriteHelloChild},
      {std::string(demo::kHelloWorldId) + "/" + std::string(demo::kHelloWorldEditVersion),
       demo::WriteHelloWorldEdit}};
  for (const auto& [dir, write] : demos) {
    if (std::filesystem::exists(registry / dir / manifest::kManifestFileName)) continue;
    const WriteResult result = write(registry);
    size_t pinned = 0;
    for (const auto& [ref, pins] : result.manifest.payload_sources) pinned += pins.size();
    fmt::print(stderr, "wrote {}: {} files, {}, {} files pinned in {}\n", result.manifest.Ref(),
               OwnFiles(result.manifest).size(), FormatBytes(TotalSize(OwnFiles(result.manifest))),
               pinned, demo::kHelloWorldId);
  }
}

}  // namespace

// Writes timef/hello-zarr@1.0.0 on the Zarr values backend unless it is committed.
void WriteZarrDemo(const std::filesystem::path& registry) {
  const std::filesystem::path dir =
      registry / std::string(demo::kHelloZarrId) / std::string(demo::kHelloZarrVersion);
  if (std::filesystem::exists(dir / manifest::kManifestFileName)) return;
  auto dataset = demo::BuildHelloZarr();
  const WriteResult result =
      WriteRelease(*dataset, demo::HelloZarrCard(), registry, demo::HelloZarrWriteOptions());
  fmt::print(stderr, "wrote {}: {} files, {} (values_backend zarr)\n", result.manifest.Ref(),
             OwnFiles(result.manifest).size(), FormatBytes(TotalSize(OwnFiles(result.manifest))));
}

int RunDemo(const std::string& registry) {
  const std::filesystem::path release = std::filesystem::path(registry) /
                                        std::string(demo::kHelloWorldId) /
                                        std::string(demo::kHelloWorldVersion);
  // A committed release is never rewritten (docs/format.md §3.3); say so and point at it.
  if (std::filesystem::exists(release / manifest::kManifestFileName)) {
    fmt::print(stderr, "{}@{} is already committed\n", demo::kHelloWorldId,
               demo::kHelloWorldVersion);
    WriteComposedDemo(registry);
    WriteZarrDemo(registry);
    fmt::print("{}\n", release.string());
    return kExitOk;
  }
  auto dataset = demo::BuildHelloWorld();
  ProgressBar bar;
  const WriteOptions options = WithProgress(bar, demo::HelloWorldWriteOptions());
  WriteResult result = WriteRelease(*dataset, demo::HelloWorldCard(), registry, options);
  bar.Finish();
  fmt::print(stderr, "wrote {}: {} files, {}\n", result.manifest.Ref(),
             OwnFiles(result.manifest).size(), FormatBytes(TotalSize(OwnFiles(result.manifest))));
  WriteComposedDemo(registry);
  WriteZarrDemo(registry);
  fmt::print("{}\n", result.release_dir.string());
  return kExitOk;
}

// A legacy directory read through its native form; a remote release is never one (Reader::Open
// reads only native manifests by URL, docs/remote.md).
bool IsLegacyReader(const Reader& reader) {
  return !remote::IsUrl(reader.path().string()) && IsLegacyRelease(reader.path());
}

int RunInfo(const std::string& path) {
  Reader reader = OpenRelease(path);
  const manifest::Manifest& m = reader.manifest();
  const manifest::Card& card = m.metadata;
  fmt::print("dataset      {}\n", Shown(m.Ref()));
  fmt::print("name         {}\n", Shown(card.name));
  fmt::print("license      {}\n", ToString(card.license));
  const bool legacy = IsLegacyReader(reader);
  if (legacy) fmt::print("layout       legacy (read with the IDs of its upgrade)\n");
  if (const auto& upgraded = m.build_env.upgraded_from) {
    fmt::print("upgraded_from legacy format {}, manifest {}\n", upgraded->timef_format_version,
               upgraded->manifest_checksum);
  }
  for (const manifest::ParentRelease& parent : card.parents) {
    fmt::print("parent       {} = {}\n", Shown(parent.alias), Shown(parent.Ref()));
  }
  for (const auto& [ref, pins] : m.payload_sources) {
    fmt::print("reads from   {} ({} pinned files, {})\n", Shown(ref), pins.size(),
               FormatBytes(TotalSize(pins)));
  }
  const manifest::Counts& c = m.counts;
  fmt::print("counts       {} records, {} sources, {} signals, {} axes, {} signal chunks\n",
             c.records, c.sources, c.signals, c.axes, c.signal_chunks);
  fmt::print("annotations  {} contents, {} occurrences\n", c.annotation_contents,
             c.annotation_occurrences);
  fmt::print("values       {} backend, {} own files\n", ToString(m.values_backend),
             m.files.time_series.size());

  int64_t n_tasks = 0;
  for (const auto& [type, count] : c.tasks) n_tasks += count;
  fmt::print("\ntasks ({})\n", n_tasks);
  Table tasks({{"type"}, {"tasks", true}}, OutputFormat::kText, {.header = false, .indent = 2});
  for (const auto& [type, count] : c.tasks) tasks.Add({Cell::Str(type), Cell::Int(count)});
  tasks.Flush();

  fmt::print("\nspecs ({})\n", m.schema.time_series_specs.size());
  Table specs({{"spec_type"},
               {"dtype"},
               {"unit"},
               {"nullable"},
               {"modality"},
               {"signals", true},
               {"encoding"}},
              OutputFormat::kText, {.indent = 2});
  for (const manifest::Spec& spec : m.schema.time_series_specs) {
    auto signals = c.signals_by_spec.find(spec.spec_type);
    auto encoding = m.value_encoding.find(spec.spec_type);
    std::string dtype(ToString(spec.dtype));
    if (!spec.categories.empty()) dtype += fmt::format(" ({} categories)", spec.categories.size());
    specs.Add(
        {Cell::Str(spec.spec_type), Cell::Str(dtype), Cell::OptStr(spec.unit),
         Cell::Str(spec.nullable ? "yes" : "no"), Cell::Str(std::string(ToString(spec.modality))),
         Cell::Int(signals == c.signals_by_spec.end() ? 0 : signals->second),
         encoding == m.value_encoding.end() ? Cell::OptStr(std::nullopt)
                                            : Cell::Str(std::string(ToString(encoding->second)))});
  }
  specs.Flush();

  if (m.values_backend == manifest::ValuesBackend::kZarr) {
    // One row per array of the store (docs/format.md §8): its path, files and bytes.
    std::map<std::string, std::pair<int64_t, int64_t>> arrays;
    for (const manifest::FilePart& part : m.files.time_series) {
      const std::string_view path = part.path;
      const size_t at = path.rfind("/zarr.json");
      if (at == std::string_view::npos || at + 10 != path.size()) continue;
      const std::string array(path.substr(0, at));
      if (array == "time_series.zarr" || array == "time_series.zarr/_validity") continue;
      arrays[array] = {0, 0};
    }
    for (const manifest::FilePart& part : m.files.time_series) {
      for (auto& [array, files_bytes] : arrays) {
        if (part.path.starts_with(array + "/")) {
          files_bytes.first += 1;
          files_bytes.second += part.size;
        }
      }
    }
    fmt::print("\narrays ({})\n", arrays.size());
    Table table({{"array"}, {"files", true}, {"size", true}}, OutputFormat::kText,
                {.header = false, .indent = 2});
    for (const auto& [array, files_bytes] : arrays) {
      table.Add({Cell::Str(array), Cell::Int(files_bytes.first),
                 Cell::Str(FormatBytes(files_bytes.second))});
    }
    table.Flush();
  }

  // A legacy directory lists its own parts, not those of its native form.
  const std::vector<manifest::FilePart> own = legacy ? LegacyFiles(reader.path()) : OwnFiles(m);
  fmt::print("\nfiles ({}, total {})\n", own.size(), FormatBytes(TotalSize(own)));
  Table files({{"path"}, {"size", true}}, OutputFormat::kText, {.header = false, .indent = 2});
  for (const manifest::FilePart& part : own)
    files.Add({Cell::Str(part.path), Cell::Str(FormatBytes(part.size))});
  files.Flush();
  return kExitOk;
}

int RunVerify(const std::string& path) {
  Reader reader = OpenRelease(path);
  ProgressBar bar;  // draws only when stderr is a terminal
  if (bar.enabled()) {
    reader.Verify(
        [&bar](std::int64_t done, std::int64_t total) { bar.Update("verify", done, total); });
  } else {
    reader.Verify();
  }
  bar.Finish();
  if (IsLegacyReader(reader)) {
    // docs/format.md §15: the legacy manifest's own parts were hashed.
    const std::vector<manifest::FilePart> legacy = LegacyFiles(reader.path());
    fmt::print("ok: legacy release, {} files, {} bytes verified\n", legacy.size(),
               TotalSize(legacy));
    return kExitOk;
  }
  const std::vector<manifest::FilePart> own = OwnFiles(reader.manifest());
  size_t pinned = 0;
  int64_t pinned_bytes = 0;
  for (const auto& [ref, pins] : reader.manifest().payload_sources) {
    pinned += pins.size();
    pinned_bytes += TotalSize(pins);
  }
  if (pinned == 0) {
    fmt::print("ok: {} files, {} bytes verified\n", own.size(), TotalSize(own));
  } else {
    fmt::print(
        "ok: {} files, {} bytes verified, and {} files, {} bytes pinned in {} payload "
        "sources\n",
        own.size(), TotalSize(own), pinned, pinned_bytes, reader.manifest().payload_sources.size());
  }
  return kExitOk;
}

void RegisterDatasetCommands(CLI::App& app, Action& action) {
  // Registered by task: CLI11 lists the groups of `timef --help` in the order they first appear.
  auto release = std::make_shared<std::string>();
  const char* kReleaseHelp =
      "A committed release directory (<root>/<org>/<name>/<version>), an http(s):// URL of one "
      "(docs/remote.md), or a ref org/name[@x.y.z] resolved in --root";
  CLI::App* info = app.add_subcommand(
      "info", "Summarize a release: card, counts, task types, specs, files, encodings");
  info->group(kGroupInspect);
  AddRootOption(*info);
  info->add_option("DIR", *release, kReleaseHelp)->required();
  info->callback([&action, release] { action = [release] { return RunInfo(*release); }; });

  auto records = std::make_shared<RecordsArgs>();
  CLI::App* records_cmd = app.add_subcommand("records", "List records, one line each");
  records_cmd->group(kGroupInspect);
  AddRootOption(*records_cmd);
  records_cmd->add_option("DIR", records->release, kReleaseHelp)->required();
  records_cmd->add_option("--limit", records->limit, "Print at most N records")
      ->check(WholeNumberAtLeast(0));
  records_cmd->add_option("--ids", records->ids, "Only these record IDs, in this order (1,2,...)")
      ->delimiter(',')
      ->check(IdNumber());
  records_cmd->add_flag("--signals", records->signal_ids,
                        "Add a column of each record's signal IDs");
  AddFormatOption(*records_cmd, records->format);
  records_cmd->callback(
      [&action, records] { action = [records] { return RunRecords(*records); }; });

  auto tasks = std::make_shared<TasksArgs>();
  CLI::App* tasks_cmd = app.add_subcommand("tasks", "List tasks, one line each");
  tasks_cmd->group(kGroupInspect);
  AddRootOption(*tasks_cmd);
  tasks_cmd->add_option("DIR", tasks->release, kReleaseHelp)->required();
  tasks_cmd->add_option("--split", tasks->split, "Only tasks of this split")
      ->check(CLI::IsMember(core::EnumNames<model::Split>()));
  tasks_cmd->add_option("--type", tasks->type, "Only tasks of this type")
      ->check(CLI::IsMember(core::EnumNames<TaskType>()));
  tasks_cmd->add_option("--limit", tasks->limit, "Print at most N tasks")
      ->check(WholeNumberAtLeast(0));
  tasks_cmd->add_flag("--table", tasks->table,
                      "Print the task table as JSON lines (whatever --format says)");
  AddFormatOption(*tasks_cmd, tasks->format);
  tasks_cmd->callback([&action, tasks] {
    action = [tasks] { return tasks->table ? RunTaskTable(*tasks) : RunTasks(*tasks); };
  });

  auto signals = std::make_shared<SignalsArgs>();
  CLI::App* signals_cmd = app.add_subcommand(
      "signals", "List signals with their IDs (for cat --signal), record, source, spec and axis");
  signals_cmd->group(kGroupInspect);
  AddRootOption(*signals_cmd);
  signals_cmd->add_option("DIR", signals->release, kReleaseHelp)->required();
  signals_cmd->add_option("--record", signals->record, "Only the signals of this record")
      ->check(IdNumber());
  AddFormatOption(*signals_cmd, signals->format);
  signals_cmd->callback(
      [&action, signals] { action = [signals] { return RunSignals(*signals); }; });

  auto cat = std::make_shared<CatArgs>();
  CLI::App* cat_cmd = app.add_subcommand("cat", "Print a signal's values");
  cat_cmd->group(kGroupInspect);
  AddRootOption(*cat_cmd);
  cat_cmd->add_option("DIR", cat->release, kReleaseHelp)->required();
  cat_cmd->add_option("--signal", cat->signal, "Signal ID (timef signals lists them)")
      ->required()
      ->check(IdNumber());
  cat_cmd->add_option("--steps", cat->steps,
                      "Half-open step window A:B of whole numbers >= 0 (A: and :B allowed). It is "
                      "clamped to the signal: steps past the end are not printed, and a window "
                      "wholly past the end prints the header only. A > B is an error");
  cat_cmd->add_option("--format", cat->format, "csv (default) or json (one object per line)")
      ->check(CLI::IsMember({"csv", "json"}));
  cat_cmd->callback([&action, cat] { action = [cat] { return RunCat(*cat); }; });

  CLI::App* verify =
      app.add_subcommand("verify", "Open a release and check every file's size and checksum");
  verify->group(kGroupVerify);
  AddRootOption(*verify);
  verify->add_option("DIR", *release, kReleaseHelp)->required();
  verify->callback([&action, release] { action = [release] { return RunVerify(*release); }; });

  auto registry = std::make_shared<std::string>("timef-registry");
  CLI::App* demo = app.add_subcommand(
      "demo", "Write the hello-world demo release into a registry and print its directory");
  demo->group(kGroupWrite);
  demo->add_option("REGISTRY_DIR", *registry, "Registry root (default ./timef-registry)");
  demo->callback([&action, registry] { action = [registry] { return RunDemo(*registry); }; });
}

}  // namespace timef::cli
