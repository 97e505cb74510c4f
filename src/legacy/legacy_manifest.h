// The legacy manifest (docs/format.md §15.3): only what the legacy reader uses; unknown keys are
// ignored. Parsing checks the recognition rule (§15.1), the format version, every path (§2.2) and
// the values backend.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "legacy/id_codec.h"
#include "timef/json.h"
#include "timef/manifest.h"

namespace timef::legacy {

struct LegacyManifest {
  std::int64_t format_version = 0;  // 1 or 2
  std::string dataset_id;
  Json metadata = Json::object();
  Json schema = Json::object();
  std::map<std::string, IdStorage> id_encoding;  // as declared; a missing ID means string
  bool has_id_encoding = false;
  std::vector<manifest::FilePart> records, annotations, time_series_index, tasks, time_series;
  std::string checksum;  // sha256 of the manifest bytes

  // Every listed part: records, annotations, time_series_index, tasks, time_series.
  std::vector<manifest::FilePart> AllFiles() const;
};

// "legacy" when the manifest is legacy, "native" otherwise; FormatError "unsupported legacy
// layout" for the single-file layout and the `samples` generation. `document` is the parsed
// manifest, `path` names it.
bool IsLegacyManifest(const Json& document, const std::filesystem::path& path);

// Reads `<dir>/manifest.json`. FormatError naming the key for a legacy manifest timef cannot
// read; ValidationError for a path that breaks §2.2.
LegacyManifest ReadLegacyManifest(const std::filesystem::path& dir);
// The same over the manifest's bytes (`path` only names it in errors); reads no file, so the fuzz
// target (fuzz/legacy_manifest_fuzz.cc) drives it directly.
LegacyManifest ParseLegacyManifest(std::string_view bytes, const std::filesystem::path& path);

// The size of `file`, a part the legacy manifest lists (`<dir>/<part.path>`), as the catalog
// cache key and Verify both stat it: MissingFileError "missing file listed in the legacy
// manifest" when it does not exist, FileError naming the file when its size cannot be read.
std::uintmax_t ListedFileSize(const std::filesystem::path& file);

}  // namespace timef::legacy
