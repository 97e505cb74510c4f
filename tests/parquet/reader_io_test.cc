// What a read touches: through a CountingFile, a one-row read from a file of 100 row groups must
// read only the footer, that chunk's OffsetIndex, its dictionary page (when the column has one)
// and the one data page holding the row, and decode only that page. Also: the reader's own
// counters, the caches of OffsetIndex and dictionary, and that opening touches no page bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "parquet/encoding_dictionary.h"
#include "parquet/encoding_plain.h"
#include "parquet/encoding_rle.h"
#include "parquet/file_reader.h"
#include "parquet/reader_file_builder.h"
#include "parquet/reader_test_support.h"

namespace timef::parquet {
namespace {

using testing::FileBuilder;
using Rep = FieldRepetitionType;
using Range = CountingFile::Range;

constexpr int kGroups = 100;
constexpr int kRowsPerGroup = 50;
constexpr int kRowsPerPage = 10;

// Column 0 "id": required INT64, PLAIN. Column 1 "s": optional strings, dictionary-encoded.
// Column 2 "l": required list of required doubles. id = global row number; s = "s<id % 7>"
// (null when id % 5 == 0); l = [id, id + 0.5] (empty when id % 3 == 0).
struct HundredGroups {
  std::vector<std::byte> bytes;
  std::vector<testing::PageRecord> pages;
};

HundredGroups BuildFile() {
  using testing::Group;
  using testing::Leaf;
  FileBuilder builder(
      {testing::Root(3), Leaf("id", Type::kInt64, Rep::kRequired),
       Leaf("s", Type::kByteArray, Rep::kOptional), Group("l", Rep::kRequired, 1, true),
       Group("list", Rep::kRepeated, 1, false), Leaf("element", Type::kDouble, Rep::kRequired)},
      CompressionCodec::kZstd);
  for (int g = 0; g < kGroups; ++g) {
    builder.StartRowGroup(kRowsPerGroup);
    const std::int64_t base = std::int64_t{g} * kRowsPerGroup;

    builder.StartChunk(Type::kInt64, {"id"}, 0, 0);
    for (int p = 0; p < kRowsPerGroup / kRowsPerPage; ++p) {
      std::vector<std::int64_t> ids;
      for (int r = 0; r < kRowsPerPage; ++r) ids.push_back(base + p * kRowsPerPage + r);
      std::vector<std::byte> values;
      AppendPlain<std::int64_t>(ids, values);
      builder.DataPage(Encoding::kPlain, values, kRowsPerPage);
    }
    builder.EndChunk();

    builder.StartChunk(Type::kByteArray, {"s"}, 0, 1);
    ByteArrays dictionary;
    for (int k = 0; k < 7; ++k) dictionary.Append("s" + std::to_string(k));
    std::vector<std::byte> plain;
    AppendPlainByteArrays(dictionary.view(), plain);
    builder.DictionaryPage(plain, 7);
    for (int p = 0; p < kRowsPerGroup / kRowsPerPage; ++p) {
      std::vector<std::uint32_t> indices;
      std::vector<std::int16_t> def;
      for (int r = 0; r < kRowsPerPage; ++r) {
        const std::int64_t id = base + p * kRowsPerPage + r;
        def.push_back(id % 5 == 0 ? 0 : 1);
        if (id % 5 != 0) indices.push_back(static_cast<std::uint32_t>(id % 7));
      }
      std::vector<std::byte> values;
      AppendDictionaryIndices(indices, 7, values);
      builder.DataPage(Encoding::kRleDictionary, values, kRowsPerPage, {}, def);
    }
    builder.EndChunk();

    builder.StartChunk(Type::kDouble, {"l", "list", "element"}, 1, 1);
    for (int p = 0; p < kRowsPerGroup / kRowsPerPage; ++p) {
      std::vector<double> doubles;
      std::vector<std::int16_t> rep, def;
      for (int r = 0; r < kRowsPerPage; ++r) {
        const std::int64_t id = base + p * kRowsPerPage + r;
        if (id % 3 == 0) {
          rep.push_back(0);
          def.push_back(0);
          continue;
        }
        for (int k = 0; k < 2; ++k) {
          rep.push_back(k == 0 ? 0 : 1);
          def.push_back(1);
          doubles.push_back(static_cast<double>(id) + 0.5 * k);
        }
      }
      std::vector<std::byte> values;
      AppendPlain<double>(doubles, values);
      builder.DataPage(Encoding::kPlain, values, static_cast<std::int32_t>(rep.size()), rep, def);
    }
    builder.EndChunk();
  }
  HundredGroups file;
  file.bytes = builder.Finish();
  file.pages = builder.pages();
  return file;
}

// True when [r.offset, r.offset + r.length) lies inside one of `allowed`.
bool Inside(const Range& r, const std::vector<Range>& allowed) {
  return std::any_of(allowed.begin(), allowed.end(), [&](const Range& a) {
    return r.offset >= a.offset && r.offset + r.length <= a.offset + a.length;
  });
}

std::string Show(const std::vector<Range>& ranges) {
  std::string out;
  for (const auto& r : ranges) {
    out += "[" + std::to_string(r.offset) + ", +" + std::to_string(r.length) + ") ";
  }
  return out;
}

class OneRowReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = BuildFile();
    auto counting = std::make_shared<CountingFile>(
        std::make_unique<MemoryFile>(file_.bytes, "hundred.parquet"));
    counting_ = counting.get();
    reader_ = std::make_unique<FileReader>(FileReader::Open(counting));
    const std::uint64_t size = file_.bytes.size();
    const std::uint32_t footer = LoadLE<std::uint32_t>(file_.bytes.data() + size - 8);
    footer_ = {size - 8 - footer, footer + 8};
  }

