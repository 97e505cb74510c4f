// JSON metadata ↔ Python objects. Metadata, provenance and manifests are small, so a recursive
// walk is enough; integers keep their exact value (uint64 above int64 included).
#include <cmath>
#include <cstdio>
#include <string>

#include "py_common.h"

namespace timef::python {

void CheckEncodable(py::handle text) {
  Py_ssize_t size = 0;
  if (PyUnicode_AsUTF8AndSize(text.ptr(), &size) != nullptr) return;
  PyErr_Clear();
  const Py_ssize_t n = PyUnicode_GetLength(text.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) {
    const Py_UCS4 c = PyUnicode_ReadChar(text.ptr(), i);
    if (c >= 0xD800 && c <= 0xDFFF) {
      char code[8];
      std::snprintf(code, sizeof code, "%04X", static_cast<unsigned>(c));
      throw ValidationError("str holds a lone surrogate U+" + std::string(code) + " at index " +
                            std::to_string(i) +
                            ": text must be valid Unicode to be stored as UTF-8");
    }
  }
  throw ValidationError("str cannot be encoded as UTF-8");
}

py::object JsonToPy(const Json& json) {
  switch (json.type()) {
    case Json::value_t::null:
      return py::none();
    case Json::value_t::boolean:
      return py::bool_(json.get<bool>());
    case Json::value_t::number_integer:
      return py::int_(json.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return py::int_(json.get<std::uint64_t>());
    case Json::value_t::number_float:
      return py::float_(json.get<double>());
    case Json::value_t::string:
      return py::str(json.get_ref<const std::string&>());
    case Json::value_t::array: {
      py::list out;
      for (const auto& item : json) out.append(JsonToPy(item));
      return out;
    }
    case Json::value_t::object: {
      py::dict out;
      for (const auto& [key, value] : json.items()) out[py::str(key)] = JsonToPy(value);
      return out;
    }
    default:
      return py::none();
  }
}

Json PyToJson(py::handle object, const std::string& what) {
  if (object.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(object)) return object.cast<bool>();
  if (py::isinstance<py::int_>(object) || py::hasattr(object, "__index__")) {
    py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(object.ptr()));
    if (!value) throw py::error_already_set();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0) return static_cast<std::int64_t>(v);
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
      if (!PyErr_Occurred()) return static_cast<std::uint64_t>(u);
      PyErr_Clear();
    }
    throw ValidationError(ErrorSite{.object = what}, "integer does not fit 64 bits");
  }
  if (py::isinstance<py::float_>(object)) {
    double v = object.cast<double>();
    if (!std::isfinite(v))
      throw ValidationError(ErrorSite{.object = what}, "JSON has no NaN or infinity");
    return v;
  }
  if (py::isinstance<py::str>(object)) return object.cast<std::string>();
  if (py::isinstance<py::dict>(object)) {
    Json out = Json::object();
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(object)) {
      if (!py::isinstance<py::str>(key))
        throw ValidationError(ErrorSite{.object = what}, "JSON object keys must be str");
      std::string k = key.cast<std::string>();
      out[k] = PyToJson(value, what + "." + k);
    }
    return out;
  }
  if (py::isinstance<py::list>(object) || py::isinstance<py::tuple>(object)) {
    Json out = Json::array();
    std::size_t i = 0;
    for (auto item : object) out.push_back(PyToJson(item, what + "[" + std::to_string(i++) + "]"));
    return out;
  }
  if (py::hasattr(object, "tolist")) return PyToJson(object.attr("tolist")(), what);  // numpy
  throw ValidationError(
      ErrorSite{.object = what},
      "cannot store a " + std::string(py::str(object.get_type().attr("__name__"))) + " as JSON");
}

}  // namespace timef::python
