// Shard layout (FORMAT.md §7.1–§7.3): sort order, chunks → row groups → shards, one spec_type per
// shard, the schema and key columns, key-value metadata and shard events.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "core/paths.h"
#include "values_test_support.h"

namespace timef::values {
namespace {

using model::DType;
using model::ValueArray;
using parquet::FileReader;
using testing::MakeInput;
using testing::MakeSpec;
using testing::ReadSignal;
using testing::ScratchDir;

ValueArray Ramp(int n, float start) {
  std::vector<float> values(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = start + static_cast<float>(i);
  return ValueArray::Of<float>(values);
}

std::vector<std::string> ReadStrings(FileReader& reader, int row_group, const std::string& name) {
  parquet::ColumnData data;
  reader.ReadColumnChunk(row_group, reader.ColumnIndex(name), data);
  std::vector<std::string> out;
  for (std::int64_t i = 0; i < data.num_rows; ++i) {
    const auto b = data.byte_offsets[static_cast<std::size_t>(i)];
    const auto e = data.byte_offsets[static_cast<std::size_t>(i) + 1];
    out.emplace_back(reinterpret_cast<const char*>(data.values.data()) + b,
                     static_cast<std::size_t>(e - b));
  }
  return out;
}

template <class T>
std::vector<T> ReadFixed(FileReader& reader, int row_group, const std::string& name) {
  parquet::ColumnData data;
  reader.ReadColumnChunk(row_group, reader.ColumnIndex(name), data);
  std::vector<T> out(static_cast<std::size_t>(data.num_rows));
  std::memcpy(out.data(), data.values.data(), out.size() * sizeof(T));
  return out;
}

std::string FileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// With several threads a row group is encoded and compressed while the next one loads, and a
// shard's size is known only once its last row group is stored; the shards (where they split,
// every byte) must not depend on that.
TEST(ValuesLayoutTest, ThreadCountsWriteTheSameShards) {
  auto spec = MakeSpec("a_type", DType::kFloat32);
  auto write = [&](int threads, const std::filesystem::path& dir) {
    ValuesOptions options;
    options.chunk_max_bytes = 4000;
    options.row_group_target_bytes = 12000;  // 3 chunks per row group
    options.shard_target_bytes = 30000;      // a few row groups per shard, splits mid-stream
    options.data_page_target_bytes = 1024;
    options.compression_level = 3;
    options.compression_threads = threads;
    std::vector<SignalInput> inputs;
    for (int s = 0; s < 12; ++s) {
      std::vector<float> values(5000);
      for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<float>((i * 7919 + static_cast<std::size_t>(s) * 104729) % 4093);
      }
      inputs.push_back(
          MakeInput(s + 1, "sig" + std::to_string(s), spec, ValueArray::Of<float>(values)));
    }
    std::vector<std::string> events;
    ValuesResult result = WriteValues(dir, inputs, options, [&](const ShardEvent& event) {
      events.push_back(event.shard.path + " " + std::to_string(event.values_bytes_done));
    });
    return std::make_pair(std::move(result), std::move(events));
  };
  ScratchDir one_dir;
  const auto [one, one_events] = write(1, one_dir.path());
  ASSERT_GE(one.shards.size(), 3u) << "the budgets must split the values into several shards";
  EXPECT_GT(one.shards.front().row_groups, 1);
  for (const int threads : {2, 3}) {
    ScratchDir dir;
    const auto [many, many_events] = write(threads, dir.path());
    EXPECT_EQ(many_events, one_events) << threads << " threads";
    ASSERT_EQ(many.shards.size(), one.shards.size()) << threads << " threads";
    for (std::size_t i = 0; i < one.shards.size(); ++i) {
      EXPECT_EQ(many.shards[i].path, one.shards[i].path);
      EXPECT_EQ(many.shards[i].bytes, one.shards[i].bytes);
      EXPECT_EQ(many.shards[i].row_groups, one.shards[i].row_groups);
      EXPECT_TRUE(FileBytes(dir.path() / many.shards[i].path) ==
                  FileBytes(one_dir.path() / one.shards[i].path))
          << many.shards[i].path << " with " << threads << " threads";
    }
    EXPECT_EQ(many.chunks, one.chunks);
  }
}

TEST(ValuesLayoutTest, RowGroupsAndShardsRotateOnBudgetsAndSpecType) {
  ScratchDir dir;
  auto a = MakeSpec("a_type", DType::kFloat32);
  auto b = MakeSpec("b_type", DType::kFloat32);
  ValuesOptions options;
  options.chunk_max_bytes = 40;          // 10 float32 per chunk
  options.row_group_target_bytes = 120;  // 3 chunks per row group
  options.shard_target_bytes = 1;        // every row group closes its shard
  std::vector<SignalInput> inputs;
  // Out of order on purpose: the writer sorts by (spec_type, name, signal_id).
  inputs.push_back(MakeInput(5, "z", b, Ramp(25, 500)));
  inputs.push_back(MakeInput(3, "y", a, Ramp(70, 300)));
  inputs.push_back(MakeInput(2, "x", a, Ramp(10, 200)));
  inputs.push_back(MakeInput(1, "y", a, Ramp(10, 100)));
  std::vector<std::string> event_paths;
  std::vector<std::int64_t> done;
  std::int64_t total = -1;
  ValuesResult result = WriteValues(dir.path(), inputs, options, [&](const ShardEvent& event) {
    event_paths.push_back(event.shard.path);
    done.push_back(event.values_bytes_done);
    total = event.values_bytes_total;
  });

  // a_type: x(2): 1 chunk, y(1): 1 chunk, y(3): 7 chunks, 40 bytes each = 9 chunks → 3 row
  // groups → 3 shards; b_type: 3 chunks (100 bytes) → 1 shard, closed by the end of its run.
  ASSERT_EQ(result.shards.size(), 4u);
  for (std::size_t i = 0; i < result.shards.size(); ++i) {
    EXPECT_EQ(result.shards[i].path, PartPath(kValuesShardTemplate, static_cast<std::int64_t>(i)));
    EXPECT_EQ(result.shards[i].row_groups, 1);
    EXPECT_EQ(result.shards[i].rows, 3);
    EXPECT_EQ(
        result.shards[i].bytes,
        static_cast<std::int64_t>(std::filesystem::file_size(dir.path() / result.shards[i].path)));
  }
  EXPECT_EQ(result.shards[3].spec_type, "b_type");
  EXPECT_EQ(event_paths, (std::vector<std::string>{result.shards[0].path, result.shards[1].path,
                                                   result.shards[2].path, result.shards[3].path}));
  EXPECT_EQ(total, (25 + 70 + 10 + 10) * 4);
  EXPECT_EQ(done.back(), total);
  EXPECT_EQ(done.front(), 120);

  // Rows in sorted order: signal_id 2 (x), then 1 (y), then 3 (y).
  FileReader first = FileReader::OpenFile(dir.path() / result.shards[0].path);
  EXPECT_EQ(ReadFixed<std::int64_t>(first, 0, "signal_id"), (std::vector<std::int64_t>{2, 1, 3}));
  EXPECT_EQ(ReadFixed<std::int32_t>(first, 0, "chunk_idx"), (std::vector<std::int32_t>{0, 0, 0}));
  EXPECT_EQ(ReadFixed<std::int32_t>(first, 0, "n_values"), (std::vector<std::int32_t>{10, 10, 10}));
  EXPECT_EQ(ReadStrings(first, 0, "signal"), (std::vector<std::string>{"x", "y", "y"}));
  EXPECT_EQ(ReadStrings(first, 0, "spec_type"),
            (std::vector<std::string>{"a_type", "a_type", "a_type"}));
  FileReader second = FileReader::OpenFile(dir.path() / result.shards[1].path);
  EXPECT_EQ(ReadFixed<std::int32_t>(second, 0, "chunk_idx"), (std::vector<std::int32_t>{1, 2, 3}));

  EXPECT_EQ(result.chunks.at(3).size(), 7u);
  EXPECT_EQ(result.chunks.at(3)[6], (ChunkLocator{std::nullopt, result.shards[2].path, 0, 2, 10}));
  ChunkReader reader;
  for (const SignalInput& input : inputs) {
    EXPECT_TRUE(ReadSignal(reader, dir.path(), result, input.signal_id, *input.spec) ==
                *input.load());
  }
}

TEST(ValuesLayoutTest, OneShardHoldsManyRowGroupsAndOneSpecTypeEach) {
  ScratchDir dir;
  ValuesOptions options;
  options.chunk_max_bytes = 400;         // 100 float32 per chunk
  options.row_group_target_bytes = 800;  // 2 chunks per row group
  options.shard_target_bytes = 1 << 20;  // never reached: only spec_type changes rotate
  std::vector<SignalInput> inputs;
  const std::vector<std::string> types = {"t1", "t2", "t3"};
  std::int64_t id = 1;
  for (const std::string& type : types) {
    auto spec = MakeSpec(type, DType::kFloat32);
    for (int s = 0; s < 3; ++s) {
      inputs.push_back(MakeInput(id++, "s" + std::to_string(s), spec, Ramp(200, 0)));
    }
  }
  ValuesResult result = WriteValues(dir.path(), inputs, options);
  ASSERT_EQ(result.shards.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    FileReader reader = FileReader::OpenFile(dir.path() / result.shards[i].path);
    // 3 signals × 2 chunks of 400 bytes = 6 chunks in row groups of 2.
    EXPECT_EQ(reader.num_row_groups(), 3);
    EXPECT_EQ(reader.num_rows(), 6);
    std::set<std::string> spec_types;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      for (const std::string& t : ReadStrings(reader, g, "spec_type")) spec_types.insert(t);
    }
    EXPECT_EQ(spec_types, (std::set<std::string>{types[i]}));
    const auto& kv = reader.metadata().key_value_metadata;
    ASSERT_TRUE(kv.has_value());
    ASSERT_EQ(kv->size(), 1u);
    EXPECT_EQ((*kv)[0].key, "timef.spec_type");
    EXPECT_EQ((*kv)[0].value, types[i]);
  }
}

TEST(ValuesLayoutTest, SchemaFollowsTheDTypeTable) {
  ScratchDir dir;
  std::vector<SignalInput> inputs;
  inputs.push_back(
      MakeInput(1, "a", MakeSpec("u16", DType::kUint16), ValueArray::Of<std::uint16_t>({1})));
  inputs.push_back(
      MakeInput(2, "a", MakeSpec("i8", DType::kInt8, true), ValueArray::Of<std::int8_t>({1})));
  inputs.push_back(
      MakeInput(3, "a", MakeSpec("s", DType::kStr), ValueArray::Of<std::string>({"q"})));
  inputs.push_back(MakeInput(4, "a", MakeSpec("b", DType::kBool), ValueArray::Bools({true})));
  ValuesResult result = WriteValues(dir.path(), inputs, {});
  ASSERT_EQ(result.shards.size(), 4u);
  std::map<std::string, parquet::ColumnDescriptor> leaves;
  for (const ShardInfo& shard : result.shards) {
    FileReader reader = FileReader::OpenFile(dir.path() / shard.path);
    std::vector<std::string> names;
    for (const auto& column : reader.columns()) names.push_back(column.name);
    EXPECT_EQ(names, (std::vector<std::string>{"signal_id", "spec_type", "signal", "chunk_idx",
                                               "n_values", "values"}));
    const auto& leaf = reader.columns()[5];
    EXPECT_TRUE(leaf.is_list);
    EXPECT_FALSE(leaf.nullable);
    EXPECT_EQ(leaf.path_in_schema, (std::vector<std::string>{"values", "list", "element"}));
    leaves[shard.spec_type] = leaf;
    // Fixed key-column encodings.
    const auto encodings = [&](int column) {
      return reader.column_chunk(0, column).meta_data->encodings;
    };
    EXPECT_TRUE(testing::HasEncoding(encodings(0), parquet::Encoding::kPlain));
    EXPECT_TRUE(testing::HasEncoding(encodings(1), parquet::Encoding::kRleDictionary));
    EXPECT_TRUE(testing::HasEncoding(encodings(2), parquet::Encoding::kRleDictionary));
    EXPECT_TRUE(testing::HasEncoding(encodings(3), parquet::Encoding::kDeltaBinaryPacked));
    EXPECT_FALSE(testing::HasEncoding(encodings(4), parquet::Encoding::kRleDictionary));
    EXPECT_EQ(reader.column_chunk(0, 5).meta_data->codec, parquet::CompressionCodec::kZstd);
    EXPECT_TRUE(reader.offset_index(0, 5) != nullptr);
    EXPECT_TRUE(reader.column_chunk(0, 5).meta_data->statistics.has_value());
  }
  EXPECT_EQ(leaves["u16"].physical_type, parquet::Type::kInt32);
  EXPECT_EQ(leaves["u16"].logical_type, parquet::LogicalType::Integer(16, false));
  EXPECT_EQ(leaves["u16"].converted_type, parquet::ConvertedType::kUint16);
  EXPECT_FALSE(leaves["u16"].element_nullable);
  EXPECT_EQ(leaves["i8"].logical_type, parquet::LogicalType::Integer(8, true));
  EXPECT_EQ(leaves["i8"].converted_type, parquet::ConvertedType::kInt8);
  EXPECT_TRUE(leaves["i8"].element_nullable);
  EXPECT_EQ(leaves["s"].physical_type, parquet::Type::kByteArray);
  EXPECT_EQ(leaves["s"].converted_type, parquet::ConvertedType::kUtf8);
  EXPECT_EQ(leaves["b"].physical_type, parquet::Type::kBoolean);
  EXPECT_FALSE(leaves["b"].logical_type.has_value());
}

TEST(ValuesLayoutTest, LargeChunksGetPagesOfTheirOwn) {
  ScratchDir dir;
  ValuesOptions options;
  options.chunk_max_bytes = 8000;  // 2,000 float32 = one 8 KB row
  options.data_page_target_bytes = 16 * 1024;
  options.value_encoding = manifest::ValueEncodingChoice::kPlain;
  auto spec = MakeSpec("f", DType::kFloat32);
  std::vector<float> noise(10000);
  std::uint32_t state = 1;
  for (float& v : noise) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>(state) / 4e9f;
  }
  ValuesResult result =
      WriteValues(dir.path(), {MakeInput(1, "n", spec, ValueArray::Of<float>(noise))}, options);
  FileReader reader = FileReader::OpenFile(dir.path() / result.shards[0].path);
  const parquet::OffsetIndex* index = reader.offset_index(0, 5);
  ASSERT_NE(index, nullptr);
  // Two 8 KB rows fit under 16 KiB only without overhead: each page holds whole rows, at most two.
  EXPECT_GE(index->page_locations.size(), 3u);
  for (std::size_t p = 1; p < index->page_locations.size(); ++p) {
    EXPECT_GT(index->page_locations[p].first_row_index,
              index->page_locations[p - 1].first_row_index);
  }
}

}  // namespace
}  // namespace timef::values
