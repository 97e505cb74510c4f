// JSON forms of docs/format.md §2.5: the strict parser, the manifest and compact writers, and the
// string escaping they share with every other JSON text timef prints.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "timef/json.h"

namespace timef {

// Strict parse: valid UTF-8, no BOM, no duplicate object keys, nothing after the value.
// Returns nullopt and sets `problem` (naming the JSON pointer or byte offset) on failure; the
// caller raises the error class that fits (ManifestError, FormatError).
std::optional<Json> ParseJsonStrict(std::string_view text, std::string* problem);

// Manifest form: 2-space indent, ": " after keys, one member or element per line, keys in the
// value's order, "{}"/"[]" when empty, raw UTF-8, final LF. Integers in decimal, other numbers in
// shortest round-trip form (std::to_chars). Throws ValidationError naming the JSON pointer on NaN,
// infinity or invalid UTF-8.
std::string WriteManifestJson(const Json& value);

// Compact form: no whitespace, object keys sorted by code point at every level; same escaping,
// number and error rules as the manifest form.
std::string WriteCompactJson(const Json& value);

namespace core {

// Appends the JSON string escape of `text` (no quotes): '"', '\\' and control characters escaped
// (\b \f \n \r \t, else \u00XX), every other byte as is. The caller decides what ill-formed
// UTF-8 becomes (the writers above refuse it, the Parquet dump replaces it).
void AppendJsonEscaped(std::string_view text, std::string& out);

// Appends "/" and `token` escaped as one RFC 6901 reference token ('~' → "~0", '/' → "~1").
void AppendJsonPointerToken(std::string& pointer, std::string_view token);

}  // namespace core
}  // namespace timef
