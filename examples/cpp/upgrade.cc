// Reads a legacy release (Parquet control tables, docs/format.md §15) directly, then upgrades it
// to a native release and checks that both give the same records.
//
//   upgrade LEGACY_DIR OUT_ROOT
#include <timef/error.h>
#include <timef/reader.h>
#include <timef/upgrade.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: upgrade LEGACY_DIR OUT_ROOT\n";
    return 2;
  }
  using namespace timef;
  try {
    // A legacy directory opens like any release, with the IDs the upgrade gives.
    Reader legacy = Reader::Open(argv[1]);
    legacy.Verify();  // the legacy manifest's own checksums
    const auto legacy_ids = legacy.RecordIds();
    std::cout << "legacy " << legacy.manifest().Ref() << ": " << legacy_ids.size() << " records\n";

    UpgradeOptions options;
    options.warn = [](const std::string& warning) { std::cerr << "warning: " << warning << "\n"; };
    UpgradeResult result = Upgrade(argv[1], argv[2], options);
    std::cout << "upgraded to " << result.written.release_dir.string() << "\n";

    Reader native = Reader::Open(result.written.release_dir);
    native.Verify();
    const auto record = native.GetRecord(1);
    std::cout << "record 1 was " << record->metadata()["timef.legacy.id"].get<std::string>() << ", "
              << record->Signals().size() << " signals\n";
    return native.RecordIds() == legacy_ids ? 0 : 1;
  } catch (const Error& e) {
    std::cerr << "upgrade: " << e.what() << "\n";
    return 1;
  }
}
