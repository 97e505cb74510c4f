// timef.write(): publishes a Dataset built in Python with the C++ writer. The GIL is released for
// the whole write; value loaders (Python callables) and the progress callback take it back while
// they run, so a dataset larger than memory streams through one loader call per signal.
#include "py_common.h"
#include "timef/upgrade.h"
#include "timef/write_options.h"
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

// A keyword's value as the WriteOptions field of type T; a word option names its enumerator.
template <typename T>
T OptionValue(const py::handle& value, const char* /*name*/) {
  return value.cast<T>();
}
template <>
manifest::ValuesBackend OptionValue<manifest::ValuesBackend>(const py::handle& value,
                                                             const char* name) {
  const std::string text = value.cast<std::string>();
  return RequireName(manifest::ParseValuesBackend(text), name, text);
}

// The keywords of timef.write are the write options of timef/write_options.h, by name.
WriteOptions WriteOptionsFromDict(const py::dict& opts, py::object progress) {
  WriteOptions options;
  for (auto [key, value] : opts) {
    const std::string k = key.cast<std::string>();
#define TIMEF_PY_SET_OPTION(name, type, ...)        \
  if (k == #name) {                                 \
    options.name = OptionValue<type>(value, #name); \
    continue;                                       \
  }
    TIMEF_WRITE_NUMBER_OPTIONS(TIMEF_PY_SET_OPTION)
    TIMEF_WRITE_CHOICE_OPTIONS(TIMEF_PY_SET_OPTION)
#undef TIMEF_PY_SET_OPTION
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
  // The keywords timef.write accepts (timef/__init__.py checks them before calling _write).
  py::tuple names(std::size(write_option::kNames));
  for (std::size_t i = 0; i < std::size(write_option::kNames); ++i) {
    names[i] = py::str(std::string(write_option::kNames[i]));
  }
  m.attr("_write_option_names") = names;
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
