// timef.importers.read_edf(), read_wfdb() and timef.import_files() (docs/importing.md): the C++
// importers with the GIL released while files are read and the release is written. Warnings are
// collected and returned, and the Python layer raises them as Python warnings.
#include "py_common.h"
#include "timef/compose.h"
#include "timef/importers.h"
#include "timef/reader.h"

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

// CSV options from timef.importers.read_csv's keywords (None = the default), checked by the C++
// reader; a name or type that does not fit raises ValueError / TypeError.
CsvOptions CsvOptionsFromDict(const py::dict& d) {
  CsvOptions csv;
  for (const auto& [key_handle, value] : d) {
    const std::string key = py::cast<std::string>(key_handle);
    if (value.is_none()) continue;
    if (key == "time_column") {
      csv.time_column = py::cast<std::string>(value);
    } else if (key == "time_unit") {
      const std::string text = py::cast<std::string>(value);
      csv.time_unit = RequireName(ParseCsvTimeUnit(text), "time_unit", text);
    } else if (key == "rate") {
      // A Python number's shortest repr ("250", "0.5") or a decimal string.
      csv.rate_hz = py::isinstance<py::str>(value) ? py::cast<std::string>(value)
                                                   : py::cast<std::string>(py::str(value));
    } else if (key == "units") {
      csv.units = py::cast<std::map<std::string, std::string>>(value);
    } else if (key == "delimiter") {
      const std::string text = py::cast<std::string>(value);
      if (text.size() != 1) throw py::value_error("delimiter: expected one character");
      csv.delimiter = text[0];
    } else if (key == "dtype") {
      const std::string text = py::cast<std::string>(value);
      csv.dtype = RequireName(ParseDType(text), "dtype", text);
    } else if (key == "tolerance_us") {
      csv.tolerance_us = py::cast<int64_t>(value);
    } else {
      throw py::value_error("unknown CSV option '" + key + "'");
    }
  }
  return csv;
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
      "_read_csv",
      [](const std::string& path, const std::map<std::string, std::string>& spec_types,
         bool checksum, const py::dict& csv) {
        std::vector<std::string> warnings;
        ReadOptions options = MakeReadOptions(false, spec_types, checksum, &warnings);
        options.csv = CsvOptionsFromDict(csv);
        std::shared_ptr<model::Record> record;
        {
          py::gil_scoped_release release;
          record = ReadCsv(path, options);
        }
        return py::make_tuple(record, warnings);
      },
      py::arg("path"), py::arg("spec_types"), py::arg("checksum"), py::arg("csv"));
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
         const std::map<std::string, std::string>& spec_types, bool checksum, const py::dict& csv,
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
        options.read.csv = CsvOptionsFromDict(csv);
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
      py::arg("csv"), py::arg("options"), py::arg("progress"),
      py::arg("annotators") = std::vector<std::string>{});
  // timef.dask.import_files' last step: one release importing, by reference, every record of the
  // part releases `part_dirs` in order (parent aliases part0, part1, ...): no value is copied.
  m.def(
      "_compose_parts",
      [](const std::vector<std::string>& part_dirs, const py::dict& card_fields,
         const std::string& root, const std::string& dataset, const std::string& version,
         const py::dict& write_options) {
        manifest::Card card = CardFromDict(card_fields);
        card.dataset_id = dataset;
        card.dataset_version = version;
        const WriteOptions options = WriteOptionsFromDict(write_options, py::none());
        WriteResult result;
        {
          py::gil_scoped_release release;
          std::vector<Reader> parts;
          parts.reserve(part_dirs.size());
          for (const std::string& dir : part_dirs) parts.push_back(Reader::Open(dir));
          model::Dataset child(dataset, version);
          Composer composer(child);
          for (size_t k = 0; k < parts.size(); ++k) {
            const std::string alias = "part" + std::to_string(k);
            composer.AddParent(alias, parts[k]);
            const std::vector<std::int64_t> ids = parts[k].RecordIds();
            composer.ImportRecords(alias, ids);
          }
          result = composer.Write(std::move(card), root, options);
        }
        return result.release_dir.string();
      },
      py::arg("part_dirs"), py::arg("card"), py::arg("root"), py::arg("dataset"),
      py::arg("version"), py::arg("options"));
  py::list table;
  for (const ModalityEntry& entry : ModalityTable()) {
    table.append(py::make_tuple(std::string(entry.prefix), std::string(entry.spec_type),
                                std::string(entry.name)));
  }
  m.attr("_MODALITY_TABLE") = table;
  m.attr("IMPORT_COMPRESSION_LEVEL") = kImportCompressionLevel;
}

}  // namespace timef::python
