// timef.importers.read_edf(), read_wfdb() and timef.import_files() (docs/importing.md): the C++
// importers with the GIL released while files are read and the release is written. Warnings are
// collected and returned, and the Python layer raises them as Python warnings.
#include "py_common.h"
#include "timef/importers.h"

namespace timef::python {
namespace {

ReadOptions MakeReadOptions(bool keep_digital, const std::map<std::string, std::string>& spec_types,
                            bool checksum, std::vector<std::string>* warnings) {
  ReadOptions options;
  options.keep_digital = keep_digital;
  options.spec_types = spec_types;
  options.checksum = checksum;
  options.warn = [warnings](const std::string& warning) { warnings->push_back(warning); };
  return options;
}

}  // namespace

void BindImporters(py::module_& m) {
  m.def(
      "_read_edf",
      [](const std::string& path, bool keep_digital,
         const std::map<std::string, std::string>& spec_types, bool checksum) {
        std::vector<std::string> warnings;
        std::shared_ptr<model::Record> record;
        {
          py::gil_scoped_release release;
          record = ReadEdf(path, MakeReadOptions(keep_digital, spec_types, checksum, &warnings));
        }
        return py::make_tuple(record, warnings);
      },
      py::arg("path"), py::arg("keep_digital"), py::arg("spec_types"), py::arg("checksum"));
  m.def(
      "_read_wfdb",
      [](const std::string& path, bool keep_digital,
         const std::map<std::string, std::string>& spec_types, bool checksum,
         const std::vector<std::string>& annotators) {
        std::vector<std::string> warnings;
        std::shared_ptr<model::Record> record;
        {
          py::gil_scoped_release release;
          ReadOptions options = MakeReadOptions(keep_digital, spec_types, checksum, &warnings);
          options.wfdb_annotators = annotators;
          record = ReadWfdb(path, options);
        }
        return py::make_tuple(record, warnings);
      },
      py::arg("path"), py::arg("keep_digital"), py::arg("spec_types"), py::arg("checksum"),
      py::arg("annotators"));
  m.def(
      "_import_files",
      [](const std::string& format_name, const std::vector<std::string>& paths,
         const py::dict& card_fields, const std::string& root, const std::string& dataset,
         const std::string& version, bool keep_digital,
         const std::map<std::string, std::string>& spec_types, bool checksum,
         const py::dict& write_options, py::object progress,
         const std::vector<std::string>& annotators) {
        const ImportFormat format =
            RequireName(ParseImportFormat(format_name), "import format", format_name);
        manifest::Card card = CardFromDict(card_fields);
        card.dataset_id = dataset;
        card.dataset_version = version;
        std::vector<std::string> warnings;
        ImportOptions options;
        options.read = MakeReadOptions(keep_digital, spec_types, checksum, &warnings);
        options.read.wfdb_annotators = annotators;
        options.write = WriteOptionsFromDict(write_options, progress);
        std::vector<std::filesystem::path> inputs(paths.begin(), paths.end());
        WriteResult result;
        {
          py::gil_scoped_release release;
          result = ImportFiles(format, inputs, std::move(card), root, options);
        }
        return py::make_tuple(result.release_dir.string(), warnings);
      },
      py::arg("format"), py::arg("paths"), py::arg("card"), py::arg("root"), py::arg("dataset"),
      py::arg("version"), py::arg("keep_digital"), py::arg("spec_types"), py::arg("checksum"),
      py::arg("options"), py::arg("progress"), py::arg("annotators") = std::vector<std::string>{});
  py::list table;
  for (const ModalityEntry& entry : ModalityTable()) {
    table.append(py::make_tuple(std::string(entry.prefix), std::string(entry.spec_type),
                                std::string(entry.name)));
  }
  m.attr("_MODALITY_TABLE") = table;
}

}  // namespace timef::python
