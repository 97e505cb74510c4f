// timef.Table: one Arrow record batch from the reader's table methods. It speaks the Arrow
// PyCapsule interface (__arrow_c_stream__, so pyarrow.table(t) or polars.from_arrow(t) take the
// columns without a copy) and converts to a dict of lists or a pandas DataFrame without any Arrow
// library. Exporting through the capsule hands the batch over: the table is empty afterwards.
#include "py_common.h"

namespace timef::python {
namespace {

struct Table {
  ArrowTable table;
};

py::object Cell(const ArrowTable& t, const std::string& column, std::string_view format,
                std::int64_t row) {
  if (t.IsNull(column, row)) return py::none();
  if (format == "l") return py::int_(*t.Int64(column, row));
  if (format == "g") return py::float_(*t.Double(column, row));
  if (format == "b") return py::bool_(*t.Bool(column, row));
  if (format == "U" || format == "u") return py::str(std::string(*t.String(column, row)));
  if (format == "+L" || format == "+l") {
    std::string_view element = t.ListElementFormat(column);
    if (element == "l") return py::cast(*t.Int64List(column, row));
    return py::cast(*t.StringList(column, row));
  }
  throw FormatError(ErrorSite{.object = "table", .where = column},
                    "unsupported Arrow format '" + std::string(format) + "'");
}

void RequireBatch(const Table& t) {
  if (t.table.exported())
    throw ValidationError(ErrorSite{.object = "timef.Table"},
                          "the batch was handed over through __arrow_c_stream__ already");
}

}  // namespace

py::object TableToPy(ArrowTable table) { return py::cast(Table{std::move(table)}); }

void BindTables(py::module_& m) {
  py::class_<Table>(m, "Table", "One Arrow record batch (task, target or annotation table).")
      .def_property_readonly("num_rows",
                             [](const Table& t) {
                               RequireBatch(t);
                               return t.table.num_rows();
                             })
      .def_property_readonly("column_names",
                             [](const Table& t) {
                               RequireBatch(t);
                               return t.table.ColumnNames();
                             })
      .def("__len__",
           [](const Table& t) {
             RequireBatch(t);
             return t.table.num_rows();
           })
      .def(
          "to_pydict",
          [](const Table& t) {
            RequireBatch(t);
            py::dict out;
            for (const std::string& column : t.table.ColumnNames()) {
              std::string_view format = t.table.ColumnFormat(column);
              py::list values;
              for (std::int64_t row = 0; row < t.table.num_rows(); ++row)
                values.append(Cell(t.table, column, format, row));
              out[py::str(column)] = values;
            }
            return out;
          },
          "Columns as a dict of lists (None for NULL).")
      .def(
          "to_pandas",
          [](py::object self) {
            return py::module_::import("pandas").attr("DataFrame")(self.attr("to_pydict")());
          },
          "The columns as a pandas DataFrame (needs pandas, not Arrow).")
      .def(
          "__arrow_c_stream__",
          [](Table& t, py::object requested_schema) {
            RequireBatch(t);
            auto* stream = new ArrowArrayStream{};
            t.table.ExportStream(stream);
            return py::capsule(stream, "arrow_array_stream", [](PyObject* capsule) {
              auto* s = static_cast<ArrowArrayStream*>(
                  PyCapsule_GetPointer(capsule, "arrow_array_stream"));
              if (s == nullptr) return;
              if (s->release != nullptr) s->release(s);
              delete s;
            });
          },
          py::arg("requested_schema") = py::none(),
          "Arrow PyCapsule stream export (the consumer takes the batch over).");
}

}  // namespace timef::python
