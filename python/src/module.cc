// The `timef._timef` extension module. The public names are re-exported by
// python/timef/__init__.py.
#include "py_common.h"
#include "timef/version.h"

PYBIND11_MODULE(_timef, m) {
  namespace tp = timef::python;
  m.doc() = "timef native extension (use the `timef` package)";
  m.attr("__version__") = timef::kVersion;
  tp::BindErrors(m);
  tp::BindText(m);
  tp::BindModel(m);
  tp::BindTasks(m);
  tp::BindTables(m);
  tp::BindRegistry(m);
  tp::BindReader(m);
  tp::BindWriter(m);
  tp::BindImporters(m);
  tp::BindView(m);
}
