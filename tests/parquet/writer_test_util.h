// Helpers of the writer tests: rows as plain values (so expectations are easy to state), their
// conversion to the ColumnView the writer takes, and an independent walk over a written file
// that parses every page header, checks its CRC, decompresses it and decodes levels and values
// with the low-level decoders, giving the rows back.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/compression.h"
#include "parquet/crc32.h"
#include "parquet/encoding_bitpack.h"
#include "parquet/encoding_byte_stream_split.h"
#include "parquet/encoding_delta.h"
#include "parquet/encoding_dictionary.h"
#include "parquet/encoding_plain.h"
#include "parquet/encoding_rle.h"
#include "parquet/file_io.h"
#include "parquet/file_writer.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"

namespace timef::parquet::writer_testing {

// One row of one column. Flat columns: `items` holds exactly one entry (nullopt = null). Lists:
// `present` = false for a null list (then `items` is empty), else the elements. Each value is its
// PLAIN bytes (BOOLEAN: one 0/1 byte; BYTE_ARRAY: the bytes without a length).
struct Cell {
  bool present = true;
  std::vector<std::optional<std::string>> items;
  bool operator==(const Cell&) const = default;
};
using Rows = std::vector<Cell>;

template <typename T>
std::string Raw(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

template <typename T>
T FromRaw(const std::string& raw) {
  T value;
  std::memcpy(&value, raw.data(), sizeof(T));
  return value;
}

inline ColumnDescriptor Column(std::string name, Type type, bool nullable = false,
                               bool is_list = false, bool element_nullable = false,
                               std::int32_t type_length = 0) {
  ColumnDescriptor column;
  column.name = std::move(name);
  column.physical_type = type;
  column.type_length = type == Type::kFixedLenByteArray ? type_length : 0;
  column.nullable = nullable;
  column.is_list = is_list;
  column.element_nullable = element_nullable;
  column.path_in_schema = StandardPathInSchema(column);
  return column;
}

// The ColumnData holding `rows`. `slot_base` junk slots precede the data (lists only), so that
// list offsets do not start at 0.
inline ColumnData ToColumnData(const ColumnDescriptor& column, const Rows& rows,
                               std::int64_t slot_base = 0) {
  ColumnData data;
  data.physical_type = column.physical_type;
  data.type_length = column.type_length;
  data.num_rows = static_cast<std::int64_t>(rows.size());
  const std::size_t width =
      static_cast<std::size_t>(SlotWidth(column.physical_type, column.type_length));
  const bool bytes = column.physical_type == Type::kByteArray;
  if (bytes) data.byte_offsets.push_back(0);
  auto add_slot = [&](const std::optional<std::string>& value) {
    data.validity.push_back(value ? 1 : 0);
    if (bytes) {
      if (value) {
        for (char c : *value) data.values.push_back(static_cast<std::byte>(c));
      }
      data.byte_offsets.push_back(static_cast<std::int64_t>(data.values.size()));
    } else {
      const std::size_t at = data.values.size();
      data.values.resize(at + width, std::byte{0});
      if (value) std::memcpy(data.values.data() + at, value->data(), width);
    }
  };
  if (!column.is_list) {
    for (const Cell& cell : rows) add_slot(cell.items.at(0));
    return data;
  }
  for (std::int64_t i = 0; i < slot_base; ++i) add_slot(std::string(bytes ? 3 : width, 'x'));
  data.list_offsets.push_back(slot_base);
  for (const Cell& cell : rows) {
    data.list_validity.push_back(cell.present ? 1 : 0);
    for (const auto& item : cell.items) add_slot(item);
    data.list_offsets.push_back(data.list_offsets.back() +
                                static_cast<std::int64_t>(cell.items.size()));
  }
  return data;
}

// ---- Random values ----

// A value of `column`'s type; floats include NaNs (two payloads), infinities and both zeros.
inline std::string RandomValue(const ColumnDescriptor& column, std::mt19937_64& rng) {
  const std::uint64_t r = rng();
  const bool small = (r & 3) != 0;  // mostly from a small pool, so dictionaries pay off
  switch (column.physical_type) {
    case Type::kBoolean:
      return std::string(1, static_cast<char>(r & 1));
    case Type::kInt32: {
      static constexpr std::int32_t kSpecial[] = {0, -1, 1, INT32_MIN, INT32_MAX};
      if ((r & 31) == 0) return Raw(kSpecial[(r >> 8) % 5]);
      return Raw(static_cast<std::int32_t>(small ? (r >> 8) % 50 - 20 : (r >> 16)));
    }
    case Type::kInt64: {
      static constexpr std::int64_t kSpecial[] = {0, -1, 1, INT64_MIN, INT64_MAX};
      if ((r & 31) == 0) return Raw(kSpecial[(r >> 8) % 5]);
      return Raw(static_cast<std::int64_t>(small ? static_cast<std::int64_t>((r >> 8) % 50) - 20
                                                 : static_cast<std::int64_t>(rng())));
    }
    case Type::kFloat:
    case Type::kDouble: {
      double v;
      switch ((r >> 4) % 16) {
        case 0:
          v = std::numeric_limits<double>::infinity();
          break;
        case 1:
          v = -std::numeric_limits<double>::infinity();
          break;
        case 2:
          v = 0.0;
          break;
        case 3:
          v = -0.0;
          break;
        case 4: {  // NaN with a payload
          if (column.physical_type == Type::kFloat) return Raw(std::bit_cast<float>(0x7FC00123u));
          return Raw(std::bit_cast<double>(0x7FF8000000000ABCull));
        }
        case 5:
          v = std::numeric_limits<double>::quiet_NaN();
          break;
        default:
          v = small ? static_cast<double>((r >> 8) % 40) * 0.25 - 5
                    : std::ldexp(static_cast<double>(r >> 11), -40) - 4000.0;
      }
      if (column.physical_type == Type::kFloat) return Raw(static_cast<float>(v));
      return Raw(v);
    }
    case Type::kByteArray: {
      // Text columns get valid UTF-8 only; binary ones also invalid sequences and NUL bytes.
      const bool text = column.logical_type || column.converted_type;
      static const std::string kWords[] = {"",
                                           "a",
                                           "alpha",
                                           "beta",
                                           "gamma",
                                           "δέλτα",
                                           "日本語",
                                           std::string("\xff\xfe", 2),
                                           std::string(1, '\0')};
      static const std::string kTextWords[] = {"",      "a",      "alpha", "beta", "gamma",
                                               "δέλτα", "日本語", "zeta",  "Ω"};
      if ((r & 63) == 0) {  // long, to exercise truncated bounds
        std::string s(70 + (r >> 8) % 100, 'z');
        for (std::size_t i = 0; i < s.size(); i += 7) s[i] = static_cast<char>('a' + i % 26);
        return s;
      }
      if (small) return (text ? kTextWords : kWords)[(r >> 8) % std::size(kWords)];
      std::string s((r >> 8) % 12, ' ');
      for (char& c : s) c = static_cast<char>(' ' + rng() % 95);
      return s;
    }
    case Type::kFixedLenByteArray: {
      std::string s(static_cast<std::size_t>(column.type_length), '\0');
      const std::uint64_t seed = small ? (r >> 8) % 30 : rng();
      for (std::size_t i = 0; i < s.size(); ++i)
        s[i] = static_cast<char>((seed >> (i % 8 * 8)) ^ i);
      return s;
    }
    default:
      throw std::logic_error("unsupported type");
  }
}

// Rows for `column`: nulls where allowed (about one in six), lists of 0..max_list elements with
// null lists and empty lists mixed in.
inline Rows RandomRows(const ColumnDescriptor& column, std::size_t n, std::uint64_t seed,
                       std::size_t max_list = 12) {
  std::mt19937_64 rng(seed);
  Rows rows(n);
  for (Cell& cell : rows) {
    if (!column.is_list) {
      if (column.nullable && rng() % 6 == 0) {
        cell.items = {std::nullopt};
      } else {
        cell.items = {RandomValue(column, rng)};
      }
      continue;
    }
    if (column.nullable && rng() % 8 == 0) {
      cell.present = false;
      continue;
    }
    const std::size_t length = rng() % 5 == 0 ? 0 : rng() % (max_list + 1);
    for (std::size_t i = 0; i < length; ++i) {
      if (column.element_nullable && rng() % 6 == 0) {
        cell.items.push_back(std::nullopt);
      } else {
        cell.items.push_back(RandomValue(column, rng));
      }
    }
  }
  return rows;
}

// ---- Writing ----

// Accepts `limit` bytes, then fails like a full disk.
class FailingStream : public OutputStream {
 public:
  explicit FailingStream(std::size_t limit) : limit_(limit) {}
  std::uint64_t position() const override { return written_; }
  void Write(std::span<const std::byte> bytes) override {
    if (written_ + bytes.size() > limit_) throw std::runtime_error("disk full");
    written_ += bytes.size();
  }
  void Flush() override {}
  void Close() override {}

 private:
  std::size_t limit_;
  std::size_t written_ = 0;
};

// Hands one row group's rows (`group[c]` for column c) to `writer`, lists in two batches.
inline void StageRowGroup(FileWriter& writer, const std::vector<ColumnDescriptor>& schema,
                          const std::vector<Rows>& group) {
  for (std::size_t c = 0; c < schema.size(); ++c) {
    const ColumnData data = ToColumnData(schema[c], group[c], schema[c].is_list ? 2 : 0);
    writer.WriteColumn(c, data.View());
  }
}

inline std::vector<std::byte> WriteFile(const std::vector<ColumnDescriptor>& schema,
                                        const std::vector<std::vector<Rows>>& row_groups,
                                        const WriterOptions& options) {
  MemoryOutputStream out;
  FileWriter writer(out, schema, options);
  for (const auto& group : row_groups) {
    StageRowGroup(writer, schema, group);
    writer.FlushRowGroup();
  }
  writer.Close();
  return out.Release();
}

// ---- Reading back ----

struct ParsedPage {
  PageHeader header;
  std::int64_t offset = 0;
  std::int64_t header_bytes = 0;
  std::vector<std::byte> levels;  // v2: the uncompressed level bytes
  std::vector<std::byte> body;    // v1: the whole decompressed page; v2: the decompressed values
};

struct ParsedChunk {
  ColumnChunk chunk;
  std::optional<ParsedPage> dictionary;
  std::vector<ParsedPage> pages;
  std::optional<ColumnIndex> column_index;
  std::optional<OffsetIndex> offset_index;
};

struct ParsedFile {
  FileMetaData meta;
  std::vector<std::vector<ParsedChunk>> chunks;  // [row group][column]
};

inline std::uint32_t Le32(std::span<const std::byte> bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | std::to_integer<std::uint32_t>(bytes[at + i]);
  return v;
}

inline void Require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

// Parses the footer, the page index and every page; throws std::runtime_error on any structural
// problem (bad magic, pages not tiling the chunk, CRC mismatch, sizes that do not add up).
inline ParsedFile ParseFile(std::span<const std::byte> file) {
  auto text = [&](std::size_t at) {
    return std::string(reinterpret_cast<const char*>(file.data()) + at, 4);
  };
  Require(file.size() >= 12 && text(0) == "PAR1" && text(file.size() - 4) == "PAR1", "magic");
  const std::uint32_t footer_length = Le32(file, file.size() - 8);
  Require(footer_length <= file.size() - 12, "footer length");
  const auto footer = file.subspan(file.size() - 8 - footer_length, footer_length);
  std::size_t consumed = 0;
  ParsedFile parsed;
  parsed.meta = ReadThrift<FileMetaData>(footer, &consumed);
  Require(consumed == footer.size(), "footer has trailing bytes");

  Decompressor decompressor;
  std::int64_t expected_offset = 4;
  for (const RowGroup& group : parsed.meta.row_groups) {
    auto& chunks = parsed.chunks.emplace_back();
    for (const ColumnChunk& chunk : group.columns) {
      ParsedChunk& out = chunks.emplace_back();
      out.chunk = chunk;
      Require(chunk.meta_data.has_value(), "column chunk without metadata");
      const ColumnMetaData& meta = *chunk.meta_data;
      const std::int64_t start = meta.dictionary_page_offset.value_or(meta.data_page_offset);
      Require(start == expected_offset, "column chunks do not follow each other");
      const std::int64_t end = start + meta.total_compressed_size;
      std::int64_t pos = start;
      std::int64_t uncompressed_total = 0;
      std::int64_t levels_total = 0;
      while (pos < end) {
        ParsedPage page;
        page.offset = pos;
        std::size_t header_size = 0;
        page.header =
            ReadThrift<PageHeader>(file.subspan(static_cast<std::size_t>(pos)), &header_size);
        page.header_bytes = static_cast<std::int64_t>(header_size);
        const PageHeader& h = page.header;
        const auto stored = file.subspan(static_cast<std::size_t>(pos) + header_size,
                                         static_cast<std::size_t>(h.compressed_page_size));
        Require(h.crc.has_value(), "page without crc");
        Require(CrcFromThrift(*h.crc) == Crc32(stored), "page crc mismatch");
        if (h.type == PageType::kDataPageV2) {
          const auto& v2 = *h.data_page_header_v2;
          const std::size_t level_bytes = static_cast<std::size_t>(
              v2.repetition_levels_byte_length + v2.definition_levels_byte_length);
          page.levels.assign(stored.begin(), stored.begin() + level_bytes);
          page.body.resize(static_cast<std::size_t>(h.uncompressed_page_size) - level_bytes);
          const auto values = stored.subspan(level_bytes);
          if (v2.compressed()) {
            decompressor.Decompress(meta.codec, values, page.body);
          } else {
            Require(values.size() == page.body.size(), "uncompressed v2 size");
            std::copy(values.begin(), values.end(), page.body.begin());
          }
          levels_total += v2.num_values;
        } else {
          page.body.resize(static_cast<std::size_t>(h.uncompressed_page_size));
          decompressor.Decompress(meta.codec, stored, page.body);
          if (h.type == PageType::kDataPage) levels_total += h.data_page_header->num_values;
        }
        uncompressed_total += page.header_bytes + h.uncompressed_page_size;
        pos += page.header_bytes + h.compressed_page_size;
        if (h.type == PageType::kDictionaryPage) {
          Require(!out.dictionary && out.pages.empty(), "dictionary page not first");
          Require(pos - page.header_bytes - h.compressed_page_size == start, "dictionary offset");
          out.dictionary = std::move(page);
        } else {
          if (out.pages.empty()) Require(page.offset == meta.data_page_offset, "data_page_offset");
          out.pages.push_back(std::move(page));
        }
      }
      Require(pos == end, "pages overrun the chunk");
      Require(uncompressed_total == meta.total_uncompressed_size, "total_uncompressed_size");
      Require(levels_total == meta.num_values, "num_values");
      expected_offset = end;
      if (chunk.column_index_offset) {
        const auto bytes = file.subspan(static_cast<std::size_t>(*chunk.column_index_offset),
                                        static_cast<std::size_t>(*chunk.column_index_length));
        std::size_t used = 0;
        out.column_index = ReadThrift<ColumnIndex>(bytes, &used);
        Require(used == bytes.size(), "column index length");
      }
      if (chunk.offset_index_offset) {
        const auto bytes = file.subspan(static_cast<std::size_t>(*chunk.offset_index_offset),
                                        static_cast<std::size_t>(*chunk.offset_index_length));
        std::size_t used = 0;
        out.offset_index = ReadThrift<OffsetIndex>(bytes, &used);
        Require(used == bytes.size(), "offset index length");
      }
    }
  }
  return parsed;
}

// Decodes `count` values of `encoding` from `data` into their PLAIN bytes, and requires that
// exactly all of `data` was used.
inline std::vector<std::string> DecodeValues(const ColumnDescriptor& column, Encoding encoding,
                                             std::span<const std::byte> data, std::size_t count,
                                             const std::vector<std::string>* dictionary) {
  std::vector<std::string> out;
  out.reserve(count);
  const Type type = column.physical_type;
  const auto width = static_cast<std::size_t>(column.type_length);
  auto numbers = [&](auto& decoder, auto tag) {
    using T = decltype(tag);
    std::vector<T> values(count);
    decoder.Decode(values);
    for (T v : values) out.push_back(Raw(v));
    Require(decoder.bytes_consumed() == data.size(), "value bytes left over");
  };
  auto byte_arrays = [&](ByteArrayDecoder& decoder) {
    ByteArrays values;
    decoder.Decode(count, values);
    for (std::size_t i = 0; i < values.size(); ++i) out.emplace_back(values.str(i));
    Require(decoder.bytes_consumed() == data.size(), "value bytes left over");
  };
  auto fixed = [&](FixedLenDecoder& decoder) {
    std::vector<std::byte> values(count * width);
    decoder.Decode(values);
    for (std::size_t i = 0; i < count; ++i) {
      out.emplace_back(reinterpret_cast<const char*>(values.data()) + i * width, width);
    }
    Require(decoder.bytes_consumed() == data.size(), "value bytes left over");
  };
  switch (encoding) {
    case Encoding::kPlain:
      switch (type) {
        case Type::kBoolean: {
          PlainBooleanDecoder d(data);
          std::vector<std::uint8_t> values(count);
          d.Decode(values);
          for (auto v : values) out.push_back(std::string(1, static_cast<char>(v)));
          Require(d.bytes_consumed() == data.size(), "value bytes left over");
          break;
        }
        case Type::kInt32: {
          PlainDecoder<std::int32_t> d(data);
          numbers(d, std::int32_t{});
          break;
        }
        case Type::kInt64: {
          PlainDecoder<std::int64_t> d(data);
          numbers(d, std::int64_t{});
          break;
        }
        case Type::kFloat: {
          PlainDecoder<float> d(data);
          numbers(d, float{});
          break;
        }
        case Type::kDouble: {
          PlainDecoder<double> d(data);
          numbers(d, double{});
          break;
        }
        case Type::kByteArray: {
          PlainByteArrayDecoder d(data);
          byte_arrays(d);
          break;
        }
        case Type::kFixedLenByteArray: {
          PlainFixedLenDecoder d(data, width);
          fixed(d);
          break;
        }
        default:
          throw std::logic_error("type");
      }
      break;
    case Encoding::kRle: {
      RleBooleanDecoder d(data);
      std::vector<std::uint8_t> values(count);
      d.Decode(values);
      for (auto v : values) out.push_back(std::string(1, static_cast<char>(v)));
      Require(d.bytes_consumed() == data.size(), "value bytes left over");
      break;
    }
    case Encoding::kRleDictionary: {
      Require(dictionary != nullptr, "dictionary-encoded page without dictionary");
      auto d = RleBitPackedDecoder::ForDictionaryIndices(data);
      std::vector<std::uint32_t> indices(count);
      if (count > 0) d.Decode(indices, static_cast<std::uint32_t>(dictionary->size() - 1));
      for (auto i : indices) out.push_back((*dictionary)[i]);
      Require(count == 0 || d.bytes_consumed() == data.size(), "index bytes left over");
      break;
    }
    case Encoding::kDeltaBinaryPacked:
      if (type == Type::kInt32) {
        DeltaBinaryPackedDecoder<std::int32_t> d(data);
        numbers(d, std::int32_t{});
      } else {
        DeltaBinaryPackedDecoder<std::int64_t> d(data);
        numbers(d, std::int64_t{});
      }
      break;
    case Encoding::kDeltaLengthByteArray: {
      DeltaLengthByteArrayDecoder d(data);
      byte_arrays(d);
      break;
    }
    case Encoding::kDeltaByteArray:
      if (type == Type::kByteArray) {
        DeltaByteArrayDecoder d(data);
        byte_arrays(d);
      } else {
        DeltaByteArrayFixedLenDecoder d(data, width);
        fixed(d);
      }
      break;
    case Encoding::kByteStreamSplit:
      if (type == Type::kFloat) {
        ByteStreamSplitDecoder<float> d(data);
        numbers(d, float{});
      } else {
        ByteStreamSplitDecoder<double> d(data);
        numbers(d, double{});
      }
      break;
    default:
      throw std::runtime_error("unexpected encoding " + ToString(encoding));
  }
  return out;
}

inline std::vector<std::string> DecodeDictionary(const ColumnDescriptor& column,
                                                 const ParsedPage& page) {
  Require(page.header.dictionary_page_header->encoding == Encoding::kPlain, "dictionary encoding");
  return DecodeValues(column, Encoding::kPlain, page.body,
                      static_cast<std::size_t>(page.header.dictionary_page_header->num_values),
                      nullptr);
}

struct DecodedPage {
  Rows rows;
  std::vector<std::int16_t> repetition;
  std::vector<std::int16_t> definition;
  std::vector<std::string> values;  // the non-null values
};

inline std::vector<std::int16_t> DecodeLevels(std::span<const std::byte> runs, std::size_t count,
                                              std::int16_t max_level, std::size_t* used) {
  std::vector<std::int16_t> levels(count);
  RleBitPackedDecoder decoder(runs, BitWidth(static_cast<std::uint64_t>(max_level)));
  decoder.Decode(levels, max_level);
  *used = decoder.bytes_consumed();
  return levels;
}

inline DecodedPage DecodePage(const ColumnDescriptor& column, const ParsedPage& page,
                              const std::vector<std::string>* dictionary) {
  DecodedPage out;
  const std::int16_t max_rep = column.max_repetition_level();
  const std::int16_t max_def = column.max_definition_level();
  std::size_t count;
  Encoding encoding;
  std::span<const std::byte> values;
  if (page.header.type == PageType::kDataPage) {
    const auto& h = *page.header.data_page_header;
    Require(h.definition_level_encoding == Encoding::kRle, "def level encoding");
    Require(h.repetition_level_encoding == Encoding::kRle, "rep level encoding");
    count = static_cast<std::size_t>(h.num_values);
    encoding = h.encoding;
    std::span<const std::byte> rest = page.body;
    for (int which = 0; which < 2; ++which) {
      const std::int16_t max_level = which == 0 ? max_rep : max_def;
      if (max_level == 0) continue;
      Require(rest.size() >= 4, "level length");
      const std::uint32_t length = Le32(rest, 0);
      Require(length <= rest.size() - 4, "level length");
      std::size_t used = 0;
      auto levels = DecodeLevels(rest.subspan(4, length), count, max_level, &used);
      Require(used == length, "level bytes left over");
      (which == 0 ? out.repetition : out.definition) = std::move(levels);
      rest = rest.subspan(4 + length);
    }
    values = rest;
  } else {
    Require(page.header.type == PageType::kDataPageV2, "page type");
    const auto& h = *page.header.data_page_header_v2;
    count = static_cast<std::size_t>(h.num_values);
    encoding = h.encoding;
    const std::span<const std::byte> levels = page.levels;
    const auto rep_bytes = static_cast<std::size_t>(h.repetition_levels_byte_length);
    std::size_t used = 0;
    if (max_rep > 0) {
      out.repetition = DecodeLevels(levels.subspan(0, rep_bytes), count, max_rep, &used);
      Require(used == rep_bytes, "rep level bytes");
    } else {
      Require(rep_bytes == 0, "rep levels without repetition");
    }
    if (max_def > 0) {
      out.definition = DecodeLevels(levels.subspan(rep_bytes), count, max_def, &used);
      Require(used == levels.size() - rep_bytes, "def level bytes");
    } else {
      Require(levels.size() == rep_bytes, "def levels without definition");
    }
    values = page.body;
  }
  if (out.definition.empty()) out.definition.assign(count, max_def);
  if (out.repetition.empty()) out.repetition.assign(count, 0);
  const auto non_null =
      static_cast<std::size_t>(std::count(out.definition.begin(), out.definition.end(), max_def));
  if (page.header.type == PageType::kDataPageV2) {
    const auto& h = *page.header.data_page_header_v2;
    Require(static_cast<std::size_t>(h.num_nulls) == count - non_null, "num_nulls");
    Require(static_cast<std::size_t>(std::count(out.repetition.begin(), out.repetition.end(), 0)) ==
                static_cast<std::size_t>(h.num_rows),
            "num_rows");
  }
  out.values = DecodeValues(column, encoding, values, non_null, dictionary);

  std::size_t next_value = 0;
  const std::int16_t empty_level = column.nullable ? 1 : 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::int16_t def = out.definition[i];
    if (out.repetition[i] == 0) {
      out.rows.emplace_back();
    } else {
      Require(!out.rows.empty(), "page starts inside a row");
    }
    Cell& cell = out.rows.back();
    if (!column.is_list) {
      cell.items.push_back(def == max_def ? std::optional<std::string>(out.values[next_value++])
                                          : std::nullopt);
      continue;
    }
    if (column.nullable && def == 0) {
      Require(out.repetition[i] == 0, "null list inside a row");
      cell.present = false;
    } else if (def == empty_level) {
      Require(out.repetition[i] == 0, "empty list inside a row");
    } else if (def == max_def) {
      cell.items.push_back(out.values[next_value++]);
    } else {
      cell.items.push_back(std::nullopt);
    }
  }
  return out;
}

// Every page of a chunk decoded, with the rows each page holds.
struct DecodedChunk {
  Rows rows;
  std::vector<std::size_t> rows_per_page;
  std::vector<DecodedPage> pages;
};

inline DecodedChunk DecodeChunk(const ColumnDescriptor& column, const ParsedChunk& chunk) {
  DecodedChunk out;
  std::vector<std::string> dictionary;
  if (chunk.dictionary) dictionary = DecodeDictionary(column, *chunk.dictionary);
  for (const ParsedPage& page : chunk.pages) {
    DecodedPage decoded = DecodePage(column, page, chunk.dictionary ? &dictionary : nullptr);
    Require(!decoded.repetition.empty() && decoded.repetition[0] == 0,
            "page does not start at a row boundary");
    out.rows_per_page.push_back(decoded.rows.size());
    out.rows.insert(out.rows.end(), decoded.rows.begin(), decoded.rows.end());
    out.pages.push_back(std::move(decoded));
  }
  return out;
}

// ---- Expected statistics, computed independently of the writer ----

struct ExpectedBounds {
  bool has_bounds = false;
  std::string min;
  std::string max;
  std::int64_t nan_count = 0;
};

// `unsigned_ints`: INT32/INT64 compare as unsigned.
inline ExpectedBounds BoundsOf(const ColumnDescriptor& column,
                               const std::vector<std::string>& values, bool unsigned_ints = false) {
  ExpectedBounds b;
  auto less = [&](const std::string& x, const std::string& y) -> bool {
    switch (column.physical_type) {
      case Type::kInt32:
        return unsigned_ints ? FromRaw<std::uint32_t>(x) < FromRaw<std::uint32_t>(y)
                             : FromRaw<std::int32_t>(x) < FromRaw<std::int32_t>(y);
      case Type::kInt64:
        return unsigned_ints ? FromRaw<std::uint64_t>(x) < FromRaw<std::uint64_t>(y)
                             : FromRaw<std::int64_t>(x) < FromRaw<std::int64_t>(y);
      case Type::kFloat:
        return FromRaw<float>(x) < FromRaw<float>(y);
      case Type::kDouble:
        return FromRaw<double>(x) < FromRaw<double>(y);
      default:
        return std::lexicographical_compare(
            x.begin(), x.end(), y.begin(), y.end(), [](char p, char q) {
              return static_cast<unsigned char>(p) < static_cast<unsigned char>(q);
            });
    }
  };
  auto is_nan = [&](const std::string& v) {
    if (column.physical_type == Type::kFloat) return std::isnan(FromRaw<float>(v));
    if (column.physical_type == Type::kDouble) return std::isnan(FromRaw<double>(v));
    return false;
  };
  for (const std::string& v : values) {
    if (is_nan(v)) {
      ++b.nan_count;
      continue;
    }
    if (!b.has_bounds) {
      b = {true, v, v, b.nan_count};
      continue;
    }
    if (less(v, b.min)) b.min = v;
    if (less(b.max, v)) b.max = v;
  }
  if (b.has_bounds && column.physical_type == Type::kFloat) {
    if (FromRaw<float>(b.min) == 0) b.min = Raw(-0.0f);
    if (FromRaw<float>(b.max) == 0) b.max = Raw(0.0f);
  }
  if (b.has_bounds && column.physical_type == Type::kDouble) {
    if (FromRaw<double>(b.min) == 0) b.min = Raw(-0.0);
    if (FromRaw<double>(b.max) == 0) b.max = Raw(0.0);
  }
  return b;
}

inline std::vector<std::string> NonNullValues(const Rows& rows) {
  std::vector<std::string> out;
  for (const Cell& cell : rows) {
    for (const auto& item : cell.items) {
      if (item) out.push_back(*item);
    }
  }
  return out;
}

// Levels minus values: null values, null lists and empty lists.
inline std::int64_t NullCount(const Rows& rows, bool is_list) {
  std::int64_t nulls = 0;
  for (const Cell& cell : rows) {
    if (is_list && (!cell.present || cell.items.empty())) {
      ++nulls;
      continue;
    }
    for (const auto& item : cell.items) nulls += item ? 0 : 1;
  }
  return nulls;
}

}  // namespace timef::parquet::writer_testing
