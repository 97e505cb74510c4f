// libFuzzer target: the payload file reader (FORMAT.md §9) on arbitrary bytes. The first bytes
// choose what a catalog row would ask for (row, length, count, first/last offset); the rest is the
// file. Every read must raise a timef::Error or return values that passed the reader's own checks.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "payload/payload_reader.h"
#include "timef/error.h"

namespace {

struct Ask {
  std::int64_t row = 0;
  std::int64_t length = 0;
  std::int64_t first_us = 0;
  std::int64_t last_us = 0;
};

// 8 header bytes: row (1), length (2), first offset (2), last offset (2), spare (1). The seeds in
// fuzz/corpus/payload_read/ are hello-world's payload files behind such a header.
Ask Decode(const std::uint8_t* data) {
  Ask ask;
  ask.row = data[0] % 8;
  ask.length = data[1] | (data[2] << 8);
  ask.first_us = static_cast<std::int16_t>(data[3] | (data[4] << 8));
  ask.last_us = static_cast<std::int16_t>(data[5] | (data[6] << 8));
  return ask;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 8) return 0;
  const Ask ask = Decode(data);
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("timef-fuzz-payload-" + std::to_string(getpid()));
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 8), static_cast<std::streamsize>(size - 8));
  }
  timef::payload::PayloadReader reader;
  const timef::payload::TextRef text{file, "fuzz", ask.row, ask.length, 1};
  try {
    reader.ReadText(text);
  } catch (const timef::Error&) {
  }
  try {
    reader.ReadTextList(text);
  } catch (const timef::Error&) {
  }
  const timef::payload::OffsetsRef offsets{file,        "fuzz",       ask.row,     ask.length,
                                           "sha256:00", ask.first_us, ask.last_us, "axis 1"};
  try {
    reader.ReadOffsets(offsets);
  } catch (const timef::Error&) {
  }
  return 0;
}
