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
#include "timef/error.h"
#include "timef/manifest.h"

namespace timef::cli {
namespace {

// A release directory stands for its manifest.json.
std::filesystem::path ManifestPath(const std::string& argument) {
  std::filesystem::path path(argument);
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
               FormatErrorMessage(ErrorSite{path, "", problem.pointer}, problem.message));
  }
  return kExitFailure;
}

// "1,234,567 B (1.2 MiB)".
std::string Size(int64_t bytes) {
  std::string digits = std::to_string(bytes);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return grouped + " B";
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  value /= 1024;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{} B ({:.1f} {})", grouped, value, kUnits[unit]);
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

int64_t TotalSize(const std::vector<manifest::FilePart>& parts) {
  int64_t total = 0;
  for (const manifest::FilePart& part : parts) total += part.size;
  return total;
}

// Left-aligned columns, two spaces apart, each row indented by two; `right` columns align right.
void PrintTable(const std::vector<std::vector<std::string>>& rows, std::vector<bool> right = {}) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  right.resize(widths.size(), false);
  for (const auto& row : rows) {
    std::string line = " ";
    for (size_t i = 0; i < row.size(); ++i) {
      line += ' ';
      bool last = i + 1 == row.size();
      if (right[i]) {
        line += fmt::format("{:>{}}", row[i], widths[i]);
      } else {
        line += last ? row[i] : fmt::format("{:<{}}", row[i], widths[i]);
      }
      if (!last) line += ' ';
    }
    fmt::print("{}\n", line);
  }
}

void PrintFiles(const std::vector<manifest::FilePart>& parts) {
  std::vector<std::vector<std::string>> rows;
  for (const manifest::FilePart& part : parts) {
    rows.push_back({part.path, Size(part.size), part.checksum.substr(0, 23) + "…"});
  }
  PrintTable(rows, {false, true, false});
}

int Show(const std::string& argument) {
  std::filesystem::path path = ManifestPath(argument);
  manifest::Manifest m = manifest::ReadManifest(path);
  const manifest::Card& card = m.metadata;
  auto str = [](auto value) { return std::string(ToString(value)); };
  auto same = [](const std::string& text) { return text; };

  fmt::print("dataset      {}\n", m.Ref());
  fmt::print("name         {}\n", card.name);
  fmt::print("license      {}{}\n", ToString(card.license),
             card.license_url ? " (" + *card.license_url + ")" : "");
  fmt::print("access       {}{}\n", ToString(card.access),
             card.access_url ? " (" + *card.access_url + ")" : "");
  fmt::print("domains      {}\n", Join(card.domains, str));
  fmt::print("tags         {}\n", Join(card.tags, same));
  if (card.source_url) fmt::print("source       {}\n", *card.source_url);
  if (card.source_revision) fmt::print("revision     {}\n", *card.source_revision);
  fmt::print("format       TimeF {}, values backend {}\n", m.format_version,
             ToString(m.values_backend));
  fmt::print("parents      {}\n", Join(card.parents, [](const manifest::ParentEntry& p) {
               return p.alias + " = " + p.Ref();
             }));
  const manifest::Counts& c = m.counts;
  fmt::print("counts       {} records, {} sources, {} signals, {} axes, {} signal chunks\n",
             c.records, c.sources, c.signals, c.axes, c.signal_chunks);
  fmt::print("annotations  {} contents, {} occurrences\n", c.annotation_contents,
             c.annotation_occurrences);
  fmt::print("tasks        {}\n", Join(c.tasks, [](const auto& entry) {
               return fmt::format("{}: {}", entry.first, entry.second);
             }));

  fmt::print("\nspecs ({})\n", m.schema.time_series_specs.size());
  if (!m.schema.time_series_specs.empty()) {
    std::vector<std::vector<std::string>> rows{
        {"spec_type", "dtype", "unit", "shape", "signals", "encoding", "name"}};
    for (const manifest::TimeSeriesSpec& spec : m.schema.time_series_specs) {
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
      rows.push_back({spec.spec_type, dtype, OrNone(spec.unit_value), shape,
                      std::to_string(signals == c.signals_by_spec.end() ? 0 : signals->second),
                      encoding == m.value_encoding.end() ? "-" : str(encoding->second), name});
    }
    PrintTable(rows, {false, false, false, false, true, false, false});
  }
  fmt::print("\nannotation keys ({})\n", m.schema.annotations.size());
  if (!m.schema.annotations.empty()) {
    std::vector<std::vector<std::string>> rows{{"key", "type", "value", "unit", "description"}};
    for (const manifest::AnnotationDescriptor& d : m.schema.annotations) {
      rows.push_back({d.key, str(d.annotation_type), d.value_type ? str(*d.value_type) : "-",
                      OrNone(d.unit), OrNone(d.description)});
    }
    PrintTable(rows);
  }

  std::vector<manifest::FilePart> own{m.files.control};
  own.insert(own.end(), m.files.time_series.begin(), m.files.time_series.end());
  own.insert(own.end(), m.files.payloads.begin(), m.files.payloads.end());
  fmt::print("\nfiles ({}, {})\n", own.size(), Size(TotalSize(own)));
  PrintFiles(own);
  for (const auto& [ref, pins] : m.payload_sources) {
    fmt::print("\npayload source {} ({} files, {})\n", ref, pins.size(), Size(TotalSize(pins)));
    PrintFiles(pins);
  }
  return kExitOk;
}

}  // namespace

void RegisterManifestCommands(CLI::App& app, Action& action) {
  CLI::App* manifest = app.add_subcommand("manifest", "Check and inspect manifest.json files");
  manifest->require_subcommand(1);

  // Shared by the callbacks, which run after parsing, when main() calls `action`.
  auto path = std::make_shared<std::string>();

  CLI::App* validate = manifest->add_subcommand(
      "validate",
      "Check a manifest against FORMAT.md §5; prints \"valid\" (exit 0) or one line per problem "
      "on stderr (exit 1)");
  validate->add_option("PATH", *path, "manifest.json, or a release directory holding one")
      ->required();
  validate->callback([&action, path] { action = [path] { return Validate(*path); }; });

  CLI::App* show = manifest->add_subcommand("show", "Print a summary of a valid manifest");
  show->add_option("PATH", *path, "manifest.json, or a release directory holding one")->required();
  show->callback([&action, path] { action = [path] { return Show(*path); }; });
}

}  // namespace timef::cli
