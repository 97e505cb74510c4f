#include "model/checks.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/json_forms.h"
#include "core/text.h"
#include "timef/error.h"

namespace timef::model::internal {
namespace {

// One step of the path to the element being checked: an object key or an array index.
struct Step {
  const std::string* key = nullptr;
  size_t index = 0;
};

// The JSON pointer of `path`; unprintable key bytes are escaped since it ends up in a message.
std::string Pointer(const std::vector<Step>& path) {
  std::string out;
  for (const Step& step : path) {
    if (step.key) {
      core::AppendJsonPointerToken(out, core::PrintableForMessage(*step.key));
    } else {
      out += "/" + std::to_string(step.index);
    }
  }
  return out;
}

void CheckJsonAt(const Json& value, const Subject& object, const std::string& where,
                 std::vector<Step>& path) {
  auto fail = [&](std::string_view problem) {
    Fail(object.Name(), where + Pointer(path), problem);
  };
  switch (value.type()) {
    case Json::value_t::number_float:
      if (!std::isfinite(value.get<double>())) fail("NaN and infinity cannot be stored in JSON");
      return;
    case Json::value_t::string:
      if (!core::IsValidUtf8(value.get_ref<const std::string&>()))
        fail("invalid UTF-8 in a JSON string");
      return;
    case Json::value_t::array: {
      size_t index = 0;
      for (const Json& element : value) {
        path.push_back({nullptr, index++});
        CheckJsonAt(element, object, where, path);
        path.pop_back();
      }
      return;
    }
    case Json::value_t::object:
      for (auto it = value.begin(); it != value.end(); ++it) {
        path.push_back({&it.key(), 0});
        if (!core::IsValidUtf8(it.key())) fail("invalid UTF-8 in a JSON key");
        CheckJsonAt(*it, object, where, path);
        path.pop_back();
      }
      return;
    case Json::value_t::binary:
    case Json::value_t::discarded:
      fail("not a JSON value");
    default:
      return;
  }
}

}  // namespace

void Fail(std::string object, std::string where, std::string_view problem) {
  throw ValidationError(
      ErrorSite{.file = std::nullopt, .object = std::move(object), .where = std::move(where)},
      problem);
}

void CheckUtf8(std::string_view text, const Subject& object, const std::string& where) {
  size_t bad = core::FindInvalidUtf8(text);
  if (bad != std::string_view::npos) {
    Fail(object.Name(), where, "invalid UTF-8 at byte " + std::to_string(bad));
  }
}

void CheckJsonValue(const Json& value, const Subject& object, const std::string& where) {
  std::vector<Step> path;
  CheckJsonAt(value, object, where, path);
}

void CheckMetadata(const Json& metadata, const Subject& object, const std::string& where) {
  if (!metadata.is_object()) {
    Fail(object.Name(), where,
         std::string("metadata must be a JSON object, not ") + metadata.type_name());
  }
  CheckJsonValue(metadata, object, where);
}

std::string Quoted(std::string_view text) {
  std::string out(1, '\'');
  out += core::PrintableForMessage(text);
  out += '\'';
  return out;
}

}  // namespace timef::model::internal
