// `timef demo|info|verify|records|tasks|cat`: write the hello-world demo release and look into
// any committed release. Registration and the manifest-level commands live here; records and
// tasks in cmd_dataset_objects.cc, cat in cmd_dataset_cat.cc.
#include "cmd_dataset.h"

#include <fmt/core.h>

#include <filesystem>
#include <memory>

#include "commands.h"
#include "core/enum_table.h"
#include "dataset_text.h"
#include "timef/demo.h"
#include "timef/manifest.h"
#include "timef/model.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef::cli {
namespace {

int64_t TotalSize(const std::vector<manifest::FilePart>& parts) {
  int64_t total = 0;
  for (const manifest::FilePart& part : parts) total += part.size;
  return total;
}

std::vector<manifest::FilePart> OwnFiles(const manifest::Manifest& manifest) {
  std::vector<manifest::FilePart> own{manifest.files.control};
  own.insert(own.end(), manifest.files.time_series.begin(), manifest.files.time_series.end());
  own.insert(own.end(), manifest.files.payloads.begin(), manifest.files.payloads.end());
  return own;
}

}  // namespace

int RunDemo(const std::string& registry) {
  const std::filesystem::path release = std::filesystem::path(registry) /
                                        std::string(demo::kHelloWorldId) /
                                        std::string(demo::kHelloWorldVersion);
  // A committed release is never rewritten (FORMAT.md §3.2); say so and point at it.
  if (std::filesystem::exists(release / manifest::kManifestFileName)) {
    fmt::print(stderr, "{}@{} is already committed\n", demo::kHelloWorldId,
               demo::kHelloWorldVersion);
    fmt::print("{}\n", release.string());
    return kExitOk;
  }
  auto dataset = demo::BuildHelloWorld();
  WriteResult result =
      WriteRelease(*dataset, demo::HelloWorldCard(), registry, demo::HelloWorldWriteOptions());
  fmt::print(stderr, "wrote {}: {} files, {}\n", result.manifest.Ref(),
             OwnFiles(result.manifest).size(), FormatBytes(TotalSize(OwnFiles(result.manifest))));
  fmt::print("{}\n", result.release_dir.string());
  return kExitOk;
}

int RunInfo(const std::string& path) {
  Reader reader = Reader::Open(path);
  const manifest::Manifest& m = reader.manifest();
  const manifest::Card& card = m.metadata;
  fmt::print("dataset      {}\n", m.Ref());
  fmt::print("name         {}\n", card.name);
  fmt::print("license      {}\n", ToString(card.license));
  const manifest::Counts& c = m.counts;
  fmt::print("counts       {} records, {} sources, {} signals, {} axes, {} signal chunks\n",
             c.records, c.sources, c.signals, c.axes, c.signal_chunks);
  fmt::print("annotations  {} contents, {} occurrences\n", c.annotation_contents,
             c.annotation_occurrences);

  int64_t n_tasks = 0;
  for (const auto& [type, count] : c.tasks) n_tasks += count;
  fmt::print("\ntasks ({})\n", n_tasks);
  std::vector<std::vector<std::string>> task_rows;
  for (const auto& [type, count] : c.tasks) task_rows.push_back({type, std::to_string(count)});
  PrintColumns(task_rows, {false, true});

  fmt::print("\nspecs ({})\n", m.schema.time_series_specs.size());
  std::vector<std::vector<std::string>> spec_rows{
      {"spec_type", "dtype", "unit", "nullable", "modality", "signals", "encoding"}};
  for (const manifest::TimeSeriesSpec& spec : m.schema.time_series_specs) {
    auto signals = c.signals_by_spec.find(spec.spec_type);
    auto encoding = m.value_encoding.find(spec.spec_type);
    std::string dtype(ToString(spec.dtype));
    if (!spec.categories.empty()) dtype += fmt::format(" ({} categories)", spec.categories.size());
    spec_rows.push_back(
        {spec.spec_type, dtype, spec.unit_value.value_or("-"), spec.nullable ? "yes" : "no",
         std::string(ToString(spec.modality)),
         std::to_string(signals == c.signals_by_spec.end() ? 0 : signals->second),
         encoding == m.value_encoding.end() ? "-" : std::string(ToString(encoding->second))});
  }
  PrintColumns(spec_rows, {false, false, false, false, false, true, false});

  const std::vector<manifest::FilePart> own = OwnFiles(m);
  fmt::print("\nfiles ({}, total {})\n", own.size(), FormatBytes(TotalSize(own)));
  std::vector<std::vector<std::string>> file_rows;
  for (const manifest::FilePart& part : own)
    file_rows.push_back({part.path, FormatBytes(part.size)});
  PrintColumns(file_rows, {false, true});
  return kExitOk;
}

