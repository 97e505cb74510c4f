// ReadWfdb with a spec table shared by the records of one import (private to src/importers/).
#pragma once

#include <filesystem>
#include <memory>

#include "importers/spec_table.h"
#include "timef/importers.h"

namespace timef::importers {

std::shared_ptr<model::Record> ReadWfdbRecord(const std::filesystem::path& input,
                                              const ReadOptions& options, SpecTable& specs);

}  // namespace timef::importers
