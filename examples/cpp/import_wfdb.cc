// Imports WFDB records (PhysioNet: a .hea header, .dat signal files, a .atr annotation file) as
// one release, `examples/wfdb-import` 1.0.0, one record per WFDB record (docs/importing.md), then
// reads it back: each record's name, signals (spec_type, rate, unit) and its beat labels counted
// by mnemonic, with the rhythm changes' aux notes. The samples stream from the signal files into
// the writer signal by signal, so a long recording never sits in memory whole.
//
//   import_wfdb REGISTRY_ROOT RECORD [RECORD ...]     (RECORD: path/100 or path/100.hea)
#include <timef/importers.h>
#include <timef/reader.h>

#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: import_wfdb REGISTRY_ROOT RECORD [RECORD ...]\n";
    return 2;
  }
  using namespace timef;
  try {
    std::vector<std::filesystem::path> records(argv + 2, argv + argc);
    manifest::Card card;
    card.dataset_id = "examples/wfdb-import";
    card.dataset_version = "1.0.0";
    card.name = "Example WFDB import";
    card.description = "Records imported from WFDB files by examples/cpp/import_wfdb.cc.";
    card.license = manifest::License::kCc0_1_0;
    ImportOptions options;
    options.write.compression_level = 3;
    options.read.warn = [](const std::string& warning) {
      std::cerr << "warning: " << warning << "\n";
    };
    const WriteResult result = ImportFiles(ImportFormat::kWfdb, records, card, argv[1], options);
    std::cout << result.release_dir.string() << "\n";

    Reader reader = Reader::Open(result.release_dir);
    for (const auto& record : reader.IterRecords()) {
      std::cout << "record " << *record->id() << ": WFDB record "
                << record->metadata()["wfdb"]["record"].get<std::string>() << "\n";
      for (const auto& signal : record->Signals()) {
        const auto& axis = *signal->axis();
        const double rate = 1e6 * static_cast<double>(axis.period_denominator()) /
                            static_cast<double>(axis.period_numerator_us());
        std::cout << "  " << signal->name() << ": " << signal->spec()->spec_type << ", " << rate
                  << " Hz, " << signal->spec()->unit.value_or("unit unknown") << ", "
                  << signal->n_values() << " samples\n";
      }
      std::map<std::string, int> counts;
      for (const auto& annotation : record->annotations()) {
        const std::string label = annotation->content()->value().text().Read();
        ++counts[label];
        if (annotation->metadata().contains("aux")) {
          std::cout << "  at " << std::get<model::TimePoint>(annotation->span()).offset_us
                    << " us: " << label << " " << annotation->metadata()["aux"].get<std::string>()
                    << "\n";
        }
      }
      for (const auto& [label, count] : counts) {
        std::cout << "  label " << label << ": " << count << "\n";
      }
    }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "import_wfdb: " << error.what() << "\n";
    return 1;
  }
}
