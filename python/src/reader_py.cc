// timef._timef.Reader: the C++ Reader with the GIL released while it reads, hydrates or decodes.
// The pure-Python TimeFReader (python/timef/_reader.py) gives it the seed's API (kinds, keyword
// arguments, ID checks, context manager). One Reader per thread, as in C++.
#include "py_common.h"
#include "timef/model/dump.h"

namespace timef::python {
namespace {

std::shared_ptr<model::Dataset> ToShared(std::unique_ptr<model::Dataset> d) { return d; }

std::optional<std::vector<std::int64_t>> OptionalIds(
    const std::optional<std::vector<std::int64_t>>& ids) {
  return ids;
}

TaskQuery MakeTaskQuery(py::handle inputs, std::optional<std::string> split,
                        std::optional<std::string> type, std::vector<std::string> required,
                        std::vector<std::string> supported, std::int64_t batch_size,
                        const LoadPlan& load) {
  TaskQuery q;
  if (!inputs.is_none()) {
    if (py::isinstance<py::str>(inputs) || py::isinstance<py::bytes>(inputs))
      throw ValidationError(ErrorSite{.object = "read_tasks", .where = "inputs"},
                            "expected a collection of Records or record IDs, not a string");
    std::vector<std::shared_ptr<model::Record>> records;
    std::vector<std::int64_t> ids;
    for (auto item : inputs) {
      if (py::isinstance<model::Record>(item))
        records.push_back(item.cast<std::shared_ptr<model::Record>>());
      else
        ids.push_back(item.cast<std::int64_t>());
    }
    if (!records.empty() && !ids.empty())
      throw ValidationError(ErrorSite{.object = "read_tasks", .where = "inputs"},
                            "give Records or record IDs, not both");
    if (!records.empty())
      q.input_records = std::move(records);
    else
      q.inputs = std::move(ids);
  }
  if (split) q.split = RequireName(model::ParseSplit(*split), "split", *split);
  if (type) q.type = RequireName(ParseTaskType(*type), "task_type", *type);
  for (const auto& s : required)
    q.required_modalities.push_back(
        RequireName(model::ParseInputModality(s), "required_modalities", s));
  for (const auto& s : supported)
    q.supported_modalities.push_back(
        RequireName(model::ParseInputModality(s), "supported_modalities", s));
  q.batch_size = batch_size;
  q.load = load;
  return q;
}

py::dict CountersToPy(const ReaderCounters& c) {
  py::dict d;
  d["catalog_opens"] = c.catalog_opens;
  d["catalog_requests"] = c.catalog_requests;
  d["signals_indexed"] = c.signals_indexed;
  d["values_files_opened"] = c.values_files_opened;
  d["chunks_read"] = c.chunks_read;
  d["data_pages_decoded"] = c.data_pages_decoded;
  d["data_pages_resumed"] = c.data_pages_resumed;
  d["dictionary_pages_decoded"] = c.dictionary_pages_decoded;
  d["dictionary_cache_hits"] = c.dictionary_cache_hits;
  d["catalog_cache_loads"] = c.catalog_cache_loads;
  d["payload_files_opened"] = c.payload_files_opened;
  d["payload_values_read"] = c.payload_values_read;
  return d;
}

std::optional<model::TaskType> OptionalTaskType(const std::optional<std::string>& t) {
  if (!t) return std::nullopt;
  return RequireName(ParseTaskType(*t), "task_type", *t);
}

}  // namespace

py::object TableToPy(ArrowTable table);  // tables_py.cc

namespace {

// read_task_table / read_target_table: the task filters, then the table built without the GIL.
template <ArrowTable (Reader::*kRead)(const TaskQuery&)>
py::object TableOfTasks(Reader& r, py::handle inputs, std::optional<std::string> split,
                        std::optional<std::string> type, std::vector<std::string> required,
                        std::vector<std::string> supported) {
  TaskQuery q = MakeTaskQuery(inputs, split, type, required, supported, kTaskBatchSize, {});
  ArrowTable t;
  {
    py::gil_scoped_release release;
    t = (r.*kRead)(q);
  }
  return TableToPy(std::move(t));
}

// The ReaderOptions of Reader.open and Reader.from_version.
ReaderOptions Options(std::int64_t index_all_chunks, std::int64_t catalog_cache_bytes,
                      int decode_threads, std::int64_t decode_budget_bytes,
                      std::optional<std::string> cache_dir) {
  ReaderOptions options;
  options.index_all_chunks = index_all_chunks;
  options.catalog_cache_bytes = catalog_cache_bytes;
  options.decode_threads = decode_threads;
  options.decode_budget_bytes = decode_budget_bytes;
  if (cache_dir) options.cache_dir = *cache_dir;
  return options;
}

}  // namespace

void BindReader(py::module_& m) {
  py::enum_<Loading>(m, "Loading", "Whether a read loads a kind of stored value now or on use.")
      .value("LAZY", Loading::kLazy)
      .value("EAGER", Loading::kEager);

  py::class_<LoadPlan>(m, "LoadPlan", "Which kinds of stored values a read loads.")
      .def(py::init([](Loading signal_values, Loading time_offsets, Loading text) {
             return LoadPlan{signal_values, time_offsets, text};
           }),
           py::kw_only(), py::arg("signal_values") = Loading::kLazy,
           py::arg("time_offsets") = Loading::kLazy, py::arg("text") = Loading::kLazy)
      .def_readwrite("signal_values", &LoadPlan::signal_values)
      .def_readwrite("time_offsets", &LoadPlan::time_offsets)
      .def_readwrite("text", &LoadPlan::text)
      .def("__eq__",
           [](const LoadPlan& a, const LoadPlan& b) {
             return a.signal_values == b.signal_values && a.time_offsets == b.time_offsets &&
                    a.text == b.text;
           })
      .def("__repr__", [](const LoadPlan& p) {
        auto n = [](Loading l) { return l == Loading::kEager ? "EAGER" : "LAZY"; };
        return std::string("LoadPlan(signal_values=") + n(p.signal_values) +
               ", time_offsets=" + n(p.time_offsets) + ", text=" + n(p.text) + ")";
      });
  m.attr("LoadPlan").attr("__hash__") = py::none();
  m.attr("LoadPlan").attr("ALL_EAGER") = LoadPlan::AllEager();
  m.attr("LoadPlan").attr("ALL_LAZY") = LoadPlan::AllLazy();
  m.attr("RECORD_BATCH_SIZE") = kRecordBatchSize;
  m.attr("TASK_BATCH_SIZE") = kTaskBatchSize;

  py::class_<RecordStream>(m, "_RecordStream").def("next_batch", [](RecordStream& s) -> py::object {
    std::optional<RecordStream::Batch> batch;
    {
      py::gil_scoped_release release;
      batch = s.Next();
    }
    if (!batch) return py::none();
    return py::cast(*batch);
  });
  py::class_<TaskStream>(m, "_TaskStream").def("next_batch", [](TaskStream& s) -> py::object {
    std::optional<TaskStream::Batch> batch;
    {
      py::gil_scoped_release release;
      batch = s.Next();
    }
    if (!batch) return py::none();
    return TasksToPy(*batch);
  });

  py::class_<SignalValuesRef>(m, "SignalValues",
                              "A signal's stored values found by ID without building its record.")
      .def_property_readonly("id", &SignalValuesRef::id)
      .def_property_readonly("record_id", &SignalValuesRef::record_id)
      .def_property_readonly("spec",
                             [](const SignalValuesRef& r) {
                               return std::const_pointer_cast<model::Spec>(r.spec_ptr());
                             })
      .def_property_readonly("n_values", &SignalValuesRef::n_values)
      .def_property_readonly("has_values", &SignalValuesRef::has_values)
      .def(
          "to_numpy",
          [](const SignalValuesRef& r, bool writable) {
            if (writable) {
              model::ValueArray all;
              {
                py::gil_scoped_release release;
                all = r.ReadSteps(0, r.n_values());
              }
              return OwnedValuesToNumpy(std::move(all), r.spec());
            }
            std::shared_ptr<const model::ValueArray> values;
            {
              py::gil_scoped_release release;
              values = r.Load();
            }
            return ValuesToNumpy(std::move(values), r.spec());
          },
          py::kw_only(), py::arg("writable") = false,
          "Every value (decoded now). writable=True hands over a buffer nobody else holds.")
      .def(
          "read_steps",
          [](const SignalValuesRef& r, std::int64_t begin, std::int64_t end) {
            model::ValueArray window;
            {
              py::gil_scoped_release release;
              window = r.ReadSteps(begin, end);
            }
            return OwnedValuesToNumpy(std::move(window), r.spec());
          },
          py::arg("begin"), py::arg("end"));

  using Guard = py::call_guard<py::gil_scoped_release>;
  py::class_<Reader>(m, "Reader")
      .def_static(
          "open",
          [](const std::string& path, std::optional<std::string> sources_root,
             std::int64_t index_all_chunks, std::int64_t catalog_cache_bytes, int decode_threads,
             std::int64_t decode_budget_bytes, std::optional<std::string> cache_dir) {
            ReaderOptions options = Options(index_all_chunks, catalog_cache_bytes, decode_threads,
                                            decode_budget_bytes, std::move(cache_dir));
            if (sources_root) options.sources_root = *sources_root;
            return Reader::Open(path, options);
          },
          py::arg("path"), py::arg("sources_root") = py::none(),
          py::arg("index_all_chunks") = ReaderOptions{}.index_all_chunks,
          py::arg("catalog_cache_bytes") = ReaderOptions{}.catalog_cache_bytes,
          py::arg("decode_threads") = ReaderOptions{}.decode_threads,
          py::arg("decode_budget_bytes") = ReaderOptions{}.decode_budget_bytes,
          py::arg("cache_dir") = py::none(), Guard())
      .def_static(
          "from_version",
          [](const DatasetVersion& version, std::int64_t index_all_chunks,
             std::int64_t catalog_cache_bytes, int decode_threads, std::int64_t decode_budget_bytes,
             std::optional<std::string> cache_dir) {
            return Reader::Open(version,
                                Options(index_all_chunks, catalog_cache_bytes, decode_threads,
                                        decode_budget_bytes, std::move(cache_dir)));
          },
          py::arg("version"), py::arg("index_all_chunks") = ReaderOptions{}.index_all_chunks,
          py::arg("catalog_cache_bytes") = ReaderOptions{}.catalog_cache_bytes,
          py::arg("decode_threads") = ReaderOptions{}.decode_threads,
          py::arg("decode_budget_bytes") = ReaderOptions{}.decode_budget_bytes,
          py::arg("cache_dir") = py::none(), Guard())
      .def_property_readonly("path", [](const Reader& r) { return r.path().string(); })
      .def_property_readonly(
          "manifest",
          [](const Reader& r) { return JsonToPy(manifest::ManifestToJson(r.manifest())); })
      .def(
          "verify",
          [](const Reader& r, py::object progress) {
            if (progress.is_none()) {
              py::gil_scoped_release release;
              return r.Verify();
            }
            auto fn = std::shared_ptr<py::object>(new py::object(progress), [](py::object* p) {
              py::gil_scoped_acquire gil;
              delete p;
            });
            py::gil_scoped_release release;
            r.Verify([fn](std::int64_t done, std::int64_t total) {
              py::gil_scoped_acquire gil;
              (*fn)(done, total);
            });
          },
          py::arg("progress") = py::none())
      .def(
          "read", [](Reader& r, const LoadPlan& load) { return ToShared(r.Read(load)); },
          py::arg("load"), Guard())
      .def("record_ids", &Reader::RecordIds, Guard())
      .def(
          "signal_ids",
          [](Reader& r, bool by_values) {
            return r.SignalIds(by_values ? SignalOrder::kValues : SignalOrder::kRecords);
          },
          py::arg("by_values") = false, Guard())
      .def(
          "iter_records",
          [](Reader& r, std::optional<std::vector<std::int64_t>> ids, std::int64_t batch_size,
             const LoadPlan& load) {
            return r.IterRecords(RecordQuery{OptionalIds(ids), batch_size, load});
          },
          py::arg("ids"), py::arg("batch_size"), py::arg("load"), Guard())
      .def("read_tasks",
           [](Reader& r, py::handle inputs, std::optional<std::string> split,
              std::optional<std::string> type, std::vector<std::string> required,
              std::vector<std::string> supported, const LoadPlan& load) {
             TaskQuery q =
                 MakeTaskQuery(inputs, split, type, required, supported, kTaskBatchSize, load);
             std::vector<std::shared_ptr<model::Task>> tasks;
             {
               py::gil_scoped_release release;
               tasks = r.ReadTasks(q);
             }
             return TasksToPy(tasks);
           })
      .def("iter_tasks",
           [](Reader& r, py::handle inputs, std::optional<std::string> split,
              std::optional<std::string> type, std::vector<std::string> required,
              std::vector<std::string> supported, std::int64_t batch_size, const LoadPlan& load) {
             TaskQuery q =
                 MakeTaskQuery(inputs, split, type, required, supported, batch_size, load);
             py::gil_scoped_release release;
             return r.IterTasks(q);
           })
      .def(
          "get_records",
          [](Reader& r, std::vector<std::int64_t> ids, const LoadPlan& load) {
            return r.GetRecords(ids, load);
          },
          Guard())
      .def(
          "get_signals",
          [](Reader& r, std::vector<std::int64_t> ids, const LoadPlan& load) {
            return r.GetSignals(ids, load);
          },
          Guard())
      .def("get_tasks",
           [](Reader& r, std::vector<std::int64_t> ids, std::optional<std::string> type,
              const LoadPlan& load) {
             std::optional<model::TaskType> t = OptionalTaskType(type);
             std::vector<std::shared_ptr<model::Task>> tasks;
             {
               py::gil_scoped_release release;
               tasks = r.GetTasks(ids, t, load);
             }
             return TasksToPy(tasks);
           })
      .def("get_record_by_parent",
           [](Reader& r, py::handle parent, std::int64_t id, const LoadPlan& load) {
             ParentRef p = PyToParent(parent);
             py::gil_scoped_release release;
             return r.GetRecord(p, id, load);
           })
      .def("get_signal_by_parent",
           [](Reader& r, py::handle parent, std::int64_t id, const LoadPlan& load) {
             ParentRef p = PyToParent(parent);
             py::gil_scoped_release release;
             return r.GetSignal(p, id, load);
           })
      .def("get_task_by_parent",
           [](Reader& r, py::handle parent, std::int64_t id, std::optional<std::string> type,
              const LoadPlan& load) {
             ParentRef p = PyToParent(parent);
             std::optional<model::TaskType> t = OptionalTaskType(type);
             std::shared_ptr<model::Task> task;
             {
               py::gil_scoped_release release;
               task = r.GetTask(p, id, t, load);
             }
             return TaskToPy(task);
           })
      .def(
          "get_signal_values", [](Reader& r, std::int64_t id) { return r.GetSignalValues(id); },
          py::arg("id"), Guard())
      .def(
          "get_signal_values_many",
          [](Reader& r, std::vector<std::int64_t> ids) { return r.GetSignalValues(ids); },
          py::arg("ids"), Guard())
      .def(
          "load_values",
          // skip_valueless: a signal without values gives None instead of raising Error.
          // writable: every array writable, the decoded buffer itself where the call holds it
          // alone (a signal listed twice shares one: copied).
          [](Reader& r, std::vector<std::int64_t> ids, bool skip_valueless, bool writable) {
            std::vector<SignalValuesRef> refs, loaded;
            std::vector<std::shared_ptr<const model::ValueArray>> values;
            {
              py::gil_scoped_release release;
              refs = r.GetSignalValues(ids);
              for (const SignalValuesRef& ref : refs) {
                if (ref.has_values() || !skip_valueless) loaded.push_back(ref);
              }
              values = r.LoadValues(loaded);
            }
            py::list out;
            std::size_t next = 0;
            for (const SignalValuesRef& ref : refs) {
              if (!ref.has_values() && skip_valueless) {
                out.append(py::none());
              } else {
                auto& array = values[next++];
                out.append(writable ? WritableValuesToNumpy(std::move(array), ref.spec())
                                    : ValuesToNumpy(std::move(array), ref.spec()));
              }
            }
            return out;
          },
          py::arg("ids"), py::arg("skip_valueless") = false, py::arg("writable") = false)
      .def(
          "load_values_into",
          // out: a 2-D array (row i from its first column) or one array per ID; validity likewise
          // or None. Returns each signal's steps.
          [](Reader& r, std::vector<std::int64_t> ids, py::object out, py::object validity) {
            std::vector<SignalValuesRef> refs;
            {
              py::gil_scoped_release release;
              refs = r.GetSignalValues(ids);
            }
            // The arrays the spans point into, held until the decode returns.
            std::vector<py::array> held;
            auto buffers = [&](py::object given, const char* what, auto span_of) {
              using Span = decltype(span_of(py::array(), std::size_t{0}, py::ssize_t{0},
                                            py::ssize_t{0}, std::string()));
              std::vector<Span> spans;
              if (py::isinstance<py::array>(given)) {
                py::array rows = py::reinterpret_borrow<py::array>(given);
                if (rows.ndim() != 2 || rows.shape(0) != static_cast<py::ssize_t>(ids.size())) {
                  throw ValidationError({.object = what, .where = ""},
                                        "a 2-D array with one row per ID (" +
                                            std::to_string(ids.size()) + "), or a list of arrays");
                }
                held.push_back(rows);
                for (std::size_t i = 0; i < ids.size(); ++i) {
                  spans.push_back(span_of(rows, i, i * rows.shape(1), rows.shape(1),
                                          "signal " + std::to_string(ids[i])));
                }
                return spans;
              }
              py::sequence list = given.cast<py::sequence>();
              if (list.size() != ids.size()) {
                throw ValidationError({.object = what, .where = ""},
                                      std::to_string(list.size()) + " arrays for " +
                                          std::to_string(ids.size()) + " IDs");
              }
              for (std::size_t i = 0; i < ids.size(); ++i) {
                py::array array = list[i].cast<py::array>();
                held.push_back(array);
                spans.push_back(
                    span_of(array, i, 0, array.size(), "signal " + std::to_string(ids[i])));
              }
              return spans;
            };
            // A row of a 2-D array takes the signal's scalars from its start; an array of the
            // list is the signal's whole buffer (its size is checked against the signal).
            const bool rows = py::isinstance<py::array>(out);
            auto scalars_of = [&](std::size_t i) {
              return static_cast<py::ssize_t>(
                  refs[i].n_values() * std::max<std::int64_t>(1, refs[i].spec().StepWidth()));
            };
            auto fit = [&](py::ssize_t room, py::ssize_t needed, const std::string& what) {
              if (!rows) return room;
              if (needed > room) {
                throw ValidationError({.object = what, .where = "out"},
                                      "the signal has " + std::to_string(needed) +
                                          " values, a row holds " + std::to_string(room));
              }
              return needed;
            };
            std::vector<model::ScalarSpan> outs = buffers(
                out, "out",
                [&](const py::array& a, std::size_t i, py::ssize_t first, py::ssize_t room,
                    const std::string& what) {
                  if (!refs[i].has_values()) {
                    throw Error({.object = what, .where = "values"}, "the signal has no values");
                  }
                  return ScalarSpanOf(a, refs[i].spec(), first, fit(room, scalars_of(i), what),
                                      what);
                });
            std::vector<std::span<std::uint8_t>> valid;
            if (!validity.is_none()) {
              valid = buffers(validity, "validity",
                              [&](const py::array& a, std::size_t i, py::ssize_t first,
                                  py::ssize_t room, const std::string& what) {
                                return ValiditySpanOf(a, first, fit(room, refs[i].n_values(), what),
                                                      what);
                              });
            }
            {
              py::gil_scoped_release release;
              r.LoadValuesInto(refs, outs, valid);
            }
            py::array_t<std::int64_t> steps(static_cast<py::ssize_t>(refs.size()));
            for (std::size_t i = 0; i < refs.size(); ++i) steps.mutable_at(i) = refs[i].n_values();
            return steps;
          },
          py::arg("ids"), py::arg("out"), py::arg("validity") = py::none())
      .def("read_task_table", TableOfTasks<&Reader::ReadTaskTable>)
      .def("read_target_table", TableOfTasks<&Reader::ReadTargetTable>)
      .def("read_annotation_table",
           [](Reader& r) {
             ArrowTable t;
             {
               py::gil_scoped_release release;
               t = r.ReadAnnotationTable();
             }
             return TableToPy(std::move(t));
           })
      .def(
          "_dump",
          [](Reader& r, bool values) {
            std::string out;
            {
              py::gil_scoped_release release;
              auto dataset = r.Read();
              out = model::DumpDataset(*dataset, {.values = values}).dump();
            }
            return out;
          },
          py::arg("values"), "The C++ model dump of the whole release (JSON text), for tests.")
      .def("counters", [](const Reader& r) { return CountersToPy(r.counters()); })
      .def("close", &Reader::Close, Guard());
}

}  // namespace timef::python
