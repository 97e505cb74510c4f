// Tasks and the Dataset in Python. One C++ Task class serves the eight task types; Python sees
// each type as its own class (timef.ClassificationTask, …, all subclasses of timef.Task). A Python
// task object wraps the shared C++ task (TaskRef); a per-module registry maps each C++ task to its
// live wrapper, so one task reached twice (ds.tasks, from_tasks, get_many with a repeated ID) is
// one Python object while it is alive.
#include <unordered_map>

#include "py_common.h"

namespace timef::python {
namespace {

using model::ScopedSpan;
using model::Task;
using model::TaskTarget;

struct TaskRef {
  std::shared_ptr<Task> task;
  virtual ~TaskRef() = default;
};
template <model::TaskType T>
struct TypedTask final : TaskRef {};

// C++ task → its live wrapper. Entries whose wrapper died are swept as the map grows; a wrapper
// keeps its task alive, so a live entry's address cannot have been reused by another task.
struct TaskRegistry {
  std::unordered_map<const Task*, std::weak_ptr<TaskRef>> wrappers;
  std::size_t sweep_at = 1024;
};

TaskRegistry& Registry() {
  py::capsule c = py::module_::import("timef._timef").attr("_task_registry").cast<py::capsule>();
  return *static_cast<TaskRegistry*>(c.get_pointer());
}

void Remember(const std::shared_ptr<TaskRef>& ref) {
  TaskRegistry& r = Registry();
  if (r.wrappers.size() >= r.sweep_at) {
    std::erase_if(r.wrappers, [](const auto& e) { return e.second.expired(); });
    r.sweep_at = std::max<std::size_t>(1024, 2 * r.wrappers.size());
  }
  r.wrappers[ref->task.get()] = ref;
}

template <model::TaskType T>
std::shared_ptr<TaskRef> NewRef(std::shared_ptr<Task> task) {
  auto ref = std::make_shared<TypedTask<T>>();
  ref->task = std::move(task);
  return ref;
}

std::shared_ptr<TaskRef> MakeRef(std::shared_ptr<Task> task) {
  using TT = model::TaskType;
  switch (task->type()) {
    case TT::kClassification:
      return NewRef<TT::kClassification>(std::move(task));
    case TT::kAnswer:
      return NewRef<TT::kAnswer>(std::move(task));
    case TT::kScalarPrediction:
      return NewRef<TT::kScalarPrediction>(std::move(task));
    case TT::kTemporalLocalization:
      return NewRef<TT::kTemporalLocalization>(std::move(task));
    case TT::kForecasting:
      return NewRef<TT::kForecasting>(std::move(task));
    case TT::kTsEditing:
      return NewRef<TT::kTsEditing>(std::move(task));
    case TT::kTsGeneration:
      return NewRef<TT::kTsGeneration>(std::move(task));
    case TT::kTsCorrespondence:
      return NewRef<TT::kTsCorrespondence>(std::move(task));
  }
  throw Error("unknown task type");
}

std::shared_ptr<Task> Unwrap(py::handle object, const std::string& what) {
  if (!py::isinstance<TaskRef>(object))
    throw ValidationError(ErrorSite{.object = what}, "expected a timef Task");
  return object.cast<TaskRef&>().task;
}

std::vector<std::shared_ptr<Task>> UnwrapList(py::handle items, const std::string& what) {
  std::vector<std::shared_ptr<Task>> out;
  for (auto item : items) out.push_back(Unwrap(item, what));
  return out;
}

py::object ScopedSpanToPy(const ScopedSpan& s) { return py::cast(s); }

ScopedSpan PyToScopedSpan(py::handle object) {
  if (py::isinstance<ScopedSpan>(object)) return object.cast<ScopedSpan>();
  ScopedSpan out;
  if (py::isinstance<model::TimePoint>(object))
    out.span = object.cast<model::TimePoint>();
  else if (py::isinstance<model::TimeInterval>(object))
    out.span = object.cast<model::TimeInterval>();
  else if (py::isinstance<model::StepPoint>(object))
    out.span = object.cast<model::StepPoint>();
  else if (py::isinstance<model::StepInterval>(object))
    out.span = object.cast<model::StepInterval>();
  else
    throw ValidationError(
        ErrorSite{.object = "span"},
        "expected a ScopedSpan, TimePoint, TimeInterval, StepPoint or StepInterval");
  return out;
}

py::object TargetToPy(const TaskTarget& t) {
  switch (t.kind()) {
    case model::TargetKind::kText:
      return TextToPy(t.text());
    case model::TargetKind::kInteger:
      return py::int_(t.integer());
    case model::TargetKind::kFloat:
      return py::float_(t.float_value());
    case model::TargetKind::kBoolean:
      return py::bool_(t.boolean());
    case model::TargetKind::kRecord:
      return py::cast(t.record());
    case model::TargetKind::kSignal:
      return py::cast(t.signal());
    default:
      return ScopedSpanToPy(t.span());
  }
}

TaskTarget PyToTarget(py::handle v, const std::string& what) {
  if (py::isinstance<py::bool_>(v)) return TaskTarget::OfBoolean(v.cast<bool>());
  if (py::isinstance<py::float_>(v)) return TaskTarget::OfFloat(v.cast<double>());
  if (py::isinstance<py::int_>(v) || py::hasattr(v, "__index__"))
    return TaskTarget::OfInteger(
        py::int_(py::reinterpret_borrow<py::object>(v)).cast<std::int64_t>());
  if (py::isinstance<py::str>(v) || IsTextHandle(v)) return TaskTarget::OfText(PyToText(v, what));
  if (py::isinstance<model::Record>(v))
    return TaskTarget::OfRecord(v.cast<std::shared_ptr<model::Record>>());
  if (py::isinstance<model::Signal>(v))
    return TaskTarget::OfSignal(v.cast<std::shared_ptr<model::Signal>>());
  return TaskTarget::OfSpan(PyToScopedSpan(v));
}

template <class T>
std::vector<std::shared_ptr<T>> ListOf(py::handle items) {
  std::vector<std::shared_ptr<T>> out;
  for (auto item : items) out.push_back(item.cast<std::shared_ptr<T>>());
  return out;
}

py::object OptionalText(const std::optional<model::Text>& t) {
  return t ? TextToPy(*t) : py::none();
}
std::optional<model::Text> PyToOptionalText(py::handle v, const std::string& what) {
  if (v.is_none()) return std::nullopt;
  return PyToText(v, what);
}

constexpr const char* kTaskFields[] = {"inputs",
                                       "targets",
                                       "prompt",
                                       "rationale",
                                       "split",
                                       "declared_input_modalities",
                                       "scope",
                                       "input_annotations",
                                       "target_annotations",
                                       "from_tasks",
                                       "metadata",
                                       "target_schema",
                                       "unit",
                                       "target_name",
                                       "mode",
                                       "candidate_records"};

py::object GetTaskField(const Task& t, const std::string& f) {
  if (f == "inputs") return py::cast(t.inputs());
  if (f == "targets") {
    if (!t.targets()) return py::none();
    py::list out;
    for (const auto& target : *t.targets()) out.append(TargetToPy(target));
    return py::tuple(out);
  }
  if (f == "prompt") return OptionalText(t.prompt());
  if (f == "rationale") return OptionalText(t.rationale());
  if (f == "split")
    return t.split() ? py::object(py::str(std::string(ToString(*t.split())))) : py::none();
  if (f == "declared_input_modalities") {
    if (!t.declared_input_modalities()) return py::none();
    py::list out;
    for (auto mod : *t.declared_input_modalities()) out.append(py::str(std::string(ToString(mod))));
    return out;
  }
  if (f == "scope") return t.scope() ? ScopedSpanToPy(*t.scope()) : py::none();
  if (f == "input_annotations") return py::cast(t.input_annotations());
  if (f == "target_annotations") return py::cast(t.target_annotations());
  if (f == "from_tasks") return TasksToPy(t.from_tasks());
  if (f == "metadata") return JsonToPy(t.metadata());
  if (f == "target_schema") return py::cast(t.target_schema());
  if (f == "unit") return py::cast(t.unit());
  if (f == "target_name") return py::cast(t.target_name());
  if (f == "mode")
    return t.mode() ? py::object(py::str(std::string(ToString(*t.mode())))) : py::none();
  if (f == "candidate_records") return py::cast(t.candidate_records());
  throw ValidationError(ErrorSite{.object = t.Describe(), .where = f}, "no such task field");
}

std::optional<std::string> OptStr(py::handle v) {
  if (v.is_none()) return std::nullopt;
  return v.cast<std::string>();
}

void SetTaskField(Task& t, const std::string& f, py::handle v) {
  const std::string what = t.Describe() + " " + f;
  if (f == "inputs") return t.set_inputs(ListOf<model::Record>(v));
  if (f == "targets") {
    if (v.is_none()) return t.set_targets(std::nullopt);
    if (py::isinstance<py::str>(v))
      throw ValidationError(ErrorSite{.object = t.Describe(), .where = f},
                            "expected a list of targets, not a string");
    std::vector<TaskTarget> targets;
    for (auto item : v) targets.push_back(PyToTarget(item, what));
    return t.set_targets(std::move(targets));
  }
  if (f == "prompt") return t.set_prompt(PyToOptionalText(v, what));
  if (f == "rationale") return t.set_rationale(PyToOptionalText(v, what));
  if (f == "split") {
    if (v.is_none()) return t.set_split(std::nullopt);
    std::string s = v.cast<std::string>();
    return t.set_split(RequireName(model::ParseSplit(s), what, s));
  }
  if (f == "declared_input_modalities" || f == "input_modalities") {
    if (v.is_none()) return t.set_input_modalities(std::nullopt);
    std::vector<model::InputModality> mods;
    for (auto item : v) {
      std::string s = item.cast<std::string>();
      mods.push_back(RequireName(model::ParseInputModality(s), what, s));
    }
    return t.set_input_modalities(std::move(mods));
  }
  if (f == "scope") {
    if (v.is_none()) return t.set_scope(std::nullopt);
    return t.set_scope(PyToScopedSpan(v));
  }
  if (f == "input_annotations") return t.set_input_annotations(ListOf<model::Annotation>(v));
  if (f == "target_annotations") return t.set_target_annotations(ListOf<model::Annotation>(v));
  if (f == "from_tasks") return t.set_from_tasks(UnwrapList(v, what));
  if (f == "metadata") return t.set_metadata(PyToJson(v, what));
  if (f == "target_schema") return t.set_target_schema(OptStr(v));
  if (f == "unit") {
    auto u = OptStr(v);
    return t.set_unit(u ? std::optional<std::string_view>(*u) : std::nullopt);
  }
  if (f == "target_name") return t.set_target_name(OptStr(v));
  if (f == "mode") {
    if (v.is_none()) return t.set_mode(std::nullopt);
    std::string s = v.cast<std::string>();
    return t.set_mode(RequireName(model::ParseLocalizationMode(s), what, s));
  }
  if (f == "candidate_records") return t.set_candidate_records(ListOf<model::Record>(v));
  throw ValidationError(ErrorSite{.object = t.Describe(), .where = f}, "no such task field");
}

}  // namespace

py::object TaskToPy(const std::shared_ptr<Task>& task) {
  if (!task) return py::none();
  TaskRegistry& r = Registry();
  if (auto it = r.wrappers.find(task.get()); it != r.wrappers.end()) {
    if (auto live = it->second.lock()) return py::cast(live);
  }
  std::shared_ptr<TaskRef> ref = MakeRef(task);
  Remember(ref);
  return py::cast(ref);
}

py::list TasksToPy(const std::vector<std::shared_ptr<Task>>& tasks) {
  py::list out;
  for (const auto& t : tasks) out.append(TaskToPy(t));
  return out;
}

void BindTasks(py::module_& m) {
  m.attr("_task_registry") =
      py::capsule(new TaskRegistry, [](void* p) { delete static_cast<TaskRegistry*>(p); });

  py::class_<ScopedSpan>(m, "ScopedSpan",
                         "A task scope or span target: a span and the signals it concerns "
                         "(time spans: none = the whole record; step spans: exactly one).")
      .def(py::init([](py::handle span, py::handle signals) {
             ScopedSpan s = PyToScopedSpan(span);
             if (!signals.is_none()) s.signals = ListOf<model::Signal>(signals);
             return s;
           }),
           py::arg("span"), py::arg("signals") = py::none())
      .def_property_readonly("span",
                             [](const ScopedSpan& s) {
                               return std::visit([](const auto& v) { return py::cast(v); }, s.span);
                             })
      .def_property_readonly("kind",
                             [](const ScopedSpan& s) { return std::string(ToString(s.kind())); })
      .def_property_readonly("start", &ScopedSpan::start,
                             "µs offset or step where the span starts.")
      .def_property_readonly("end", &ScopedSpan::end,
                             "Exclusive end of an interval; None for a point.")
      .def_property_readonly("signals", [](const ScopedSpan& s) { return SignalsToPy(s.signals); })
      .def("__eq__", [](const ScopedSpan& a, const ScopedSpan& b) { return a == b; })
      .def("__repr__", [](const ScopedSpan& s) {
        return "ScopedSpan(" + py::repr(py::cast(s).attr("span")).cast<std::string>() + ", " +
               std::to_string(s.signals.size()) + " signals)";
      });
  m.attr("ScopedSpan").attr("__hash__") = py::none();

  auto task_cls = py::class_<TaskRef, std::shared_ptr<TaskRef>>(
      m, "Task", "Base of the eight task classes (ClassificationTask, AnswerTask, …).");
  task_cls.def_property_readonly("id", [](const TaskRef& r) { return r.task->id(); })
      .def_property_readonly("task_type",
                             [](const TaskRef& r) { return std::string(ToString(r.task->type())); })
      .def_property_readonly("import_marker",
                             [](const TaskRef& r) { return ImportToPy(r.task->import_marker()); })
      .def_property_readonly("read_from_dataset",
                             [](const TaskRef& r) { return r.task->read_from_dataset(); })
      .def_property_readonly("annotations", [](const TaskRef& r) { return r.task->annotations(); })
      .def(
          "annotate",
          [](TaskRef& r, const std::string& key, py::object value, py::object unit,
             py::object description, py::object metadata, py::object content_metadata,
             py::object confidence, py::object provenance) {
            return AnnotateObject(*r.task, key, value, py::none(), unit, description, metadata,
                                  content_metadata, confidence, provenance);
          },
          py::arg("key"), py::arg("value") = py::none(), py::kw_only(),
          py::arg("unit") = py::none(), py::arg("description") = py::none(),
          py::arg("metadata") = py::none(), py::arg("content_metadata") = py::none(),
          py::arg("confidence") = py::none(), py::arg("provenance") = py::none(),
          "Attaches a new (static) annotation occurrence and returns it.")
      .def("add_annotation",
           [](TaskRef& r, std::shared_ptr<model::Annotation> a) { r.task->AddAnnotation(a); })
      .def_property_readonly(
          "input_modalities",
          [](const TaskRef& r) {
            std::vector<std::string> out;
            for (auto mod : r.task->InputModalities()) out.emplace_back(ToString(mod));
            return out;
          },
          "The declared input modalities, else the ones derived from the inputs.")
      .def("__eq__", [](const TaskRef& a, const TaskRef& b) { return a.task == b.task; })
      .def("__hash__", [](const TaskRef& r) { return std::hash<const void*>()(r.task.get()); })
      .def("__repr__", [](py::handle self) {
        const TaskRef& r = self.cast<const TaskRef&>();
        return "<timef." + self.get_type().attr("__name__").cast<std::string>() + " " +
               r.task->Describe() + ">";
      });
  for (const char* field : kTaskFields) {
    std::string name = field;
    task_cls.def_property(
        field, [name](const TaskRef& r) { return GetTaskField(*r.task, name); },
        [name](TaskRef& r, py::handle v) { SetTaskField(*r.task, name, v); });
  }

  auto typed = [&m]<model::TaskType T>(const char* name, const char* doc) {
    py::class_<TypedTask<T>, TaskRef, std::shared_ptr<TypedTask<T>>>(m, name, doc)
        .def(py::init([](py::kwargs fields) {
               auto ref = std::make_shared<TypedTask<T>>();
               ref->task = std::make_shared<Task>(T);
               for (auto [key, value] : fields)
                 SetTaskField(*ref->task, py::cast<std::string>(key), value);
               Remember(ref);
               return ref;
             }),
             "Keyword arguments set the task's fields (inputs=, targets=, prompt=, split=, …).");
    m.attr(name).attr("TASK_TYPE") = std::string(ToString(T));
  };
  using TT = model::TaskType;
  typed.operator()<TT::kClassification>("ClassificationTask", "Pick labels for the inputs.");
  typed.operator()<TT::kAnswer>("AnswerTask", "Answer a question about the inputs.");
  typed.operator()<TT::kScalarPrediction>("ScalarPredictionTask",
                                          "Predict a number (unit, target_name).");
  typed.operator()<TT::kTemporalLocalization>(
      "TemporalLocalizationTask", "Find spans in the inputs (targets: ScopedSpans; mode).");
  typed.operator()<TT::kForecasting>("ForecastingTask", "Continue a series.");
  typed.operator()<TT::kTsEditing>("TsEditingTask", "Edit a series as instructed.");
  typed.operator()<TT::kTsGeneration>("TsGenerationTask", "Generate a series.");
  typed.operator()<TT::kTsCorrespondence>("TsCorrespondenceTask",
                                          "Choose the matching record among candidate_records.");

  py::class_<model::Dataset, model::Annotatable, std::shared_ptr<model::Dataset>>(
      m, "Dataset", "A dataset being built or read: records, tasks, registered annotations.")
      .def(py::init([](std::string dataset_id, std::string version) {
             return std::make_shared<model::Dataset>(std::move(dataset_id), std::move(version));
           }),
           py::arg("dataset_id"), py::arg("version"))
      .def_property_readonly("dataset_id", &model::Dataset::dataset_id)
      .def_property_readonly("version", &model::Dataset::version)
      .def_property_readonly("ref", &model::Dataset::Ref)
      .def_property_readonly("records", &model::Dataset::records)
      .def_property_readonly("tasks", [](const model::Dataset& d) { return TasksToPy(d.tasks()); })
      .def_property_readonly("registered_annotations", &model::Dataset::registered_annotations)
      .def_property_readonly(
          "parents",
          [](const model::Dataset& d) {
            py::list out;
            for (const auto& p : d.parents())
              out.append(py::dict(py::arg("alias") = p.alias, py::arg("dataset_id") = p.dataset_id,
                                  py::arg("version") = p.version));
            return out;
          })
      .def(
          "add_record",
          [](model::Dataset& d, std::shared_ptr<model::Record> r) {
            if (!r) return d.AddRecord();
            d.AddRecord(r);
            return r;
          },
          py::arg("record") = nullptr, "Adds a Record (or a new empty one) and returns it.")
      .def(
          "add_task",
          [](model::Dataset& d, py::handle t) {
            d.AddTask(Unwrap(t, "add_task"));
            return py::reinterpret_borrow<py::object>(t);
          },
          py::arg("task"))
      .def(
          "register_annotation",
          [](model::Dataset& d, std::shared_ptr<model::Annotation> a) {
            d.RegisterAnnotation(a);
            return a;
          },
          py::arg("annotation"),
          "Registers an annotation that tasks reference and no object carries.")
      .def(
          "validate", [](const model::Dataset& d) { d.Validate(); },
          "Checks every invariant the writer checks (ValidationError naming the object).")
      .def("__repr__", [](const model::Dataset& d) { return "<timef.Dataset " + d.Ref() + ">"; });
}

}  // namespace timef::python
