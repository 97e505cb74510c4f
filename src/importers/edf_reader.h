// ReadEdf with a spec table shared by the files of one import (private to src/importers/).
#pragma once

#include <filesystem>
#include <memory>

#include "importers/spec_table.h"
#include "timef/importers.h"

namespace timef::importers {

std::shared_ptr<model::Record> ReadEdfFile(const std::filesystem::path& path,
                                           const ReadOptions& options, SpecTable& specs);

}  // namespace timef::importers