  // The page of (group, column) with the given kind and ordinal among data pages.
  const testing::PageRecord& DataPage(int group, int column, int ordinal) {
    int seen = 0;
    for (const auto& p : file_.pages) {
      if (p.row_group == static_cast<std::size_t>(group) &&
          p.column == static_cast<std::size_t>(column) && p.type == PageType::kDataPage) {
        if (seen++ == ordinal) return p;
      }
    }
    throw std::logic_error("no such page");
  }
  const testing::PageRecord* DictionaryPage(int group, int column) {
    for (const auto& p : file_.pages) {
      if (p.row_group == static_cast<std::size_t>(group) &&
          p.column == static_cast<std::size_t>(column) && p.type == PageType::kDictionaryPage) {
        return &p;
      }
    }
    return nullptr;
  }
  Range Whole(const testing::PageRecord& p) { return {p.offset, p.header_size + p.body_size}; }
  Range OffsetIndexOf(int group, int column) {
    const ColumnChunk& chunk = reader_->column_chunk(group, column);
    return {static_cast<std::uint64_t>(*chunk.offset_index_offset),
            static_cast<std::uint64_t>(*chunk.offset_index_length)};
  }

  HundredGroups file_;
  CountingFile* counting_ = nullptr;
  std::unique_ptr<FileReader> reader_;
  Range footer_;
};

TEST_F(OneRowReadTest, OpeningReadsOnlyTheFooterAndTheLeadingMagic) {
  const auto reads = counting_->reads();
  EXPECT_TRUE(std::all_of(reads.begin(), reads.end(), [&](const Range& r) {
    return Inside(r, {footer_, Range{0, 4}});
  })) << Show(reads);
  EXPECT_EQ(reader_->num_row_groups(), kGroups);
}

