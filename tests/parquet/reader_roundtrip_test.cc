// Writer → reader round trips: random rows for every type × encoding the writer offers × shape
// (flat required/optional, lists with required/optional list and elements) × codec × page size ×
// page version, with NaN/±inf/-0.0, long strings, empty lists, null lists and null elements.
// The reader must give back exactly the rows written (bit for bit), whole and by row ranges,
// and a one-row read must decode one page.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "parquet/reader_test_support.h"

namespace timef::parquet {
namespace {

using testing::Cell;
using testing::CellsOf;
using testing::SameCells;
using testing::Scalar;

struct Shape {
  bool is_list;
  bool nullable;
  bool element_nullable;
};

constexpr Shape kShapes[] = {
    {false, false, false}, {false, true, false}, {true, false, false},
    {true, true, true},    {true, false, true},  {true, true, false},
};

std::string RandomValue(std::mt19937_64& rng, Type type, std::int32_t width, bool few) {
  const std::uint64_t seed = few ? rng() % 23 : rng();
  std::mt19937_64 local(seed + 1);
  switch (type) {
    case Type::kBoolean:
      return std::string(1, static_cast<char>(seed & 1));
    case Type::kByteArray: {
      const std::size_t n = seed % 13 == 0 ? 2000 + local() % 3000 : local() % 30;
      // A shared two-byte prefix (for DELTA_BYTE_ARRAY), then random bytes.
      std::string s(n, '\0');
      for (std::size_t i = 0; i < n; ++i) {
        s[i] = i == 0   ? 'k'
               : i == 1 ? static_cast<char>('0' + seed % 7)
                        : static_cast<char>(local() & 0xFF);
      }
      return s;
    }
    case Type::kFloat:
    case Type::kDouble: {
      std::string s(static_cast<std::size_t>(width), '\0');
      const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1e-310, 1.5};
      if (seed % 3 == 0) {
        const double d = specials[(seed / 3) % 8];
        if (type == Type::kDouble) {
          std::memcpy(s.data(), &d, 8);
        } else {
          const float f = static_cast<float>(d);
          std::memcpy(s.data(), &f, 4);
        }
      } else {
        const std::uint64_t bits = local();  // any pattern, NaN payloads included
        std::memcpy(s.data(), &bits, s.size());
      }
      return s;
    }
    default: {
      std::string s(static_cast<std::size_t>(width), '\0');
      for (auto& c : s) c = static_cast<char>(local());
      return s;
    }
  }
}

std::vector<Cell> RandomRows(std::mt19937_64& rng, const ColumnDescriptor& column, int rows,
                             bool few) {
  const std::int32_t width = SlotWidth(column.physical_type, column.type_length);
  std::vector<Cell> cells;
  for (int r = 0; r < rows; ++r) {
    Cell cell;
    cell.is_list = column.is_list;
    if (!column.is_list) {
      if (!column.nullable || rng() % 5 != 0) {
        cell.scalar = RandomValue(rng, column.physical_type, width, few);
      }
    } else if (!column.nullable || rng() % 8 != 0) {
      cell.elements.emplace();
      // Mostly short lists, some empty, a few long ones that span pages.
      const int n = rng() % 7 == 0 ? 0 : rng() % 20 == 0 ? 300 : 1 + static_cast<int>(rng() % 6);
      for (int k = 0; k < n; ++k) {
        Scalar v;
        if (!column.element_nullable || rng() % 4 != 0) {
          v = RandomValue(rng, column.physical_type, width, few);
        }
        cell.elements->push_back(std::move(v));
      }
    }
    cells.push_back(std::move(cell));
  }
  return cells;
}

// The rows as the ColumnData the writer takes.
ColumnData ToColumnData(const std::vector<Cell>& cells, const ColumnDescriptor& column) {
  ColumnData data;
  data.physical_type = column.physical_type;
  data.type_length = column.type_length;
  data.num_rows = static_cast<std::int64_t>(cells.size());
  const std::int32_t width = SlotWidth(column.physical_type, column.type_length);
  const bool bytes = column.physical_type == Type::kByteArray;
  if (bytes) data.byte_offsets.push_back(0);
  auto add = [&](const Scalar& v, bool nullable) {
    if (nullable) data.validity.push_back(v ? 1 : 0);
    if (bytes) {
      if (v) {
        for (char c : *v) data.values.push_back(static_cast<std::byte>(c));
      }
      data.byte_offsets.push_back(static_cast<std::int64_t>(data.values.size()));
    } else if (v) {
      for (char c : *v) data.values.push_back(static_cast<std::byte>(c));
    } else {
      data.values.insert(data.values.end(), static_cast<std::size_t>(width), std::byte{0});
    }
  };
  std::int64_t slots = 0;
  if (column.is_list) data.list_offsets.push_back(0);
  for (const Cell& cell : cells) {
    if (!column.is_list) {
      add(cell.scalar, column.nullable);
      continue;
    }
    if (column.nullable) data.list_validity.push_back(cell.elements ? 1 : 0);
    if (cell.elements) {
      for (const auto& e : *cell.elements) add(e, column.element_nullable);
      slots += static_cast<std::int64_t>(cell.elements->size());
    }
    data.list_offsets.push_back(slots);
  }
  return data;
}

struct Case {
  Type type;
  std::int32_t type_length;
  std::optional<LogicalType> logical;
  Encoding encoding;
  CompressionCodec codec;
  std::int64_t page_bytes;
  DataPageVersion version;
};

std::string CaseName(const Case& c) {
  std::string name = ToString(c.type) + "_" + ToString(c.encoding) + "_" + ToString(c.codec) + "_" +
                     std::to_string(c.page_bytes) +
                     (c.version == DataPageVersion::kV2 ? "_v2" : "_v1");
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return !std::isalnum(ch); }, '_');
  return name;
}

