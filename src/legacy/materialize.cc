#include "legacy/materialize.h"

#include <stdlib.h>

#include <string>
#include <system_error>

#include "timef/error.h"
#include "timef/legacy.h"
#include "timef/writer.h"

namespace timef::legacy {

namespace {

// Removes the scratch directory it names when destroyed.
struct ScratchDirectory {
  std::filesystem::path path;
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

MaterializedRelease Materialize(const std::filesystem::path& legacy_dir) {
  LegacyDataset legacy = ReadLegacy(legacy_dir);
  std::string pattern = (std::filesystem::temp_directory_path() / "timef-legacy-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw FileError(ErrorSite{.file = pattern}, "cannot create a scratch directory",
                    std::error_code(errno, std::generic_category()));
  }
  auto scratch = std::make_shared<ScratchDirectory>(ScratchDirectory{pattern});
  WriteOptions options;
  // The scratch release lives as long as the reader: fast compression is enough.
  options.compression_level = 1;
  options.upgraded_from = legacy.upgraded_from;
  const std::filesystem::path native_dir = scratch->path / "release";
  WriteReleaseTo(*legacy.dataset, legacy.card, native_dir, options);
  return {native_dir, std::move(scratch), std::move(legacy.files)};
}

}  // namespace timef::legacy
