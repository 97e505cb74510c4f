// libFuzzer target: opens the input as a Parquet file and reads everything the reader offers —
// the footer, every column chunk of every row group whole, and a row range of each — so that any
// crash, hang, leak or sanitizer report on malformed input shows up. timef::Error is the
// documented failure; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "parquet/file_reader.h"
#include "timef/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace timef::parquet;
  const auto* begin = reinterpret_cast<const std::byte*>(data);
  auto file = std::make_shared<MemoryFile>(std::vector<std::byte>(begin, begin + size), "fuzz");
  try {
    FileReader reader = FileReader::Open(file);
    ColumnData out;
    for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
      const std::int64_t rows = reader.row_group_num_rows(rg);
      for (int c = 0; c < static_cast<int>(reader.columns().size()); ++c) {
        try {
          reader.ReadColumnChunk(rg, c, out);
        } catch (const timef::Error&) {
          // Keep going: the row-range path below reads pages differently.
        }
        try {
          if (rows > 0) reader.ReadRows(rg, c, rows / 2, rows / 2 + 1, out);
        } catch (const timef::Error&) {
        }
      }
    }
  } catch (const timef::Error&) {
  }
  return 0;
}
