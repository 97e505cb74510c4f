// The dataset model in Python: Spec, TimeAxis, spans, annotations, Record, Source, Signal and
// Dataset. Objects are shared with C++ (std::shared_ptr holders), so an object reached twice is one
// Python object while it is alive, and what Python builds is what the writer writes. Specs and axes
// are immutable. Metadata is returned as a new dict: assign `obj.metadata = {...}` to change it.
#include <algorithm>

#include "py_common.h"

namespace timef::python {
namespace {

using model::Annotatable;
using model::Annotation;
using model::AnnotationContent;
using model::AnnotationSpan;
using model::AnnotationValue;

std::shared_ptr<model::Spec> Mutable(const std::shared_ptr<const model::Spec>& s) {
  return std::const_pointer_cast<model::Spec>(s);
}
std::shared_ptr<model::TimeAxis> Mutable(const std::shared_ptr<const model::TimeAxis>& a) {
  return std::const_pointer_cast<model::TimeAxis>(a);
}

// What an integer argument means, for PyToInt64's messages.
constexpr std::string_view kMicroseconds = "an int (µs from the record's zero)";
constexpr std::string_view kStepIndex = "an int (a step index)";

ErrorSite Where(const ErrorSite& site, std::string where) {
  ErrorSite out = site;
  out.where = std::move(where);
  return out;
}

py::object OptionalStr(const std::optional<std::string>& s) {
  return s ? py::object(py::str(*s)) : py::none();
}

}  // namespace

// ---- integer arguments ----

std::int64_t PyToInt64(py::handle object, const ErrorSite& site, std::string_view expected) {
  auto fail = [&](std::string_view range) -> std::int64_t {
    std::string shown = py::repr(object).cast<std::string>();
    if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
    throw ValidationError(site, "expected " + std::string(expected) + std::string(range) +
                                    ", not " + Py_TYPE(object.ptr())->tp_name + " " + shown);
  };
  // A bool is an int to Python but never a time, a count or a step.
  if (PyBool_Check(object.ptr()) || !PyIndex_Check(object.ptr())) return fail("");
  PyObject* index = PyNumber_Index(object.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    return fail("");
  }
  py::object value = py::reinterpret_steal<py::object>(index);
  int overflow = 0;
  const long long out = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0) return fail(" within int64");
  return out;
}

std::optional<std::int64_t> PyToOptionalInt64(py::handle object, const ErrorSite& site,
                                              std::string_view expected) {
  if (object.is_none()) return std::nullopt;
  return PyToInt64(object, site, expected);
}

// ---- spans and annotation values (also used by tasks_py.cc) ----

py::object SpanToPy(const AnnotationSpan& span) {
  return std::visit(
      [](const auto& s) -> py::object {
        if constexpr (std::is_same_v<std::decay_t<decltype(s)>, model::StaticSpan>)
          return py::none();
        else
          return py::cast(s);
      },
      span);
}

AnnotationSpan PyToSpan(py::handle object) {
  if (object.is_none()) return model::StaticSpan{};
  if (py::isinstance<model::TimePoint>(object)) return object.cast<model::TimePoint>();
  if (py::isinstance<model::TimeInterval>(object)) return object.cast<model::TimeInterval>();
  throw ValidationError(ErrorSite{.object = "span"},
                        "an annotation span is None, a TimePoint or a TimeInterval");
}

py::object AnnotationValueToPy(const AnnotationValue& value) {
  switch (value.kind()) {
    case model::ValueKind::kMarker:
      return py::none();
    case model::ValueKind::kText:
      return TextToPy(value.text());
    case model::ValueKind::kInteger:
      return py::int_(value.integer());
    case model::ValueKind::kFloat:
      return py::float_(value.float_value());
    case model::ValueKind::kBoolean:
      return py::bool_(value.boolean());
    case model::ValueKind::kTextList:
      return TextListToPy(value.text_list());
  }
  return py::none();
}

