// timef.view(): the `timef view` server (docs/view.md) running in this process on threads of its
// own, for a notebook or a script. The server never calls into Python.
#include <memory>
#include <optional>
#include <string>

#include "py_common.h"
#include "view/view_server.h"

namespace timef::python {
namespace {

class ViewHandle {
 public:
  ViewHandle(const std::string& path, const std::string& host, int port,
             std::optional<std::string> sources_root) {
    ReaderOptions options;
    if (sources_root) options.sources_root = *sources_root;
    auto api = std::make_shared<view::ViewApi>(Reader::Open(path, options));
    server_ =
        std::make_unique<view::ViewServer>(api, view::ServerOptions{.host = host, .port = port});
  }
  std::string url() const { return url_or_stopped(); }
  int port() const { return server_ ? server_->port() : 0; }
  bool running() const { return server_ != nullptr; }
  void Stop() { server_.reset(); }

 private:
  std::string url_or_stopped() const {
    if (!server_) throw Error({.object = "view", .where = "url"}, "the server is stopped");
    return server_->url();
  }
  std::unique_ptr<view::ViewServer> server_;
};

}  // namespace

void BindView(py::module_& m) {
  using Guard = py::call_guard<py::gil_scoped_release>;
  py::class_<ViewHandle>(m, "_ViewServer")
      .def(py::init<const std::string&, const std::string&, int, std::optional<std::string>>(),
           py::arg("path"), py::arg("host"), py::arg("port"), py::arg("sources_root"), Guard())
      .def_property_readonly("url", &ViewHandle::url)
      .def_property_readonly("port", &ViewHandle::port)
      .def_property_readonly("running", &ViewHandle::running)
      .def("stop", &ViewHandle::Stop, Guard());
  m.def("_is_loopback", [](const std::string& host) { return view::IsLoopback(host); });
}

}  // namespace timef::python
