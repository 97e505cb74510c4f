// Malformed input: for each class of defect, a valid file is broken in one place and reading it
// must raise timef::FormatError whose message names the file and, for defects inside a column
// chunk, the row group, the column and the byte offset. Never a crash, a hang or another
// exception type; a random byte-flip sweep checks the same over many mutations.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "parquet/encoding_delta.h"
#include "parquet/encoding_plain.h"
#include "parquet/encoding_rle.h"
#include "parquet/file_reader.h"
#include "parquet/reader_file_builder.h"
#include "parquet/reader_test_support.h"

namespace timef::parquet {
namespace {

using testing::EditFooter;
using testing::FileBuilder;
using testing::PageOptions;
using Rep = FieldRepetitionType;

constexpr const char* kName = "corrupt.parquet";

// Opens `bytes` and reads every chunk whole and as two row ranges (with and without the page
// index). Returns normally only if everything succeeded.
void ReadEverything(const std::vector<std::byte>& bytes) {
  for (const bool use_index : {true, false}) {
    ReaderOptions options;
    options.use_page_index = use_index;
    FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(bytes, kName), {}, options);
    ColumnData data;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      const std::int64_t rows = reader.row_group_num_rows(g);
      for (int c = 0; c < static_cast<int>(reader.columns().size()); ++c) {
        reader.ReadColumnChunk(g, c, data);
        reader.ReadRows(g, c, rows / 2, rows, data);
        reader.ReadRows(g, c, 0, rows / 3, data);
      }
    }
  }
}

// Expects a FormatError whose message contains every one of `parts`, plus the file name.
void ExpectFormatError(const std::vector<std::byte>& bytes, std::vector<std::string> parts) {
  parts.push_back(kName);
  try {
    ReadEverything(bytes);
    ADD_FAILURE() << "read without error";
  } catch (const FormatError& e) {
    const std::string message = e.what();
    for (const auto& part : parts) {
      EXPECT_NE(message.find(part), std::string::npos)
          << "'" << part << "' missing in: " << message;
    }
  }
}

std::string At(std::uint64_t offset) { return "offset " + std::to_string(offset); }

// The base file: row group 0 and 1 of 60 rows; column "v" optional INT32 dictionary-encoded,
// column "l" optional list of optional doubles; zstd, CRC on every page, OffsetIndex everywhere.
struct Base {
  std::vector<std::byte> bytes;
  std::vector<testing::PageRecord> pages;
  const testing::PageRecord& Page(std::size_t group, std::size_t column, PageType type,
                                  int ordinal = 0) const {
    for (const auto& p : pages) {
      if (p.row_group == group && p.column == column && p.type == type && ordinal-- == 0) return p;
    }
    throw std::logic_error("no such page");
  }
};

struct BaseOptions {
  CompressionCodec codec = CompressionCodec::kZstd;
  bool crc = true;
  // Hooks to break one page: (group, column, data page ordinal) → options / values.
  std::function<void(int, int, int, PageOptions&)> page_options;
  std::function<void(int, int, std::vector<std::byte>&)> values;
  std::int16_t v_max_def = 1;  // the levels the file's pages use for "v"
  Encoding v_encoding = Encoding::kRleDictionary;
  bool dictionary = true;
};