TEST_F(OneRowReadTest, TouchesOnlyTheRowsPagesIndexAndDictionary) {
  const int group = 57;
  const int row = 23;  // in the third page (rows 20..29) of each chunk
  const std::int64_t id = std::int64_t{group} * kRowsPerGroup + row;
  for (int column = 0; column < 3; ++column) {
    SCOPED_TRACE("column " + std::to_string(column));
    counting_->Reset();
    reader_->ResetStats();
    ColumnData data;
    reader_->ReadRows(group, column, row, row + 1, data);
    ASSERT_EQ(data.num_rows, 1);
    const auto cells = testing::CellsOf(data);
    if (column == 0) {
      EXPECT_EQ(*cells[0].scalar, std::string(reinterpret_cast<const char*>(&id), 8));
    } else if (column == 1) {
      EXPECT_EQ(*cells[0].scalar, "s" + std::to_string(id % 7));
    } else {
      ASSERT_EQ(cells[0].elements->size(), 2u);
      const double second = static_cast<double>(id) + 0.5;
      EXPECT_EQ(*(*cells[0].elements)[1], std::string(reinterpret_cast<const char*>(&second), 8));
    }

    const Range page = Whole(DataPage(group, column, 2));
    const Range index = OffsetIndexOf(group, column);
    std::vector<Range> allowed = {page, index};
    const testing::PageRecord* dictionary = DictionaryPage(group, column);
    if (dictionary != nullptr) allowed.push_back(Whole(*dictionary));
    const auto reads = counting_->reads();
    for (const Range& r : reads) EXPECT_TRUE(Inside(r, allowed)) << Show(reads);
    // Each needed range was read, and nothing else: the byte count is their sum.
    std::uint64_t expected_bytes = page.length + index.length;
    if (dictionary != nullptr) expected_bytes += Whole(*dictionary).length;
    EXPECT_EQ(counting_->bytes_read(), expected_bytes) << Show(reads);
    EXPECT_EQ(reader_->stats().data_pages_decoded, 1u);
    EXPECT_EQ(reader_->stats().data_pages_skipped, 0u);
    EXPECT_EQ(reader_->stats().dictionary_pages_decoded, dictionary != nullptr ? 1u : 0u);
    EXPECT_EQ(reader_->stats().offset_indexes_loaded, 1u);
    EXPECT_EQ(reader_->stats().io_bytes, expected_bytes);

    // Another row of the same chunk: the OffsetIndex and dictionary are cached.
    counting_->Reset();
    reader_->ResetStats();
    reader_->ReadRows(group, column, 41, 42, data);
    const Range other = Whole(DataPage(group, column, 4));
    EXPECT_EQ(counting_->reads(), (std::vector<Range>{other})) << Show(counting_->reads());
    EXPECT_EQ(reader_->stats().dictionary_pages_decoded, 0u);
    EXPECT_EQ(reader_->stats().offset_indexes_loaded, 0u);
  }
}

// RowsByteRange (what a caller hands to RandomAccessFile::Prefetch) is the span of the data pages
// ReadRows reads for the rows: one page, or the pages from the first row's to the last row's.
TEST_F(OneRowReadTest, RowsByteRangeSpansThePagesReadRowsReads) {
  EXPECT_EQ(reader_->RowsByteRange(57, 0, 23, 24), Whole(DataPage(57, 0, 2)));
  const Range first = Whole(DataPage(57, 1, 1));
  const Range last = Whole(DataPage(57, 1, 3));
  EXPECT_EQ(reader_->RowsByteRange(57, 1, 15, 35),
            (Range{first.offset, last.offset + last.length - first.offset}));
  // Reading those rows afterwards reads its data pages from inside that range only.
  const Range span = *reader_->RowsByteRange(12, 2, 41, 42);
  counting_->Reset();
  ColumnData data;
  reader_->ReadRows(12, 2, 41, 42, data);
  const testing::PageRecord* dictionary = DictionaryPage(12, 2);
  std::vector<Range> allowed = {span};
  if (dictionary != nullptr) allowed.push_back(Whole(*dictionary));
  const auto reads = counting_->reads();
  ASSERT_FALSE(reads.empty());
  for (const Range& r : reads) EXPECT_TRUE(Inside(r, allowed)) << Show(reads);
  EXPECT_TRUE(std::any_of(reads.begin(), reads.end(), [&](const Range& r) { return r == span; }))
      << Show(reads);
  EXPECT_EQ(reader_->RowsByteRange(57, 0, 5, 5), std::nullopt);  // no rows, no pages
  EXPECT_THROW(reader_->RowsByteRange(0, 0, 10, 9), ValidationError);
  EXPECT_THROW(reader_->RowsByteRange(kGroups, 0, 0, 1), ValidationError);
}

