// Shared pieces of the `timef._timef` extension: JSON and value conversions, and the Python
// objects for tasks and text. Everything here runs with the GIL held unless a function says
// otherwise.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "core/enum_table.h"
#include "timef/error.h"
#include "timef/model.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef::python {

namespace py = pybind11;

// Throws ValidationError when `text` (a str) cannot be UTF-8: it holds a lone surrogate (which
// Python allows in a str, "\ud800"); names the code point and its index. Every str that enters
// as std::string or std::string_view goes through this (the type casters below), so no binding
// raises UnicodeEncodeError or pybind's "incompatible function arguments" instead.
void CheckEncodable(py::handle text);

}  // namespace timef::python

// The one conversion of str arguments: pybind's own, after CheckEncodable.
namespace pybind11::detail {
template <>
struct type_caster<std::string> : string_caster<std::string> {
  bool load(handle src, bool convert) {
    if (src && PyUnicode_Check(src.ptr())) timef::python::CheckEncodable(src);
    return string_caster<std::string>::load(src, convert);
  }
};
template <>
struct type_caster<std::string_view> : string_caster<std::string_view, true> {
  bool load(handle src, bool convert) {
    if (src && PyUnicode_Check(src.ptr())) timef::python::CheckEncodable(src);
    return string_caster<std::string_view, true>::load(src, convert);
  }
};
}  // namespace pybind11::detail

namespace timef::python {

// JSON (nlohmann::ordered_json) ↔ Python: null/bool/int/float/str/list/dict. PyToJson raises
// ValidationError naming `what` for anything else (a dict key that is not a str, a set, …).
py::object JsonToPy(const Json& json);
Json PyToJson(py::handle object, const std::string& what);

// A decoded array as numpy without a copy: the array's base keeps `values` alive and it is
// read-only. Shape [steps] or [steps, *value_shape]; bool as numpy bool, enum as int32 codes, str
// as an object array (a copy: numpy has no view of std::string). A nullable spec gives a
// numpy.ma.MaskedArray whose mask is True where the step is null.
py::object ValuesToNumpy(std::shared_ptr<const model::ValueArray> values, const model::Spec& spec);
// The same for an array the caller owns outright: the buffer moves into the numpy array, which is
// writable (no copy, no sharing).
py::object OwnedValuesToNumpy(model::ValueArray values, const model::Spec& spec);
// A writable array of `values`: its buffer itself (no copy) when `values` is the only holder of
// it (nothing else can reach the buffer: the library keeps no weak references to value arrays),
// else a copy through OwnedValuesToNumpy.
py::object WritableValuesToNumpy(std::shared_ptr<const model::ValueArray> values,
                                 const model::Spec& spec);

// `count` elements from element `first` of a writable C-contiguous numpy array whose dtype is the
// storage of spec.dtype (numpy bool for bool, int32 for enum codes), as a caller's buffer for
// SignalValuesRef::LoadValuesInto; ValidationError naming `what` otherwise, and for str. The
// array must outlive the span's use.
model::ScalarSpan ScalarSpanOf(const py::array& array, const model::Spec& spec, py::ssize_t first,
                               py::ssize_t count, const std::string& what);
// The same for a validity buffer: a bool or uint8 array.
std::span<std::uint8_t> ValiditySpanOf(const py::array& array, py::ssize_t first, py::ssize_t count,
                                       const std::string& what);

// Python values (numpy array, masked array, sequence) → a ValueArray of the spec's dtype. Copies.
// ValidationError naming `what` when the values do not fit the dtype: a shape other than
// [steps, *value_shape], or a conversion that would change a value (model::ConvertValues, the one
// checked conversion; `first_step` numbers the steps of a piece in messages).
model::ValueArray NumpyToValues(py::handle object, const model::Spec& spec, const std::string& what,
                                std::int64_t first_step = 0);

// The Python object of a task: the instance of the task class registered for its type (a Python
// subclass of the bound Task, see RegisterTaskClasses), so get(AnswerTask, 7) is an AnswerTask.
py::object TaskToPy(const std::shared_ptr<model::Task>& task);
py::list TasksToPy(const std::vector<std::shared_ptr<model::Task>>& tasks);

// Text values as timef.TextHandle / timef.TextListHandle objects.
py::object TextToPy(const model::Text& text);
py::object TextListToPy(const model::TextList& text);
model::Text PyToText(py::handle object, const std::string& what);
bool IsTextHandle(py::handle object);
bool IsTextListHandle(py::handle object);
model::TextList PyToTextList(py::handle object, const std::string& what);

// Spans, annotation values and signal lists (model_py.cc), shared with the task bindings.
py::object SpanToPy(const model::AnnotationSpan& span);
model::AnnotationSpan PyToSpan(py::handle object);
std::shared_ptr<model::Annotation> AnnotateObject(model::Annotatable& object,
                                                  const std::string& key, py::handle value,
                                                  py::handle span, py::handle unit,
                                                  py::handle description, py::handle metadata,
                                                  py::handle content_metadata,
                                                  py::handle confidence, py::handle provenance);
py::object ImportToPy(const std::optional<model::ImportMarker>& marker);
py::list SignalsToPy(const std::vector<std::shared_ptr<model::Signal>>& signals);

// Registration of the bound classes, one function per source file.
void BindErrors(py::module_& m);
void BindText(py::module_& m);
void BindModel(py::module_& m);
void BindTasks(py::module_& m);
void BindReader(py::module_& m);
void BindTables(py::module_& m);
void BindWriter(py::module_& m);
void BindRegistry(py::module_& m);
void BindImporters(py::module_& m);
void BindView(py::module_& m);  // view_py.cc: timef.view()

// The card of timef.write(card=...) and timef.import_files(card=...): the card's fields as a
// dict, unknown keys refused (writer_py.cc).
manifest::Card CardFromDict(const py::dict& d);
// timef.write()'s writer options, with `progress(stage, bytes_done, bytes_total, shard)` when
// not None (it takes the GIL while it runs); unknown keys refused (writer_py.cc).
WriteOptions WriteOptionsFromDict(const py::dict& opts, py::object progress);

// An integer argument (a Python int or a numpy integer; not a bool, a float or a str) as int64, or
// ValidationError "<site>: expected <expected>, not <type> <repr>" (also for one outside int64),
// e.g. "TimePoint: offset_us: expected an int (µs from the record's zero), not float 358333.33".
std::int64_t PyToInt64(py::handle object, const ErrorSite& site, std::string_view expected);
// The same with None as nullopt.
std::optional<std::int64_t> PyToOptionalInt64(py::handle object, const ErrorSite& site,
                                              std::string_view expected);

// The `parent=` of a lookup by parent ID (registry_py.cc).
ParentRef PyToParent(py::handle parent);

// A parsed vocabulary name, or ValidationError("<what>: unknown value 'x' (expected one of a, b)").
template <class E>
E RequireName(std::optional<E> parsed, const std::string& what, std::string_view text) {
  if (!parsed) {
    throw ValidationError(ErrorSite{.object = what},
                          "unknown value '" + std::string(text) + "'" + core::ExpectedNames<E>());
  }
  return *parsed;
}

}  // namespace timef::python