Base BuildBase(const BaseOptions& o = {}) {
  using testing::Group;
  using testing::Leaf;
  FileBuilder builder({testing::Root(2), Leaf("v", Type::kInt32, Rep::kOptional),
                       Group("l", Rep::kOptional, 1, true), Group("list", Rep::kRepeated, 1, false),
                       Leaf("element", Type::kDouble, Rep::kOptional)},
                      o.codec);
  for (int g = 0; g < 2; ++g) {
    builder.StartRowGroup(60);
    builder.StartChunk(Type::kInt32, {"v"}, 0, o.v_max_def);
    if (o.dictionary) {
      std::vector<std::byte> plain;
      const std::vector<std::int32_t> dict = {10, 20, 30, 40};
      AppendPlain<std::int32_t>(dict, plain);
      PageOptions options;
      options.crc = o.crc;
      builder.DictionaryPage(plain, 4, options);
    }
    for (int p = 0; p < 3; ++p) {
      std::vector<std::int16_t> def;
      std::vector<std::uint32_t> indices;
      std::vector<std::int32_t> plain_values;
      for (int r = 0; r < 20; ++r) {
        const bool null = (r + p) % 6 == 0;
        def.push_back(null ? 0 : 1);
        if (!null) {
          indices.push_back(static_cast<std::uint32_t>(r % 4));
          plain_values.push_back(r * 10);
        }
      }
      std::vector<std::byte> values;
      if (o.v_encoding == Encoding::kRleDictionary) {
        AppendDictionaryIndices(indices, 4, values);
      } else {
        AppendPlain<std::int32_t>(plain_values, values);
      }
      if (o.values) o.values(g, p, values);
      PageOptions options;
      options.crc = o.crc;
      if (o.page_options) o.page_options(g, 0, p, options);
      builder.DataPage(o.v_encoding, values, 20, {}, def, options);
    }
    builder.EndChunk();

    builder.StartChunk(Type::kDouble, {"l", "list", "element"}, 1, 3);
    for (int p = 0; p < 2; ++p) {
      std::vector<std::int16_t> rep, def;
      std::vector<double> doubles;
      for (int r = 0; r < 30; ++r) {
        switch (r % 4) {
          case 0:  // null list
            rep.push_back(0);
            def.push_back(0);
            break;
          case 1:  // empty list
            rep.push_back(0);
            def.push_back(1);
            break;
          default:  // [r, null, r + 0.5]
            rep.insert(rep.end(), {0, 1, 1});
            def.insert(def.end(), {3, 2, 3});
            doubles.push_back(r);
            doubles.push_back(r + 0.5);
        }
      }
      std::vector<std::byte> values;
      AppendPlain<double>(doubles, values);
      PageOptions options;
      options.crc = o.crc;
      if (o.page_options) o.page_options(g, 1, p, options);
      builder.DataPage(Encoding::kPlain, values, static_cast<std::int32_t>(rep.size()), rep, def,
                       options);
    }
    builder.EndChunk();
  }
  Base base;
  base.bytes = builder.Finish();
  base.pages = builder.pages();
  return base;
}

TEST(ReaderCorruptTest, TheBaseFileIsValid) {
  const Base base = BuildBase();
  EXPECT_NO_THROW(ReadEverything(base.bytes));
  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(base.bytes, kName));
  ColumnData data;
  reader.ReadColumnChunk(1, 1, data);
  const auto cells = testing::CellsOf(data);
  ASSERT_EQ(cells.size(), 60u);
  EXPECT_FALSE(cells[0].elements.has_value());  // null list
  EXPECT_TRUE(cells[1].elements->empty());      // empty list
  ASSERT_EQ(cells[2].elements->size(), 3u);
  EXPECT_FALSE((*cells[2].elements)[1].has_value());  // null element
}

TEST(ReaderCorruptTest, TruncatedFiles) {
  const Base base = BuildBase();
  for (std::size_t cut : {std::size_t{1}, std::size_t{4}, std::size_t{8}, std::size_t{9},
                          std::size_t{100}, base.bytes.size() / 2, base.bytes.size() - 11}) {
    SCOPED_TRACE("cut " + std::to_string(cut));
    std::vector<std::byte> bytes(base.bytes.begin(),
                                 base.bytes.end() - static_cast<std::ptrdiff_t>(cut));
    ExpectFormatError(bytes, {"offset"});
  }
  ExpectFormatError({}, {"too small"});
}

TEST(ReaderCorruptTest, BadMagic) {
  const Base base = BuildBase();
  auto tail = base.bytes;
  tail.back() = std::byte{'2'};
  ExpectFormatError(tail, {"PAR1", At(tail.size() - 4)});
  auto head = base.bytes;
  head[0] = std::byte{'X'};
  ExpectFormatError(head, {"PAR1", At(0)});
}

TEST(ReaderCorruptTest, MetadataLengthLies) {
  const Base base = BuildBase();
  const std::size_t n = base.bytes.size();
  for (std::uint32_t length :
       {std::uint32_t(n), std::uint32_t(n - 11), std::uint32_t{0xFFFFFFFF}, std::uint32_t{0}}) {
    auto bytes = base.bytes;
    std::memcpy(bytes.data() + n - 8, &length, 4);
    ExpectFormatError(bytes, {"length", At(n - 8)});
  }
  // Shorter than the real metadata: the Thrift decoder runs out of bytes inside the footer.
  const std::uint32_t real = LoadLE<std::uint32_t>(base.bytes.data() + n - 8);
  auto bytes = base.bytes;
  const std::uint32_t shorter = real - 20;
  std::memcpy(bytes.data() + n - 8, &shorter, 4);
  ExpectFormatError(bytes, {"offset"});
}

