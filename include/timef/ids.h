// Names of docs/format.md §2.1: dataset ids, versions, release references, parent aliases, spec
// types.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace timef {

// `org/name`, one slash, segments [A-Za-z0-9_-][A-Za-z0-9._-]*.
bool IsValidDatasetId(std::string_view id);
// `^[a-z][a-z0-9_-]*$`
bool IsValidAlias(std::string_view alias);
// Non-empty valid UTF-8, not ".", "..", "_irregular", "_time_offsets" or "_validity".
bool IsValidSpecType(std::string_view spec_type);

// A semantic version x.y.z: no leading zeros, each part fits int64, ordered numerically.
struct Version {
  int64_t major = 0;
  int64_t minor = 0;
  int64_t patch = 0;

  // nullopt when `text` does not match the version regex or a part overflows int64.
  static std::optional<Version> TryParse(std::string_view text);
  // Throws ValidationError naming `field` and the text.
  static Version Parse(std::string_view text, std::string_view field = "version");
  std::string ToString() const;
  auto operator<=>(const Version&) const = default;
};

// `<dataset id>@<version>`.
struct ReleaseRef {
  std::string dataset_id;
  Version version;

  static std::optional<ReleaseRef> TryParse(std::string_view text);
  // Throws ValidationError naming `field` and the text.
  static ReleaseRef Parse(std::string_view text, std::string_view field = "ref");
  std::string ToString() const;
  auto operator<=>(const ReleaseRef&) const = default;
};

// A reference as registries take it (docs/format.md §3.2): `org/name` (the latest version) or
// `org/name@x.y.z` (exactly that version).
struct RegistryRef {
  std::string dataset_id;
  std::optional<Version> version;  // nullopt: the latest

  // nullopt for text that is neither form.
  static std::optional<RegistryRef> TryParse(std::string_view text);
  // ValidationError naming `field` and the text.
  static RegistryRef Parse(std::string_view text, std::string_view field = "ref");
  std::string ToString() const;
  bool operator==(const RegistryRef&) const = default;
};

}  // namespace timef
