// Name tables behind the public ToString()/Parse*() functions of manifest.h, also used to list the
// accepted names in error messages.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace timef::manifest_internal {

template <typename E>
struct EnumEntry {
  E value;
  std::string_view name;
};

// Specialized in enums.cc for each enumeration of manifest.h, in declaration order.
template <typename E>
std::span<const EnumEntry<E>> EnumTable();

template <typename E>
std::string_view EnumName(E value) {
  for (const auto& entry : EnumTable<E>()) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

template <typename E>
std::optional<E> EnumFromName(std::string_view name) {
  for (const auto& entry : EnumTable<E>()) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

// "a, b, c" for messages.
template <typename E>
std::string EnumNameList() {
  std::string out;
  for (const auto& entry : EnumTable<E>()) {
    if (!out.empty()) out += ", ";
    out += entry.name;
  }
  return out;
}

}  // namespace timef::manifest_internal
