// timef.write(): publishes a Dataset built in Python with the C++ writer. The GIL is released for
// the whole write; value loaders (Python callables) and the progress callback take it back while
// they run, so a dataset larger than memory streams through one loader call per signal.
#include "py_common.h"
#include "timef/legacy.h"
#include "timef/writer.h"

namespace timef::python {
namespace {

std::optional<std::string> OptStr(const py::dict& d, const char* key) {
  if (!d.contains(key) || d[key].is_none()) return std::nullopt;
  return d[key].cast<std::string>();
}

}  // namespace

manifest::Card CardFromDict(const py::dict& d) {
  static constexpr const char* kKeys[] = {
      "name",       "description",     "license",  "license_url", "domains",    "tags",
      "source_url", "source_revision", "citation", "access",      "access_url", "value_encoding"};
  for (auto [key, value] : d) {
    std::string k = key.cast<std::string>();
    if (std::find(std::begin(kKeys), std::end(kKeys), k) == std::end(kKeys))
      throw ValidationError(ErrorSite{.object = "card", .where = k}, "unknown card field");
  }
  manifest::Card card;
  card.name = OptStr(d, "name").value_or("");
  card.description = OptStr(d, "description").value_or("");
  if (auto v = OptStr(d, "license"))
    card.license = RequireName(manifest::ParseLicense(*v), "card license", *v);
  card.license_url = OptStr(d, "license_url");
  if (d.contains("domains"))
    for (auto item : d["domains"]) {
      std::string v = item.cast<std::string>();
      card.domains.push_back(RequireName(manifest::ParseDomain(v), "card domains", v));
    }
  if (d.contains("tags")) card.tags = d["tags"].cast<std::vector<std::string>>();
  card.source_url = OptStr(d, "source_url");
  card.source_revision = OptStr(d, "source_revision");
  card.citation = OptStr(d, "citation");
  if (auto v = OptStr(d, "access"))
    card.access = RequireName(manifest::ParseAccess(*v), "card access", *v);
  card.access_url = OptStr(d, "access_url");
  if (auto v = OptStr(d, "value_encoding"))
    card.value_encoding =
        RequireName(manifest::ParseValueEncodingChoice(*v), "card value_encoding", *v);
  return card;
}

WriteOptions WriteOptionsFromDict(const py::dict& opts, py::object progress) {
  WriteOptions options;
  for (auto [key, value] : opts) {
    std::string k = key.cast<std::string>();
    if (k == "chunk_max_bytes")
      options.chunk_max_bytes = value.cast<std::int64_t>();
    else if (k == "row_group_target_bytes")
      options.row_group_target_bytes = value.cast<std::int64_t>();
    else if (k == "shard_target_bytes")
      options.shard_target_bytes = value.cast<std::int64_t>();
    else if (k == "data_page_target_bytes")
      options.data_page_target_bytes = value.cast<std::int64_t>();
    else if (k == "compression")
      options.compression = value.cast<std::string>();
    else if (k == "compression_level")
      options.compression_level = value.cast<int>();
    else if (k == "threads")
      options.threads = value.cast<int>();
    else if (k == "text_pack_threshold_bytes")
      options.text_pack_threshold_bytes = value.cast<std::int64_t>();
    else if (k == "audit")
      options.audit = value.cast<bool>();
    else if (k == "values_backend") {
      const std::string name = value.cast<std::string>();
      options.values_backend =
          RequireName(manifest::ParseValuesBackend(name), "values_backend", name);
    } else if (k == "zarr_compression_level")
      options.zarr_compression_level = value.cast<int>();
    else
      throw ValidationError(ErrorSite{.object = "write options", .where = k}, "unknown option");
  }
  if (!progress.is_none()) {
    auto fn = std::shared_ptr<py::object>(new py::object(progress), [](py::object* p) {
      py::gil_scoped_acquire gil;
      delete p;
    });
    options.progress = [fn](const WriteProgress& p) {
      py::gil_scoped_acquire gil;
      (*fn)(std::string(ToString(p.stage)), p.bytes_done, p.bytes_total, p.shard);
    };
  }
  return options;
}

void BindWriter(py::module_& m) {
  m.def(
      "_write",
      [](model::Dataset& dataset, const py::dict& card_fields, std::optional<std::string> root,
         std::optional<std::string> release_dir, const py::dict& opts, py::object progress) {
        manifest::Card card = CardFromDict(card_fields);
        WriteOptions options = WriteOptionsFromDict(opts, progress);
        WriteResult result;
        {
          py::gil_scoped_release release;
          result = root ? WriteRelease(dataset, std::move(card), *root, options)
                        : WriteReleaseTo(dataset, std::move(card), *release_dir, options);
        }
        return result.release_dir.string();
      },
      py::arg("dataset"), py::arg("card"), py::arg("root"), py::arg("release_dir"),
      py::arg("options"), py::arg("progress"));
  // timef.upgrade(): docs/format.md §15.7, GIL released for the read and the write.
  m.def(
      "_upgrade",
      [](const std::string& legacy_dir, const std::string& out_root,
         std::optional<std::string> version) {
        UpgradeResult result;
        {
          py::gil_scoped_release release;
          UpgradeOptions options;
          options.version = std::move(version);
          result = Upgrade(legacy_dir, out_root, options);
        }
        return py::make_tuple(result.written.release_dir.string(), result.warnings);
      },
      py::arg("legacy_dir"), py::arg("out"), py::arg("version"));
}

}  // namespace timef::python
