// timef.TextHandle and timef.TextListHandle: a text value that may still sit in a payload file.
// Length and truthiness never read; equality reads only when it must (same kind, equal length,
// not the same stored row); a handle is never equal to a handle of the other kind, and handles are
// not hashable (their equality is by content, which may change what a dict would find).
#include "py_common.h"

namespace timef::python {
namespace {

struct TextHandle {
  model::Text text;
};
struct TextListHandle {
  model::TextList text;
};

std::string Preview(const std::string& s) {
  std::string out = s.size() > 40 ? s.substr(0, 40) + "…" : s;
  return py::repr(py::str(out)).cast<std::string>();
}

}  // namespace

py::object TextToPy(const model::Text& text) { return py::cast(TextHandle{text}); }
py::object TextListToPy(const model::TextList& text) { return py::cast(TextListHandle{text}); }

model::Text PyToText(py::handle object, const std::string& what) {
  if (py::isinstance<TextHandle>(object)) return object.cast<const TextHandle&>().text;
  if (py::isinstance<py::str>(object)) return model::Text(object.cast<std::string>());
  throw ValidationError(ErrorSite{.object = what}, "expected a str or a TextHandle");
}

bool IsTextHandle(py::handle object) { return py::isinstance<TextHandle>(object); }
bool IsTextListHandle(py::handle object) { return py::isinstance<TextListHandle>(object); }

model::TextList PyToTextList(py::handle object, const std::string& what) {
  if (py::isinstance<TextListHandle>(object)) return object.cast<const TextListHandle&>().text;
  if (py::isinstance<py::list>(object) || py::isinstance<py::tuple>(object)) {
    std::vector<std::string> items;
    for (auto item : object) {
      if (!py::isinstance<py::str>(item))
        throw ValidationError(ErrorSite{.object = what}, "a text list holds str elements only");
      items.push_back(item.cast<std::string>());
    }
    return model::TextList(std::move(items));
  }
  throw ValidationError(ErrorSite{.object = what}, "expected a list of str or a TextListHandle");
}

void BindText(py::module_& m) {
  py::class_<TextHandle>(m, "TextHandle",
                         "A string stored inline or in a payload file; read() returns it.")
      .def(py::init([](std::string value) { return TextHandle{model::Text(std::move(value))}; }),
           py::arg("value"))
      .def(
          "read", [](const TextHandle& h) { return h.text.Read(); },
          py::call_guard<py::gil_scoped_release>(),
          "The string (reads the payload file again on every call unless the value is loaded).")
      .def_property_readonly("is_loaded", [](const TextHandle& h) { return h.text.is_loaded(); })
      .def("__len__", [](const TextHandle& h) { return h.text.size(); })
      .def("__bool__", [](const TextHandle& h) { return !h.text.empty(); })
      .def("__eq__",
           [](const TextHandle& a, py::handle other) -> py::object {
             if (py::isinstance<TextHandle>(other)) {
               const model::Text& b = other.cast<const TextHandle&>().text;
               py::gil_scoped_release release;
               return py::bool_(a.text == b);
             }
             if (py::isinstance<py::str>(other)) {
               std::string b = other.cast<std::string>();
               py::gil_scoped_release release;
               return py::bool_(a.text == std::string_view(b));
             }
             return py::reinterpret_borrow<py::object>(Py_NotImplemented);
           })
      .def("__repr__", [](const TextHandle& h) {
        if (const std::string* v = h.text.inline_value()) return "TextHandle(" + Preview(*v) + ")";
        return "TextHandle(<" + std::to_string(h.text.size()) + " bytes, not loaded>)";
      });
  m.attr("TextHandle").attr("__hash__") = py::none();

  py::class_<TextListHandle>(m, "TextListHandle",
                             "A list of strings stored inline or in a payload file.")
      .def(py::init([](std::vector<std::string> value) {
             return TextListHandle{model::TextList(std::move(value))};
           }),
           py::arg("value"))
      .def(
          "read", [](const TextListHandle& h) { return h.text.Read(); },
          py::call_guard<py::gil_scoped_release>(), "The list of strings.")
      .def_property_readonly("is_loaded",
                             [](const TextListHandle& h) { return h.text.is_loaded(); })
      .def("__len__", [](const TextListHandle& h) { return h.text.size(); })
      .def("__bool__", [](const TextListHandle& h) { return !h.text.empty(); })
      .def("__eq__",
           [](const TextListHandle& a, py::handle other) -> py::object {
             if (py::isinstance<TextListHandle>(other)) {
               const model::TextList& b = other.cast<const TextListHandle&>().text;
               py::gil_scoped_release release;
               return py::bool_(a.text == b);
             }
             if (py::isinstance<py::list>(other)) {
               std::vector<std::string> b;
               for (auto item : other) {
                 if (!py::isinstance<py::str>(item)) return py::bool_(false);
                 b.push_back(item.cast<std::string>());
               }
               py::gil_scoped_release release;
               return py::bool_(a.text == b);
             }
             return py::reinterpret_borrow<py::object>(Py_NotImplemented);
           })
      .def("__repr__", [](const TextListHandle& h) {
        return "TextListHandle(<" + std::to_string(h.text.size()) + " items" +
               (h.text.is_loaded() ? "" : ", not loaded") + ">)";
      });
  m.attr("TextListHandle").attr("__hash__") = py::none();
}

}  // namespace timef::python
