// libFuzzer target: the legacy manifest parser (docs/format.md §15.1, §15.3). Any input either
// raises a timef::Error or yields a LegacyManifest whose parts are well-formed: relative paths
// (§2.2), valid checksums, sizes ≥ 0, a version of 1 or 2, a dataset_id and at least one records
// part.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "legacy/legacy_manifest.h"
#include "timef/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  timef::legacy::LegacyManifest m;
  try {
    m = timef::legacy::ParseLegacyManifest(bytes, "manifest.json");
  } catch (const timef::Error&) {
    return 0;
  }
  if (m.format_version != 1 && m.format_version != 2) std::abort();
  if (m.dataset_id.empty() || m.records.empty() || m.checksum.empty()) std::abort();
  for (const timef::manifest::FilePart& part : m.AllFiles()) {
    if (part.path.empty() || part.path.front() == '/' || part.size < 0) std::abort();
  }
  return 0;
}
