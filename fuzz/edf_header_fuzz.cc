// libFuzzer target: the EDF/BDF header parser and the TAL parser of the importers
// (docs/importing.md). Any input either raises a timef::Error or yields a header whose numbers
// agree with each other and with the input's length (the file size), and TALs whose durations are
// not negative.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "importers/edf_header.h"
#include "timef/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const std::int64_t header_size = timef::importers::EdfHeaderSize("f.edf", bytes);
    const timef::importers::EdfHeader h = timef::importers::ParseEdfHeader(
        "f.edf", bytes.substr(0, static_cast<std::size_t>(header_size)),
        static_cast<std::int64_t>(size));
    if (h.header_bytes != header_size || h.n_records < 0 || h.duration_num <= 0) std::abort();
    if (h.header_bytes + h.n_records * h.record_bytes != static_cast<std::int64_t>(size)) {
      std::abort();
    }
    std::int64_t offset = 0;
    for (const auto& c : h.channels) {
      if (c.samples_per_record < 1 || c.offset_in_record != offset) std::abort();
      if (!c.annotations && c.digital_min >= c.digital_max) std::abort();
      offset += c.samples_per_record * h.sample_bytes;
    }
    if (offset != h.record_bytes) std::abort();
  } catch (const timef::Error&) {
  }
  try {
    for (const auto& tal : timef::importers::ParseTals(bytes, "f.edf", "fuzz")) {
      if (tal.texts.empty() || (tal.duration_us && *tal.duration_us < 0)) std::abort();
    }
  } catch (const timef::Error&) {
  }
  return 0;
}
