// `timef manifest validate|show PATH`: check a manifest.json (or a release directory's) and
// print its problems, or a human summary of it.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "dataset_text.h"
#include "manifest/release_directory.h"
#include "release_dir.h"
#include "table.h"
#include "timef/error.h"
#include "timef/manifest.h"

namespace timef::cli {
namespace {

// A release directory stands for its manifest.json.
std::filesystem::path ManifestPath(const std::string& argument) {
  std::filesystem::path path(argument);
  manifest::CheckReleaseDirectory(path);
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) return path / manifest::kManifestFileName;
  return path;
}

int Validate(const std::string& argument) {
  std::filesystem::path path = ManifestPath(argument);
  manifest::ManifestCheck check = manifest::CheckManifest(manifest::ReadManifestBytes(path));
  if (check.manifest) {
    fmt::print("valid\n");
    return kExitOk;
  }
  for (const manifest::ManifestProblem& problem : check.problems) {
    fmt::print(stderr, "{}\n",
               Shown(FormatErrorMessage(ErrorSite{path, "", problem.pointer}, problem.message)));
  }
  return kExitFailure;
}

template <typename Range, typename Render>
std::string Join(const Range& items, Render render, std::string_view empty = "-") {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += render(item);
  }
  return out.empty() ? std::string(empty) : out;
}

std::string OrNone(const std::optional<std::string>& value) { return value ? *value : "-"; }

void PrintFiles(const std::vector<manifest::FilePart>& parts) {
  Table table({{"path"}, {"size", true}, {"checksum"}}, OutputFormat::kText,
              {.header = false, .indent = 2});
  for (const manifest::FilePart& part : parts) {
    table.Add({Cell::Str(part.path), Cell::Str(FormatBytes(part.size)),
               Cell::Str(part.checksum.substr(0, 23) + "…")});
  }
  table.Flush();
}

int Show(const std::string& argument) {
  std::filesystem::path path = ManifestPath(argument);
  manifest::Manifest m = manifest::ReadManifest(path);
  const manifest::Card& card = m.metadata;
  auto str = [](auto value) { return std::string(ToString(value)); };
  auto same = [](const std::string& text) { return text; };

  fmt::print("dataset      {}\n", Shown(m.Ref()));
  fmt::print("name         {}\n", Shown(card.name));
  fmt::print("license      {}{}\n", ToString(card.license),
             card.license_url ? " (" + Shown(*card.license_url) + ")" : "");
  fmt::print("access       {}{}\n", ToString(card.access),
             card.access_url ? " (" + Shown(*card.access_url) + ")" : "");
  fmt::print("domains      {}\n", Join(card.domains, str));
  fmt::print("tags         {}\n", Shown(Join(card.tags, same)));
  if (card.source_url) fmt::print("source       {}\n", Shown(*card.source_url));
  if (card.source_revision) fmt::print("revision     {}\n", Shown(*card.source_revision));
  fmt::print("format       TimeF {}, values backend {}\n", m.format_version,
             ToString(m.values_backend));
  fmt::print("parents      {}\n", Shown(Join(card.parents, [](const manifest::ParentRelease& p) {
               return p.alias + " = " + p.Ref();
             })));
  const manifest::Counts& c = m.counts;
  fmt::print("counts       {} records, {} sources, {} signals, {} axes, {} signal chunks\n",
             c.records, c.sources, c.signals, c.axes, c.signal_chunks);
  fmt::print("annotations  {} contents, {} occurrences\n", c.annotation_contents,
             c.annotation_occurrences);
  fmt::print("tasks        {}\n", Shown(Join(c.tasks, [](const auto& entry) {
               return fmt::format("{}: {}", entry.first, entry.second);
             })));

  fmt::print("\nspecs ({})\n", m.schema.time_series_specs.size());
  if (!m.schema.time_series_specs.empty()) {
    Table rows(
        {{"spec_type"}, {"dtype"}, {"unit"}, {"shape"}, {"signals", true}, {"encoding"}, {"name"}},
        OutputFormat::kText, {.indent = 2});
    for (const manifest::Spec& spec : m.schema.time_series_specs) {
      auto signals = c.signals_by_spec.find(spec.spec_type);
      auto encoding = m.value_encoding.find(spec.spec_type);
      std::string shape =
          spec.value_shape.empty()
              ? "scalar"
              : "[" + Join(spec.value_shape, [](int64_t e) { return std::to_string(e); }) + "]";
      if (!spec.dimension_names.empty()) shape += " (" + Join(spec.dimension_names, same) + ")";
      std::string dtype = str(spec.dtype) + (spec.nullable ? "?" : "");
      std::string name = spec.name;
      if (spec.modality != Modality::kTimeSeries) name += " [" + str(spec.modality) + "]";
      rows.Add({Cell::Str(spec.spec_type), Cell::Str(dtype), Cell::Str(OrNone(spec.unit)),
                Cell::Str(shape),
                Cell::Int(signals == c.signals_by_spec.end() ? 0 : signals->second),
                Cell::Str(encoding == m.value_encoding.end() ? "-" : str(encoding->second)),
                Cell::Str(name)});
    }
    rows.Flush();
  }
  fmt::print("\nannotation keys ({})\n", m.schema.annotations.size());
  if (!m.schema.annotations.empty()) {
    Table rows({{"key"}, {"type"}, {"value"}, {"unit"}, {"description"}}, OutputFormat::kText,
               {.indent = 2});
    for (const manifest::AnnotationDescriptor& d : m.schema.annotations) {
      rows.Add({Cell::Str(d.key), Cell::Str(str(d.annotation_type)),
                Cell::Str(d.value_type ? str(*d.value_type) : "-"), Cell::Str(OrNone(d.unit)),
                Cell::Str(OrNone(d.description))});
    }
    rows.Flush();
  }

  std::vector<manifest::FilePart> own{m.files.control};
  own.insert(own.end(), m.files.time_series.begin(), m.files.time_series.end());
  own.insert(own.end(), m.files.payloads.begin(), m.files.payloads.end());
  fmt::print("\nfiles ({}, {})\n", own.size(), FormatBytes(TotalSize(own)));
  PrintFiles(own);
  for (const auto& [ref, pins] : m.payload_sources) {
    fmt::print("\npayload source {} ({} files, {})\n", Shown(ref), pins.size(),
               FormatBytes(TotalSize(pins)));
    PrintFiles(pins);
  }
  return kExitOk;
}

}  // namespace

void RegisterManifestCommands(CLI::App& app, Action& action) {
  CLI::App* manifest = app.add_subcommand("manifest", "Check and inspect manifest.json files");
  manifest->require_subcommand(1);
  manifest->group(kGroupVerify);

  // Shared by the callbacks, which run after parsing, when main() calls `action`.
  auto path = std::make_shared<std::string>();

  CLI::App* validate =
      manifest->add_subcommand("validate",
                               "Check a manifest against docs/format.md §5; prints "
                               "\"valid\" (exit 0) or one line per problem "
                               "on stderr (exit 1)");
  validate->add_option("PATH", *path, "manifest.json, or a release directory holding one")
      ->required();
  validate->callback([&action, path] { action = [path] { return Validate(*path); }; });

  CLI::App* show = manifest->add_subcommand("show", "Print a summary of a valid manifest");
  show->add_option("PATH", *path, "manifest.json, or a release directory holding one")->required();
  show->callback([&action, path] { action = [path] { return Show(*path); }; });
}

}  // namespace timef::cli
