// Opens a dataset version by ref through a client (docs/python.md "Opening a version", "The
// client"): the version's checks first (manifest, file sizes, payload sources' pins; nothing
// hashed, no values read), then a reader of it, then the whole dataset loaded in one call.
//
//   open_version REGISTRY REF   (REGISTRY: a registry root or its http(s):// URL; REF: org/name
//                                for the latest version, or org/name@x.y.z)
#include <timef/client.h>
#include <timef/dataset_version.h>
#include <timef/reader.h>

#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: open_version REGISTRY REF\n";
    return 2;
  }
  try {
    timef::ClientOptions options;
    options.registries = {argv[1]};
    const timef::Client client(options);

    // Opening checks the version and reads only manifests.
    const timef::DatasetVersion version = client.OpenVersion(argv[2]);
    std::cout << "version " << version.ref().ToString() << (version.remote() ? " (remote)" : "")
              << "\n";
    for (const auto& source : version.payload_sources()) {
      std::cout << "payload source " << source.ref << "\n";
    }

    // A reader of the opened version looks for nothing again.
    timef::Reader reader = timef::Reader::Open(version);
    std::cout << reader.RecordIds().size() << " records, " << reader.SignalIds().size()
              << " signals\n";

    // Or the whole dataset with every value loaded, the reader closed after.
    const std::unique_ptr<timef::model::Dataset> dataset = client.Load(argv[2]);
    std::int64_t values = 0;
    for (const auto& record : dataset->records()) {
      for (const auto& signal : record->Signals()) {
        if (signal->has_values()) values += signal->LoadValues()->size();
      }
    }
    std::cout << "loaded " << dataset->records().size() << " records, " << values << " values\n";
  } catch (const std::exception& e) {
    std::cerr << "open_version: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
