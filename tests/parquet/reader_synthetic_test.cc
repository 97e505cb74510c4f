// The reader on files assembled page by page (reader_file_builder.h), covering what DuckDB does
// not write: every encoding for every type it fits, BIT_PACKED levels, v2 pages stored
// uncompressed, several pages per chunk with and without an OffsetIndex (scans that skip pages,
// v1 list rows continuing across pages), the legacy list schemas, and INT96. Values are random;
// each case checks whole chunks and many row ranges against the rows it wrote.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "parquet/encoding_byte_stream_split.h"
#include "parquet/encoding_delta.h"
#include "parquet/encoding_dictionary.h"
#include "parquet/encoding_plain.h"
#include "parquet/encoding_rle.h"
#include "parquet/file_reader.h"
#include "parquet/reader_file_builder.h"
#include "parquet/reader_test_support.h"

namespace timef::parquet {
namespace {

using testing::Cell;
using testing::CellsOf;
using testing::FileBuilder;
using testing::PageOptions;
using testing::SameCells;
using testing::Scalar;
using Rep = FieldRepetitionType;

enum class Shape {
  kRequired,
  kOptional,
  kListRequired,  // required list of required elements (3-level)
  kListOptional,  // optional list of optional elements (3-level)
  kLegacyList,    // optional group (LIST) { repeated T array; }
};

struct ShapeLevels {
  std::int16_t max_rep = 0;
  std::int16_t max_def = 0;
  std::int16_t list_def = 0;  // definition level of a present, empty list
  bool list_nullable = false;
  bool element_nullable = false;
};

ShapeLevels LevelsOf(Shape shape) {
  switch (shape) {
    case Shape::kRequired:
      return {0, 0, 0, false, false};
    case Shape::kOptional:
      return {0, 1, 0, false, true};
    case Shape::kListRequired:
      return {1, 1, 0, false, false};
    case Shape::kListOptional:
      return {1, 3, 1, true, true};
    case Shape::kLegacyList:
      return {1, 2, 1, true, false};
  }
  return {};
}

std::vector<SchemaElement> SchemaOf(Shape shape, Type type, std::optional<std::int32_t> length,
                                    std::vector<std::string>& path) {
  using testing::Group;
  using testing::Leaf;
  switch (shape) {
    case Shape::kRequired:
    case Shape::kOptional:
      path = {"v"};
      return {testing::Root(1),
              Leaf("v", type, shape == Shape::kRequired ? Rep::kRequired : Rep::kOptional, length)};
    case Shape::kListRequired:
      path = {"v", "list", "element"};
      return {testing::Root(1), Group("v", Rep::kRequired, 1, true),
              Group("list", Rep::kRepeated, 1, false),
              Leaf("element", type, Rep::kRequired, length)};
    case Shape::kListOptional:
      path = {"v", "list", "element"};
      return {testing::Root(1), Group("v", Rep::kOptional, 1, true),
              Group("list", Rep::kRepeated, 1, false),
              Leaf("element", type, Rep::kOptional, length)};
    case Shape::kLegacyList:
      path = {"v", "array"};
      return {testing::Root(1), Group("v", Rep::kOptional, 1, true),
              Leaf("array", type, Rep::kRepeated, length)};
  }
  return {};
}

std::int32_t WidthOf(Type type, std::int32_t length) { return SlotWidth(type, length); }

// A random value of `type` in the reader's slot layout; `pool` > 0 draws from that many values.
std::string RandomValue(std::mt19937_64& rng, Type type, std::int32_t width, int pool) {
  std::uint64_t seed = pool > 0 ? rng() % static_cast<std::uint64_t>(pool) : rng();
  std::mt19937_64 local(seed * 7919 + 17);
  switch (type) {
    case Type::kBoolean:
      return std::string(1, static_cast<char>(seed & 1));
    case Type::kByteArray: {
      std::string s;
      const std::size_t n = seed % 9 == 0 ? 300 + local() % 700 : local() % 24;
      const std::string prefix = "prefix-" + std::to_string(seed % 5);
      s = prefix.substr(0, std::min(prefix.size(), n));
      while (s.size() < n) s += static_cast<char>('a' + local() % 26);
      return s;
    }
    case Type::kFloat:
    case Type::kDouble: {
      // Specials (NaN with payloads, ±inf, ±0) are frequent; compared as bit patterns.
      std::string s(static_cast<std::size_t>(width), '\0');
      const std::uint64_t bits = local();
      std::memcpy(s.data(), &bits, s.size());
      if (seed % 4 == 0) {
        const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN};
        const double d = specials[seed % 6];
        if (type == Type::kDouble) {
          std::memcpy(s.data(), &d, 8);
        } else {
          const float f = static_cast<float>(d);
          std::memcpy(s.data(), &f, 4);
        }
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

// The encoded values section for `values` (present values only).
std::vector<std::byte> EncodeValues(Type type, std::int32_t width, Encoding encoding,
                                    const std::vector<std::string>& values,
                                    const std::map<std::string, std::uint32_t>& dictionary) {
  std::vector<std::byte> out;
  auto bytes = [](const std::string& s) {
    return std::span<const std::byte>(reinterpret_cast<const std::byte*>(s.data()), s.size());
  };
  std::string joined;
  for (const auto& v : values) joined += v;
  ByteArrays arrays;
  for (const auto& v : values) arrays.Append(std::string_view(v));
  auto typed = [&]<typename T>(T) {
    std::vector<T> t(values.size());
    if (!t.empty()) std::memcpy(t.data(), joined.data(), joined.size());
    return t;
  };
  switch (encoding) {
    case Encoding::kPlain:
      if (type == Type::kBoolean) {
        std::vector<std::uint8_t> b;
        for (const auto& v : values) b.push_back(static_cast<std::uint8_t>(v[0]));
        AppendPlainBooleans(b, out);
      } else if (type == Type::kByteArray) {
        AppendPlainByteArrays(arrays.view(), out);
      } else {
        AppendBytes(out, bytes(joined));
      }
      return out;
    case Encoding::kRle: {
      std::vector<std::uint8_t> b;
      for (const auto& v : values) b.push_back(static_cast<std::uint8_t>(v[0]));
      AppendRleBooleans(b, out);
      return out;
    }
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary: {
      std::vector<std::uint32_t> indices;
      for (const auto& v : values) indices.push_back(dictionary.at(v));
      AppendDictionaryIndices(indices, static_cast<std::uint32_t>(dictionary.size()), out);
      return out;
    }
    case Encoding::kDeltaBinaryPacked:
      if (type == Type::kInt32) {
        const auto t = typed(std::int32_t{});
        AppendDeltaBinaryPacked<std::int32_t>(t, out);
      } else {
        const auto t = typed(std::int64_t{});
        AppendDeltaBinaryPacked<std::int64_t>(t, out);
      }
      return out;
    case Encoding::kDeltaLengthByteArray:
      AppendDeltaLengthByteArray(arrays.view(), out);
      return out;
    case Encoding::kDeltaByteArray:
      AppendDeltaByteArray(arrays.view(), out);
      return out;
    case Encoding::kByteStreamSplit:
      switch (type) {
        case Type::kFloat: {
          const auto t = typed(float{});
          AppendByteStreamSplit<float>(t, out);
          break;
        }
        case Type::kDouble: {
          const auto t = typed(double{});
          AppendByteStreamSplit<double>(t, out);
          break;
        }
        case Type::kInt32: {
          const auto t = typed(std::int32_t{});
          AppendByteStreamSplit<std::int32_t>(t, out);
          break;
        }
        case Type::kInt64: {
          const auto t = typed(std::int64_t{});
          AppendByteStreamSplit<std::int64_t>(t, out);
          break;
        }
        default:
          AppendByteStreamSplitFixedLen(bytes(joined), static_cast<std::size_t>(width), out);
      }
      return out;
    default:
      throw std::logic_error("EncodeValues: encoding not handled");
  }
}

struct Case {
  Type type;
  std::int32_t type_length;  // FIXED_LEN_BYTE_ARRAY only
  Encoding encoding;
  Shape shape;
  bool v2;
  Encoding level_encoding;
  CompressionCodec codec;
  bool v2_compressed = true;
};

std::string CaseName(const Case& c) {
  std::string name = ToString(c.type) + "_" + ToString(c.encoding) + "_S" +
                     std::to_string(static_cast<int>(c.shape)) + (c.v2 ? "_v2" : "_v1") + "_" +
                     ToString(c.codec) + (c.level_encoding == Encoding::kBitPacked ? "_BP" : "") +
                     (c.v2_compressed ? "" : "_raw");
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return !std::isalnum(ch); }, '_');
  return name;
}

// The rows of one case plus how they are cut into pages.
struct Written {
  std::vector<std::byte> file;
  std::vector<std::vector<Cell>> groups;  // expected cells per row group
};

Written WriteCase(const Case& c, std::uint64_t seed, bool cut_rows_across_pages) {
  std::mt19937_64 rng(seed);
  const ShapeLevels levels = LevelsOf(c.shape);
  const std::int32_t width = WidthOf(c.type, c.type_length);
  const bool dictionary =
      c.encoding == Encoding::kPlainDictionary || c.encoding == Encoding::kRleDictionary;
  const int pool = dictionary ? 40 : 0;
  std::vector<std::string> path;
  const auto schema = SchemaOf(
      c.shape, c.type,
      c.type == Type::kFixedLenByteArray ? std::optional(c.type_length) : std::nullopt, path);
  FileBuilder builder(schema, c.codec);
  Written written;
  const bool is_list = levels.max_rep > 0;
  for (int g = 0; g < 2; ++g) {
    const int rows = 1 + static_cast<int>(rng() % 400);
    // Rows as cells and as levels + values.
    std::vector<Cell> cells;
    std::vector<std::int16_t> rep, def;
    std::vector<std::string> present;      // present values in level order
    std::vector<std::size_t> value_index;  // per level: index into `present` of the next value
    for (int r = 0; r < rows; ++r) {
      Cell cell;
      cell.is_list = is_list;
      auto value = [&]() -> Scalar {
        if (levels.element_nullable && rng() % 5 == 0) return std::nullopt;
        return RandomValue(rng, c.type, width, pool);
      };
      if (!is_list) {
        cell.scalar = value();
        if (levels.max_def > 0) def.push_back(cell.scalar ? 1 : 0);
        if (cell.scalar) present.push_back(*cell.scalar);
      } else if (levels.list_nullable && rng() % 10 == 0) {
        rep.push_back(0);
        def.push_back(0);
      } else {
        cell.elements.emplace();
        const int n = rng() % 8 == 0 ? 0 : 1 + static_cast<int>(rng() % 6);
        if (n == 0) {
          rep.push_back(0);
          def.push_back(levels.list_def);
        }
        for (int k = 0; k < n; ++k) {
          const Scalar v = value();
          cell.elements->push_back(v);
          rep.push_back(k == 0 ? 0 : 1);
          def.push_back(v ? levels.max_def : static_cast<std::int16_t>(levels.list_def + 1));
          if (v) present.push_back(*v);
        }
      }
      cells.push_back(std::move(cell));
    }
    std::map<std::string, std::uint32_t> dict;
    std::vector<std::string> dict_order;
    for (const auto& v : present) {
      if (dict.emplace(v, static_cast<std::uint32_t>(dict.size())).second) dict_order.push_back(v);
    }
    builder.StartRowGroup(rows);
    builder.StartChunk(c.type, path, levels.max_rep, levels.max_def);
    if (dictionary) {
      const auto plain = EncodeValues(c.type, width, Encoding::kPlain, dict_order, {});
      builder.DictionaryPage(plain, static_cast<std::int32_t>(dict_order.size()));
    }
    // Cut into pages: at row boundaries, or (v1 lists without index) anywhere.
    const std::size_t num_levels = is_list || levels.max_def > 0 ? def.size() : cells.size();
    std::size_t level = 0;
    std::size_t value = 0;
    while (level < num_levels) {
      std::size_t end = std::min(num_levels, level + 1 + rng() % 90);
      if (is_list && !cut_rows_across_pages) {
        while (end < num_levels && rep[end] != 0) ++end;
      }
      std::vector<std::string> page_values;
      for (std::size_t i = level; i < end; ++i) {
        const bool has_value = levels.max_def == 0 || def[i] == levels.max_def;
        if (has_value) page_values.push_back(present[value++]);
      }
      PageOptions options;
      options.v2 = c.v2;
      options.v2_compressed = c.v2_compressed;
      options.level_encoding = c.level_encoding;
      const auto encoded = EncodeValues(c.type, width, c.encoding, page_values, dict);
      const std::vector<std::int16_t> page_rep =
          is_list ? std::vector<std::int16_t>(rep.begin() + level, rep.begin() + end)
                  : std::vector<std::int16_t>{};
      const std::vector<std::int16_t> page_def =
          levels.max_def > 0 ? std::vector<std::int16_t>(def.begin() + level, def.begin() + end)
                             : std::vector<std::int16_t>{};
      builder.DataPage(c.encoding, encoded, static_cast<std::int32_t>(end - level), page_rep,
                       page_def, options);
      level = end;
    }
    builder.EndChunk(/*offset_index=*/!cut_rows_across_pages);
    written.groups.push_back(std::move(cells));
  }
  written.file = builder.Finish();
  return written;
}

class SyntheticTest : public ::testing::TestWithParam<Case> {};

void CheckReads(const Written& written, const Case& c, bool use_index, std::uint64_t seed) {
  ReaderOptions options;
  options.use_page_index = use_index;
  FileReader reader = FileReader::Open(
      std::make_shared<MemoryFile>(written.file, "synthetic.parquet"), {}, options);
  ASSERT_EQ(reader.num_row_groups(), static_cast<int>(written.groups.size()));
  const ColumnDescriptor& column = reader.columns()[0];
  EXPECT_EQ(column.physical_type, c.type);
  EXPECT_EQ(column.max_definition_level(), LevelsOf(c.shape).max_def);
  EXPECT_EQ(column.max_repetition_level(), LevelsOf(c.shape).max_rep);
  std::mt19937_64 rng(seed);
  ColumnData data;
  std::uint64_t skipped = 0;
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    const auto& expected = written.groups[static_cast<std::size_t>(g)];
    reader.ReadColumnChunk(g, 0, data);
    ASSERT_TRUE(SameCells(expected, CellsOf(data))) << "row group " << g;
    const auto rows = static_cast<std::int64_t>(expected.size());
    for (int k = 0; k < 25; ++k) {
      std::int64_t first = static_cast<std::int64_t>(rng() % (rows + 1));
      std::int64_t last = static_cast<std::int64_t>(rng() % (rows + 1));
      if (first > last) std::swap(first, last);
      if (k % 3 == 0) last = std::min(rows, first + 1);
      reader.ResetStats();
      reader.ReadRows(g, 0, first, last, data);
      ASSERT_TRUE(
          SameCells({expected.begin() + first, expected.begin() + last}, CellsOf(data), first))
          << "row group " << g << " rows [" << first << ", " << last << ")";
      skipped += reader.stats().data_pages_skipped;
      if (use_index && last == first + 1) {
        // A one-row read decodes exactly the page holding it (or goes on with it, when an
        // earlier read stopped in it right before this row).
        EXPECT_EQ(reader.stats().data_pages_decoded + reader.stats().data_pages_resumed, 1u);
        EXPECT_EQ(reader.stats().data_pages_skipped, 0u);
      }
    }
  }
  // Scans pass over the pages before a range without decoding them.
  if (!use_index) {
    EXPECT_GT(skipped, 0u);
  }
}

TEST_P(SyntheticTest, WholeChunksAndRowRanges) {
  const Case& c = GetParam();
  const Written written = WriteCase(c, 1234, /*cut_rows_across_pages=*/false);
  CheckReads(written, c, /*use_index=*/true, 99);
  CheckReads(written, c, /*use_index=*/false, 98);
}

// v1 list pages cut anywhere, so rows continue from one page into the next (no OffsetIndex:
// such files cannot have one).
class SyntheticSpanningTest : public ::testing::TestWithParam<Case> {};

TEST_P(SyntheticSpanningTest, V1ListRowsContinuingAcrossPages) {
  const Case& c = GetParam();
  const Written written = WriteCase(c, 777, /*cut_rows_across_pages=*/true);
  CheckReads(written, c, /*use_index=*/false, 97);
}

std::vector<Case> AllCases() {
  struct TypeEncodings {
    Type type;
    std::int32_t length;
    std::vector<Encoding> encodings;
  };
  const std::vector<TypeEncodings> types = {
      {Type::kBoolean, 0, {Encoding::kPlain, Encoding::kRle}},
      {Type::kInt32,
       0,
       {Encoding::kPlain, Encoding::kPlainDictionary, Encoding::kRleDictionary,
        Encoding::kDeltaBinaryPacked, Encoding::kByteStreamSplit}},
      {Type::kInt64,
       0,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaBinaryPacked,
        Encoding::kByteStreamSplit}},
      {Type::kInt96, 0, {Encoding::kPlain, Encoding::kRleDictionary}},
      {Type::kFloat, 0, {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kByteStreamSplit}},
      {Type::kDouble,
       0,
       {Encoding::kPlain, Encoding::kPlainDictionary, Encoding::kByteStreamSplit}},
      {Type::kByteArray,
       0,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaLengthByteArray,
        Encoding::kDeltaByteArray}},
      {Type::kFixedLenByteArray,
       3,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaByteArray,
        Encoding::kByteStreamSplit}},
  };
  const Shape shapes[] = {Shape::kRequired, Shape::kOptional, Shape::kListRequired,
                          Shape::kListOptional, Shape::kLegacyList};
  std::vector<Case> cases;
  int n = 0;
  for (const auto& t : types) {
    for (Encoding e : t.encodings) {
      for (Shape s : shapes) {
        // Rotate page versions, level encodings and codecs over the cases.
        const bool v2 = n % 3 == 1;
        const Encoding levels = !v2 && n % 4 == 2 ? Encoding::kBitPacked : Encoding::kRle;
        const CompressionCodec codecs[] = {CompressionCodec::kUncompressed, CompressionCodec::kZstd,
                                           CompressionCodec::kSnappy, CompressionCodec::kGzip,
                                           CompressionCodec::kLz4Raw};
        const CompressionCodec codec = codecs[n % 5];
        cases.push_back({t.type, t.length, e, s, v2, levels, codec, !(v2 && n % 2 == 0)});
        ++n;
      }
    }
  }
  return cases;
}

