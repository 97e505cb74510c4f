// `timef import FORMAT INPUT... --root DIR --dataset ORG/NAME --version X.Y.Z [--card FILE]
// [--license L] [--name TEXT] [--description TEXT] [--keep-digital] [--spec-type LABEL=TYPE]...
// [--no-checksum] [--annotator NAME]... [--jobs N]`: one release from recordings in another
// format, one record per input file (docs/importing.md).
#include <fmt/core.h>

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "core/enum_table.h"
#include "core/json_forms.h"
#include "manifest/decode.h"
#include "options.h"
#include "progress.h"
#include "release_dir.h"
#include "table.h"
#include "timef/error.h"
#include "timef/importers.h"

namespace timef::cli {
namespace {

namespace fs = std::filesystem;

struct ImportArgs {
  std::string format;
  std::vector<std::string> inputs;
  std::string dataset;
  std::string version;
  std::optional<std::string> card;
  std::optional<std::string> license;
  std::optional<std::string> name;
  std::optional<std::string> description;
  bool keep_digital = false;
  std::vector<std::string> spec_types;
  bool no_checksum = false;
  std::vector<std::string> annotators;                               // wfdb
  int jobs = static_cast<int>(write_option::threads.default_value);  // --jobs, --threads
  int compression_level = kImportCompressionLevel;
  // csv only
  std::optional<std::string> time_column;
  std::string time_unit = "auto";
  std::optional<std::string> rate;
  std::vector<std::string> units;
  std::optional<std::string> delimiter;
  std::string dtype = "float64";
  int64_t tolerance_us = 1;
};

// The CSV options of `args` (docs/importing.md, "CSV and TSV").
CsvOptions CsvOptionsOf(const ImportArgs& args) {
  CsvOptions csv;
  csv.time_column = args.time_column;
  csv.time_unit = *ParseCsvTimeUnit(args.time_unit);  // checked by CLI11
  csv.rate_hz = args.rate;
  for (const std::string& mapping : args.units) {
    const size_t eq = mapping.rfind('=');
    if (eq == std::string::npos || eq == 0) {
      throw ValidationError(ErrorSite{.object = "timef import", .where = "--unit"},
                            "expected COLUMN=UNIT, got '" + mapping + "'");
    }
    csv.units[mapping.substr(0, eq)] = mapping.substr(eq + 1);
  }
  if (args.delimiter) {
    const std::string& d = *args.delimiter;
    if (d == "tab" || d == "\\t" || d == "\t") {
      csv.delimiter = '\t';
    } else if (d.size() == 1 && d != "\"" && d != "\n" && d != "\r") {
      csv.delimiter = d[0];
    } else {
      throw ValidationError(ErrorSite{.object = "timef import", .where = "--delimiter"},
                            "expected one character (or 'tab'), got '" + d + "'");
    }
  }
  csv.dtype = args.dtype == "float32" ? DType::kFloat32 : DType::kFloat64;  // checked by CLI11
  csv.tolerance_us = args.tolerance_us;
  return csv;
}

// A card from a JSON file: the `metadata` object of a manifest (docs/format.md §5.2), whose
// dataset_id and dataset_version may be left out (they come from --dataset and --version; when
// present they must agree).
manifest::Card ReadCardFile(const fs::path& path, const std::string& dataset_id,
                            const std::string& version) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw FileError(ErrorSite{.file = path}, "cannot open the card",
                    std::make_error_code(std::errc::no_such_file_or_directory));
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string problem;
  std::optional<Json> json = ParseJsonStrict(text.str(), &problem);
  if (!json) throw ManifestError(ErrorSite{.file = path}, "not JSON: " + problem);
  if (!json->is_object()) throw ManifestError(ErrorSite{.file = path}, "a card is a JSON object");
  for (const auto& [key, value] :
       {std::pair{"dataset_id", dataset_id}, std::pair{"dataset_version", version}}) {
    if (!json->contains(key)) {
      (*json)[key] = value;
    } else if ((*json)[key] != value) {
      throw ValidationError(
          ErrorSite{.file = path, .where = std::string("/") + key},
          "the card says " + (*json)[key].dump() + ", the command line '" + value + "'");
    }
  }
  manifest::internal::Problems problems;
  manifest::Card card = manifest::internal::DecodeCard(*json, "", problems);
  if (!problems.empty()) {
    const auto first = problems.Take().front();
    throw ManifestError(ErrorSite{.file = path, .where = first.pointer}, first.message);
  }
  return card;
}

int RunImport(const ImportArgs& args) {
  const std::optional<fs::path> root = RegistryRoot();
  if (!root) {
    throw ValidationError(ErrorSite{.object = "timef import", .where = "--root"},
                          "no registry root: give --root DIR or set TIMEF_ROOT");
  }
  const ImportFormat format = *ParseImportFormat(args.format);  // checked by CLI11
  manifest::Card card;
  if (args.card) {
    card = ReadCardFile(*args.card, args.dataset, args.version);
  } else {
    if (!args.license) {
      throw ValidationError(ErrorSite{.object = "timef import", .where = "--license"},
                            "give the release's license with --license (or a card with --card)");
    }
    card.dataset_id = args.dataset;
    card.dataset_version = args.version;
    card.name = args.dataset;
    card.description = "Imported from " + std::to_string(args.inputs.size()) + " " + args.format +
                       " file" + (args.inputs.size() == 1 ? "" : "s") + " by timef import";
  }
  if (args.license) {
    std::optional<manifest::License> license = manifest::ParseLicense(*args.license);
    if (!license) {
      throw ValidationError(ErrorSite{.object = "timef import", .where = "--license"},
                            "unknown license '" + *args.license + "', expected one of " +
                                core::EnumNameList<manifest::License>());
    }
    card.license = *license;
  }
  if (args.name) card.name = *args.name;
  if (args.description) card.description = *args.description;

  ProgressBar bar;  // draws only when stderr is a terminal
  ImportOptions options;
  options.read.keep_digital = args.keep_digital;
  options.read.checksum = !args.no_checksum;
  options.read.wfdb_annotators = args.annotators;
  for (const std::string& mapping : args.spec_types) {
    const size_t eq = mapping.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == mapping.size()) {
      throw ValidationError(ErrorSite{.object = "timef import", .where = "--spec-type"},
                            "expected LABEL=SPEC_TYPE, got '" + mapping + "'");
    }
    options.read.spec_types[mapping.substr(0, eq)] = mapping.substr(eq + 1);
  }
  if (format != ImportFormat::kCsv &&
      (args.time_column || args.time_unit != "auto" || args.rate || !args.units.empty() ||
       args.delimiter || args.dtype != "float64" || args.tolerance_us != 1)) {
    throw ValidationError(ErrorSite{.object = "timef import", .where = "FORMAT"},
                          "--time-column, --time-unit, --rate, --unit, --delimiter, --dtype and "
                          "--tolerance-us are options of csv, not " +
                              args.format);
  }
  options.read.csv = CsvOptionsOf(args);
  options.read.warn = [&bar](const std::string& warning) {
    bar.Finish();
    fmt::print(stderr, "warning: {}\n", Shown(warning));
  };
  options.progress = [&bar](const ImportProgress& p) {
    if (bar.enabled()) bar.Update("read", p.files_read, p.files_total);
  };
  options.write.threads = args.jobs;
  options.write.compression_level = args.compression_level;
  options.write = WithProgress(bar, options.write);
  std::vector<fs::path> inputs(args.inputs.begin(), args.inputs.end());
  const WriteResult result = ImportFiles(format, inputs, std::move(card), *root, options);
  bar.Finish();
  const manifest::Counts& c = result.manifest.counts;
  fmt::print(stderr, "imported {}: {} records, {} signals, {} annotation occurrences\n",
             result.manifest.Ref(), c.records, c.signals, c.annotation_occurrences);
  fmt::print("{}\n", result.release_dir.string());
  return kExitOk;
}

}  // namespace