AnnotationValue PyToAnnotationValue(py::handle v, const std::string& what) {
  if (v.is_none()) return AnnotationValue::Marker();
  if (py::isinstance<py::bool_>(v)) return AnnotationValue::OfBoolean(v.cast<bool>());
  if (py::isinstance<py::int_>(v) ||
      (py::hasattr(v, "__index__") && !py::isinstance<py::float_>(v)))
    return AnnotationValue::OfInteger(
        py::int_(py::reinterpret_borrow<py::object>(v)).cast<std::int64_t>());
  if (py::isinstance<py::float_>(v)) return AnnotationValue::OfFloat(v.cast<double>());
  if (py::isinstance<py::str>(v) || IsTextHandle(v))
    return AnnotationValue::OfText(PyToText(v, what));
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v) || IsTextListHandle(v))
    return AnnotationValue::OfTextList(PyToTextList(v, what));
  throw ValidationError(ErrorSite{.object = what},
                        "an annotation value is None, bool, int, float, str or a list of str");
}

std::shared_ptr<AnnotationContent> MakeContent(const std::string& key, py::handle value,
                                               py::handle unit, py::handle description,
                                               py::handle content_metadata) {
  auto content = std::make_shared<AnnotationContent>(
      key, PyToAnnotationValue(value, "annotation '" + key + "'"));
  if (!unit.is_none()) content->set_unit(unit.cast<std::string>());
  if (!description.is_none()) content->set_description(description.cast<std::string>());
  if (!content_metadata.is_none())
    content->set_metadata(PyToJson(content_metadata, "annotation '" + key + "' content_metadata"));
  return content;
}

void ApplyOccurrence(Annotation& a, py::handle metadata, py::handle confidence,
                     py::handle provenance) {
  if (!metadata.is_none()) a.set_metadata(PyToJson(metadata, a.Describe() + " metadata"));
  if (!confidence.is_none()) a.set_confidence(confidence.cast<double>());
  if (!provenance.is_none()) a.set_provenance(PyToJson(provenance, a.Describe() + " provenance"));
}

std::shared_ptr<Annotation> AnnotateObject(Annotatable& o, const std::string& key, py::handle value,
                                           py::handle span, py::handle unit, py::handle description,
                                           py::handle metadata, py::handle content_metadata,
                                           py::handle confidence, py::handle provenance) {
  auto a = o.Annotate(MakeContent(key, value, unit, description, content_metadata), PyToSpan(span));
  ApplyOccurrence(*a, metadata, confidence, provenance);
  return a;
}

py::object ImportToPy(const std::optional<model::ImportMarker>& marker) {
  if (!marker) return py::none();
  return py::dict(py::arg("alias") = marker->alias, py::arg("parent_id") = marker->parent_id);
}

py::list SignalsToPy(const std::vector<std::shared_ptr<model::Signal>>& signals) {
  py::list out;
  for (const auto& s : signals) out.append(py::cast(s));
  return out;
}