TEST_F(OneRowReadTest, WholeChunkReadDecodesEveryPageOfOneChunk) {
  ColumnData data;
  counting_->Reset();
  reader_->ReadColumnChunk(12, 1, data);
  EXPECT_EQ(data.num_rows, kRowsPerGroup);
  EXPECT_EQ(reader_->stats().data_pages_decoded, 5u);
  EXPECT_EQ(reader_->stats().dictionary_pages_decoded, 1u);
  const ColumnMetaData& meta = *reader_->column_chunk(12, 1).meta_data;
  EXPECT_EQ(counting_->bytes_read(), static_cast<std::uint64_t>(meta.total_compressed_size));
}

TEST_F(OneRowReadTest, ScanWithoutIndexSkipsPagesBeforeTheRange) {
  ReaderOptions options;
  options.use_page_index = false;
  FileReader reader =
      FileReader::Open(std::make_shared<MemoryFile>(file_.bytes, "hundred.parquet"), {}, options);
  ColumnData data;
  for (int column = 0; column < 3; ++column) {
    SCOPED_TRACE("column " + std::to_string(column));
    reader.ResetStats();
    reader.ReadRows(3, column, 35, 36, data);
    ASSERT_EQ(data.num_rows, 1);
    // Pages 0-2 skipped (flat columns from their headers, the list by its repetition levels),
    // page 3 decoded, page 4 never reached.
    EXPECT_EQ(reader.stats().data_pages_skipped, 3u);
    EXPECT_EQ(reader.stats().data_pages_decoded, 1u);
    EXPECT_EQ(reader.stats().offset_indexes_loaded, 0u);
  }
}

TEST_F(OneRowReadTest, ArgumentsOutsideTheFileAreValidationErrors) {
  ColumnData data;
  EXPECT_THROW(reader_->ReadRows(kGroups, 0, 0, 1, data), ValidationError);
  EXPECT_THROW(reader_->ReadRows(0, 3, 0, 1, data), ValidationError);
  EXPECT_THROW(reader_->ReadRows(0, 0, 10, 9, data), ValidationError);
  EXPECT_THROW(reader_->ReadRows(0, 0, 0, kRowsPerGroup + 1, data), ValidationError);
  EXPECT_THROW(reader_->ReadRows(-1, 0, 0, 1, data), ValidationError);
  try {
    reader_->ColumnIndex("missing");
    ADD_FAILURE() << "no exception";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("hundred.parquet"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
  const std::vector<std::string> names = {"l", "id"};
  EXPECT_EQ(reader_->ColumnIndices(names), (std::vector<int>{2, 0}));
}

TEST_F(OneRowReadTest, OutputBuffersAreReusedAcrossReads) {
  ColumnData data;
  reader_->ReadColumnChunk(0, 1, data);
  const auto* values = data.values.data();
  const auto* offsets = data.byte_offsets.data();
  const auto* validity = data.validity.data();
  for (int g = 1; g < 10; ++g) {
    reader_->ReadColumnChunk(g, 1, data);
    ASSERT_EQ(data.num_rows, kRowsPerGroup);
  }
  // Same-sized chunks fit the first read's capacity, so nothing was reallocated.
  EXPECT_EQ(data.values.data(), values);
  EXPECT_EQ(data.byte_offsets.data(), offsets);
  EXPECT_EQ(data.validity.data(), validity);
}

}  // namespace
}  // namespace timef::parquet