void RegisterImportCommands(CLI::App& app, Action& action) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "import",
      "Write a release from recordings in another format (edf: EDF, EDF+C, BDF, BDF+C; csv: "
      "CSV/TSV; wfdb: WFDB records), one record per input file (per WFDB record); prints its "
      "directory");
  cmd->group(kGroupWrite);
  cmd->add_option("FORMAT", args->format, "Input format: " + core::EnumNameList<ImportFormat>())
      ->required()
      ->check(CLI::IsMember(core::EnumNames<ImportFormat>()));
  cmd->add_option("INPUT", args->inputs,
                  "Input files, one record each, in this order (wfdb: the .hea file or the "
                  "record name)")
      ->required();
  AddRootOption(*cmd);
  cmd->add_option("--dataset", args->dataset, "Dataset ID of the release (org/name)")->required();
  cmd->add_option("--version", args->version, "Version of the release (x.y.z)")->required();
  cmd->add_option("--card", args->card,
                  "JSON file with the card (a manifest's metadata object; dataset_id and "
                  "dataset_version may be left out)");
  cmd->add_option("--license", args->license,
                  "License of the release (required without --card; overrides the card's)");
  cmd->add_option("--name", args->name, "Name of the release (default: the dataset ID)");
  cmd->add_option("--description", args->description, "Description of the release");
  cmd->add_flag(
      "--keep-digital", args->keep_digital,
      "Store the digital integers (int16/int32; WFDB: int8/int16/int32) with gain and offset "
      "in metadata instead of physical float32 values");
  cmd->add_option("--spec-type", args->spec_types,
                  "LABEL=SPEC_TYPE: the spec_type of the channels with this label (repeatable; "
                  "wins over the modality table)");
  cmd->add_flag("--no-checksum", args->no_checksum,
                "Do not hash the input files into the records' metadata (source_sha256)");
  cmd->add_option("--annotator", args->annotators,
                  "wfdb: read the annotation file RECORD.NAME (repeatable; default: RECORD.atr "
                  "when it exists)");
  AddThreadsOption(*cmd, args->jobs, "-j,--jobs,--threads",
                   "Threads of the import (--threads is an alias): each row group of values is "
                   "encoded and compressed in the background while the next one is decoded");
  AddWriteNumberOption(*cmd, write_option::compression_level, args->compression_level);
  // csv only
  cmd->add_option("--time-column", args->time_column,
                  "csv: the time column (default: the first named time, t, timestamp or datetime)");
  cmd->add_option("--time-unit", args->time_unit,
                  "csv: s, ms or iso (ISO-8601); auto (default): from the column name's unit "
                  "suffix, else a number is seconds and anything else ISO-8601")
      ->check(CLI::IsMember({"auto", "s", "ms", "iso"}));
  cmd->add_option("--rate", args->rate,
                  "csv: no time column, rows at this rate in Hz (a positive decimal)");
  cmd->add_option("--unit", args->units,
                  "csv: COLUMN=UNIT, the unit of a signal column (repeatable; wins over the "
                  "header's '(unit)' suffix)");
  cmd->add_option("--delimiter", args->delimiter,
                  "csv: the field delimiter, one character or 'tab' (default: ',' for .csv, tab "
                  "for .tsv and .tab)");
  cmd->add_option("--dtype", args->dtype,
                  "csv: float64 (default) or float32 (only when every value is exact in float32)")
      ->check(CLI::IsMember({"float64", "float32"}));
  cmd->add_option("--tolerance-us", args->tolerance_us,
                  "csv: times within this many µs of evenly spaced make a regular axis "
                  "(default 1)")
      ->check(CLI::NonNegativeNumber);
  cmd->callback([&action, args] { action = [args] { return RunImport(*args); }; });
}

}  // namespace timef::cli
