// ChunkReader (FORMAT.md §7.5–§7.6): page-level reads, checks of the values leaf against the
// spec, and FormatError for shards that do not hold what the locator says.
#include <gtest/gtest.h>

#include "parquet/file_writer.h"
#include "values/leaf_check.h"
#include "values_test_support.h"

namespace timef::values {
namespace {

using model::DType;
using model::ValueArray;
using testing::MakeInput;
using testing::MakeSpec;
using testing::ScratchDir;

ChunkRef RefOf(const std::filesystem::path& release, const ChunkLocator& placement) {
  return ChunkRef{release / placement.value_path, placement};
}

// One signal of one spec_type written with default options; returns its first chunk's locator.
ChunkRef WriteOne(const std::filesystem::path& dir, std::shared_ptr<const model::Spec> spec,
                  ValueArray values) {
  ValuesResult result =
      WriteValues(dir, {MakeInput(1, "s", std::move(spec), std::move(values))}, {});
  return RefOf(dir, result.chunks.at(1).at(0));
}

TEST(ChunkReaderTest, ReadingOneChunkDecodesOnlyItsPage) {
  ScratchDir dir;
  auto spec = MakeSpec("f", DType::kFloat32);
  std::vector<float> values(20000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  ValuesOptions options;
  options.chunk_max_bytes = 8000;         // 2,000 values per chunk → 10 chunks
  options.data_page_target_bytes = 4096;  // every chunk is a page of its own
  options.value_encoding = manifest::ValueEncodingChoice::kPlain;
  ValuesResult result =
      WriteValues(dir.path(), {MakeInput(1, "s", spec, ValueArray::Of<float>(values))}, options);
  const auto& placements = result.chunks.at(1);
  ASSERT_EQ(placements.size(), 10u);
  ASSERT_EQ(placements[5].major, 0);  // one row group: 80 KB < 4 MiB

  ChunkReader reader;
  ValueArray chunk = reader.Read(RefOf(dir.path(), placements[5]), *spec);
  EXPECT_TRUE(chunk == ValueArray::Of<float>(
                           std::vector<float>(values.begin() + 10000, values.begin() + 12000)));
  ChunkReaderStats stats = reader.stats();
  EXPECT_EQ(stats.files_opened, 1u);
  EXPECT_EQ(stats.chunks_read, 1u);
  EXPECT_EQ(stats.pages.data_pages_decoded, 1u);
  EXPECT_EQ(stats.pages.dictionary_pages_decoded, 0u);
  EXPECT_EQ(stats.pages.offset_indexes_loaded, 1u);

  reader.Read(RefOf(dir.path(), placements[9]), *spec);
  stats = reader.stats();
  EXPECT_EQ(stats.files_opened, 1u);  // the shard stays open
  EXPECT_EQ(stats.chunks_read, 2u);
  EXPECT_EQ(stats.pages.data_pages_decoded, 2u);
  EXPECT_EQ(stats.pages.offset_indexes_loaded, 1u);  // cached

  reader.Clear();  // stats survive, shards are reopened
  reader.Read(RefOf(dir.path(), placements[0]), *spec);
  stats = reader.stats();
  EXPECT_EQ(stats.files_opened, 2u);
  EXPECT_EQ(stats.pages.data_pages_decoded, 3u);
  EXPECT_EQ(stats.pages.offset_indexes_loaded, 2u);
}

TEST(ChunkReaderTest, LeafOfAnotherDTypeIsAFormatError) {
  ScratchDir dir;
  ChunkRef f32 =
      WriteOne(dir.path() / "a", MakeSpec("x", DType::kFloat32), ValueArray::Of<float>({1}));
  ChunkRef i16 =
      WriteOne(dir.path() / "b", MakeSpec("x", DType::kInt16), ValueArray::Of<std::int16_t>({1}));
  ChunkRef u32 =
      WriteOne(dir.path() / "c", MakeSpec("x", DType::kUint32), ValueArray::Of<std::uint32_t>({1}));
  ChunkRef str =
      WriteOne(dir.path() / "d", MakeSpec("x", DType::kStr), ValueArray::Of<std::string>({"1"}));
  ChunkReader reader;
  EXPECT_THROW(reader.Read(f32, *MakeSpec("x", DType::kFloat64)), FormatError);
  EXPECT_THROW(reader.Read(f32, *MakeSpec("x", DType::kInt32)), FormatError);
  EXPECT_THROW(reader.Read(i16, *MakeSpec("x", DType::kUint16)), FormatError);  // signedness
  EXPECT_THROW(reader.Read(i16, *MakeSpec("x", DType::kInt8)), FormatError);    // width
  EXPECT_THROW(reader.Read(i16, *MakeSpec("x", DType::kInt32)), FormatError);
  EXPECT_THROW(reader.Read(u32, *MakeSpec("x", DType::kInt32)), FormatError);
  EXPECT_THROW(reader.Read(str, *MakeSpec("x", DType::kBool)), FormatError);
  EXPECT_NO_THROW(reader.Read(str, *MakeSpec("x", DType::kEnum, false, {"1"})));
  try {
    reader.Read(i16, *MakeSpec("x", DType::kUint16));
  } catch (const FormatError& error) {
    EXPECT_EQ(error.path(), i16.file);
    EXPECT_NE(std::string(error.what()).find("row group 0"), std::string::npos) << error.what();
  }
}

TEST(ChunkReaderTest, LocatorOutsideTheShardOrWrongLengthIsAFormatError) {
  ScratchDir dir;
  auto spec = MakeSpec("x", DType::kFloat64);
  ChunkRef good = WriteOne(dir.path(), spec, ValueArray::Of<double>({1, 2, 3}));
  ChunkReader reader;
  EXPECT_TRUE(reader.Read(good, *spec) == ValueArray::Of<double>({1, 2, 3}));
  ChunkRef bad = good;
  bad.locator.major = 1;
  EXPECT_THROW(reader.Read(bad, *spec), FormatError);
  bad = good;
  bad.locator.major = -1;
  EXPECT_THROW(reader.Read(bad, *spec), FormatError);
  bad = good;
  bad.locator.minor = 1;
  EXPECT_THROW(reader.Read(bad, *spec), FormatError);
  bad = good;
  bad.locator.n_values = 4;
  EXPECT_THROW(reader.Read(bad, *spec), FormatError);
  bad = good;
  bad.file = dir.path() / "time_series" / "missing.parquet";
  EXPECT_THROW(reader.Read(bad, *spec), FileError);
}

TEST(ChunkReaderTest, NullsInANonNullableSpecAreAFormatError) {
  ScratchDir dir;
  ChunkRef ref = WriteOne(dir.path(), MakeSpec("x", DType::kInt32, true),
                          ValueArray::Of<std::int32_t>({1, 0}, {1, 0}));
  ChunkReader reader;
  EXPECT_THROW(reader.Read(ref, *MakeSpec("x", DType::kInt32, false)), FormatError);
}

TEST(ChunkReaderTest, EnumLabelsMapToCategoriesByString) {
  ScratchDir dir;
  ChunkRef ref = WriteOne(dir.path(), MakeSpec("e", DType::kEnum, false, {"a", "b", "c"}),
                          ValueArray::EnumCodes({0, 1, 2, 2}));
  ChunkReader reader;
  // The reading spec lists the categories in another order (or holds more): codes follow it.
  EXPECT_TRUE(reader.Read(ref, *MakeSpec("e", DType::kEnum, false, {"c", "a", "d", "b"})) ==
              ValueArray::EnumCodes({1, 3, 0, 0}));
  EXPECT_THROW(reader.Read(ref, *MakeSpec("e", DType::kEnum, false, {"a", "b"})), FormatError);
}

// A shard written by "another writer": extra columns, another column order, an optional list.
std::filesystem::path WriteForeign(const std::filesystem::path& dir,
                                   std::vector<parquet::ColumnDescriptor> columns,
                                   const std::vector<parquet::ColumnData>& batches) {
  std::filesystem::create_directories(dir);
  const auto path = dir / "foreign.parquet";
  parquet::FileOutputStream out(path);
  parquet::FileWriter writer(out, std::move(columns));
  for (std::size_t i = 0; i < batches.size(); ++i) writer.WriteColumn(i, batches[i].View());
  writer.Close();
  out.Close();
  return path;
}

parquet::ColumnDescriptor ListOf(std::string name, parquet::Type type, bool nullable_list) {
  parquet::ColumnDescriptor column;
  column.name = std::move(name);
  column.physical_type = type;
  column.is_list = true;
  column.nullable = nullable_list;
  column.path_in_schema = parquet::StandardPathInSchema(column);
  return column;
}

parquet::ColumnData Labels(std::vector<std::vector<std::string>> rows) {
  parquet::ColumnData data;
  data.physical_type = parquet::Type::kByteArray;
  data.num_rows = static_cast<std::int64_t>(rows.size());
  data.list_offsets.push_back(0);
  data.byte_offsets.push_back(0);
  for (const auto& row : rows) {
    for (const std::string& label : row) {
      for (char c : label) data.values.push_back(static_cast<std::byte>(c));
      data.byte_offsets.push_back(static_cast<std::int64_t>(data.values.size()));
    }
    data.list_offsets.push_back(static_cast<std::int64_t>(data.byte_offsets.size() - 1));
  }
  return data;
}

TEST(ChunkReaderTest, ShardsOfOtherWritersAreFoundByColumnName) {
  ScratchDir dir;
  parquet::ColumnDescriptor extra;
  extra.name = "time_offsets_us_extra";
  extra.physical_type = parquet::Type::kInt64;
  extra.path_in_schema = {extra.name};
  parquet::ColumnData extra_data;
  extra_data.physical_type = parquet::Type::kInt64;
  extra_data.num_rows = 2;
  extra_data.values.resize(16);
  const auto path =
      WriteForeign(dir.path(), {ListOf("values", parquet::Type::kByteArray, true), extra},
                   {Labels({{"b", "a"}, {"c", "zzz", "a"}}), extra_data});
  ChunkReader reader;
  auto spec = MakeSpec("e", DType::kEnum, false, {"a", "b", "c", "zzz"});
  EXPECT_TRUE(reader.Read(ChunkRef{path, ChunkLocator{std::nullopt, "foreign", 0, 1, 3}}, *spec) ==
              ValueArray::EnumCodes({2, 3, 0}));
  EXPECT_TRUE(reader.Read(ChunkRef{path, ChunkLocator{std::nullopt, "foreign", 0, 0, 2}},
                          *MakeSpec("s", DType::kStr)) == ValueArray::Of<std::string>({"b", "a"}));
  auto narrow = MakeSpec("e", DType::kEnum, false, {"a", "b", "c"});
  EXPECT_THROW(reader.Read(ChunkRef{path, ChunkLocator{std::nullopt, "foreign", 0, 1, 3}}, *narrow),
               FormatError);
}

TEST(ChunkReaderTest, MissingOrFlatValuesColumnIsAFormatError) {
  ScratchDir dir;
  parquet::ColumnDescriptor flat;
  flat.name = "values";
  flat.physical_type = parquet::Type::kFloat;
  flat.path_in_schema = {"values"};
  parquet::ColumnData data;
  data.physical_type = parquet::Type::kFloat;
  data.num_rows = 1;
  data.values.resize(4);
  const auto flat_path = WriteForeign(dir.path() / "flat", {flat}, {data});
  flat.name = "other";
  flat.path_in_schema = {"other"};
  const auto other_path = WriteForeign(dir.path() / "other", {flat}, {data});
  ChunkReader reader;
  auto spec = MakeSpec("f", DType::kFloat32);
  EXPECT_THROW(reader.Read(ChunkRef{flat_path, ChunkLocator{std::nullopt, "flat", 0, 0, 1}}, *spec),
               FormatError);
  EXPECT_THROW(
      reader.Read(ChunkRef{other_path, ChunkLocator{std::nullopt, "other", 0, 0, 1}}, *spec),
      FormatError);
}

TEST(ValuesLeafProblemTest, RejectsLegacyTwoLevelLists) {
  auto spec = MakeSpec("f", DType::kFloat32);
  parquet::ColumnDescriptor leaf = ListOf("values", parquet::Type::kFloat, false);
  EXPECT_EQ(ValuesLeafProblem(leaf, *spec), "");
  leaf.path_in_schema = {"values", "element"};  // repeated primitive under the LIST group
  EXPECT_NE(ValuesLeafProblem(leaf, *spec), "");
  leaf.path_in_schema = {"values", "array", "item"};
  EXPECT_NE(ValuesLeafProblem(leaf, *spec), "");
  leaf.path_in_schema = {"values", "values_tuple", "item"};
  EXPECT_NE(ValuesLeafProblem(leaf, *spec), "");
  // An unannotated INT32 is int32; INT(32, unsigned) is uint32 only.
  parquet::ColumnDescriptor ints = ListOf("values", parquet::Type::kInt32, false);
  EXPECT_EQ(ValuesLeafProblem(ints, *MakeSpec("i", DType::kInt32)), "");
  EXPECT_NE(ValuesLeafProblem(ints, *MakeSpec("i", DType::kUint32)), "");
  ints.converted_type = parquet::ConvertedType::kUint32;
  EXPECT_EQ(ValuesLeafProblem(ints, *MakeSpec("i", DType::kUint32)), "");
  ints.logical_type = parquet::LogicalType::Simple(parquet::LogicalType::Kind::kDate);
  EXPECT_NE(ValuesLeafProblem(ints, *MakeSpec("i", DType::kInt32)), "");
}

}  // namespace
}  // namespace timef::values
