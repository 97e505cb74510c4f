// Imports EDF/EDF+/BDF/BDF+ recordings as one release, `examples/edf-import` 1.0.0, one record per
// file (docs/importing.md), then reads it back: each record's source file, start time, signals
// (spec_type, rate, unit) and first annotation. The values stream from the files into the writer
// channel by channel, so the recordings never sit in memory whole.
//
//   import_edf REGISTRY_ROOT FILE.edf [FILE.bdf ...]
#include <timef/importers.h>
#include <timef/reader.h>

#include <exception>
#include <iostream>
#include <string>
#include <variant>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: import_edf REGISTRY_ROOT FILE.edf [FILE ...]\n";
    return 2;
  }
  using namespace timef;
  try {
    std::vector<std::filesystem::path> files(argv + 2, argv + argc);
    manifest::Card card;
    card.dataset_id = "examples/edf-import";
    card.dataset_version = "1.0.0";
    card.name = "Example EDF import";
    card.description = "Recordings imported from EDF files by examples/cpp/import_edf.cc.";
    card.license = manifest::License::kCc0_1_0;
    ImportOptions options;
    options.write.compression_level = 3;
    options.read.warn = [](const std::string& warning) {
      std::cerr << "warning: " << warning << "\n";
    };
    const WriteResult result = ImportFiles(ImportFormat::kEdf, files, card, argv[1], options);
    std::cout << result.release_dir.string() << "\n";

    Reader reader = Reader::Open(result.release_dir);
    for (const auto& record : reader.IterRecords()) {
      std::cout << "record " << *record->id() << " from "
                << record->metadata()["source_file"].get<std::string>() << " ("
                << record->metadata()["edf"]["format"].get<std::string>() << "), start "
                << *record->start_time_us() << " us\n";
      for (const auto& signal : record->Signals()) {
        const auto& axis = *signal->axis();
        const double rate = 1e6 * static_cast<double>(axis.period_denominator()) /
                            static_cast<double>(axis.period_numerator_us());
        std::cout << "  " << signal->name() << ": " << signal->spec()->spec_type << ", " << rate
                  << " Hz, " << signal->spec()->unit.value_or("unit unknown") << ", "
                  << signal->n_values() << " samples\n";
      }
      if (!record->annotations().empty()) {
        const model::Annotation& first = *record->annotations().front();
        std::cout << "  first annotation: " << first.key() << " '"
                  << first.content()->value().text().Read() << "'\n";
      }
    }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "import_edf: " << error.what() << "\n";
    return 1;
  }
}