TEST(ReaderCorruptTest, ColumnChunkOutsideTheFile) {
  const Base base = BuildBase();
  const auto beyond = EditFooter(base.bytes, [&](FileMetaData& m) {
    m.row_groups[1].columns[0].meta_data->data_page_offset = 1 << 30;
    m.row_groups[1].columns[0].meta_data->dictionary_page_offset.reset();
  });
  ExpectFormatError(beyond, {"row group 1", "column v", At(1 << 30)});
  const auto too_long = EditFooter(base.bytes, [&](FileMetaData& m) {
    m.row_groups[0].columns[1].meta_data->total_compressed_size = 1 << 20;
  });
  ExpectFormatError(too_long, {"row group 0", "column l.list.element", "offset"});
}

TEST(ReaderCorruptTest, PageHeaderSizesLie) {
  // compressed_page_size beyond the column chunk.
  BaseOptions longer;
  longer.page_options = [](int g, int c, int p, PageOptions& o) {
    if (g == 1 && c == 0 && p == 2) o.compressed_size_delta = 5000;
  };
  const Base a = BuildBase(longer);
  ExpectFormatError(a.bytes, {"row group 1", "column v",
                              At(a.Page(1, 0, PageType::kDataPage, 2).offset), "runs past"});
  // Shorter than stored: the CRC no longer matches the bytes the header claims.
  BaseOptions shorter;
  shorter.page_options = [](int g, int c, int p, PageOptions& o) {
    if (g == 0 && c == 1 && p == 0) o.compressed_size_delta = -3;
  };
  const Base b = BuildBase(shorter);
  ExpectFormatError(b.bytes, {"row group 0", "column l.list.element"});
  // An uncompressed size no codec can reach from the stored bytes: refused before allocating.
  BaseOptions huge;
  huge.page_options = [](int g, int c, int p, PageOptions& o) {
    if (g == 0 && c == 0 && p == 1) o.uncompressed_size_delta = (1 << 30) - 1000;
  };
  const Base h = BuildBase(huge);
  ExpectFormatError(h.bytes,
                    {"row group 0", "column v", At(h.Page(0, 0, PageType::kDataPage, 1).offset)});
}

TEST(ReaderCorruptTest, CrcMismatch) {
  const Base base = BuildBase();
  const auto& page = base.Page(1, 1, PageType::kDataPage, 1);
  auto bytes = base.bytes;
  bytes[page.body_offset() + page.body_size / 2] ^= std::byte{0x01};
  ExpectFormatError(bytes, {"CRC", "row group 1", "column l.list.element", At(page.offset)});
  // With verification off the flipped byte goes unnoticed or fails in decoding, never crashes.
  ReaderOptions options;
  options.verify_crc = false;
  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(bytes, kName), {}, options);
  ColumnData data;
  try {
    reader.ReadColumnChunk(1, 1, data);
  } catch (const FormatError&) {
  }
}

TEST(ReaderCorruptTest, CorruptZstdPayload) {
  BaseOptions o;
  o.crc = false;
  const Base base = BuildBase(o);
  const auto& page = base.Page(0, 0, PageType::kDataPage, 0);
  auto bytes = base.bytes;
  for (std::size_t i = 0; i < 4; ++i) bytes[page.body_offset() + i] = std::byte{0xEE};  // the magic
  ExpectFormatError(bytes, {"row group 0", "column v", At(page.offset)});
  const auto& dictionary = base.Page(1, 0, PageType::kDictionaryPage);
  auto dict_bytes = base.bytes;
  for (std::size_t i = 4; i < dictionary.body_size; ++i) {
    dict_bytes[dictionary.body_offset() + i] = std::byte{0xA5};
  }
  ExpectFormatError(dict_bytes, {"row group 1", "column v", At(dictionary.offset)});
}

TEST(ReaderCorruptTest, DictionaryIndexOutOfRange) {
  BaseOptions o;
  o.values = [](int g, int p, std::vector<std::byte>& values) {
    if (g == 1 && p == 1) {
      values.clear();
      std::vector<std::uint32_t> indices(17, 2);
      indices[9] = 6;  // the dictionary has 4 entries
      AppendDictionaryIndices(indices, 8, values);
    }
  };
  const Base base = BuildBase(o);
  ExpectFormatError(
      base.bytes, {"row group 1", "column v", At(base.Page(1, 0, PageType::kDataPage, 1).offset)});
}