class RoundTripTest : public ::testing::TestWithParam<Case> {};

TEST_P(RoundTripTest, ReaderReturnsWhatTheWriterWrote) {
  const Case& c = GetParam();
  std::vector<ColumnDescriptor> schema;
  WriterOptions options;
  options.compression = c.codec;
  options.compression_level = c.codec == CompressionCodec::kZstd ? 3 : 0;
  options.data_page_target_bytes = c.page_bytes;
  options.data_page_version = c.version;
  for (std::size_t s = 0; s < std::size(kShapes); ++s) {
    ColumnDescriptor column;
    column.name = std::string(1, static_cast<char>('a' + s));
    column.physical_type = c.type;
    column.type_length = c.type_length;
    column.logical_type = c.logical;
    column.is_list = kShapes[s].is_list;
    column.nullable = kShapes[s].nullable;
    column.element_nullable = kShapes[s].element_nullable;
    schema.push_back(column);
    ColumnWriteOptions column_options;
    column_options.encoding = c.encoding;
    options.columns.push_back(column_options);
  }
  const bool dictionary = c.encoding == Encoding::kRleDictionary;
  std::mt19937_64 rng(std::hash<std::string>{}(CaseName(c)));
  std::vector<std::vector<std::vector<Cell>>> groups;  // [group][column] → rows
  MemoryOutputStream out;
  {
    FileWriter writer(out, schema, options);
    for (int g = 0; g < 3; ++g) {
      const int rows = 1 + static_cast<int>(rng() % 250);
      groups.emplace_back();
      for (std::size_t s = 0; s < schema.size(); ++s) {
        auto cells = RandomRows(rng, schema[s], rows, dictionary);
        // Two batches per chunk, split unevenly.
        const auto split = static_cast<std::ptrdiff_t>(rng() % (cells.size() + 1));
        const ColumnData head = ToColumnData({cells.begin(), cells.begin() + split}, schema[s]);
        const ColumnData tail = ToColumnData({cells.begin() + split, cells.end()}, schema[s]);
        writer.WriteColumn(s, head.View());
        writer.WriteColumn(s, tail.View());
        groups.back().push_back(std::move(cells));
      }
      writer.FlushRowGroup();
    }
    writer.Close();
  }

  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(out.Release(), "rt.parquet"));
  ASSERT_EQ(reader.num_row_groups(), 3);
  ASSERT_EQ(reader.columns().size(), schema.size());
  for (std::size_t s = 0; s < schema.size(); ++s) {
    const ColumnDescriptor& read = reader.columns()[s];
    EXPECT_EQ(read.name, schema[s].name);
    EXPECT_EQ(read.physical_type, schema[s].physical_type);
    EXPECT_EQ(read.is_list, schema[s].is_list);
    EXPECT_EQ(read.nullable, schema[s].nullable);
    EXPECT_EQ(read.element_nullable, schema[s].is_list && schema[s].element_nullable);
    EXPECT_EQ(read.logical_type, schema[s].logical_type);
  }
  ColumnData data;
  for (int g = 0; g < 3; ++g) {
    for (std::size_t s = 0; s < schema.size(); ++s) {
      SCOPED_TRACE("group " + std::to_string(g) + " column " + schema[s].name);
      const auto& expected = groups[static_cast<std::size_t>(g)][s];
      const int column = static_cast<int>(s);
      ASSERT_NE(reader.offset_index(g, column), nullptr);
      reader.ReadColumnChunk(g, column, data);
      ASSERT_TRUE(SameCells(expected, CellsOf(data)));
      const auto rows = static_cast<std::int64_t>(expected.size());
      for (int k = 0; k < 8; ++k) {
        std::int64_t first = static_cast<std::int64_t>(rng() % (rows + 1));
        std::int64_t last =
            k % 2 == 0 ? std::min(rows, first + 1) : static_cast<std::int64_t>(rng() % (rows + 1));
        if (first > last) std::swap(first, last);
        reader.ResetStats();
        reader.ReadRows(g, column, first, last, data);
        ASSERT_TRUE(
            SameCells({expected.begin() + first, expected.begin() + last}, CellsOf(data), first))
            << "rows [" << first << ", " << last << ")";
        if (last == first + 1) {
          // Pages hold whole rows, so one row is always one page: decoded, or gone on with when
          // the previous read stopped in it right before this row.
          EXPECT_EQ(reader.stats().data_pages_decoded + reader.stats().data_pages_resumed, 1u);
        }
      }
    }
  }
}

