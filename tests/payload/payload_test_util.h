// Helpers of the payload tests: a scratch release directory per test, refs built from the
// writers' locations, and files crafted with the Parquet engine directly (to store what the
// payload writers refuse to write).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/file_io.h"
#include "parquet/file_writer.h"
#include "parquet/schema.h"
#include "payload/payload_reader.h"
#include "payload/payload_schema.h"
#include "payload/payload_writer.h"
#include "support/scratch_dir.h"

namespace timef::payload::testing {

using ::timef::testing::ScratchDir;

inline TextRef MakeTextRef(const std::filesystem::path& release, const TextLocator& location,
                           std::int64_t text_key = 1) {
  return TextRef{release / location.file, location, text_key};
}

inline OffsetsRef MakeOffsetsRef(const std::filesystem::path& release,
                                 const OffsetsLocator& location,
                                 const std::vector<std::int64_t>& offsets,
                                 std::string axis = "axis 1") {
  return OffsetsRef{release / location.path, location, offsets.empty() ? 0 : offsets.front(),
                    offsets.empty() ? 0 : offsets.back(), std::move(axis)};
}

// One row of a crafted text file: the `text` slot and the `text_list` list, each maybe null.
struct CraftedTextRow {
  std::optional<std::string> text;
  std::optional<std::vector<std::string>> list;
};

inline void AppendBytes(parquet::ColumnData& data, const std::string& bytes) {
  for (char c : bytes) data.values.push_back(static_cast<std::byte>(c));
  data.byte_offsets.push_back(static_cast<std::int64_t>(data.values.size()));
}

// Writes `rows` as one row group with the engine, in the payload text schema.
inline void WriteCraftedTextFile(const std::filesystem::path& path,
                                 const std::vector<CraftedTextRow>& rows) {
  std::filesystem::create_directories(path.parent_path());
  parquet::ColumnData text;
  text.physical_type = parquet::Type::kByteArray;
  text.byte_offsets.push_back(0);
  parquet::ColumnData list;
  list.physical_type = parquet::Type::kByteArray;
  list.byte_offsets.push_back(0);
  list.list_offsets.push_back(0);
  for (const CraftedTextRow& row : rows) {
    AppendBytes(text, row.text.value_or(""));
    text.validity.push_back(row.text ? 1 : 0);
    list.list_validity.push_back(row.list ? 1 : 0);
    if (row.list) {
      for (const std::string& element : *row.list) AppendBytes(list, element);
    }
    list.list_offsets.push_back(static_cast<std::int64_t>(list.byte_offsets.size()) - 1);
  }
  text.num_rows = list.num_rows = static_cast<std::int64_t>(rows.size());
  parquet::FileOutputStream out(path);
  parquet::FileWriter writer(out, TextFileSchema());
  writer.WriteColumn(0, text.View());
  writer.WriteColumn(1, list.View());
  writer.Close();
  out.Close();
}

// Writes one `offsets_us` row per entry of `rows`, as one row group.
inline void WriteCraftedOffsetsFile(const std::filesystem::path& path,
                                    const std::vector<std::vector<std::int64_t>>& rows) {
  std::filesystem::create_directories(path.parent_path());
  parquet::ColumnData data;
  data.physical_type = parquet::Type::kInt64;
  data.list_offsets.push_back(0);
  for (const auto& row : rows) {
    for (std::int64_t v : row) {
      const std::size_t at = data.values.size();
      data.values.resize(at + sizeof(v));
      std::memcpy(data.values.data() + at, &v, sizeof(v));
    }
    data.list_offsets.push_back(data.list_offsets.back() + static_cast<std::int64_t>(row.size()));
  }
  data.num_rows = static_cast<std::int64_t>(rows.size());
  parquet::FileOutputStream out(path);
  parquet::FileWriter writer(out, OffsetsFileSchema());
  writer.WriteColumn(0, data.View());
  writer.Close();
  out.Close();
}

// The UTF-8 text of `n` bytes cycling through 1-, 2-, 3- and 4-byte characters and newlines.
inline std::string LongText(std::size_t n) {
  static const std::string kPieces[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\n"};
  std::string out;
  std::size_t i = 0;
  while (out.size() < n) {
    const std::string& piece = kPieces[i++ % 5];
    if (out.size() + piece.size() > n) {
      out += std::string(n - out.size(), 'z');
    } else {
      out += piece;
    }
  }
  return out;
}

// `n` pseudo-random lowercase letters: text that compression cannot shrink much.
inline std::string RandomText(std::size_t n, unsigned seed) {
  std::uint64_t state = 0x9e3779b97f4a7c15ULL * (seed + 1);
  std::string out(n, 'a');
  for (char& c : out) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    c = static_cast<char>('a' + (state >> 59) % 26);
  }
  return out;
}

}  // namespace timef::payload::testing