TEST(ReaderCorruptTest, ImpossibleLevels) {
  // Definition levels above the column's maximum: level 3 in a flat optional column (max 1).
  using testing::Leaf;
  FileBuilder deep({testing::Root(1), Leaf("v", Type::kInt32, Rep::kOptional)});
  deep.StartRowGroup(10);
  deep.StartChunk(Type::kInt32, {"v"}, 0, 3);
  std::vector<std::byte> ten;
  AppendPlain<std::int32_t>(std::vector<std::int32_t>(10, 7), ten);
  deep.DataPage(Encoding::kPlain, ten, 10, {}, std::vector<std::int16_t>(10, 3));
  deep.EndChunk();
  const auto deep_page = deep.pages().back().offset;
  ExpectFormatError(deep.Finish(), {"row group 0", "column v", At(deep_page)});

  // v1 levels in an encoding levels cannot use.
  BaseOptions plain_levels;
  plain_levels.page_options = [](int g, int c, int p, PageOptions& o) {
    if (g == 0 && c == 1 && p == 1) o.level_encoding = Encoding::kPlain;
  };
  const Base b = BuildBase(plain_levels);
  ExpectFormatError(b.bytes, {"row group 0", "column l.list.element",
                              At(b.Page(0, 1, PageType::kDataPage, 1).offset), "levels"});
}

TEST(ReaderCorruptTest, EncodingDoesNotFitTheColumn) {
  BaseOptions o;
  o.dictionary = false;  // dictionary-encoded pages without a dictionary page
  const Base a = BuildBase(o);
  ExpectFormatError(a.bytes, {"row group 0", "column v", "dictionary"});
  // DELTA_BINARY_PACKED on a DOUBLE column.
  BaseOptions delta;
  delta.v_encoding = Encoding::kPlain;
  delta.page_options = [](int, int, int, PageOptions&) {};
  const Base b = BuildBase(delta);
  // Flip the encoding inside a page header by rebuilding the file with a patched header: find the
  // PLAIN encoding of the second page of "l" and claim DELTA_BINARY_PACKED instead.
  auto bytes = b.bytes;
  const auto& page = b.Page(0, 1, PageType::kDataPage, 1);
  auto header = ReadThrift<PageHeader>(std::span(bytes).subspan(page.offset, page.header_size));
  header.data_page_header->encoding = Encoding::kDeltaBinaryPacked;
  std::vector<std::byte> patched;
  WriteThrift(header, patched);
  ASSERT_EQ(patched.size(), page.header_size);  // same field widths: a same-size patch
  std::copy(patched.begin(), patched.end(),
            bytes.begin() + static_cast<std::ptrdiff_t>(page.offset));
  ExpectFormatError(
      bytes, {"row group 0", "column l.list.element", At(page.offset), "DELTA_BINARY_PACKED"});
}

TEST(ReaderCorruptTest, UnsupportedCodec) {
  const Base base = BuildBase();
  const auto lzo = EditFooter(base.bytes, [](FileMetaData& m) {
    m.row_groups[0].columns[1].meta_data->codec = CompressionCodec::kLzo;
  });
  ExpectFormatError(lzo, {"row group 0", "column l.list.element", "LZO"});
}

TEST(ReaderCorruptTest, CountsDisagree) {
  const Base base = BuildBase();
  // The chunk's num_values in the footer.
  const auto values = EditFooter(
      base.bytes, [](FileMetaData& m) { m.row_groups[1].columns[0].meta_data->num_values += 1; });
  ExpectFormatError(values, {"row group 1", "column v", "values"});
  // Row group rows vs the file's.
  const auto rows = EditFooter(base.bytes, [](FileMetaData& m) { m.num_rows += 1; });
  ExpectFormatError(rows, {"rows"});
  // A page that claims more values than its levels hold.
  BaseOptions more;
  more.page_options = [](int g, int c, int p, PageOptions& o) {
    if (g == 0 && c == 0 && p == 0) o.num_values = 25;
  };
  const Base m = BuildBase(more);
  ExpectFormatError(m.bytes, {"row group 0", "column v", "offset"});
  // Billions of levels declared (run-length encoding could deliver them from a few bytes):
  // refused before decoding anything.
  BaseOptions billions;
  billions.page_options = [](int g, int c, int p, PageOptions& o) {
    if (g == 1 && c == 1 && p == 0) o.num_values = 1 << 30;
  };
  const Base b = BuildBase(billions);
  ExpectFormatError(b.bytes, {"row group 1", "column l.list.element",
                              At(b.Page(1, 1, PageType::kDataPage, 0).offset), "limit"});
}

