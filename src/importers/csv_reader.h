// ReadCsv with a spec table shared by the files of one import (private to src/importers/).
#pragma once

#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "importers/spec_table.h"
#include "timef/importers.h"

namespace timef::importers {

// `used_units` null: a CsvOptions::units key that names no signal column of the file is a
// ValidationError. Otherwise the keys that name one are added to it, and the caller checks that
// each key named a column of some file (the files of one import may differ in their columns).
std::shared_ptr<model::Record> ReadCsvFile(const std::filesystem::path& path,
                                           const ReadOptions& options, SpecTable& specs,
                                           std::set<std::string>* used_units = nullptr);

}  // namespace timef::importers
