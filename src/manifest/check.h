// Value rules (patterns, ranges, order: what the JSON Schema also says) and the cross-field rules
// of docs/format.md §5.9, applied to a decoded or caller-built manifest.
#pragma once

#include <string>

#include "manifest/problems.h"
#include "timef/manifest.h"

namespace timef::manifest::internal {

// Runs the value rules; when they all hold, runs the cross-field rules too.
void CheckManifestModel(const Manifest& manifest, Problems& problems);

// Value rules and the card's own conditions (license_url, access_url, unique domains).
void CheckCardValues(const Card& card, const std::string& pointer, Problems& problems);
// Unique aliases and no parent equal to the card's own release.
void CheckCardRules(const Card& card, const std::string& pointer, Problems& problems);

void CheckSchemaValues(const Schema& schema, const std::string& pointer, Problems& problems);
// Spec rules, sort order and uniqueness of specs, descriptors and task types.
void CheckSchemaRules(const Schema& schema, const std::string& pointer, Problems& problems);

// Path (§2.2, reported as a path problem), checksum pattern and size >= 0.
void CheckFilePart(const FilePart& part, const std::string& pointer, Problems& problems);

// The problem text for a format version this reader does not support.
std::string UnsupportedFormatVersion(int64_t version);

// True when `text` has a character other than ASCII whitespace.
bool IsNotBlank(std::string_view text);

}  // namespace timef::manifest::internal
