// libFuzzer target: the manifest JSON parser and checker (FORMAT.md §5). Any input either raises
// a timef::Error or yields a Manifest; an accepted manifest must survive the writer and parse back
// equal (the codec is its own oracle), so a parse that loses or invents a field is a crash too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "timef/error.h"
#include "timef/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  timef::manifest::Manifest parsed;
  try {
    parsed = timef::manifest::ParseManifest(bytes);
  } catch (const timef::Error&) {
    return 0;
  }
  // WriteManifest may refuse what the reader accepts only for reasons the writer documents
  // (e.g. a non-finite number); those are timef::Errors, never a crash.
  std::string written;
  try {
    written = timef::manifest::WriteManifest(parsed);
  } catch (const timef::Error&) {
    return 0;
  }
  const timef::manifest::Manifest again = timef::manifest::ParseManifest(written);
  if (!(again == parsed)) std::abort();
  // Deterministic form: writing the re-parsed manifest gives the same bytes.
  if (timef::manifest::WriteManifest(again) != written) std::abort();
  return 0;
}
