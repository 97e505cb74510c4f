// JSON → Manifest, checking the JSON shape of §5.1–§5.9: value types, required and unknown keys,
// enumerations. Value rules (patterns, ranges, order) and cross-field rules are check.h's job.
#pragma once

#include <filesystem>
#include <string>

#include "manifest/problems.h"
#include "timef/json.h"
#include "timef/manifest.h"

namespace timef::manifest::internal {

// Reports shape problems; the returned manifest is meaningful only when none were reported.
Manifest DecodeManifest(const Json& document, Problems& problems);

// ParseManifest for a document already parsed by ParseJsonStrict from the file at `path` (a
// reader that probes the document first parses it once): the same checks, the same errors.
Manifest ParseManifestDocument(const Json& document, const std::filesystem::path& path);

// A card (`metadata`, or a value of `parent_cards`/`lineage`). Unknown keys are dropped.
Card DecodeCard(const Json& value, const std::string& pointer, Problems& problems);
Schema DecodeSchema(const Json& value, const std::string& pointer, Problems& problems);
FilePart DecodeFilePart(const Json& value, const std::string& pointer, Problems& problems);

}  // namespace timef::manifest::internal
