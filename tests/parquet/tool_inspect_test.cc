// Tests of the inspection tools behind `timef parquet meta|dump|rewrite`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/json_forms.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "parquet_tool/inspect.h"
#include "parquet_tool/render.h"
#include "writer_test_util.h"

namespace timef::parquet {
namespace {

using writer_testing::Cell;
using writer_testing::Column;
using writer_testing::Raw;
using writer_testing::Rows;
using writer_testing::ToColumnData;

std::string Double(double value) {
  std::string out;
  AppendDouble(value, out);
  return out;
}

std::string Float(float value) {
  std::string out;
  AppendFloat(value, out);
  return out;
}

std::string JsonString(std::string_view text) {
  std::string out;
  AppendJsonString(std::as_bytes(std::span(text.data(), text.size())), out);
  return out;
}

TEST(ToolRenderTest, FloatsAreShortestRoundTripAndKeepTheirKind) {
  EXPECT_EQ(Double(1.0), "1.0");
  EXPECT_EQ(Double(-0.0), "-0.0");
  EXPECT_EQ(Double(0.0), "0.0");
  EXPECT_EQ(Double(0.1), "0.1");
  EXPECT_EQ(Double(-2.5), "-2.5");
  EXPECT_EQ(Double(1e300), "1e+300");
  EXPECT_EQ(Double(5e-324), "5e-324");
  EXPECT_EQ(Double(std::numeric_limits<double>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(Double(-std::numeric_limits<double>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(Double(std::numeric_limits<double>::infinity()), "\"Infinity\"");
  EXPECT_EQ(Double(-std::numeric_limits<double>::infinity()), "\"-Infinity\"");
  EXPECT_EQ(Float(0.1f), "0.1");
  EXPECT_EQ(Float(-0.0f), "-0.0");
  EXPECT_EQ(Float(3.4028235e38f), "3.4028235e+38");
  EXPECT_EQ(Float(std::numeric_limits<float>::infinity()), "\"Infinity\"");
}

TEST(ToolRenderTest, StringsAreEscapedAndInvalidUtf8Replaced) {
  EXPECT_EQ(JsonString("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  EXPECT_EQ(JsonString("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"),
            "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"");
  EXPECT_EQ(JsonString("a\xFF"
                       "b"),
            "\"a\xEF\xBF\xBD"
            "b\"");
  EXPECT_EQ(JsonString("\xC3"), "\"\xEF\xBF\xBD\"");        // truncated sequence
  EXPECT_EQ(JsonString("\xE2\x82z"), "\"\xEF\xBF\xBDz\"");  // one U+FFFD per maximal subpart
  EXPECT_EQ(JsonString("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
}

// A scratch directory removed after each test.
class ToolFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("timef_tool_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Columns: id (INT64), small (INT32 as UINT16), opt (nullable INT32), x (DOUBLE), f (FLOAT),
  // s (nullable STRING), b (BYTE_ARRAY), flag (BOOLEAN), xs (nullable list of nullable INT64).
  // Two row groups of 3 and 2 rows.
  std::filesystem::path WriteSample(const std::string& name) {
    std::vector<ColumnDescriptor> schema = {
        Column("id", Type::kInt64),
        Column("small", Type::kInt32),
        Column("opt", Type::kInt32, true),
        Column("x", Type::kDouble),
        Column("f", Type::kFloat),
        Column("s", Type::kByteArray, true),
        Column("b", Type::kByteArray),
        Column("flag", Type::kBoolean),
        Column("xs", Type::kInt64, true, true, true),
    };
    schema[1].logical_type = LogicalType::Integer(16, false);
    schema[1].converted_type = ConvertedType::kUint16;
    schema[5].logical_type = LogicalType::Simple(LogicalType::Kind::kString);
    schema[5].converted_type = ConvertedType::kUtf8;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<Rows> groups[2];
    auto flat = [](std::optional<std::string> v) { return Cell{true, {std::move(v)}}; };
    groups[0] = {
        {flat(Raw<std::int64_t>(1)), flat(Raw<std::int64_t>(-2)), flat(Raw<std::int64_t>(3))},
        {flat(Raw<std::int32_t>(65535)), flat(Raw<std::int32_t>(0)), flat(Raw<std::int32_t>(7))},
        {flat(Raw<std::int32_t>(5)), flat(std::nullopt), flat(Raw<std::int32_t>(-5))},
        {flat(Raw(1.0)), flat(Raw(-0.0)), flat(Raw(nan))},
        {flat(Raw(0.1f)), flat(Raw(-std::numeric_limits<float>::infinity())), flat(Raw(2.5f))},
        {flat(std::string("h\xC3\xA9")), flat(std::nullopt), flat(std::string("q\"t"))},
        {flat(std::string("\x00\xff", 2)), flat(std::string()), flat(std::string("A"))},
        {flat(std::string(1, '\1')), flat(std::string(1, '\0')), flat(std::string(1, '\1'))},
        {Cell{true, {Raw<std::int64_t>(1), std::nullopt}}, Cell{false, {}}, Cell{true, {}}},
    };
    groups[1] = {
        {flat(Raw<std::int64_t>(4)), flat(Raw<std::int64_t>(5))},
        {flat(Raw<std::int32_t>(1)), flat(Raw<std::int32_t>(2))},
        {flat(std::nullopt), flat(Raw<std::int32_t>(9))},
        {flat(Raw(inf)), flat(Raw(-inf))},
        {flat(Raw(1.0f)), flat(Raw(-0.0f))},
        {flat(std::string("")), flat(std::string("z"))},
        {flat(std::string("\x10")), flat(std::string("\x20"))},
        {flat(std::string(1, '\0')), flat(std::string(1, '\1'))},
        {Cell{true, {Raw<std::int64_t>(-7)}}, Cell{true, {std::nullopt, std::nullopt}}},
    };
    std::filesystem::path path = dir_ / name;
    FileOutputStream out(path);
    WriterOptions options;
    options.compression = CompressionCodec::kUncompressed;
    FileWriter writer(out, schema, options);
    for (const auto& group : groups) {
      for (std::size_t c = 0; c < schema.size(); ++c) {
        ColumnData data = ToColumnData(schema[c], group[c]);
        writer.WriteColumn(c, data.View());
      }
      writer.FlushRowGroup();
    }
    writer.Close();
    out.Close();
    return path;
  }

  static std::vector<std::string> Dump(const std::filesystem::path& path,
                                       const DumpOptions& options = {}) {
    FileReader reader = FileReader::OpenFile(path);
    std::vector<std::string> lines;
    DumpRows(reader, options, [&](std::string_view line) { lines.emplace_back(line); });
    return lines;
  }

  std::vector<std::filesystem::path> DirEntries() const {
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
  }

  std::filesystem::path dir_;
};

const std::vector<std::string> kSampleRows = {
    R"({"id":1,"small":65535,"opt":5,"x":1.0,"f":0.1,"s":"hé","b":"00ff","flag":true,"xs":[1,null]})",
    R"({"id":-2,"small":0,"opt":null,"x":-0.0,"f":"-Infinity","s":null,"b":"","flag":false,"xs":null})",
    R"({"id":3,"small":7,"opt":-5,"x":"NaN","f":2.5,"s":"q\"t","b":"41","flag":true,"xs":[]})",
    R"({"id":4,"small":1,"opt":null,"x":"Infinity","f":1.0,"s":"","b":"10","flag":false,"xs":[-7]})",
    R"({"id":5,"small":2,"opt":9,"x":"-Infinity","f":-0.0,"s":"z","b":"20","flag":true,"xs":[null,null]})",
};

TEST_F(ToolFileTest, DumpRendersEveryRowAsJson) {
  EXPECT_EQ(Dump(WriteSample("a.parquet")), kSampleRows);
}

TEST_F(ToolFileTest, DumpSelectsColumnsRowGroupsAndRows) {
  std::filesystem::path path = WriteSample("a.parquet");
  DumpOptions options;
  options.columns = {"s", "id"};
  EXPECT_THAT(Dump(path, options),
              ::testing::ElementsAre(R"({"s":"hé","id":1})", R"({"s":null,"id":-2})",
                                     R"({"s":"q\"t","id":3})", R"({"s":"","id":4})",
                                     R"({"s":"z","id":5})"));
  options = {};
  options.rows = {{2, 4}};  // spans both row groups
  EXPECT_THAT(Dump(path, options), ::testing::ElementsAre(kSampleRows[2], kSampleRows[3]));
  options.row_group = 1;
  options.rows = {{1, 2}};  // relative to row group 1
  EXPECT_THAT(Dump(path, options), ::testing::ElementsAre(kSampleRows[4]));
  options.rows.reset();
  EXPECT_THAT(Dump(path, options), ::testing::ElementsAre(kSampleRows[3], kSampleRows[4]));
}

TEST_F(ToolFileTest, DumpRejectsBadSelections) {
  std::filesystem::path path = WriteSample("a.parquet");
  DumpOptions options;
  options.row_group = 2;
  EXPECT_THROW(Dump(path, options), ValidationError);
  options = {};
  options.rows = {{3, 6}};
  EXPECT_THROW(Dump(path, options), ValidationError);
  options.rows = {{3, 2}};
  EXPECT_THROW(Dump(path, options), ValidationError);
  options = {};
  options.columns = {"nope"};
  EXPECT_THROW(Dump(path, options), NotFoundError);
}

TEST(ToolParseTest, RowRanges) {
  using Range = std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>;
  EXPECT_EQ(ParseRowRange("2:5"), Range(2, 5));
  EXPECT_EQ(ParseRowRange(":5"), Range(std::nullopt, 5));
  EXPECT_EQ(ParseRowRange("2:"), Range(2, std::nullopt));
  EXPECT_EQ(ParseRowRange("5"), std::nullopt);
  EXPECT_EQ(ParseRowRange("-1:3"), std::nullopt);
  EXPECT_EQ(ParseRowRange("1x:3"), std::nullopt);
}

TEST(ToolParseTest, EncodingNames) {
  EXPECT_EQ(ParseEncodingName("delta_binary_packed"), Encoding::kDeltaBinaryPacked);
  EXPECT_EQ(ParseEncodingName("BYTE_STREAM_SPLIT"), Encoding::kByteStreamSplit);
  EXPECT_EQ(ParseEncodingName("RLE_DICTIONARY"), Encoding::kRleDictionary);
  EXPECT_EQ(ParseEncodingName("PLAIN_DICTIONARY"), std::nullopt);  // read-only encoding
  EXPECT_EQ(ParseEncodingName("bogus"), std::nullopt);
}

TEST_F(ToolFileTest, MetaDescribesSchemaChunksStatisticsAndPages) {
  FileReader reader = FileReader::OpenFile(WriteSample("a.parquet"));
  Json meta = MetadataToJson(reader);
  EXPECT_EQ(meta["num_rows"], 5);
  EXPECT_EQ(meta["num_row_groups"], 2);
  ASSERT_EQ(meta["columns"].size(), 9u);
  EXPECT_EQ(meta["columns"][8]["path"], "xs.list.element");
  EXPECT_EQ(meta["columns"][1]["logical_type"]["type"], "INTEGER");
  EXPECT_EQ(meta["columns"][1]["logical_type"]["is_signed"], false);
  const Json& chunk = meta["row_groups"][0]["columns"][0];
  EXPECT_EQ(chunk["codec"], "UNCOMPRESSED");
  EXPECT_EQ(chunk["statistics"]["min_value"], -2);
  EXPECT_EQ(chunk["statistics"]["max_value"], 3);
  EXPECT_EQ(chunk["statistics"]["null_count"], 0);
  EXPECT_THAT(chunk["encodings"].get<std::vector<std::string>>(), ::testing::Contains("PLAIN"));
  ASSERT_TRUE(chunk["pages"].is_array());
  EXPECT_GE(chunk["pages"].size(), 1u);
  EXPECT_EQ(chunk["pages"][0]["first_row_index"], 0);
  EXPECT_EQ(chunk["pages"][0]["offset"], chunk["data_page_offset"]);
  // The unsigned column's bound is shown as the unsigned value; the string's as text.
  EXPECT_EQ(meta["row_groups"][0]["columns"][1]["statistics"]["max_value"], 65535);
  EXPECT_EQ(meta["row_groups"][0]["columns"][5]["statistics"]["max_value"], "q\"t");
  // Renders without throwing (no NaN reaches the JSON writer).
  EXPECT_NO_THROW(WriteManifestJson(meta));
}

TEST_F(ToolFileTest, RewriteKeepsValuesForEveryEncoding) {
  std::filesystem::path input = WriteSample("in.parquet");
  struct Case {
    std::vector<std::pair<std::string, Encoding>> encodings;
    CompressionCodec codec;
    DataPageVersion version;
  };
  const std::vector<Case> cases = {
      {{}, CompressionCodec::kZstd, DataPageVersion::kV1},
      {{{"id", Encoding::kDeltaBinaryPacked},
        {"small", Encoding::kDeltaBinaryPacked},
        {"x", Encoding::kByteStreamSplit},
        {"f", Encoding::kByteStreamSplit},
        {"s", Encoding::kDeltaByteArray},
        {"b", Encoding::kDeltaLengthByteArray},
        {"flag", Encoding::kRle},
        {"xs", Encoding::kDeltaBinaryPacked}},
       CompressionCodec::kUncompressed,
       DataPageVersion::kV2},
      {{{"id", Encoding::kRleDictionary},
        {"opt", Encoding::kRleDictionary},
        {"x", Encoding::kRleDictionary},
        {"s", Encoding::kRleDictionary},
        {"b", Encoding::kDeltaByteArray},
        {"xs", Encoding::kRleDictionary}},
       CompressionCodec::kZstd,
       DataPageVersion::kV2},
  };
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(n);
    std::filesystem::path output = dir_ / ("out" + std::to_string(n++) + ".parquet");
    RewriteOptions options;
    options.encodings = c.encodings;
    options.compression = c.codec;
    options.compression_level = 3;
    options.data_page_version = c.version;
    RewriteFile(input, output, options);
    EXPECT_EQ(Dump(output), kSampleRows);
    FileReader reader = FileReader::OpenFile(output);
    EXPECT_EQ(reader.num_row_groups(), 2);
    for (const auto& [name, encoding] : c.encodings) {
      const ColumnChunk& chunk = reader.column_chunk(0, reader.ColumnIndex(name));
      EXPECT_THAT(chunk.meta_data->encodings, ::testing::Contains(encoding)) << name;
      EXPECT_EQ(chunk.meta_data->codec, c.codec);
    }
  }
}

TEST_F(ToolFileTest, RewriteRegroupsRows) {
  std::filesystem::path input = WriteSample("in.parquet");
  std::filesystem::path output = dir_ / "out.parquet";
  RewriteOptions options;
  options.row_group_rows = 2;
  options.page_size_bytes = 1;  // one row per page
  RewriteFile(input, output, options);
  EXPECT_EQ(Dump(output), kSampleRows);
  FileReader reader = FileReader::OpenFile(output);
  ASSERT_EQ(reader.num_row_groups(), 3);
  EXPECT_EQ(reader.row_group_num_rows(0), 2);
  EXPECT_EQ(reader.row_group_num_rows(2), 1);
  EXPECT_EQ(reader.offset_index(0, 0)->page_locations.size(), 2u);
}

TEST_F(ToolFileTest, RewriteRefusesUnfitEncodingAndLeavesNothing) {
  std::filesystem::path input = WriteSample("in.parquet");
  std::filesystem::path output = dir_ / "out.parquet";
  auto before = DirEntries();
  RewriteOptions options;
  options.encodings = {{"s", Encoding::kByteStreamSplit}};
  try {
    RewriteFile(input, output, options);
    FAIL() << "no error";
  } catch (const ValidationError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("s"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("BYTE_STREAM_SPLIT"));
  }
  options.encodings = {{"flag", Encoding::kDeltaBinaryPacked}};
  EXPECT_THROW(RewriteFile(input, output, options), ValidationError);
  options.encodings = {{"missing", Encoding::kPlain}};
  EXPECT_THROW(RewriteFile(input, output, options), NotFoundError);
  EXPECT_EQ(DirEntries(), before);
}

TEST_F(ToolFileTest, FailedRewriteLeavesNoTemporaryAndKeepsExistingOutput) {
  std::filesystem::path input = dir_ / "corrupt.parquet";
  std::filesystem::path good = WriteSample("good.parquet");
  // A file whose footer is fine but whose first data page is damaged fails mid-write.
  std::vector<char> bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  FileReader reader = FileReader::OpenFile(good);
  auto offset = static_cast<std::size_t>(reader.column_chunk(1, 8).meta_data->data_page_offset);
  for (std::size_t i = offset; i < offset + 12; ++i) bytes[i] = static_cast<char>(0xA5);
  {
    std::ofstream out(input, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::filesystem::path output = dir_ / "out.parquet";
  {
    std::ofstream out(output);
    out << "previous";
  }
  auto before = DirEntries();
  EXPECT_THROW(RewriteFile(input, output, {}), FormatError);
  EXPECT_EQ(DirEntries(), before);
  std::ifstream in(output);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, "previous");
}

}  // namespace
}  // namespace timef::parquet
