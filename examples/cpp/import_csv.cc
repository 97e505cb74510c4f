// Imports CSV/TSV files (a time column plus one column per signal) as one release,
// `examples/csv-import` 1.0.0, one record per file (docs/importing.md, "CSV and TSV"), then reads
// it back: each record's source file, axis and signals (spec_type, unit, values with nulls). The
// file is read once to check it and find its times; each signal's values are read again, column
// by column, when the writer needs them.
//
//   import_csv REGISTRY_ROOT FILE.csv [FILE.tsv ...]
#include <timef/importers.h>
#include <timef/reader.h>

#include <exception>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: import_csv REGISTRY_ROOT FILE.csv [FILE ...]\n";
    return 2;
  }
  using namespace timef;
  try {
    std::vector<std::filesystem::path> files(argv + 2, argv + argc);
    manifest::Card card;
    card.dataset_id = "examples/csv-import";
    card.dataset_version = "1.0.0";
    card.name = "Example CSV import";
    card.description = "Recordings imported from CSV files by examples/cpp/import_csv.cc.";
    card.license = manifest::License::kCc0_1_0;
    ImportOptions options;
    options.write.compression_level = 3;
    options.read.csv.units = {{"Resp", "mV"}};  // a column whose header has no unit suffix
    options.read.warn = [](const std::string& warning) {
      std::cerr << "warning: " << warning << "\n";
    };
    const WriteResult result = ImportFiles(ImportFormat::kCsv, files, card, argv[1], options);
    std::cout << result.release_dir.string() << "\n";

    Reader reader = Reader::Open(result.release_dir);
    for (const auto& record : reader.IterRecords()) {
      const Json& csv = record->metadata()["csv"];
      std::cout << "record " << *record->id() << " from "
                << record->metadata()["source_file"].get<std::string>() << ": "
                << csv["rows"].get<int64_t>() << " rows, " << csv["axis"].get<std::string>()
                << " axis\n";
      for (const auto& signal : record->Signals()) {
        const auto values = signal->LoadValues();
        std::cout << "  " << signal->name() << ": " << signal->spec()->spec_type << ", "
                  << signal->spec()->unit.value_or("unit unknown") << ",";
        for (int64_t i = 0; i < values->size(); ++i) {
          if (values->IsValid(i)) {
            std::cout << " " << values->values<double>()[i];
          } else {
            std::cout << " null";
          }
        }
        std::cout << "\n";
      }
    }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "import_csv: " << error.what() << "\n";
    return 1;
  }
}
