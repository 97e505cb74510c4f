// Checks shared by the model's setters and its validator (private to src/model).
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include "timef/json.h"

namespace timef::model::internal {

// Throws ValidationError{object, where}: problem.
[[noreturn]] void Fail(std::string object, std::string where, std::string_view problem);

// The object a check names in its error: a ready name, or a callable that builds one and is
// called only when the check fails (every hydrated signal and source is checked, and building its
// quoted name cost more than the checks). Lives for the one call it is passed to.
class Subject {
 public:
  Subject(const std::string& name) : name_(&name) {}  // NOLINT(google-explicit-constructor)
  Subject(const char* name) : literal_(name) {}       // NOLINT(google-explicit-constructor)
  template <typename Describe>
  requires std::is_invocable_r_v<std::string, const Describe&> Subject(
      const Describe& describe)  // NOLINT(google-explicit-constructor)
      : describe_(&describe),
        call_([](const void* f) { return (*static_cast<const Describe*>(f))(); }) {}

  std::string Name() const {
    if (name_) return *name_;
    if (literal_) return literal_;
    return call_(describe_);
  }

 private:
  const std::string* name_ = nullptr;
  const char* literal_ = nullptr;
  const void* describe_ = nullptr;
  std::string (*call_)(const void*) = nullptr;
};

// Rejects invalid UTF-8.
void CheckUtf8(std::string_view text, const Subject& object, const std::string& where);

// A JSON value the catalog can store: no NaN or ±infinity, keys and strings valid UTF-8. The
// failing element is named by its JSON pointer after `where` (built only on failure).
void CheckJsonValue(const Json& value, const Subject& object, const std::string& where);

// A JSON object that passes CheckJsonValue.
void CheckMetadata(const Json& metadata, const Subject& object, const std::string& where);

// `text` in single quotes, control characters and bad UTF-8 escaped.
std::string Quoted(std::string_view text);

}  // namespace timef::model::internal
