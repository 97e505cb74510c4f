#include "manifest/problems.h"

#include <cstdio>

#include "core/json_forms.h"

namespace timef::manifest::internal {

std::string JoinPointer(std::string_view parent, std::string_view token) {
  std::string out(parent);
  core::AppendJsonPointerToken(out, token);
  return out;
}

std::string JoinPointer(std::string_view parent, size_t index) {
  return std::string(parent) + "/" + std::to_string(index);
}

std::string Quote(std::string_view text) {
  // Messages go to terminals: keep them one line and bounded.
  constexpr size_t kMaxShown = 80;
  std::string out = "'";
  size_t shown = 0;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    // Never cut a UTF-8 sequence in two.
    if (shown >= kMaxShown && (byte & 0xC0) != 0x80) {
      out += "...";
      break;
    }
    if (byte < 0x20 || byte == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", byte);
      out += buf;
    } else {
      out += c;
    }
    ++shown;
  }
  out += "'";
  return out;
}

}  // namespace timef::manifest::internal