int RunVerify(const std::string& path) {
  Reader reader = Reader::Open(path);
  reader.Verify();
  const std::vector<manifest::FilePart> own = OwnFiles(reader.manifest());
  fmt::print("ok: {} files, {} bytes verified\n", own.size(), TotalSize(own));
  return kExitOk;
}

void RegisterDatasetCommands(CLI::App& app, Action& action) {
  auto registry = std::make_shared<std::string>("timef-registry");
  CLI::App* demo = app.add_subcommand(
      "demo", "Write the hello-world demo release into a registry and print its directory");
  demo->add_option("REGISTRY_DIR", *registry, "Registry root (default ./timef-registry)");
  demo->callback([&action, registry] { action = [registry] { return RunDemo(*registry); }; });

  auto release = std::make_shared<std::string>();
  const char* kReleaseHelp = "A committed release directory (<root>/<org>/<name>/<version>)";
  CLI::App* info = app.add_subcommand(
      "info", "Summarize a release: card, counts, task types, specs, files, encodings");
  info->add_option("DIR", *release, kReleaseHelp)->required();
  info->callback([&action, release] { action = [release] { return RunInfo(*release); }; });

  CLI::App* verify =
      app.add_subcommand("verify", "Open a release and check every file's size and checksum");
  verify->add_option("DIR", *release, kReleaseHelp)->required();
  verify->callback([&action, release] { action = [release] { return RunVerify(*release); }; });

  auto records = std::make_shared<RecordsArgs>();
  CLI::App* records_cmd = app.add_subcommand("records", "List records, one line each");
  records_cmd->add_option("DIR", records->release, kReleaseHelp)->required();
  records_cmd->add_option("--limit", records->limit, "Print at most N records")
      ->check(CLI::NonNegativeNumber);
  records_cmd->add_option("--ids", records->ids, "Only these record IDs, in this order (1,2,...)")
      ->delimiter(',');
  records_cmd->callback(
      [&action, records] { action = [records] { return RunRecords(*records); }; });

  auto tasks = std::make_shared<TasksArgs>();
  CLI::App* tasks_cmd = app.add_subcommand("tasks", "List tasks, one line each");
  tasks_cmd->add_option("DIR", tasks->release, kReleaseHelp)->required();
  tasks_cmd->add_option("--split", tasks->split, "Only tasks of this split")
      ->check(CLI::IsMember(core::EnumNames<model::Split>()));
  tasks_cmd->add_option("--type", tasks->type, "Only tasks of this type")
      ->check(CLI::IsMember(core::EnumNames<TaskType>()));
  tasks_cmd->add_option("--limit", tasks->limit, "Print at most N tasks")
      ->check(CLI::NonNegativeNumber);
  tasks_cmd->add_flag("--table", tasks->table, "Print the task table as JSON lines");
  tasks_cmd->callback([&action, tasks] {
    action = [tasks] { return tasks->table ? RunTaskTable(*tasks) : RunTasks(*tasks); };
  });

  auto cat = std::make_shared<CatArgs>();
  CLI::App* cat_cmd = app.add_subcommand("cat", "Print a signal's values");
  cat_cmd->add_option("DIR", cat->release, kReleaseHelp)->required();
  cat_cmd->add_option("--signal", cat->signal, "Signal ID")->required();
  cat_cmd->add_option("--steps", cat->steps, "Half-open step window A:B (A: and :B allowed)");
  cat_cmd->add_option("--format", cat->format, "csv (default) or json (one object per line)")
      ->check(CLI::IsMember({"csv", "json"}));
  cat_cmd->callback([&action, cat] { action = [cat] { return RunCat(*cat); }; });
}

}  // namespace timef::cli
