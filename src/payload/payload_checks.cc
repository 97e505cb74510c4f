#include "payload/payload_checks.h"

#include <string>

#include "core/text.h"
#include "payload/payload_writer.h"
#include "timef/error.h"

namespace timef::payload {
namespace {

std::filesystem::path FileForMessage(const std::string& name, const std::filesystem::path& file) {
  return name.empty() ? file : std::filesystem::path(name);
}

FormatError TextError(const TextRef& ref, const std::string& problem) {
  return FormatError(ErrorSite{FileForMessage(ref.locator.file, ref.file), "", TextSubject(ref)},
                     "row " + std::to_string(ref.locator.row) + ": " + problem);
}

FormatError OffsetsError(const OffsetsRef& ref, const std::string& problem) {
  return FormatError(ErrorSite{FileForMessage(ref.locator.path, ref.file), "", ref.axis},
                     "row " + std::to_string(ref.locator.row) + ": " + problem);
}

}  // namespace

std::string_view TextKindName(TextKind kind) {
  return kind == TextKind::kText ? "text" : "text_list";
}

std::string TextSubject(const TextRef& ref) { return "text key " + std::to_string(ref.text_key); }

void CheckTextKind(const TextRef& ref, TextKind expected, TextKind found) {
  if (expected == found) return;
  throw TextError(ref, "holds a " + std::string(TextKindName(found)) + " value, the catalog says " +
                           std::string(TextKindName(expected)));
}

void CheckTextLength(const TextRef& ref, TextKind kind, std::int64_t length) {
  if (length == ref.locator.length) return;
  const char* unit = kind == TextKind::kText ? " UTF-8 bytes" : " elements";
  throw TextError(ref, "holds " + std::to_string(length) + unit + ", the catalog says " +
                           std::to_string(ref.locator.length));
}

void CheckStoredUtf8(const TextRef& ref, std::string_view text, const std::string& what) {
  const std::size_t bad = core::FindInvalidUtf8(text);
  if (bad == std::string_view::npos) return;
  throw TextError(ref, what + " is not valid UTF-8 at byte " + std::to_string(bad));
}

void CheckOffsets(const OffsetsRef& ref, std::span<const std::int64_t> offsets) {
  const auto count = static_cast<std::int64_t>(offsets.size());
  if (count != ref.locator.n_values) {
    throw OffsetsError(ref, "holds " + std::to_string(count) +
                                " offsets, the catalog says offsets_n_values = " +
                                std::to_string(ref.locator.n_values));
  }
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) {
      throw OffsetsError(ref, "offsets are not non-decreasing: offset " + std::to_string(i) + " (" +
                                  std::to_string(offsets[i]) + ") < offset " +
                                  std::to_string(i - 1) + " (" + std::to_string(offsets[i - 1]) +
                                  ")");
    }
  }
  const std::string digest = OffsetsDigest(offsets);
  if (digest != ref.locator.digest) {
    throw OffsetsError(ref, "offsets digest is " + digest + ", the catalog says " +
                                core::PrintableForMessage(ref.locator.digest));
  }
  if (count > 0 && offsets.front() != ref.first_us) {
    throw OffsetsError(ref, "first offset is " + std::to_string(offsets.front()) +
                                ", the catalog says first_us = " + std::to_string(ref.first_us));
  }
  if (count > 0 && offsets.back() != ref.last_us) {
    throw OffsetsError(ref, "last offset is " + std::to_string(offsets.back()) +
                                ", the catalog says last_us = " + std::to_string(ref.last_us));
  }
}

}  // namespace timef::payload