std::vector<Case> V1ListCases() {
  std::vector<Case> cases;
  for (const Case& c : AllCases()) {
    if (!c.v2 && LevelsOf(c.shape).max_rep > 0) cases.push_back(c);
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllTypesAndEncodings, SyntheticTest, ::testing::ValuesIn(AllCases()),
                         [](const auto& info) { return CaseName(info.param); });
INSTANTIATE_TEST_SUITE_P(V1Lists, SyntheticSpanningTest, ::testing::ValuesIn(V1ListCases()),
                         [](const auto& info) { return CaseName(info.param); });

// ---- Schemas ----

TEST(ResolveColumnsTest, AcceptsTheListFormsAndNamesRejectedFields) {
  using testing::Group;
  using testing::Leaf;
  // 3-level, 2-level "array", "<name>_tuple", repeated primitive in LIST, bare repeated field.
  const std::vector<SchemaElement> schema = {
      testing::Root(6),
      Leaf("flat", Type::kInt32, Rep::kOptional),
      Group("a", Rep::kOptional, 1, true),
      Group("list", Rep::kRepeated, 1, false),
      Leaf("element", Type::kDouble, Rep::kOptional),
      Group("b", Rep::kRequired, 1, true),
      Group("array", Rep::kRepeated, 1, false),
      Leaf("x", Type::kByteArray, Rep::kRequired),
      Group("c", Rep::kOptional, 1, true),
      Group("c_tuple", Rep::kRepeated, 1, false),
      Leaf("y", Type::kInt64, Rep::kOptional),
      Group("d", Rep::kOptional, 1, true),
      Leaf("item", Type::kFloat, Rep::kRepeated),
      Leaf("e", Type::kInt32, Rep::kRepeated),
  };
  const auto columns = ResolveColumns(schema);
  ASSERT_EQ(columns.size(), 6u);
  EXPECT_FALSE(columns[0].is_list);
  EXPECT_TRUE(columns[0].nullable);
  EXPECT_EQ(columns[1].max_definition_level(), 3);
  EXPECT_EQ(columns[1].path_in_schema, (std::vector<std::string>{"a", "list", "element"}));
  EXPECT_FALSE(columns[2].nullable);
  EXPECT_FALSE(columns[2].element_nullable);
  EXPECT_EQ(columns[2].max_definition_level(), 1);
  EXPECT_EQ(columns[3].max_definition_level(), 3);
  EXPECT_EQ(columns[4].max_definition_level(), 2);
  EXPECT_EQ(columns[4].path_in_schema, (std::vector<std::string>{"d", "item"}));
  EXPECT_TRUE(columns[5].is_list);
  EXPECT_EQ(columns[5].max_definition_level(), 1);
  EXPECT_EQ(columns[5].max_repetition_level(), 1);

  auto rejects = [](std::vector<SchemaElement> s, const std::string& field) {
    try {
      ResolveColumns(s);
      ADD_FAILURE() << "accepted a schema with " << field;
    } catch (const DecodeError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + field + "'"), std::string::npos) << e.what();
    }
  };
  // A struct, a map-like repeated group with two children, a nested list, an empty schema.
  rejects({testing::Root(1), Group("s", Rep::kOptional, 1, false),
           Leaf("x", Type::kInt32, Rep::kOptional)},
          "s");
  rejects(
      {testing::Root(1), Group("m", Rep::kOptional, 1, true), Group("kv", Rep::kRepeated, 2, false),
       Leaf("k", Type::kInt32, Rep::kRequired), Leaf("v", Type::kInt32, Rep::kRequired)},
      "m.kv");
  rejects({testing::Root(1), Group("n", Rep::kOptional, 1, true),
           Group("list", Rep::kRepeated, 1, false), Group("element", Rep::kOptional, 1, true),
           Group("list", Rep::kRepeated, 1, false), Leaf("element", Type::kInt32, Rep::kOptional)},
          "n.list.element");
  EXPECT_THROW(ResolveColumns({testing::Root(2), Leaf("x", Type::kInt32, Rep::kOptional)}),
               DecodeError);
  EXPECT_THROW(ResolveColumns({}), DecodeError);
  EXPECT_THROW(
      ResolveColumns({testing::Root(1), Leaf("f", Type::kFixedLenByteArray, Rep::kRequired)}),
      DecodeError);
}

}  // namespace
}  // namespace timef::parquet
