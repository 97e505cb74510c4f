#include "model/checks.h"

#include <cmath>
#include <string>

#include "core/json_forms.h"
#include "core/text.h"
#include "timef/error.h"

namespace timef::model::internal {
namespace {

void CheckJsonAt(const Json& value, const std::string& object, const std::string& where,
                 const std::string& pointer) {
  auto site = [&] { return pointer.empty() ? where : where + pointer; };
  switch (value.type()) {
    case Json::value_t::number_float:
      if (!std::isfinite(value.get<double>()))
        Fail(object, site(), "NaN and infinity cannot be stored in JSON");
      return;
    case Json::value_t::string:
      if (!core::IsValidUtf8(value.get_ref<const std::string&>()))
        Fail(object, site(), "invalid UTF-8 in a JSON string");
      return;
    case Json::value_t::array: {
      size_t index = 0;
      for (const Json& element : value) {
        CheckJsonAt(element, object, where, pointer + "/" + std::to_string(index++));
      }
      return;
    }
    case Json::value_t::object:
      for (const auto& [key, element] : value.items()) {
        // Unprintable bytes are escaped first: the pointer ends up in a message.
        std::string child = pointer;
        core::AppendJsonPointerToken(child, core::PrintableForMessage(key));
        if (!core::IsValidUtf8(key)) Fail(object, where + child, "invalid UTF-8 in a JSON key");
        CheckJsonAt(element, object, where, child);
      }
      return;
    case Json::value_t::binary:
    case Json::value_t::discarded:
      Fail(object, site(), "not a JSON value");
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

void CheckUtf8(std::string_view text, const std::string& object, const std::string& where) {
  size_t bad = core::FindInvalidUtf8(text);
  if (bad != std::string_view::npos) {
    Fail(object, where, "invalid UTF-8 at byte " + std::to_string(bad));
  }
}

void CheckJsonValue(const Json& value, const std::string& object, const std::string& where) {
  CheckJsonAt(value, object, where, "");
}

void CheckMetadata(const Json& metadata, const std::string& object, const std::string& where) {
  if (!metadata.is_object()) {
    Fail(object, where, std::string("metadata must be a JSON object, not ") + metadata.type_name());
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
