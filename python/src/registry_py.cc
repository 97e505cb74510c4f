// Registries, parent references and payload-source roots in Python: timef.Registry (list, resolve
// and open releases of a root, with their payload sources found there), the version API
// (timef.DatasetVersion, open_local_version, Registry.open_version, timef.Client), timef.gc, and
// the two kinds of `parent=` of a lookup by parent ID, timef.ParentAlias and timef.DatasetRef (a
// plain string could be either, so it is refused).
#include "py_common.h"
#include "timef/client.h"
#include "timef/dataset_version.h"
#include "timef/registry.h"
#include "timef/remote.h"

namespace timef::python {

ParentRef PyToParent(py::handle parent) {
  if (py::isinstance<ParentAlias>(parent)) return parent.cast<ParentAlias>();
  if (py::isinstance<ReleaseRef>(parent)) return parent.cast<ReleaseRef>();
  throw ValidationError(ErrorSite{.object = "parent"},
                        "expected a timef.ParentAlias or a timef.DatasetRef (a plain string could "
                        "be either)");
}

void BindRegistry(py::module_& m) {
  py::class_<ParentAlias>(m, "ParentAlias", "A parent named by the alias the child declares.")
      .def(py::init([](std::string alias) {
             if (!IsValidAlias(alias))
               throw ValidationError(ErrorSite{.object = "ParentAlias"},
                                     "'" + alias + "' is not an alias (^[a-z][a-z0-9_-]*$)");
             return ParentAlias{std::move(alias)};
           }),
           py::arg("alias"))
      .def_readonly("alias", &ParentAlias::alias)
      .def("__eq__", [](const ParentAlias& a, const ParentAlias& b) { return a == b; })
      .def("__hash__", [](const ParentAlias& a) { return py::hash(py::str(a.alias)); })
      .def("__repr__", [](const ParentAlias& a) { return "ParentAlias('" + a.alias + "')"; });

  py::class_<ReleaseRef>(m, "DatasetRef", "An exact release: org/name@x.y.z.")
      .def_static(
          "parse", [](const std::string& text) { return ReleaseRef::Parse(text); }, py::arg("text"))
      .def_readonly("dataset_id", &ReleaseRef::dataset_id)
      .def_property_readonly("version", [](const ReleaseRef& r) { return r.version.ToString(); })
      .def("__str__", &ReleaseRef::ToString)
      .def("__eq__", [](const ReleaseRef& a, const ReleaseRef& b) { return a == b; })
      .def("__hash__", [](const ReleaseRef& r) { return py::hash(py::str(r.ToString())); })
      .def("__repr__", [](const ReleaseRef& r) { return "DatasetRef('" + r.ToString() + "')"; });

  using Guard = py::call_guard<py::gil_scoped_release>;
  py::class_<Registry>(m, "_Registry")
      .def_static(
          "open", [](const std::string& root) { return Registry::Open(root); }, py::arg("root"),
          Guard())
      .def_property_readonly("root", [](const Registry& r) { return r.root().string(); })
      .def("datasets", &Registry::Datasets, Guard())
      .def(
          "versions",
          [](const Registry& r, const std::string& id) {
            std::vector<std::string> out;
            for (const Version& v : r.Versions(id)) out.push_back(v.ToString());
            return out;
          },
          py::arg("dataset_id"))
      .def(
          "latest",
          [](const Registry& r, const std::string& id) { return r.Latest(id).ToString(); },
          py::arg("dataset_id"))
      .def(
          "resolve",
          [](const Registry& r, const std::string& ref) { return r.Resolve(ref).dir.string(); },
          py::arg("ref"), Guard())
      .def_property_readonly("remote", &Registry::remote)
      .def(
          "open_version",
          [](const Registry& r, const std::string& ref) { return r.OpenVersion(ref); },
          py::arg("ref"), Guard())
      .def(
          "open_release",
          [](const Registry& r, const std::string& ref) { return r.OpenRelease(ref); },
          py::arg("ref"), Guard());

  py::class_<DatasetVersion>(
      m, "DatasetVersion",
      "A version opened for reading: its parsed manifest and the local or remote file systems of "
      "the version and its payload sources, checked (presence, sizes, pins) but not read. Pass it "
      "to timef.TimeFReader(version); timef.open_local_version(), Registry.open_version() and "
      "Client.open_version() return one.")
      .def_property_readonly("ref", &DatasetVersion::ref)
      .def_property_readonly(
          "manifest",
          [](const DatasetVersion& v) { return JsonToPy(manifest::ManifestToJson(v.manifest())); })
      .def_property_readonly("location",
                             [](const DatasetVersion& v) { return v.location().string(); })
      .def_property_readonly("remote", &DatasetVersion::remote)
      .def_property_readonly("sources_root",
                             [](const DatasetVersion& v) -> std::optional<std::string> {
                               if (!v.sources_root()) return std::nullopt;
                               return v.sources_root()->string();
                             })
      .def_property_readonly("payload_sources",
                             [](const DatasetVersion& v) {
                               py::dict out;
                               for (const auto& s : v.payload_sources())
                                 out[py::str(s.ref)] = s.location.string();
                               return out;
                             })
      .def("__repr__", [](const DatasetVersion& v) {
        return "DatasetVersion('" + v.ref().ToString() + "' at '" + v.location().string() + "')";
      });

  auto optional_root = [](const std::optional<std::string>& root) {
    return root ? std::optional<std::filesystem::path>(*root) : std::nullopt;
  };
  m.def(
      "open_local_version",
      [optional_root](const std::string& dir, const std::optional<std::string>& sources_root) {
        return OpenLocalVersion(dir, optional_root(sources_root));
      },
      py::arg("dir"), py::arg("sources_root") = py::none(), Guard());
  py::class_<Client>(m, "_Client")
      .def(py::init([](std::vector<std::string> registries, std::optional<std::string> cache_dir) {
             ClientOptions options;
             options.registries = std::move(registries);
             if (cache_dir) options.cache_dir = *cache_dir;
             return Client(std::move(options));
           }),
           py::arg("registries"), py::arg("cache_dir") = py::none(), Guard())
      .def_property_readonly("registries",
                             [](const Client& c) {
                               std::vector<std::string> out;
                               for (const Registry& r : c.registries())
                                 out.push_back(r.root().string());
                               return out;
                             })
      .def_property_readonly("cache_dir",
                             [](const Client& c) -> std::optional<std::string> {
                               if (!c.cache_dir()) return std::nullopt;
                               return c.cache_dir()->string();
                             })
      .def(
          "open_version",
          [](const Client& c, const std::string& ref) { return c.OpenVersion(ref); },
          py::arg("ref"), Guard());

  m.def(
      "gc",
      [](const std::string& root, std::int64_t older_than_s, bool dry_run) {
        std::vector<StaleStaging> found;
        {
          py::gil_scoped_release release;
          found = Gc(root, std::chrono::seconds(older_than_s), dry_run);
        }
        py::list out;
        for (const auto& s : found)
          out.append(py::dict(py::arg("dir") = s.dir.string(), py::arg("bytes") = s.bytes,
                              py::arg("age_s") = s.age.count()));
        return out;
      },
      py::arg("root"), py::kw_only(), py::arg("older_than_s") = 24 * 3600,
      py::arg("dry_run") = false,
      "Removes staging directories (`<version>.tmp-*`) untouched for older_than_s seconds; "
      "returns what it removed (or, with dry_run, would remove). Never automatic.");

  m.def(
      "pull",
      [](const std::string& url, const std::string& dir, int threads) {
        PullResult result;
        {
          py::gil_scoped_release release;
          result = PullRelease(url, dir, PullOptions{.threads = threads});
        }
        return py::dict(py::arg("release_dir") = result.release_dir.string(),
                        py::arg("files_downloaded") = result.files_downloaded,
                        py::arg("files_kept") = result.files_kept,
                        py::arg("bytes_downloaded") = result.bytes_downloaded);
      },
      py::arg("url"), py::arg("dir"), py::kw_only(), py::arg("threads") = PullOptions{}.threads,
      "Downloads the release at an http(s) URL into the new directory `dir`, each file checked "
      "against the manifest's size and sha256; `dir` appears complete or not at all, and an "
      "interrupted pull resumes from `dir`.part (docs/remote.md).");

  m.def(
      "push",
      [](const std::string& release, const std::string& url, int threads) {
        PushResult result;
        {
          py::gil_scoped_release release_gil;
          result = PushRelease(release, url, PushOptions{.threads = threads, .on_step = {}});
        }
        py::list left;
        for (const std::string& object : result.temporary_objects_left) left.append(object);
        return py::dict(py::arg("url") = result.url, py::arg("files") = result.files,
                        py::arg("bytes_uploaded") = result.bytes_uploaded,
                        py::arg("temporary_objects_left") = left);
      },
      py::arg("release"), py::arg("url"), py::kw_only(), py::arg("threads") = PushOptions{}.threads,
      "Uploads the local release to s3://bucket/<prefix>/<org>/<name>/<version>: a temporary "
      "prefix first, server-side copies into place, manifest.json last (docs/remote.md).");

  m.def(
      "ls_remote",
      [](const std::string& root) {
        std::vector<RemoteRegistryRelease> found;
        {
          py::gil_scoped_release release_gil;
          found = ListRemoteRegistry(root);
        }
        py::list out;
        for (const RemoteRegistryRelease& r : found) {
          out.append(py::dict(py::arg("dataset_id") = r.dataset_id,
                              py::arg("version") = r.version.ToString(), py::arg("url") = r.url));
        }
        return out;
      },
      py::arg("root"),
      "The committed releases below an s3:// registry root, by dataset then version.");

  m.def(
      "resolve_remote_ref",
      [](const std::string& root, const std::string& ref) {
        py::gil_scoped_release release_gil;
        return ResolveRemoteRef(root, ref);
      },
      py::arg("root"), py::arg("ref"),
      "The URL of org/name (latest) or org/name@x.y.z in an s3:// registry root.");
}

}  // namespace timef::python
