#include "timef/ids.h"

#include <array>
#include <charconv>

#include "core/text.h"
#include "timef/error.h"

namespace timef {
namespace {

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// [A-Za-z0-9_-][A-Za-z0-9._-]*
bool IsValidIdSegment(std::string_view segment) {
  if (segment.empty()) return false;
  for (size_t i = 0; i < segment.size(); ++i) {
    const char c = segment[i];
    const bool ok = IsAsciiAlnum(c) || c == '_' || c == '-' || (i > 0 && c == '.');
    if (!ok) return false;
  }
  return true;
}

// 0|[1-9][0-9]* and fits int64.
std::optional<int64_t> ParseVersionPart(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text.front() == '0')) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

bool IsValidDatasetId(std::string_view id) {
  const size_t slash = id.find('/');
  if (slash == std::string_view::npos) return false;
  return IsValidIdSegment(id.substr(0, slash)) && IsValidIdSegment(id.substr(slash + 1));
}

bool IsValidAlias(std::string_view alias) {
  if (alias.empty() || alias.front() < 'a' || alias.front() > 'z') return false;
  for (char c : alias) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool IsValidSpecType(std::string_view spec_type) {
  // These names collide with directory entries or with columns the values plane adds itself.
  static constexpr std::array<std::string_view, 5> kReserved = {".", "..", "_irregular",
                                                                "_time_offsets", "_validity"};
  if (spec_type.empty() || !core::IsValidUtf8(spec_type)) return false;
  for (std::string_view reserved : kReserved) {
    if (spec_type == reserved) return false;
  }
  return true;
}

std::optional<Version> Version::TryParse(std::string_view text) {
  const size_t first = text.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  const size_t second = text.find('.', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  auto major = ParseVersionPart(text.substr(0, first));
  auto minor = ParseVersionPart(text.substr(first + 1, second - first - 1));
  auto patch = ParseVersionPart(text.substr(second + 1));
  if (!major || !minor || !patch) return std::nullopt;
  return Version{*major, *minor, *patch};
}

Version Version::Parse(std::string_view text, std::string_view field) {
  if (auto version = TryParse(text)) return *version;
  throw ValidationError(ErrorSite{.where = std::string(field)},
                        "invalid version '" + core::PrintableForMessage(text) +
                            "' (expected x.y.z: non-negative integers without leading zeros)");
}

std::string Version::ToString() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<ReleaseRef> ReleaseRef::TryParse(std::string_view text) {
  const size_t at = text.find('@');
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view id = text.substr(0, at);
  // A second '@' lands in the version part, which then fails to parse.
  auto version = Version::TryParse(text.substr(at + 1));
  if (!version || !IsValidDatasetId(id)) return std::nullopt;
  return ReleaseRef{std::string(id), *version};
}

ReleaseRef ReleaseRef::Parse(std::string_view text, std::string_view field) {
  if (auto ref = TryParse(text)) return *ref;
  throw ValidationError(ErrorSite{.where = std::string(field)},
                        "invalid release reference '" + core::PrintableForMessage(text) +
                            "' (expected <org>/<name>@x.y.z)");
}

std::string ReleaseRef::ToString() const { return dataset_id + "@" + version.ToString(); }

std::optional<RegistryRef> RegistryRef::TryParse(std::string_view text) {
  if (IsValidDatasetId(text)) return RegistryRef{std::string(text), std::nullopt};
  if (std::optional<ReleaseRef> exact = ReleaseRef::TryParse(text)) {
    return RegistryRef{std::move(exact->dataset_id), exact->version};
  }
  return std::nullopt;
}

RegistryRef RegistryRef::Parse(std::string_view text, std::string_view field) {
  if (std::optional<RegistryRef> ref = TryParse(text)) return *ref;
  throw ValidationError(ErrorSite{.where = std::string(field)},
                        "'" + core::PrintableForMessage(text) +
                            "' is not a ref (expected <org>/<name> or <org>/<name>@x.y.z)");
}

std::string RegistryRef::ToString() const {
  return version ? dataset_id + "@" + version->ToString() : dataset_id;
}

}  // namespace timef
