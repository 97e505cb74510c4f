// UTF-8 checks and message-safe quoting shared by the core helpers (private to src/).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace timef::core {

// Offset of the first byte that does not start a well-formed UTF-8 sequence (overlong forms,
// surrogates and code points above U+10FFFF are ill-formed), or std::string_view::npos.
size_t FindInvalidUtf8(std::string_view text);

inline bool IsValidUtf8(std::string_view text) {
  return FindInvalidUtf8(text) == std::string_view::npos;
}

// `text` with control characters and ill-formed UTF-8 bytes written as \xNN (and `\` doubled), so
// an error message stays one readable line whatever the input held.
std::string PrintableForMessage(std::string_view text);

}  // namespace timef::core
