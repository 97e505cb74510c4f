// Every physical type × encoding, each over every shape (flat/list, required/nullable),
// compression, page size and data page version: the file is parsed independently (footer, page
// headers, CRCs, page index) and decoded with the low-level decoders, and its structure,
// statistics and values are checked against the input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parquet/file_writer.h"
#include "parquet/writer_test_util.h"
#include "timef/version.h"

namespace timef::parquet {
namespace {

using writer_testing::BoundsOf;
using writer_testing::Cell;
using writer_testing::Column;
using writer_testing::DecodeChunk;
using writer_testing::NonNullValues;
using writer_testing::NullCount;
using writer_testing::ParseFile;
using writer_testing::RandomRows;
using writer_testing::Rows;

struct TypeEncoding {
  Type type;
  Encoding encoding;
};

std::string Name(const ::testing::TestParamInfo<TypeEncoding>& info) {
  return ToString(info.param.type) + "_" + ToString(info.param.encoding);
}

struct Shape {
  const char* name;
  bool nullable;
  bool is_list;
  bool element_nullable;
};

constexpr Shape kShapes[] = {
    {"required", false, false, false},
    {"optional", true, false, false},
    {"list<required>", false, true, false},
    {"optional list<optional>", true, true, true},
    {"optional list<required>", true, true, false},
    {"list<optional>", false, true, true},
};

bool IsDelta(Encoding e) {
  return e == Encoding::kDeltaBinaryPacked || e == Encoding::kDeltaLengthByteArray ||
         e == Encoding::kDeltaByteArray;
}

std::string Show(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out += kDigits[static_cast<unsigned char>(c) >> 4];
    out += kDigits[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

bool LessBytes(const std::string& a, const std::string& b) {
  return a < b;
}  // unsigned (char_traits)

// A written byte-array bound: exact, or (for values longer than the limit) a shorter valid bound.
void ExpectBound(const std::string& written, const std::string& exact, bool is_min, Type type) {
  if (type != Type::kByteArray || exact.size() <= 64) {
    EXPECT_EQ(Show(written), Show(exact)) << (is_min ? "min" : "max");
    return;
  }
  EXPECT_LE(written.size(), 64u);
  if (is_min) {
    EXPECT_EQ(exact.substr(0, written.size()), written) << "min must be a prefix";
  } else {
    EXPECT_TRUE(LessBytes(exact, written)) << "max must exceed the value";
  }
}

class WriterRoundTripTest : public ::testing::TestWithParam<TypeEncoding> {};

void CheckCase(const TypeEncoding& param, const Shape& shape, CompressionCodec codec,
               std::int64_t page_target, DataPageVersion version) {
  ColumnDescriptor column =
      Column("v", param.type, shape.nullable, shape.is_list, shape.element_nullable, 16);
  const ColumnDescriptor id = Column("id", Type::kInt32);
  const std::vector<ColumnDescriptor> schema = {id, column};

  WriterOptions options;
  options.compression = codec;
  options.compression_level = 3;
  options.data_page_target_bytes = page_target;
  options.data_page_version = version;
  options.columns = {ColumnWriteOptions{}, ColumnWriteOptions{param.encoding}};
  options.key_value_metadata = {{"k", "v"}};

  // Two row groups; the first arrives in three batches.
  const std::size_t sizes[] = {700, 300};
  std::vector<Rows> expected;
  std::vector<Rows> ids;
  for (std::size_t g = 0; g < 2; ++g) {
    expected.push_back(RandomRows(column, sizes[g], 1000 * g + 17));
    Rows id_rows;
    for (std::size_t i = 0; i < sizes[g]; ++i) {
      id_rows.push_back(Cell{true, {writer_testing::Raw(static_cast<std::int32_t>(i))}});
    }
    ids.push_back(std::move(id_rows));
  }

  MemoryOutputStream out;
  {
    FileWriter writer(out, schema, options);
    for (std::size_t g = 0; g < 2; ++g) {
      const Rows& rows = expected[g];
      const std::size_t cuts[] = {0, g == 0 ? 1u : rows.size(), g == 0 ? 400u : rows.size(),
                                  rows.size()};
      for (std::size_t b = 0; b + 1 < std::size(cuts); ++b) {
        if (cuts[b] == cuts[b + 1]) continue;
        const Rows part(rows.begin() + cuts[b], rows.begin() + cuts[b + 1]);
        const Rows id_part(ids[g].begin() + cuts[b], ids[g].begin() + cuts[b + 1]);
        const ColumnData data = writer_testing::ToColumnData(column, part, shape.is_list ? 3 : 0);
        const ColumnData id_data = writer_testing::ToColumnData(id, id_part);
        writer.WriteColumn(1, data.View());
        writer.WriteColumn(0, id_data.View());
      }
      writer.FlushRowGroup();
    }
    writer.Close();
  }
  const std::vector<std::byte> file = out.Release();

  // Same rows in one batch per row group: the same bytes.
  EXPECT_EQ(
      writer_testing::WriteFile(schema, {{ids[0], expected[0]}, {ids[1], expected[1]}}, options),
      file);

  writer_testing::ParsedFile parsed;
  ASSERT_NO_THROW(parsed = ParseFile(file));
  const FileMetaData& meta = parsed.meta;
  EXPECT_EQ(meta.version, 2);
  EXPECT_EQ(meta.num_rows, 1000);
  EXPECT_EQ(meta.created_by, std::string("timef version ") + kVersion);
  EXPECT_EQ(meta.schema, BuildSchemaElements(schema));
  ASSERT_TRUE(meta.key_value_metadata.has_value());
  EXPECT_EQ(meta.key_value_metadata->at(0).key, "k");
  ASSERT_TRUE(meta.column_orders.has_value());
  EXPECT_EQ(meta.column_orders->size(), 2u);
  ASSERT_EQ(meta.row_groups.size(), 2u);

  const bool has_levels = column.max_definition_level() > 0;
  const bool floating = param.type == Type::kFloat || param.type == Type::kDouble;
  for (std::size_t g = 0; g < 2; ++g) {
    SCOPED_TRACE("row group " + std::to_string(g));
    const RowGroup& group = meta.row_groups[g];
    EXPECT_EQ(group.num_rows, static_cast<std::int64_t>(sizes[g]));
    EXPECT_EQ(group.ordinal, static_cast<std::int16_t>(g));
    const auto& chunk = parsed.chunks[g][1];
    const ColumnMetaData& cm = *chunk.chunk.meta_data;
    EXPECT_EQ(cm.type, param.type);
    EXPECT_EQ(cm.codec, codec);
    EXPECT_EQ(cm.path_in_schema, column.path_in_schema);

    // Encodings.
    const bool dictionary = param.encoding == Encoding::kRleDictionary;
    std::vector<Encoding> encodings;
    if (dictionary) encodings.push_back(Encoding::kPlain);
    if (has_levels || param.encoding == Encoding::kRle) encodings.push_back(Encoding::kRle);
    if (param.encoding != Encoding::kRle) encodings.push_back(param.encoding);
    std::sort(encodings.begin(), encodings.end());
    EXPECT_EQ(cm.encodings, encodings);
    EXPECT_EQ(chunk.dictionary.has_value(), dictionary);
    ASSERT_TRUE(cm.encoding_stats.has_value());
    const PageType data_type =
        version == DataPageVersion::kV1 ? PageType::kDataPage : PageType::kDataPageV2;
    std::vector<PageEncodingStats> stats;
    if (dictionary) stats.push_back({PageType::kDictionaryPage, Encoding::kPlain, 1});
    stats.push_back({data_type, param.encoding, static_cast<std::int32_t>(chunk.pages.size())});
    EXPECT_EQ(*cm.encoding_stats, stats);
    for (const auto& page : chunk.pages) EXPECT_EQ(page.header.type, data_type);

    // Values, bit for bit.
    writer_testing::DecodedChunk decoded;
    ASSERT_NO_THROW(decoded = DecodeChunk(column, chunk));
    ASSERT_EQ(decoded.rows.size(), expected[g].size());
    for (std::size_t r = 0; r < decoded.rows.size(); ++r) {
      ASSERT_EQ(decoded.rows[r], expected[g][r]) << "row " << r;
    }
    EXPECT_EQ(DecodeChunk(id, parsed.chunks[g][0]).rows, ids[g]);

    // Offset index: one location per page, pages start at row boundaries.
    ASSERT_TRUE(chunk.offset_index.has_value());
    const auto& locations = chunk.offset_index->page_locations;
    ASSERT_EQ(locations.size(), chunk.pages.size());
    std::int64_t first_row = 0;
    for (std::size_t p = 0; p < locations.size(); ++p) {
      const auto& page = chunk.pages[p];
      EXPECT_EQ(locations[p].offset, page.offset);
      EXPECT_EQ(locations[p].compressed_page_size,
                page.header_bytes + page.header.compressed_page_size);
      EXPECT_EQ(locations[p].first_row_index, first_row);
      first_row += static_cast<std::int64_t>(decoded.rows_per_page[p]);
      // The target holds for pages of several rows (deltas are estimated at PLAIN width).
      if (decoded.rows_per_page[p] > 1 && !IsDelta(param.encoding)) {
        EXPECT_LE(page.header.uncompressed_page_size, page_target) << "page " << p;
      }
    }
    // ... and pages are not closed much before the target on average (rows vary in size, so a
    // single page may be; the estimate is close for these encodings).
    if (!IsDelta(param.encoding) && locations.size() > 2) {
      std::int64_t filled = 0;
      for (std::size_t p = 0; p + 1 < locations.size(); ++p) {
        filled += chunk.pages[p].header.uncompressed_page_size;
      }
      EXPECT_GE(filled, static_cast<std::int64_t>(locations.size() - 1) * page_target / 4);
    }

    // Chunk statistics.
    ASSERT_TRUE(cm.statistics.has_value());
    const Statistics& st = *cm.statistics;
    const auto values = NonNullValues(expected[g]);
    const auto bounds = BoundsOf(column, values);
    EXPECT_EQ(st.null_count, NullCount(expected[g], column.is_list));
    EXPECT_EQ(st.nan_count.has_value(), floating);
    if (floating) {
      EXPECT_EQ(st.nan_count, bounds.nan_count);
    }
    EXPECT_EQ(st.min_value.has_value(), bounds.has_bounds);
    EXPECT_EQ(st.max_value.has_value(), bounds.has_bounds);
    if (bounds.has_bounds) {
      ExpectBound(*st.min_value, bounds.min, true, param.type);
      ExpectBound(*st.max_value, bounds.max, false, param.type);
      EXPECT_EQ(st.is_min_value_exact, *st.min_value == bounds.min);
      EXPECT_EQ(st.is_max_value_exact, *st.max_value == bounds.max);
    }

    // Column index: per page bounds and null counts; absent only when a page is all NaN.
    bool nan_only_page = false;
    for (std::size_t p = 0; p < decoded.pages.size(); ++p) {
      const auto page_bounds = BoundsOf(column, decoded.pages[p].values);
      if (!decoded.pages[p].values.empty() && !page_bounds.has_bounds) nan_only_page = true;
    }
    ASSERT_EQ(chunk.column_index.has_value(), !nan_only_page);
    if (!chunk.column_index) continue;
    const ColumnIndex& index = *chunk.column_index;
    ASSERT_EQ(index.null_pages.size(), chunk.pages.size());
    ASSERT_TRUE(index.null_counts.has_value());
    EXPECT_EQ(index.nan_counts.has_value(), floating);
    for (std::size_t p = 0; p < chunk.pages.size(); ++p) {
      SCOPED_TRACE("page " + std::to_string(p));
      const auto& page = decoded.pages[p];
      const auto page_bounds = BoundsOf(column, page.values);
      const std::int64_t levels = static_cast<std::int64_t>(page.definition.size());
      EXPECT_EQ(index.null_pages[p], page.values.empty());
      EXPECT_EQ(index.null_counts->at(p), levels - static_cast<std::int64_t>(page.values.size()));
      if (floating) {
        EXPECT_EQ(index.nan_counts->at(p), page_bounds.nan_count);
      }
      if (page.values.empty()) {
        EXPECT_TRUE(index.min_values[p].empty());
        EXPECT_TRUE(index.max_values[p].empty());
      } else {
        ExpectBound(index.min_values[p], page_bounds.min, true, param.type);
        ExpectBound(index.max_values[p], page_bounds.max, false, param.type);
      }
    }
  }
}

TEST_P(WriterRoundTripTest, EveryShapeCodecPageSizeAndVersion) {
  for (const Shape& shape : kShapes) {
    for (CompressionCodec codec : {CompressionCodec::kUncompressed, CompressionCodec::kZstd}) {
      for (std::int64_t target : {std::int64_t{200}, std::int64_t{16 * 1024}}) {
        for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
          SCOPED_TRACE(std::string(shape.name) + ", " + ToString(codec) + ", target " +
                       std::to_string(target) + ", v" + std::to_string(static_cast<int>(version)));
          CheckCase(GetParam(), shape, codec, target, version);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, WriterRoundTripTest,
    ::testing::Values(TypeEncoding{Type::kBoolean, Encoding::kPlain},
                      TypeEncoding{Type::kBoolean, Encoding::kRle},
                      TypeEncoding{Type::kInt32, Encoding::kPlain},
                      TypeEncoding{Type::kInt32, Encoding::kRleDictionary},
                      TypeEncoding{Type::kInt32, Encoding::kDeltaBinaryPacked},
                      TypeEncoding{Type::kInt64, Encoding::kPlain},
                      TypeEncoding{Type::kInt64, Encoding::kRleDictionary},
                      TypeEncoding{Type::kInt64, Encoding::kDeltaBinaryPacked},
                      TypeEncoding{Type::kFloat, Encoding::kPlain},
                      TypeEncoding{Type::kFloat, Encoding::kRleDictionary},
                      TypeEncoding{Type::kFloat, Encoding::kByteStreamSplit},
                      TypeEncoding{Type::kDouble, Encoding::kPlain},
                      TypeEncoding{Type::kDouble, Encoding::kRleDictionary},
                      TypeEncoding{Type::kDouble, Encoding::kByteStreamSplit},
                      TypeEncoding{Type::kByteArray, Encoding::kPlain},
                      TypeEncoding{Type::kByteArray, Encoding::kRleDictionary},
                      TypeEncoding{Type::kByteArray, Encoding::kDeltaLengthByteArray},
                      TypeEncoding{Type::kByteArray, Encoding::kDeltaByteArray},
                      TypeEncoding{Type::kFixedLenByteArray, Encoding::kPlain},
                      TypeEncoding{Type::kFixedLenByteArray, Encoding::kRleDictionary},
                      TypeEncoding{Type::kFixedLenByteArray, Encoding::kDeltaByteArray}),
    Name);

}  // namespace
}  // namespace timef::parquet
