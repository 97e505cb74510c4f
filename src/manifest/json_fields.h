// Typed, problem-reporting access to the members of one JSON object of a manifest. Every problem
// names the JSON pointer of the value concerned; a missing or ill-typed value leaves the output
// at its default so decoding can go on and report further problems.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enum_table.h"
#include "manifest/problems.h"
#include "timef/json.h"

namespace timef::manifest::internal {

// "null", "boolean", "integer", "number", "string", "array" or "object".
std::string_view JsonTypeName(const Json& value);

// Each reports "expected <type>, got <type>" at `pointer` and returns false on a mismatch.
bool ExpectObject(const Json& value, const std::string& pointer, Problems& problems);
bool ExpectArray(const Json& value, const std::string& pointer, Problems& problems);
// Booleans and numbers with a fraction or exponent (`1.0`) are not integers; neither are values
// outside int64.
bool ReadInt(const Json& value, const std::string& pointer, Problems& problems, int64_t* out);
bool ReadString(const Json& value, const std::string& pointer, Problems& problems,
                std::string* out);

template <typename E>
bool ReadEnum(const Json& value, const std::string& pointer, Problems& problems,
              std::string_view what, E* out) {
  std::string text;
  if (!ReadString(value, pointer, problems, &text)) return false;
  std::optional<E> parsed = core::EnumFromName<E>(text);
  if (!parsed) {
    problems.Add(pointer,
                 "unknown " + std::string(what) + " " + Quote(text) + core::ExpectedNames<E>());
    return false;
  }
  *out = *parsed;
  return true;
}

class Fields {
 public:
  // `object` must be a JSON object (checked by the caller with ExpectObject).
  Fields(const Json& object, std::string pointer, Problems& problems)
      : object_(object), pointer_(std::move(pointer)), problems_(problems) {}

  // Reports each member whose key is not in `known`.
  void RejectUnknown(std::initializer_list<std::string_view> known);

  const std::string& pointer() const { return pointer_; }
  std::string PointerOf(std::string_view key) const { return JoinPointer(pointer_, key); }
  Problems& problems() { return problems_; }

  // nullptr when absent.
  const Json* Find(std::string_view key) const;
  // Like Find, but reports "required key is missing" when absent.
  const Json* Require(std::string_view key);

  // Absent: *out keeps its value unless `required`, which reports the missing key.
  void Int(std::string_view key, bool required, int64_t* out);
  void String(std::string_view key, bool required, std::string* out);
  void Bool(std::string_view key, bool* out);
  // String or null; absent means null.
  void NullableString(std::string_view key, std::optional<std::string>* out);
  // Array of strings; absent means [].
  void StringList(std::string_view key, std::vector<std::string>* out);

  template <typename E>
  void Enum(std::string_view key, bool required, std::string_view what, E* out) {
    const Json* value = required ? Require(key) : Find(key);
    if (value != nullptr) ReadEnum(*value, PointerOf(key), problems_, what, out);
  }
  // Enum or null; absent means null.
  template <typename E>
  void NullableEnum(std::string_view key, std::string_view what, std::optional<E>* out) {
    const Json* value = Find(key);
    if (value == nullptr || value->is_null()) return;
    E parsed{};
    if (ReadEnum(*value, PointerOf(key), problems_, what, &parsed)) *out = parsed;
  }

 private:
  const Json& object_;
  std::string pointer_;
  Problems& problems_;
};

}  // namespace timef::manifest::internal