namespace {

void BindSpans(py::module_& m) {
  py::class_<model::TimePoint>(m, "TimePoint", "A point in time: µs from the record's zero.")
      .def(py::init([](py::handle offset_us) {
             return model::TimePoint{PyToInt64(
                 offset_us, {.object = "TimePoint", .where = "offset_us"}, kMicroseconds)};
           }),
           py::arg("offset_us"))
      .def_readonly("offset_us", &model::TimePoint::offset_us)
      .def("__eq__", [](const model::TimePoint& a, const model::TimePoint& b) { return a == b; })
      .def("__hash__",
           [](const model::TimePoint& a) { return py::hash(py::make_tuple(a.offset_us)); })
      .def("__repr__", [](const model::TimePoint& a) {
        return "TimePoint(offset_us=" + std::to_string(a.offset_us) + ")";
      });
  py::class_<model::TimeInterval>(m, "TimeInterval",
                                  "A half-open interval [start_us, end_us) of µs offsets.")
      .def(py::init([](py::handle start_us, py::handle end_us) {
             const std::int64_t start = PyToInt64(
                 start_us, {.object = "TimeInterval", .where = "start_us"}, kMicroseconds);
             const std::int64_t end =
                 PyToInt64(end_us, {.object = "TimeInterval", .where = "end_us"}, kMicroseconds);
             if (end < start)
               throw ValidationError(ErrorSite{.object = "TimeInterval"}, "end_us < start_us");
             return model::TimeInterval{start, end};
           }),
           py::arg("start_us"), py::arg("end_us"))
      .def_readonly("start_us", &model::TimeInterval::start_us)
      .def_readonly("end_us", &model::TimeInterval::end_us)
      .def("__eq__",
           [](const model::TimeInterval& a, const model::TimeInterval& b) { return a == b; })
      .def("__hash__",
           [](const model::TimeInterval& a) {
             return py::hash(py::make_tuple(a.start_us, a.end_us));
           })
      .def("__repr__", [](const model::TimeInterval& a) {
        return "TimeInterval(start_us=" + std::to_string(a.start_us) +
               ", end_us=" + std::to_string(a.end_us) + ")";
      });
  py::class_<model::StepPoint>(m, "StepPoint", "One step index of one signal (task spans).")
      .def(py::init([](py::handle step) {
             return model::StepPoint{
                 PyToInt64(step, {.object = "StepPoint", .where = "step"}, kStepIndex)};
           }),
           py::arg("step"))
      .def_readonly("step", &model::StepPoint::step)
      .def("__eq__", [](const model::StepPoint& a, const model::StepPoint& b) { return a == b; })
      .def("__hash__", [](const model::StepPoint& a) { return py::hash(py::make_tuple(a.step)); })
      .def("__repr__", [](const model::StepPoint& a) {
        return "StepPoint(step=" + std::to_string(a.step) + ")";
      });
  py::class_<model::StepInterval>(m, "StepInterval",
                                  "Steps [start, end) of one signal (task spans).")
      .def(py::init([](py::handle start_step, py::handle end_step) {
             const std::int64_t start =
                 PyToInt64(start_step, {.object = "StepInterval", .where = "start"}, kStepIndex);
             const std::int64_t end =
                 PyToInt64(end_step, {.object = "StepInterval", .where = "end"}, kStepIndex);
             if (end < start)
               throw ValidationError(ErrorSite{.object = "StepInterval"}, "end < start");
             return model::StepInterval{start, end};
           }),
           py::arg("start"), py::arg("end"))
      .def_readonly("start", &model::StepInterval::start)
      .def_readonly("end", &model::StepInterval::end)
      .def("__eq__",
           [](const model::StepInterval& a, const model::StepInterval& b) { return a == b; })
      .def("__hash__",
           [](const model::StepInterval& a) { return py::hash(py::make_tuple(a.start, a.end)); })
      .def("__repr__", [](const model::StepInterval& a) {
        return "StepInterval(start=" + std::to_string(a.start) + ", end=" + std::to_string(a.end) +
               ")";
      });
}

void BindSpecAndAxis(py::module_& m) {
  py::class_<model::Spec, std::shared_ptr<model::Spec>>(
      m, "Spec", "The value contract of a signal (immutable; shared by the signals that use it).")
      .def(py::init([](std::string spec_type, std::optional<std::string> name, std::string dtype,
                       std::optional<std::string> unit, std::vector<std::string> categories,
                       std::vector<std::int64_t> value_shape,
                       std::vector<std::string> dimension_names, bool nullable,
                       std::string modality) {
             model::Spec s;
             s.name = name.value_or(spec_type);
             s.spec_type = std::move(spec_type);
             s.dtype = RequireName(ParseDType(dtype), "spec '" + s.spec_type + "' dtype", dtype);
             s.unit = std::move(unit);
             s.categories = std::move(categories);
             s.value_shape = std::move(value_shape);
             s.dimension_names = std::move(dimension_names);
             s.nullable = nullable;
             s.modality = RequireName(ParseModality(modality),
                                      "spec '" + s.spec_type + "' modality", modality);
             return Mutable(model::Spec::Make(std::move(s)));
           }),
           py::arg("spec_type"), py::kw_only(), py::arg("name") = py::none(),
           py::arg("dtype") = "float32", py::arg("unit") = py::none(),
           py::arg("categories") = std::vector<std::string>{},
           py::arg("value_shape") = std::vector<std::int64_t>{},
           py::arg("dimension_names") = std::vector<std::string>{}, py::arg("nullable") = false,
           py::arg("modality") = "time_series")
      .def_readonly("spec_type", &model::Spec::spec_type)
      .def_readonly("name", &model::Spec::name)
      .def_property_readonly("dtype",
                             [](const model::Spec& s) { return std::string(ToString(s.dtype)); })
      .def_readonly("unit", &model::Spec::unit)
      .def_property_readonly("categories",
                             [](const model::Spec& s) { return py::tuple(py::cast(s.categories)); })
      .def_property_readonly(
          "value_shape", [](const model::Spec& s) { return py::tuple(py::cast(s.value_shape)); })
      .def_property_readonly(
          "dimension_names",
          [](const model::Spec& s) { return py::tuple(py::cast(s.dimension_names)); })
      .def_readonly("nullable", &model::Spec::nullable)
      .def_property_readonly("modality",
                             [](const model::Spec& s) { return std::string(ToString(s.modality)); })
      .def("__eq__", [](const model::Spec& a, const model::Spec& b) { return a == b; })
      .def("__repr__", [](const model::Spec& s) {
        return "Spec(" + py::repr(py::str(s.spec_type)).cast<std::string>() + ", dtype='" +
               std::string(ToString(s.dtype)) + "')";
      });
  m.attr("Spec").attr("__hash__") = py::none();

  py::class_<model::TimeAxis, std::shared_ptr<model::TimeAxis>>(
      m, "TimeAxis", "How steps map to time: regular, irregular or ordinal (immutable, shared).")
      .def_static(
          "regular",
          [](py::handle num, py::handle den, py::handle start_index, py::handle offset_us) {
            const ErrorSite site{.object = "TimeAxis.regular"};
            return Mutable(model::TimeAxis::Regular(
                PyToInt64(num, Where(site, "period_us"),
                          "an int (µs; a fractional period is period_us/period_denominator)"),
                PyToInt64(den, Where(site, "period_denominator"), "an int"),
                PyToInt64(start_index, Where(site, "start_index"), kStepIndex),
                PyToInt64(offset_us, Where(site, "offset_us"), kMicroseconds)));
          },
          py::arg("period_us"), py::arg("period_denominator") = 1, py::kw_only(),
          py::arg("start_index") = 0, py::arg("offset_us") = 0,
          "A regular axis with a period of period_us/period_denominator µs.")
      .def_static(
          "from_rate",
          [](py::handle num, py::handle den, py::handle start_index, py::handle offset_us) {
            const ErrorSite site{.object = "TimeAxis.from_rate"};
            return Mutable(model::TimeAxis::RegularFromRate(
                PyToInt64(num, Where(site, "rate_hz"),
                          "an int (Hz; a fractional rate is rate_hz/rate_denominator)"),
                PyToInt64(den, Where(site, "rate_denominator"), "an int"),
                PyToInt64(start_index, Where(site, "start_index"), kStepIndex),
                PyToInt64(offset_us, Where(site, "offset_us"), kMicroseconds)));
          },
          py::arg("rate_hz"), py::arg("rate_denominator") = 1, py::kw_only(),
          py::arg("start_index") = 0, py::arg("offset_us") = 0,
          "A regular axis sampled at rate_hz/rate_denominator Hz.")
      .def_static(
          "irregular",
          [](py::handle offsets) {
            py::module_ np = py::module_::import("numpy");
            // Offsets are whole µs: a float array (1.5) is refused, never truncated by the cast
            // (a uint64 beyond int64 wraps negative, which the axis refuses).
            py::array given = np.attr("asarray")(offsets);
            const char kind = given.dtype().kind();
            if (given.size() != 0 && kind != 'i' && kind != 'u') {
              throw ValidationError({.object = "TimeAxis.irregular", .where = "offsets_us"},
                                    "expected ints (µs from the record's zero), not a " +
                                        py::str(given.dtype()).cast<std::string>() + " array");
            }
            py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> a(
                np.attr("asarray")(given, "i8"));
            std::vector<std::int64_t> v(a.data(), a.data() + a.size());
            return Mutable(model::TimeAxis::Irregular(std::move(v)));
          },
          py::arg("offsets_us"), "An irregular axis with explicit µs offsets.")
      .def_static(
          "ordinal", [] { return Mutable(model::TimeAxis::Ordinal()); },
          "Steps with an order but no time.")
      .def_property_readonly(
          "type", [](const model::TimeAxis& a) { return std::string(ToString(a.type())); })
      .def_property_readonly("period_numerator_us", &model::TimeAxis::period_numerator_us)
      .def_property_readonly("period_denominator", &model::TimeAxis::period_denominator)
      .def_property_readonly("start_index", &model::TimeAxis::start_index)
      .def_property_readonly("offset_us", &model::TimeAxis::offset_us)
      .def_property_readonly("n_values", &model::TimeAxis::n_values)
      .def_property_readonly("first_us", &model::TimeAxis::first_us)
      .def_property_readonly("last_us", &model::TimeAxis::last_us)
      .def_property_readonly("offsets_loaded", &model::TimeAxis::offsets_loaded)
      .def("__repr__", [](const model::TimeAxis& a) {
        return "TimeAxis(" + std::string(ToString(a.type())) + ")";
      });
}

void BindAnnotations(py::module_& m) {
  py::class_<AnnotationContent, std::shared_ptr<AnnotationContent>>(
      m, "AnnotationContent",
      "What an annotation says (key, value, unit, description, metadata); occurrences that carry "
      "one stored content share this object.")
      .def_property_readonly("key", &AnnotationContent::name)
      .def_property_readonly(
          "value", [](const AnnotationContent& c) { return AnnotationValueToPy(c.value()); })
      .def_property_readonly("unit",
                             [](const AnnotationContent& c) { return OptionalStr(c.unit()); })
      .def_property_readonly(
          "description", [](const AnnotationContent& c) { return OptionalStr(c.description()); })
      .def_property_readonly("metadata",
                             [](const AnnotationContent& c) { return JsonToPy(c.metadata()); });

  py::class_<Annotation, std::shared_ptr<Annotation>>(
      m, "Annotation",
      "One occurrence of an annotation on an object (or a registered annotation of the dataset).")
      .def(py::init([](const std::string& key, py::object value, py::object span, py::object unit,
                       py::object description, py::object metadata, py::object content_metadata,
                       py::object confidence, py::object provenance) {
             auto a = std::make_shared<Annotation>(
                 MakeContent(key, value, unit, description, content_metadata), PyToSpan(span));
             ApplyOccurrence(*a, metadata, confidence, provenance);
             return a;
           }),
           py::arg("key"), py::arg("value") = py::none(), py::kw_only(),
           py::arg("span") = py::none(), py::arg("unit") = py::none(),
           py::arg("description") = py::none(), py::arg("metadata") = py::none(),
           py::arg("content_metadata") = py::none(), py::arg("confidence") = py::none(),
           py::arg("provenance") = py::none())
      .def_property_readonly("key", &Annotation::key)
      .def_property_readonly("content",
                             [](const Annotation& a) {
                               return std::const_pointer_cast<AnnotationContent>(a.content());
                             })
      .def_property_readonly(
          "value", [](const Annotation& a) { return AnnotationValueToPy(a.content()->value()); })
      .def_property_readonly("unit",
                             [](const Annotation& a) { return OptionalStr(a.content()->unit()); })
      .def_property_readonly(
          "description",
          [](const Annotation& a) { return OptionalStr(a.content()->description()); })
      .def_property_readonly("content_metadata",
                             [](const Annotation& a) { return JsonToPy(a.content()->metadata()); })
      .def_property_readonly("span", [](const Annotation& a) { return SpanToPy(a.span()); })
      .def_property_readonly("provenance",
                             [](const Annotation& a) {
                               return a.provenance() ? JsonToPy(*a.provenance()) : py::none();
                             })
      .def_property_readonly("confidence", &Annotation::confidence)
      .def_property_readonly("metadata", [](const Annotation& a) { return JsonToPy(a.metadata()); })
      .def_property_readonly("inherited_from",
                             [](const Annotation& a) { return OptionalStr(a.inherited_from()); })
      .def(
          "shares_content_with",
          [](const Annotation& a, const Annotation& b) { return a.content() == b.content(); },
          "True when both occurrences carry one stored content.")
      .def("__repr__", [](const Annotation& a) {
        return "Annotation(" + py::repr(py::str(a.key())).cast<std::string>() + ")";
      });

  py::class_<Annotatable, std::shared_ptr<Annotatable>>(
      m, "Annotatable", "Base of the objects that carry annotations.")
      .def_property_readonly("annotations", [](const Annotatable& o) { return o.annotations(); })
      .def(
          "annotate",
          [](Annotatable& o, const std::string& key, py::object value, py::object span,
             py::object unit, py::object description, py::object metadata,
             py::object content_metadata, py::object confidence, py::object provenance) {
            return AnnotateObject(o, key, value, span, unit, description, metadata,
                                  content_metadata, confidence, provenance);
          },
          py::arg("key"), py::arg("value") = py::none(), py::kw_only(),
          py::arg("span") = py::none(), py::arg("unit") = py::none(),
          py::arg("description") = py::none(), py::arg("metadata") = py::none(),
          py::arg("content_metadata") = py::none(), py::arg("confidence") = py::none(),
          py::arg("provenance") = py::none(), "Attaches a new occurrence and returns it.")
      .def("add_annotation", &Annotatable::AddAnnotation, py::arg("annotation"),
           "Attaches an existing occurrence (an Annotation object).");
}

void BindTree(py::module_& m) {
  py::class_<model::Signal, Annotatable, std::shared_ptr<model::Signal>>(
      m, "Signal", "A leaf time series: name, spec, axis, n_values, values, annotations.")
      .def(
          py::init([](std::string name, std::shared_ptr<model::Spec> spec,
                      std::shared_ptr<model::TimeAxis> axis, py::object values,
                      py::handle n_values_arg, py::object metadata,
                      std::optional<std::string> source_id) {
            const std::optional<std::int64_t> n_values = PyToOptionalInt64(
                n_values_arg, {.object = "signal '" + name + "'", .where = "n_values"},
                "an int (the number of steps) or None");
            std::shared_ptr<model::Signal> s;
            if (!values.is_none() && !PyCallable_Check(values.ptr())) {
              model::ValueArray array = NumpyToValues(values, *spec, "signal '" + name + "'");
              s = std::make_shared<model::Signal>(std::move(name), spec, axis, std::move(array));
              if (n_values && *n_values != s->n_values())
                throw ValidationError(ErrorSite{.object = s->Describe(), .where = "n_values"},
                                      "differs from the number of values given");
            } else {
              if (!n_values)
                throw ValidationError(
                    ErrorSite{.object = "signal '" + name + "'", .where = "n_values"},
                    "required when values are not given as an array");
              s = std::make_shared<model::Signal>(std::move(name), spec, axis, *n_values);
              if (!values.is_none()) {
                // The writer calls the loader on its own thread of work with the GIL released;
                // the callable is released under the GIL as well.
                auto fn = std::shared_ptr<py::object>(new py::object(values), [](py::object* p) {
                  py::gil_scoped_acquire gil;
                  delete p;
                });
                auto spec_held = spec;
                std::string what = s->Describe();
                const bool generator =
                    py::module_::import("inspect").attr("isgeneratorfunction")(values).cast<bool>();
                if (generator) {
                  // A generator function yields the values in pieces (numpy arrays of whole
                  // steps, masked for nulls): the writer takes each as it comes, in bounded
                  // memory. Each pass over the values calls the function again.
                  s->SetPieceLoader([fn, spec_held, what](const model::PieceSink& emit) {
                    py::gil_scoped_acquire gil;
                    py::iterator pieces = py::iter((*fn)());
                    const std::int64_t width = std::max<std::int64_t>(1, spec_held->StepWidth());
                    std::int64_t steps = 0;
                    for (py::handle piece : pieces) {
                      model::ValueArray array =
                          NumpyToValues(piece, *spec_held, what + " piece loader", steps);
                      steps += array.size() / width;
                      py::gil_scoped_release release;  // the writer works without the GIL
                      emit(std::move(array));
                    }
                  });
                } else {
                  s->SetLoader([fn, spec_held, what]() {
                    py::gil_scoped_acquire gil;
                    return NumpyToValues((*fn)(), *spec_held, what + " loader");
                  });
                }
              }
            }
            if (!metadata.is_none())
              s->set_metadata(PyToJson(metadata, s->Describe() + " metadata"));
            s->set_source_id(std::move(source_id));
            return s;
          }),
          py::arg("name"), py::arg("spec"), py::arg("axis"), py::arg("values") = py::none(),
          py::kw_only(), py::arg("n_values") = py::none(), py::arg("metadata") = py::none(),
          py::arg("source_id") = py::none(),
          "values: a numpy array (or masked array for nulls), a callable returning one when the "
          "writer needs it, or a generator function yielding the values in pieces of whole steps "
          "(written in bounded memory; then n_values is required).")
      .def_property_readonly("id", &model::Signal::id)
      .def_property_readonly("name", &model::Signal::name)
      .def_property_readonly("spec", [](const model::Signal& s) { return Mutable(s.spec()); })
      .def_property_readonly("axis", [](const model::Signal& s) { return Mutable(s.axis()); })
      .def_property_readonly("n_values", &model::Signal::n_values)
      .def_property_readonly(
          "import_marker", [](const model::Signal& s) { return ImportToPy(s.import_marker()); },
          "{'alias', 'parent_id'} of an object imported from a parent, else None.")
      .def_property_readonly("read_from_dataset", &model::Signal::read_from_dataset,
                             "dataset_id this signal was read from, else None (docs/format.md §4).")
      .def_property_readonly("source_id", &model::Signal::source_id)
      .def_property(
          "metadata", [](const model::Signal& s) { return JsonToPy(s.metadata()); },
          [](model::Signal& s, py::handle v) {
            s.set_metadata(PyToJson(v, s.Describe() + " metadata"));
          })
      .def_property_readonly("source", &model::Signal::source)
      .def_property_readonly("record",
                             [](const model::Signal& s) -> std::shared_ptr<model::Record> {
                               auto src = s.source();
                               return src ? src->record() : nullptr;
                             })
      .def_property_readonly("has_values", &model::Signal::has_values)
      .def_property_readonly(
          "is_loaded",
          [](const model::Signal& s) { return s.has_values() && s.values()->is_loaded(); })
      .def(
          "to_numpy",
          [](const model::Signal& s) {
            std::shared_ptr<const model::ValueArray> values;
            {
              py::gil_scoped_release release;
              values = s.LoadValues();
            }
            return ValuesToNumpy(std::move(values), *s.spec());
          },
          "Every value as a numpy array of the declared dtype and shape [n_values, *value_shape] "
          "(read-only; no copy once decoded; a masked array for a nullable spec).")
      .def(
          "read_steps",
          [](const model::Signal& s, std::int64_t begin, std::int64_t end) {
            model::ValueArray window;
            {
              py::gil_scoped_release release;
              window = s.ReadSteps(begin, end);
            }
            return OwnedValuesToNumpy(std::move(window), *s.spec());
          },
          py::arg("begin"), py::arg("end"),
          "Steps [begin, end) (end is clamped to n_values); decodes only the chunks it needs.")
      .def(
          "time_offsets_us",
          [](const model::Signal& s) -> py::object {
            const auto& axis = *s.axis();
            if (axis.is_ordinal())
              throw ValidationError(ErrorSite{.object = s.Describe(), .where = "axis"},
                                    "an ordinal axis has no time offsets");
            if (axis.is_irregular()) {
              std::shared_ptr<const std::vector<std::int64_t>> offsets;
              {
                py::gil_scoped_release release;
                offsets = axis.LoadOffsets();
              }
              py::capsule owner(
                  new std::shared_ptr<const std::vector<std::int64_t>>(offsets), [](void* p) {
                    delete static_cast<std::shared_ptr<const std::vector<std::int64_t>>*>(p);
                  });
              py::array_t<std::int64_t> out({static_cast<py::ssize_t>(offsets->size())}, {8},
                                            offsets->data(), owner);
              py::detail::array_proxy(out.ptr())->flags &=
                  ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
              return out;
            }
            py::array_t<std::int64_t> out(static_cast<py::ssize_t>(s.n_values()));
            auto* p = out.mutable_data();
            for (std::int64_t i = 0; i < s.n_values(); ++i) p[i] = axis.TimeOfStep(i);
            return out;
          },
          "µs offsets of every step from the record's zero (irregular: the stored offsets, read "
          "once per axis and checked; regular: computed).")
      .def("__repr__",
           [](const model::Signal& s) { return "<timef.Signal " + s.Describe() + ">"; });

  py::class_<model::Source, Annotatable, std::shared_ptr<model::Source>>(
      m, "Source", "A node of a record's device/channel tree.")
      .def(py::init([](std::string name, py::object metadata) {
             auto s = std::make_shared<model::Source>(std::move(name));
             if (!metadata.is_none())
               s->set_metadata(PyToJson(metadata, s->Describe() + " metadata"));
             return s;
           }),
           py::arg("name"), py::kw_only(), py::arg("metadata") = py::none())
      .def_property_readonly("name", &model::Source::name)
      .def_property(
          "metadata", [](const model::Source& s) { return JsonToPy(s.metadata()); },
          [](model::Source& s, py::handle v) {
            s.set_metadata(PyToJson(v, s.Describe() + " metadata"));
          })
      .def_property_readonly("children", &model::Source::children)
      .def_property_readonly("signals", &model::Source::signals)
      .def_property_readonly("parent", &model::Source::parent)
      .def_property_readonly("record", &model::Source::record)
      .def(
          "add_child",
          [](model::Source& s, py::handle child) -> std::shared_ptr<model::Source> {
            if (py::isinstance<py::str>(child)) return s.AddChild(child.cast<std::string>());
            auto c = child.cast<std::shared_ptr<model::Source>>();
            s.AddChild(c);
            return c;
          },
          py::arg("child"), "Adds a child Source (or a new one of that name) and returns it.")
      .def(
          "add_signal",
          [](model::Source& s, std::shared_ptr<model::Signal> signal) {
            s.AddSignal(signal);
            return signal;
          },
          py::arg("signal"))
      .def("__repr__",
           [](const model::Source& s) { return "<timef.Source " + s.Describe() + ">"; });

  py::class_<model::Record, Annotatable, std::shared_ptr<model::Record>>(
      m, "Record", "A unit of data: signals under a tree of sources, with annotations.")
      .def(py::init([](py::handle start_time_us, py::object metadata, py::handle time_span) {
             auto r = std::make_shared<model::Record>();
             r->set_start_time_us(PyToOptionalInt64(start_time_us,
                                                    {.object = "Record", .where = "start_time_us"},
                                                    "an int (Unix µs) or None"));
             if (!metadata.is_none()) r->set_metadata(PyToJson(metadata, "record metadata"));
             if (!time_span.is_none() && !py::isinstance<model::TimeInterval>(time_span)) {
               throw ValidationError({.object = "Record", .where = "time_span"},
                                     std::string("expected a timef.TimeInterval or None, not ") +
                                         Py_TYPE(time_span.ptr())->tp_name);
             }
             if (!time_span.is_none()) r->set_time_span(time_span.cast<model::TimeInterval>());
             return r;
           }),
           py::kw_only(), py::arg("start_time_us") = py::none(), py::arg("metadata") = py::none(),
           py::arg("time_span") = py::none())
      .def_property_readonly("id", &model::Record::id)
      .def_property_readonly("start_time_us", &model::Record::start_time_us)
      .def_property_readonly(
          "import_marker", [](const model::Record& r) { return ImportToPy(r.import_marker()); },
          "{'alias', 'parent_id'} of a record imported from a parent, else None.")
      .def_property_readonly("read_from_dataset", &model::Record::read_from_dataset,
                             "dataset_id this record was read from, else None; written into "
                             "another dataset without an import, it gets a new ID there.")
      .def_property_readonly("time_span", &model::Record::time_span)
      .def_property(
          "metadata", [](const model::Record& r) { return JsonToPy(r.metadata()); },
          [](model::Record& r, py::handle v) {
            r.set_metadata(PyToJson(v, r.Describe() + " metadata"));
          })
      .def_property_readonly("sources", &model::Record::sources)
      .def_property_readonly(
          "signals", [](const model::Record& r) { return SignalsToPy(r.Signals()); },
          "Every signal: root sources in order, each walked in pre-order.")
      .def(
          "add_source",
          [](model::Record& r, py::handle source) -> std::shared_ptr<model::Source> {
            if (py::isinstance<py::str>(source)) return r.AddSource(source.cast<std::string>());
            auto s = source.cast<std::shared_ptr<model::Source>>();
            r.AddSource(s);
            return s;
          },
          py::arg("source"), "Adds a root Source (or a new one of that name) and returns it.")
      .def("__repr__",
           [](const model::Record& r) { return "<timef.Record " + r.Describe() + ">"; });
}

}  // namespace

void BindModel(py::module_& m) {
  BindSpans(m);
  BindSpecAndAxis(m);
  BindAnnotations(m);
  BindTree(m);
}

}  // namespace timef::python
