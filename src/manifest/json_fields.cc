#include "manifest/json_fields.h"

#include <algorithm>
#include <limits>

namespace timef::manifest::internal {

std::string_view JsonTypeName(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "integer";
    case Json::value_t::number_float:
      return "number";
    case Json::value_t::string:
      return "string";
    case Json::value_t::array:
      return "array";
    case Json::value_t::object:
      return "object";
    default:
      return "unsupported value";
  }
}

namespace {

void ReportType(const Json& value, const std::string& pointer, Problems& problems,
                std::string_view expected) {
  problems.Add(pointer,
               "expected " + std::string(expected) + ", got " + std::string(JsonTypeName(value)));
}

}  // namespace

bool ExpectObject(const Json& value, const std::string& pointer, Problems& problems) {
  if (value.is_object()) return true;
  ReportType(value, pointer, problems, "an object");
  return false;
}

bool ExpectArray(const Json& value, const std::string& pointer, Problems& problems) {
  if (value.is_array()) return true;
  ReportType(value, pointer, problems, "an array");
  return false;
}

bool ReadInt(const Json& value, const std::string& pointer, Problems& problems, int64_t* out) {
  if (value.is_number_unsigned()) {
    auto raw = value.get<uint64_t>();
    if (raw > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      problems.Add(pointer, "integer " + std::to_string(raw) + " does not fit int64");
      return false;
    }
    *out = static_cast<int64_t>(raw);
    return true;
  }
  if (value.is_number_integer()) {
    *out = value.get<int64_t>();
    return true;
  }
  if (value.is_number_float()) {
    // 1.0 and 1e0 parse as floating point: the format wants plain integers.
    problems.Add(pointer, "expected an integer, got a number with a fraction or exponent");
    return false;
  }
  ReportType(value, pointer, problems, "an integer");
  return false;
}

bool ReadString(const Json& value, const std::string& pointer, Problems& problems,
                std::string* out) {
  if (!value.is_string()) {
    ReportType(value, pointer, problems, "a string");
    return false;
  }
  *out = value.get_ref<const std::string&>();
  return true;
}

void Fields::RejectUnknown(std::initializer_list<std::string_view> known) {
  for (const auto& [key, value] : object_.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      problems_.Add(PointerOf(key), "unknown key " + Quote(key));
    }
  }
}

const Json* Fields::Find(std::string_view key) const {
  auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

const Json* Fields::Require(std::string_view key) {
  const Json* value = Find(key);
  if (value == nullptr) problems_.Add(PointerOf(key), "required key is missing");
  return value;
}

void Fields::Int(std::string_view key, bool required, int64_t* out) {
  const Json* value = required ? Require(key) : Find(key);
  if (value != nullptr) ReadInt(*value, PointerOf(key), problems_, out);
}

void Fields::String(std::string_view key, bool required, std::string* out) {
  const Json* value = required ? Require(key) : Find(key);
  if (value != nullptr) ReadString(*value, PointerOf(key), problems_, out);
}

void Fields::Bool(std::string_view key, bool* out) {
  const Json* value = Find(key);
  if (value == nullptr) return;
  if (!value->is_boolean()) {
    ReportType(*value, PointerOf(key), problems_, "a boolean");
    return;
  }
  *out = value->get<bool>();
}

void Fields::NullableString(std::string_view key, std::optional<std::string>* out) {
  const Json* value = Find(key);
  if (value == nullptr || value->is_null()) return;
  if (!value->is_string()) {
    ReportType(*value, PointerOf(key), problems_, "a string or null");
    return;
  }
  *out = value->get_ref<const std::string&>();
}

void Fields::StringList(std::string_view key, std::vector<std::string>* out) {
  const Json* value = Find(key);
  if (value == nullptr) return;
  std::string pointer = PointerOf(key);
  if (!ExpectArray(*value, pointer, problems_)) return;
  out->clear();
  for (size_t i = 0; i < value->size(); ++i) {
    std::string text;
    if (ReadString((*value)[i], JoinPointer(pointer, i), problems_, &text)) {
      out->push_back(std::move(text));
    }
  }
}

}  // namespace timef::manifest::internal