std::vector<Case> AllCases() {
  struct TypeEncodings {
    Type type;
    std::int32_t length;
    std::optional<LogicalType> logical;
    std::vector<Encoding> encodings;
  };
  const std::vector<TypeEncodings> types = {
      {Type::kBoolean, 0, std::nullopt, {Encoding::kPlain, Encoding::kRle}},
      {Type::kInt32,
       0,
       LogicalType::Integer(16, false),
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaBinaryPacked}},
      {Type::kInt64,
       0,
       std::nullopt,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaBinaryPacked}},
      {Type::kFloat,
       0,
       std::nullopt,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kByteStreamSplit}},
      {Type::kDouble,
       0,
       std::nullopt,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kByteStreamSplit}},
      {Type::kByteArray,
       0,
       LogicalType::Simple(LogicalType::Kind::kString),
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaLengthByteArray,
        Encoding::kDeltaByteArray}},
      {Type::kFixedLenByteArray,
       16,
       LogicalType::Simple(LogicalType::Kind::kUuid),
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaByteArray}},
  };
  const CompressionCodec codecs[] = {CompressionCodec::kZstd, CompressionCodec::kUncompressed,
                                     CompressionCodec::kSnappy, CompressionCodec::kGzip,
                                     CompressionCodec::kLz4Raw};
  const std::int64_t page_sizes[] = {64, 1024, 16 * 1024};
  std::vector<Case> cases;
  int n = 0;
  for (const auto& t : types) {
    for (Encoding e : t.encodings) {
      // Each (type, encoding) with two codec/page-size/version combinations.
      for (int k = 0; k < 2; ++k, ++n) {
        cases.push_back({t.type, t.length, t.logical, e, codecs[n % 5], page_sizes[n % 3],
                         n % 2 == 0 ? DataPageVersion::kV1 : DataPageVersion::kV2});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(TypesEncodingsCodecs, RoundTripTest, ::testing::ValuesIn(AllCases()),
                         [](const auto& info) { return CaseName(info.param); });

}  // namespace
}  // namespace timef::parquet
