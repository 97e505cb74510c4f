// The JSON value of the public API: the metadata of datasets, records, sources, signals and tasks,
// annotation values and the model dump are Json. It is nlohmann::ordered_json so that a value keeps
// the key order it was built with (the manifest writer relies on it), so installed headers include
// <nlohmann/json.hpp>. How timef parses and writes JSON text is internal (src/core/json_forms.h).
#pragma once

#include <nlohmann/json.hpp>

namespace timef {

using Json = nlohmann::ordered_json;

// The empty JSON object, immutable and shared: a model object's metadata() until metadata is set,
// so that building an object allocates no JSON (hydration builds hundreds of thousands).
inline const Json& EmptyJsonObject() {
  static const Json kEmpty = Json::object();
  return kEmpty;
}

}  // namespace timef
