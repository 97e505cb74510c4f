// libFuzzer target: opens the input as a Parquet file and does everything the reader and the
// `timef parquet` tools offer on it — the footer and page index as JSON, every column chunk of
// every row group whole, two row ranges of each (one row, and a range spanning pages), and the
// first rows as JSON lines — so that any crash, hang, leak or sanitizer report on malformed input
// shows up. timef::Error is the documented failure; anything else escaping is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet_tool/inspect.h"
#include "timef/error.h"

namespace {

using namespace timef::parquet;

void ReadEverything(FileReader& reader) {
  ColumnData out;
  for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
    const std::int64_t rows = reader.row_group_num_rows(rg);
    for (int c = 0; c < static_cast<int>(reader.columns().size()); ++c) {
      // Each path on its own: a failure of one must not hide the others' bugs.
      try {
        reader.ReadColumnChunk(rg, c, out);
      } catch (const timef::Error&) {
      }
      try {
        if (rows > 0) reader.ReadRows(rg, c, rows / 2, rows / 2 + 1, out);
      } catch (const timef::Error&) {
      }
      try {
        if (rows > 2) reader.ReadRows(rg, c, rows / 3, rows - rows / 3, out);
      } catch (const timef::Error&) {
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto* begin = reinterpret_cast<const std::byte*>(data);
  auto file = std::make_shared<MemoryFile>(std::vector<std::byte>(begin, begin + size), "fuzz");
  try {
    FileReader reader = FileReader::Open(file);
    try {
      MetadataToJson(reader);
    } catch (const timef::Error&) {
    }
    ReadEverything(reader);
    try {
      DumpOptions options;
      options.rows = {0, std::min<std::int64_t>(reader.num_rows(), 16)};
      DumpRows(reader, options, [](std::string_view) {});
    } catch (const timef::Error&) {
    }
  } catch (const timef::Error&) {
  }
  return 0;
}
