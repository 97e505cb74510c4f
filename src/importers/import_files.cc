// ImportFiles: every input read as one record of one dataset, written as one release.
#include <set>
#include <string>
#include <utility>

#include "core/enum_table.h"
#include "importers/csv_reader.h"
#include "importers/edf_reader.h"
#include "importers/wfdb_reader.h"
#include "timef/error.h"

TIMEF_ENUM_TABLE(timef::ImportFormat, {timef::ImportFormat::kEdf, "edf"},
                 {timef::ImportFormat::kCsv, "csv"}, {timef::ImportFormat::kWfdb, "wfdb"})

namespace timef {

const std::string& ToString(ImportFormat format) { return core::EnumNameString(format); }

std::optional<ImportFormat> ParseImportFormat(std::string_view name) {
  return core::EnumFromName<ImportFormat>(name);
}

WriteResult ImportFiles(ImportFormat format, const std::vector<std::filesystem::path>& inputs,
                        manifest::Card card, const std::filesystem::path& root,
                        const ImportOptions& options) {
  if (inputs.empty()) {
    throw ValidationError(ErrorSite{.object = "import", .where = "inputs"}, "no input files given");
  }
  if (card.dataset_id.empty() || card.dataset_version.empty()) {
    throw ValidationError(ErrorSite{.object = "card", .where = "dataset_id"},
                          "an import needs the card's dataset_id and dataset_version");
  }
  model::Dataset dataset(card.dataset_id, card.dataset_version);
  importers::SpecTable specs;
  std::set<std::string> used_units;  // csv: the CsvOptions::units keys that named a column
  ImportProgress progress{.files_read = 0, .files_total = static_cast<int64_t>(inputs.size())};
  for (const std::filesystem::path& input : inputs) {
    switch (format) {
      case ImportFormat::kEdf:
        dataset.AddRecord(importers::ReadEdfFile(input, options.read, specs));
        break;
      case ImportFormat::kCsv:
        dataset.AddRecord(importers::ReadCsvFile(input, options.read, specs, &used_units));
        break;
      case ImportFormat::kWfdb:
        dataset.AddRecord(importers::ReadWfdbRecord(input, options.read, specs));
        break;
    }
    ++progress.files_read;
    progress.file = input;
    if (options.progress) options.progress(progress);
  }
  if (format == ImportFormat::kCsv) {
    for (const auto& [name, unit] : options.read.csv.units) {
      if (used_units.count(name) == 0) {
        throw ValidationError(ErrorSite{.object = "import", .where = "unit"},
                              "no signal column of any input is named '" + name + "'");
      }
    }
  }
  return WriteRelease(dataset, std::move(card), root, options.write);
}

}  // namespace timef
