// The error classes of docs/format.md (errors) as Python exceptions, and the translation of the
// C++ exceptions into them. NotFoundError is also a LookupError so that `except LookupError`
// works as it does for dict and list lookups; MissingFileError is also a FileNotFoundError (errno
// ENOENT) so that `except FileNotFoundError` works as it does for open().
#include <Python.h>

#include <cerrno>

#include "py_common.h"

namespace timef::python {
namespace {

py::object NewClass(py::module_& m, const char* name, py::handle bases, const char* doc) {
  std::string qualified = std::string("timef.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (cls == nullptr) throw py::error_already_set();
  py::object out = py::reinterpret_steal<py::object>(cls);
  m.attr(name) = out;
  return out;
}

// Raises `timef.<name>(message)` with the C++ error's location on the instance (path, where,
// problem). The translator is a plain function, so it finds the classes on the module.
void Raise(const char* name, const Error& e) {
  py::object cls = py::module_::import("timef._timef").attr(name);
  py::object exc = cls(e.what());
  exc.attr("path") = e.path() ? py::object(py::str(e.path()->string())) : py::none();
  exc.attr("where") = py::str(e.where());
  exc.attr("problem") = py::str(e.problem());
  // OSError's str() stays the message: filename and strerror are left unset.
  if (py::isinstance(exc, py::handle(PyExc_OSError))) exc.attr("errno") = py::int_(ENOENT);
  PyErr_SetObject(cls.ptr(), exc.ptr());
}

}  // namespace

void BindErrors(py::module_& m) {
  py::object error = NewClass(m, "Error", PyExc_Exception, "Base of every timef error.");
  py::object validation =
      NewClass(m, "ValidationError", error,
               "A bad argument, object or option (nothing was written or read).");
  NewClass(m, "NotFoundError", py::make_tuple(validation, py::handle(PyExc_LookupError)),
           "An ID, alias or object the dataset does not have.");
  py::object format =
      NewClass(m, "FormatError", error, "A stored artifact that is corrupt or unsupported.");
  py::object file = NewClass(m, "FileError", format,
                             "A file that is missing, unreadable, or differs from its manifest "
                             "record.");
  NewClass(m, "MissingFileError", py::make_tuple(file, py::handle(PyExc_FileNotFoundError)),
           "A file that does not exist, manifest.json included (also a FileNotFoundError).");
  NewClass(m, "ManifestError", format, "A manifest.json that is invalid or unsupported.");
  NewClass(m, "ReaderError", error, "A read cut short by close() or by a fork in another thread.");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const NotFoundError& e) {
      Raise("NotFoundError", e);
    } catch (const ValidationError& e) {
      Raise("ValidationError", e);
    } catch (const MissingFileError& e) {
      Raise("MissingFileError", e);
    } catch (const FileError& e) {
      Raise("FileError", e);
    } catch (const ManifestError& e) {
      Raise("ManifestError", e);
    } catch (const FormatError& e) {
      Raise("FormatError", e);
    } catch (const ReaderError& e) {
      Raise("ReaderError", e);
    } catch (const Error& e) {
      Raise("Error", e);
    }
  });
}

}  // namespace timef::python
