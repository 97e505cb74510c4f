// Checks shared by the model's setters and its validator (private to src/model).
#pragma once

#include <string>
#include <string_view>

#include "timef/json.h"

namespace timef::model::internal {

// Throws ValidationError{object, where}: problem.
[[noreturn]] void Fail(std::string object, std::string where, std::string_view problem);

// Rejects invalid UTF-8.
void CheckUtf8(std::string_view text, const std::string& object, const std::string& where);

// A JSON value the catalog can store: no NaN or ±infinity, keys and strings valid UTF-8. The
// failing element is named by its JSON pointer after `where`.
void CheckJsonValue(const Json& value, const std::string& object, const std::string& where);

// A JSON object that passes CheckJsonValue.
void CheckMetadata(const Json& metadata, const std::string& object, const std::string& where);

// `text` in single quotes, control characters and bad UTF-8 escaped.
std::string Quoted(std::string_view text);

}  // namespace timef::model::internal
