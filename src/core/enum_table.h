// The one name-table mechanism of the project: each enumeration whose values are written as
// strings (manifest, catalog, CLI) has exactly one table of {enumerator, name} pairs, specialized
// with TIMEF_ENUM_TABLE next to the enumeration's ToString()/Parse*() functions. Messages that
// list the accepted names and command-line choices read the same table.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace timef::core {

template <typename E>
struct EnumEntry {
  E value;
  std::string_view name;
};

// Specialized once per enumeration (TIMEF_ENUM_TABLE), entries in declaration order.
template <typename E>
std::span<const EnumEntry<E>> EnumTable();

template <typename E>
std::string_view EnumName(E value) {
  for (const auto& entry : EnumTable<E>()) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

// The same name as an immutable std::string owned by a function-local static (one per
// enumeration, built once, thread-safe initialization), so public ToString() functions can return
// `const std::string&`: usable where a std::string is expected (`std::string s = ToString(x)`,
// `"dtype " + ToString(x)`) and still convertible to std::string_view, with nothing to dangle.
template <typename E>
const std::string& EnumNameString(E value) {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const auto& entry : EnumTable<E>()) names.emplace_back(entry.name);
    return names;
  }();
  static const std::string kUnknown = "?";
  const auto table = EnumTable<E>();
  for (size_t i = 0; i < table.size(); ++i) {
    if (table[i].value == value) return kNames[i];
  }
  return kUnknown;
}

template <typename E>
std::optional<E> EnumFromName(std::string_view name) {
  for (const auto& entry : EnumTable<E>()) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

// Every name, in declaration order (CLI choices, catalog value checks).
template <typename E>
std::vector<std::string> EnumNames() {
  std::vector<std::string> names;
  for (const auto& entry : EnumTable<E>()) names.emplace_back(entry.name);
  return names;
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

// " (expected one of a, b, c)": the one tail of every message about a name that is no enumerator
// of E, whether caller input (ValidationError in the Python module) or a stored value (FormatError
// from the manifest and the catalog); the CLI's choices list the same names (EnumNames).
template <typename E>
std::string ExpectedNames() {
  return " (expected one of " + EnumNameList<E>() + ")";
}

}  // namespace timef::core

// Defines the table of `Type`: TIMEF_ENUM_TABLE(Type, {Type::kA, "a"}, {Type::kB, "b"}). Used at
// global scope or in namespace timef (a scope enclosing timef::core), before the first use of the
// table in its file.
#define TIMEF_ENUM_TABLE(Type, ...)                                                \
  template <>                                                                      \
  std::span<const ::timef::core::EnumEntry<Type>> timef::core::EnumTable<Type>() { \
    static constexpr ::timef::core::EnumEntry<Type> kEntries[] = {__VA_ARGS__};    \
    return kEntries;                                                               \
  }
