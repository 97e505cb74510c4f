// libFuzzer target: the WFDB header parser and the MIT annotation parser of the importers
// (docs/importing.md). Any input either raises a timef::Error or yields a header whose numbers are
// in range and consistent (a known format per signal, signals of one file consecutive, samples per
// frame ≥ 1, a positive frequency) and annotations in time order with codes the file may use.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "importers/wfdb_header.h"
#include "timef/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const timef::importers::WfdbHeader h = timef::importers::ParseWfdbHeader("f.hea", bytes);
    if (h.freq_num <= 0 || h.freq_den <= 0) std::abort();
    if (static_cast<std::int64_t>(h.signals.size()) != h.n_signals) std::abort();
    if (h.n_frames && *h.n_frames <= 0) std::abort();
    std::set<std::string> closed;
    for (std::size_t i = 0; i < h.signals.size(); ++i) {
      const auto& s = h.signals[i];
      if (s.format == nullptr || s.format->code != s.format_code) std::abort();
      if (s.samples_per_frame < 1 || s.byte_offset < 0 || s.gain <= 0) std::abort();
      if (i > 0 && h.signals[i - 1].file_name != s.file_name) {
        closed.insert(h.signals[i - 1].file_name);
        if (closed.count(s.file_name) != 0) std::abort();
      }
      // The byte range of any sample count is ordered and whole units at most.
      const auto range = timef::importers::WfdbBytesOf(*s.format, 7);
      if (range.min > range.max || range.min <= 0) std::abort();
    }
  } catch (const timef::Error&) {
  }
  try {
    const timef::importers::WfdbAnnotations a =
        timef::importers::ParseMitAnnotations("f.atr", bytes);
    std::int64_t last = 0;
    for (const auto& annotation : a.annotations) {
      if (annotation.sample < last || annotation.code < 1 || annotation.code > 49) std::abort();
      if (!timef::importers::StandardWfdbCode(annotation.code) &&
          a.defined.count(annotation.code) == 0) {
        std::abort();
      }
      last = annotation.sample;
    }
  } catch (const timef::Error&) {
  }
  // Decoding any bytes in any format stays within the format's bits.
  if (size >= 4) {
    for (int code : {16, 24, 32, 61, 80, 160, 212, 310, 311}) {
      const auto* format = timef::importers::FindWfdbFormat(code);
      const std::int64_t units = static_cast<std::int64_t>(size) / format->unit_bytes;
      std::int32_t out[3];
      for (std::int64_t u = 0; u < units && u < 64; ++u) {
        timef::importers::DecodeWfdbUnits(
            *format, reinterpret_cast<const unsigned char*>(data) + u * format->unit_bytes, 1, out);
        for (int k = 0; k < format->unit_samples; ++k) {
          if (format->bits < 32 && (out[k] < -(std::int64_t{1} << (format->bits - 1)) ||
                                    out[k] >= (std::int64_t{1} << (format->bits - 1)))) {
            std::abort();
          }
        }
      }
    }
  }
  return 0;
}