TEST(ReaderCorruptTest, OffsetIndexLies) {
  const Base base = BuildBase();
  // The index's location outside the file.
  const auto outside = EditFooter(base.bytes, [](FileMetaData& m) {
    m.row_groups[0].columns[0].offset_index_offset = 1 << 28;
  });
  ExpectFormatError(outside, {"row group 0", "column v", At(1 << 28)});
  // A page location outside the chunk, appended as a new index.
  auto split = testing::SplitFooter(base.bytes);
  OffsetIndex index;
  index.page_locations = {{4, 50, 0}, {static_cast<std::int64_t>(split.body.size()) + 100, 50, 20}};
  const auto at = static_cast<std::int64_t>(split.body.size());
  WriteThrift(index, split.body);
  split.metadata.row_groups[1].columns[1].offset_index_offset = at;
  split.metadata.row_groups[1].columns[1].offset_index_length =
      static_cast<std::int32_t>(split.body.size() - static_cast<std::size_t>(at));
  ExpectFormatError(testing::JoinFooter(split),
                    {"row group 1", "column l.list.element", At(static_cast<std::uint64_t>(at))});
  // Garbage where the index should be.
  const auto garbage = EditFooter(base.bytes, [](FileMetaData& m) {
    m.row_groups[0].columns[1].offset_index_offset = 4;  // a page header, not an index
  });
  ExpectFormatError(garbage, {"row group 0", "column l.list.element", "offset"});
}

TEST(ReaderCorruptTest, ListLevelsThatCannotBe) {
  // The first page of a list chunk continues a row (repetition level 1 first).
  using testing::Group;
  using testing::Leaf;
  FileBuilder builder({testing::Root(1), Group("l", Rep::kRequired, 1, true),
                       Group("list", Rep::kRepeated, 1, false),
                       Leaf("element", Type::kInt32, Rep::kRequired)});
  builder.StartRowGroup(2);
  builder.StartChunk(Type::kInt32, {"l", "list", "element"}, 1, 1);
  std::vector<std::byte> values;
  AppendPlain<std::int32_t>(std::vector<std::int32_t>{1, 2, 3}, values);
  builder.DataPage(Encoding::kPlain, values, 3, {1, 0, 0}, {1, 1, 1});
  builder.EndChunk(false);
  ExpectFormatError(builder.Finish(), {"row group 0", "column l.list.element", "row boundary"});
  // A continued list (repetition 1) whose definition level says "empty".
  FileBuilder second({testing::Root(1), Group("l", Rep::kOptional, 1, true),
                      Group("list", Rep::kRepeated, 1, false),
                      Leaf("element", Type::kInt32, Rep::kRequired)});
  second.StartRowGroup(1);
  second.StartChunk(Type::kInt32, {"l", "list", "element"}, 1, 2);
  std::vector<std::byte> one;
  AppendPlain<std::int32_t>(std::vector<std::int32_t>{1}, one);
  second.DataPage(Encoding::kPlain, one, 2, {0, 1}, {2, 1});
  second.EndChunk(false);
  ExpectFormatError(second.Finish(), {"row group 0", "column l.list.element", "continued list"});
}

TEST(ReaderCorruptTest, SchemaOutsideTheSupportedShapes) {
  const Base base = BuildBase();
  const auto structs = EditFooter(base.bytes, [](FileMetaData& m) {
    m.schema[2].converted_type.reset();
    m.schema[2].logical_type.reset();
  });
  ExpectFormatError(structs, {"'l'"});
}

// Random damage anywhere (no CRC, so the decoders see it): every outcome is success or a
// FormatError; anything else — a crash, another exception — fails.
TEST(ReaderCorruptTest, RandomByteFlipsNeverEscapeAsAnythingButFormatError) {
  BaseOptions o;
  o.crc = false;
  for (const CompressionCodec codec :
       {CompressionCodec::kUncompressed, CompressionCodec::kSnappy}) {
    o.codec = codec;
    const Base base = BuildBase(o);
    std::mt19937_64 rng(2024);
    int errors = 0;
    for (int i = 0; i < 600; ++i) {
      auto bytes = base.bytes;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < flips; ++k) {
        bytes[rng() % bytes.size()] ^= static_cast<std::byte>(1 + rng() % 255);
      }
      try {
        ReadEverything(bytes);
      } catch (const FormatError&) {
        ++errors;
      }
    }
    EXPECT_GT(errors, 100) << ToString(codec);
  }
}

}  // namespace
}  // namespace timef::parquet
