// The Zarr v3 values plane (docs/format.md §8): store layout, zarr.json, bit-exact round trips of
// every dtype, nulls, N-D shapes, absent inner chunks, shard-index and inner-chunk CRCs and
// unsharded arrays.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>

#include "core/json_forms.h"
#include "timef/error.h"
#include "values/values_test_support.h"
#include "values/zarr_reader.h"
#include "values/zarr_store.h"
#include "values/zarr_writer.h"

namespace timef::values {
namespace {

namespace fs = std::filesystem;
using model::DType;
using model::ValueArray;
using testing::MakeNdSpec;
using testing::ScratchDir;

SignalInput Input(std::int64_t id, std::string name, std::shared_ptr<const model::Spec> spec,
                  ValueArray values) {
  SignalInput input;
  input.signal_id = id;
  input.name = std::move(name);
  input.n_values = values.size() / spec->StepWidth();
  input.spec = std::move(spec);
  auto held = std::make_shared<const ValueArray>(std::move(values));
  input.load = [held] { return held; };
  return input;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Resolves every file of the store that exists; counts what it was asked for.
struct DirResolver {
  fs::path dir;
  std::set<std::string> asked;
  ZarrResolve Fn() {
    return [this](const std::string& rel) {
      asked.insert(rel);
      if (!fs::exists(dir / rel)) {
        throw FormatError(ErrorSite{dir / rel, "", ""}, "not listed");
      }
      return dir / rel;
    };
  }
};

ValueArray ReadAll(ZarrReader& reader, const ValuesResult& result, std::int64_t id,
                   const model::Spec& spec, DirResolver& resolver) {
  std::vector<ValueArray> parts;
  for (const ChunkLocator& l : result.chunks.at(id)) {
    EXPECT_FALSE(l.minor.has_value());
    parts.push_back(reader.Read(l.value_path, l.major, l.n_values, spec, resolver.Fn()));
  }
  return ConcatValues(spec.dtype, parts);
}

float FloatBits(std::uint32_t bits) { return std::bit_cast<float>(bits); }
double DoubleBits(std::uint64_t bits) { return std::bit_cast<double>(bits); }

TEST(ZarrStore, EncodesArrayNames) {
  EXPECT_EQ(zarr::EncodeArrayName("ecg.lead-I_x~"), "ecg.lead-I_x~");
  EXPECT_EQ(zarr::EncodeArrayName("a b/c%"), "a%20b%2Fc%25");
  EXPECT_EQ(zarr::EncodeArrayName("\xC3\xA9"), "%C3%A9");
  EXPECT_EQ(zarr::ValidityPathOf("time_series.zarr/a%20b"), "time_series.zarr/_validity/a%20b");
}

TEST(ZarrStore, Crc32cMatchesTheCheckValue) {
  const std::string check = "123456789";
  EXPECT_EQ(zarr::Crc32c(std::span(reinterpret_cast<const std::uint8_t*>(check.data()), 9)),
            0xE3069283u);
}

TEST(ZarrStore, SizesFollowTheBudgets) {
  // 8 bytes per step, chunks of 1000 bytes → 125 steps; shards of 100000 bytes → 12500 / 125.
  zarr::ArrayLayout l = zarr::SizedLayout(8, 1000, 100000);
  EXPECT_EQ(l.chunk_len, 125);
  EXPECT_EQ(l.shard_len, 12500);
  // A step larger than both budgets still gets one step per chunk and shard.
  l = zarr::SizedLayout(5000, 1000, 2000);
  EXPECT_EQ(l.chunk_len, 1);
  EXPECT_EQ(l.shard_len, 1);
}

TEST(ZarrStore, RefusesMetadataOutsideWhatReadersAccept) {
  const std::string good = R"({"zarr_format": 3, "node_type": "array", "shape": [10],
    "data_type": "int16", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
    "fill_value": 0, "codecs": [{"name": "bytes"}]})";
  EXPECT_EQ(zarr::ParseArrayMeta(good, "a").ChunkSteps(), 4);
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  for (const std::string& bad : {with("\"int16\"", "\"int64\""), with("[4]}", "[1099511627776]}"),
                                 with("[{\"name\": \"bytes\"}]", "[{\"name\": \"transpose\"}]"),
                                 with("\"fill_value\": 0", "\"fill_value\": 0.5"),
                                 with("\"zarr_format\": 3", "\"zarr_format\": 2"), std::string("{"),
                                 with("[10]", "[10, 3]")}) {
    EXPECT_THROW(zarr::ParseArrayMeta(bad, "a"), FormatError) << bad;
  }
}

TEST(ZarrWriter, RoundTripsEveryDtypeBitExact) {
  ScratchDir dir;
  std::vector<SignalInput> inputs;
  const std::uint32_t nan_payload = 0x7FC12345u;
  inputs.push_back(Input(
      1, "f32", MakeNdSpec("f32", DType::kFloat32),
      ValueArray::Of<float>({FloatBits(nan_payload), -0.0f, std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(), 1.5f})));
  inputs.push_back(Input(2, "f64", MakeNdSpec("f64", DType::kFloat64),
                         ValueArray::Of<double>({DoubleBits(0xFFF8000000000ABCull), -0.0,
                                                 std::numeric_limits<double>::infinity(),
                                                 -std::numeric_limits<double>::infinity(), 3.25,
                                                 std::numeric_limits<double>::denorm_min()})));
  inputs.push_back(
      Input(3, "i8", MakeNdSpec("i8", DType::kInt8), ValueArray::Of<std::int8_t>({-128, 0, 127})));
  inputs.push_back(Input(4, "i16", MakeNdSpec("i16", DType::kInt16),
                         ValueArray::Of<std::int16_t>({-32768, 1, 32767})));
  inputs.push_back(
      Input(5, "i32", MakeNdSpec("i32", DType::kInt32),
            ValueArray::Of<std::int32_t>({std::numeric_limits<std::int32_t>::min(), 7})));
  inputs.push_back(
      Input(6, "u8", MakeNdSpec("u8", DType::kUint8), ValueArray::Of<std::uint8_t>({0, 255, 9})));
  inputs.push_back(Input(7, "u16", MakeNdSpec("u16", DType::kUint16),
                         ValueArray::Of<std::uint16_t>({65535, 2})));
  inputs.push_back(Input(8, "u32", MakeNdSpec("u32", DType::kUint32),
                         ValueArray::Of<std::uint32_t>({4294967295u, 3})));
  inputs.push_back(
      Input(9, "b", MakeNdSpec("b", DType::kBool), ValueArray::Bools({true, false, true, true})));
  inputs.push_back(Input(10, "e", MakeNdSpec("e", DType::kEnum, false, {}, {}, {"lo", "mid", "hi"}),
                         ValueArray::EnumCodes({2, 0, 1, 1})));
  std::vector<std::pair<std::shared_ptr<const model::Spec>, ValueArray>> want;
  for (const SignalInput& in : inputs) want.emplace_back(in.spec, *in.load());
  ValuesOptions options;
  options.backend = manifest::ValuesBackend::kZarr;
  options.chunk_max_bytes = 8;  // several inner chunks and shards per array
  options.shard_target_bytes = 16;
  const ValuesResult result = WriteValues(dir.path(), inputs, options);
  EXPECT_TRUE(result.encodings.empty());
  ZarrReader reader;
  DirResolver resolver{dir.path()};
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::int64_t id = static_cast<std::int64_t>(i) + 1;
    EXPECT_TRUE(ReadAll(reader, result, id, *want[i].first, resolver) == want[i].second)
        << want[i].first->spec_type;
  }
  // The enum array stores int32 codes.
  const zarr::ArrayMeta meta =
      zarr::ParseArrayMeta(Slurp(dir.path() / "time_series.zarr/e/zarr.json"), "e");
  EXPECT_EQ(meta.data_type, "int32");
}

TEST(ZarrWriter, WritesTheStoreLayoutAndMetadata) {
  ScratchDir dir;
  std::vector<SignalInput> inputs;
  auto spectro = MakeNdSpec("spec gram", DType::kFloat32, false, {2, 8}, {"channel", "freq"});
  std::vector<float> a(3 * 16), b(5 * 16);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = -static_cast<float>(i);
  inputs.push_back(Input(7, "b", spectro, ValueArray::Of<float>(b)));
  inputs.push_back(Input(3, "a", spectro, ValueArray::Of<float>(a)));
  ValuesOptions options;
  options.backend = manifest::ValuesBackend::kZarr;
  options.chunk_max_bytes = 2 * 64;     // 2 steps of 64 bytes
  options.shard_target_bytes = 6 * 64;  // 3 inner chunks per shard
  const ValuesResult result = WriteValues(dir.path(), inputs, options);

  std::vector<std::string> paths;
  for (const ShardInfo& s : result.shards) paths.push_back(s.path);
  EXPECT_EQ(paths,
            (std::vector<std::string>{
                "time_series.zarr/spec%20gram/c/0/0/0", "time_series.zarr/spec%20gram/c/1/0/0",
                "time_series.zarr/spec%20gram/zarr.json", "time_series.zarr/zarr.json"}));
  EXPECT_EQ(ParseJsonStrict(Slurp(dir.path() / "time_series.zarr/zarr.json"), nullptr),
            zarr::GroupMetaJson());
  const Json meta =
      *ParseJsonStrict(Slurp(dir.path() / "time_series.zarr/spec%20gram/zarr.json"), nullptr);
  EXPECT_EQ(meta["shape"], Json::parse("[8, 2, 8]"));
  EXPECT_EQ(meta["data_type"], "float32");
  EXPECT_EQ(meta["chunk_grid"]["configuration"]["chunk_shape"], Json::parse("[6, 2, 8]"));
  EXPECT_EQ(meta["dimension_names"], Json::parse(R"(["step", "channel", "freq"])"));
  EXPECT_EQ(meta["fill_value"], 0);
  const Json& sharding = meta["codecs"][0];
  EXPECT_EQ(sharding["name"], "sharding_indexed");
  EXPECT_EQ(sharding["configuration"]["chunk_shape"], Json::parse("[2, 2, 8]"));
  EXPECT_EQ(sharding["configuration"]["codecs"][1]["configuration"]["cname"], "zstd");
  EXPECT_EQ(sharding["configuration"]["codecs"][1]["configuration"]["shuffle"], "bitshuffle");
  EXPECT_EQ(sharding["configuration"]["codecs"][1]["configuration"]["typesize"], 4);
  EXPECT_EQ(sharding["configuration"]["codecs"][1]["configuration"]["clevel"], 9);
  EXPECT_EQ(sharding["configuration"]["index_codecs"][1]["name"], "crc32c");
  EXPECT_EQ(sharding["configuration"]["codecs"].size(), 2u);  // bytes, blosc: nothing more
  EXPECT_EQ(sharding["configuration"]["index_location"], "end");

  // Sorted by name: "a" (id 3) first at step 0, then "b" at step 3.
  ASSERT_EQ(result.chunks.at(3).size(), 1u);
  EXPECT_EQ(result.chunks.at(3)[0].major, 0);
  EXPECT_EQ(result.chunks.at(7)[0].major, 3);
  EXPECT_EQ(result.chunks.at(7)[0].n_values, 5);
  EXPECT_EQ(result.chunks.at(7)[0].value_path, "time_series.zarr/spec%20gram");

  ZarrReader reader;
  DirResolver resolver{dir.path()};
  EXPECT_TRUE(ReadAll(reader, result, 3, *spectro, resolver) == ValueArray::Of<float>(a));
  EXPECT_TRUE(ReadAll(reader, result, 7, *spectro, resolver) == ValueArray::Of<float>(b));
  // The second shard holds steps 6..7 in its first inner chunk; the other two are absent.
  const std::string shard = Slurp(dir.path() / "time_series.zarr/spec%20gram/c/1/0/0");
  const auto* index = reinterpret_cast<const std::uint8_t*>(shard.data() + shard.size() - 52);
  std::uint64_t second_offset = 0;
  std::memcpy(&second_offset, index + 16, 8);
  EXPECT_EQ(second_offset, zarr::kAbsent);
}

TEST(ZarrWriter, NullsGoToTheValidityArray) {
  ScratchDir dir;
  auto spec = MakeNdSpec("n", DType::kInt16, true);
  std::vector<SignalInput> inputs;
  inputs.push_back(Input(1, "x", spec, ValueArray::Of<std::int16_t>({5, 6, 0, 8}, {1, 1, 0, 1})));
  inputs.push_back(Input(2, "y", spec, ValueArray::Of<std::int16_t>({1, 2})));
  ValuesOptions options;
  options.backend = manifest::ValuesBackend::kZarr;
  const ValuesResult result = WriteValues(dir.path(), inputs, options);
  EXPECT_TRUE(fs::exists(dir.path() / "time_series.zarr/_validity/zarr.json"));
  EXPECT_TRUE(fs::exists(dir.path() / "time_series.zarr/_validity/n/zarr.json"));
  ZarrReader reader;
  DirResolver resolver{dir.path()};
  EXPECT_TRUE(ReadAll(reader, result, 1, *spec, resolver) ==
              ValueArray::Of<std::int16_t>({5, 6, 0, 8}, {1, 1, 0, 1}));
  EXPECT_TRUE(ReadAll(reader, result, 2, *spec, resolver) == ValueArray::Of<std::int16_t>({1, 2}));
  const zarr::ArrayMeta meta =
      zarr::ParseArrayMeta(Slurp(dir.path() / "time_series.zarr/_validity/n/zarr.json"), "v");
  EXPECT_EQ(meta.data_type, "bool");
  EXPECT_EQ(meta.shape, (std::vector<std::int64_t>{6}));
}

TEST(ZarrWriter, RefusesStrAndSplitsNothingBelowTheLocatorLimit) {
  ScratchDir dir;
  ValuesOptions options;
  options.backend = manifest::ValuesBackend::kZarr;
  std::vector<SignalInput> inputs;
  inputs.push_back(Input(1, "s", MakeNdSpec("s", DType::kStr), ValueArray::Of<std::string>({"a"})));
  EXPECT_THROW(WriteValues(dir.path(), inputs, options), ValidationError);
  EXPECT_FALSE(fs::exists(dir.path() / "time_series.zarr"));
  // The Parquet backend still refuses N-D specs.
  std::vector<SignalInput> nd;
  nd.push_back(
      Input(1, "m", MakeNdSpec("m", DType::kFloat32, false, {2}), ValueArray::Of<float>({1, 2})));
  EXPECT_THROW(WriteValues(dir.path(), nd, ValuesOptions{}), ValidationError);
  options.zarr_compression_level = 10;
  EXPECT_THROW(WriteValues(dir.path(), nd, options), ValidationError);
}

class ZarrShardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spec_ = MakeNdSpec("v", DType::kFloat64);
    std::vector<double> v(40);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i) + 0.5;
    values_ = v;
    std::vector<SignalInput> inputs;
    inputs.push_back(Input(1, "x", spec_, ValueArray::Of<double>(v)));
    ValuesOptions options;
    options.backend = manifest::ValuesBackend::kZarr;
    options.chunk_max_bytes = 4 * 8;      // 4 steps per inner chunk
    options.shard_target_bytes = 16 * 8;  // 16 steps (4 inner chunks) per shard: 3 shards
    result_ = WriteValues(dir_.path(), inputs, options);
  }
  fs::path Shard(int i) const {
    return dir_.path() / ("time_series.zarr/v/c/" + std::to_string(i));
  }
  // Rewrites inner chunk `inner`'s index entry of shard `i` (and the CRC when `fix_crc`).
  void Patch(int i, int inner, std::uint64_t offset, std::uint64_t nbytes, bool fix_crc) {
    std::string bytes = Slurp(Shard(i));
    const std::size_t at = bytes.size() - 4 * 16 - 4;
    std::memcpy(bytes.data() + at + inner * 16, &offset, 8);
    std::memcpy(bytes.data() + at + inner * 16 + 8, &nbytes, 8);
    if (fix_crc) {
      const std::uint32_t crc =
          zarr::Crc32c(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data() + at), 4 * 16));
      std::memcpy(bytes.data() + at + 64, &crc, 4);
    }
    std::ofstream(Shard(i), std::ios::binary | std::ios::trunc) << bytes;
  }

  // Rewrites the store as a writer using the inner `crc32c` codec would have written it (each
  // blosc frame followed by its CRC-32C; timef writes none, other writers may; readers accept it).
  void AddInnerCrc32c() {
    for (int i = 0; i < 3; ++i) {
      const std::string old = Slurp(Shard(i));
      const std::size_t index_at = old.size() - 4 * 16 - 4;
      std::string frames;
      std::string index;
      for (int inner = 0; inner < 4; ++inner) {
        std::uint64_t offset = 0;
        std::uint64_t nbytes = 0;
        std::memcpy(&offset, old.data() + index_at + inner * 16, 8);
        std::memcpy(&nbytes, old.data() + index_at + inner * 16 + 8, 8);
        if (offset == ~std::uint64_t{0}) {  // an absent inner chunk stays absent
          index.append(old, index_at + inner * 16, 16);
          continue;
        }
        const std::string frame = old.substr(offset, nbytes);
        const std::uint32_t crc =
            zarr::Crc32c(std::span(reinterpret_cast<const std::uint8_t*>(frame.data()), nbytes));
        const std::uint64_t new_offset = frames.size();
        const std::uint64_t new_nbytes = nbytes + 4;
        frames += frame;
        frames.append(reinterpret_cast<const char*>(&crc), 4);
        index.append(reinterpret_cast<const char*>(&new_offset), 8);
        index.append(reinterpret_cast<const char*>(&new_nbytes), 8);
      }
      const std::uint32_t index_crc =
          zarr::Crc32c(std::span(reinterpret_cast<const std::uint8_t*>(index.data()), 64));
      index.append(reinterpret_cast<const char*>(&index_crc), 4);
      std::ofstream(Shard(i), std::ios::binary | std::ios::trunc) << frames + index;
    }
    const fs::path meta_path = dir_.path() / "time_series.zarr/v/zarr.json";
    Json meta = Json::parse(Slurp(meta_path));
    meta["codecs"][0]["configuration"]["codecs"].push_back(Json{{"name", "crc32c"}});
    std::ofstream(meta_path, std::ios::trunc) << meta.dump();
  }

  ScratchDir dir_;
  std::shared_ptr<const model::Spec> spec_;
  std::vector<double> values_;
  ValuesResult result_;
};

TEST_F(ZarrShardTest, AWindowOpensOnlyItsShardAndDecodesOnlyItsChunks) {
  ZarrReader reader;
  DirResolver resolver{dir_.path()};
  // Steps 17..22 lie in shard 1, inner chunks 0 (16..19) and 1 (20..23).
  const ValueArray got = reader.Read("time_series.zarr/v", 17, 6, *spec_, resolver.Fn());
  EXPECT_TRUE(got == ValueArray::Of<double>(
                         std::vector<double>(values_.begin() + 17, values_.begin() + 23)));
  EXPECT_EQ(resolver.asked,
            (std::set<std::string>{"time_series.zarr/v/zarr.json", "time_series.zarr/v/c/1"}));
  EXPECT_EQ(reader.stats().files_opened, 2u);
  EXPECT_EQ(reader.stats().inner_chunks_decoded, 2u);
}

TEST_F(ZarrShardTest, ConsecutiveSignalsInOneInnerChunkDecodeItOnce) {
  ZarrReader reader;
  DirResolver resolver{dir_.path()};
  reader.Read("time_series.zarr/v", 0, 2, *spec_, resolver.Fn());
  reader.Read("time_series.zarr/v", 2, 2, *spec_, resolver.Fn());
  EXPECT_EQ(reader.stats().inner_chunks_decoded, 1u);
  EXPECT_TRUE(reader.Read("time_series.zarr/v", 3, 3, *spec_, resolver.Fn()) ==
              ValueArray::Of<double>({3.5, 4.5, 5.5}));
  EXPECT_EQ(reader.stats().inner_chunks_decoded, 2u);  // chunk 0 from the cache, then chunk 1
}

TEST_F(ZarrShardTest, AnAbsentInnerChunkReadsAsTheFillValue) {
  Patch(0, 1, zarr::kAbsent, zarr::kAbsent, true);
  ZarrReader reader;
  DirResolver resolver{dir_.path()};
  const ValueArray got = reader.Read("time_series.zarr/v", 2, 8, *spec_, resolver.Fn());
  EXPECT_TRUE(got == ValueArray::Of<double>({2.5, 3.5, 0, 0, 0, 0, 8.5, 9.5}));
}

TEST_F(ZarrShardTest, ACorruptIndexCrcNamesTheShardFile) {
  Patch(2, 0, 0, 3, false);
  ZarrReader reader;
  DirResolver resolver{dir_.path()};
  try {
    reader.Read("time_series.zarr/v", 33, 2, *spec_, resolver.Fn());
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("time_series.zarr/v/c/2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("CRC-32C"), std::string::npos) << e.what();
  }
  // The other shards still read.
  EXPECT_NO_THROW(reader.Read("time_series.zarr/v", 0, 4, *spec_, resolver.Fn()));
}

TEST_F(ZarrShardTest, AFlippedBitInAFrameIsACrcErrorNotWrongValues) {
  AddInnerCrc32c();
  {
    ZarrReader reader;
    DirResolver resolver{dir_.path()};
    const ValueArray read = reader.Read("time_series.zarr/v", 16, 4, *spec_, resolver.Fn());
    ASSERT_EQ(read.size(), 4);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(read.values<double>()[i], values_[16 + i]);
  }
  // Every bit of shard 1's first inner chunk (frame and CRC), one at a time.
  const std::string pristine = Slurp(Shard(1));
  std::uint64_t nbytes = 0;
  std::memcpy(&nbytes, pristine.data() + pristine.size() - 4 * 16 - 4 + 8, 8);
  ASSERT_GT(nbytes, 4u);
  for (std::uint64_t at = 0; at < nbytes; ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bytes = pristine;
      bytes[at] = static_cast<char>(bytes[at] ^ (1 << bit));
      std::ofstream(Shard(1), std::ios::binary | std::ios::trunc) << bytes;
      ZarrReader reader;
      DirResolver resolver{dir_.path()};
      try {
        (void)reader.Read("time_series.zarr/v", 16, 4, *spec_, resolver.Fn());
        ADD_FAILURE() << "byte " << at << " bit " << bit << " read back without an error";
      } catch (const FormatError& e) {
        EXPECT_NE(std::string(e.what()).find("time_series.zarr/v/c/1"), std::string::npos);
      }
    }
  }
  std::ofstream(Shard(1), std::ios::binary | std::ios::trunc) << pristine;
}

TEST_F(ZarrShardTest, AnUnlistedFileAndAMismatchedSpecAreFormatErrors) {
  ZarrReader reader;
  ZarrResolve refuse = [&](const std::string& rel) -> fs::path {
    if (rel.ends_with("c/1")) throw FormatError(ErrorSite{rel, "", ""}, "not listed");
    return dir_.path() / rel;
  };
  EXPECT_NO_THROW(reader.Read("time_series.zarr/v", 0, 16, *spec_, refuse));
  EXPECT_THROW(reader.Read("time_series.zarr/v", 15, 2, *spec_, refuse), FormatError);
  EXPECT_THROW(reader.Read("time_series.zarr/v", 0, 2, *MakeNdSpec("v", DType::kFloat32), refuse),
               FormatError);
  EXPECT_THROW(reader.Read("time_series.zarr/v", 39, 2, *spec_, refuse), FormatError);
  EXPECT_THROW(reader.Read("time_series.zarr/v", 0, 2,
                           *MakeNdSpec("v", DType::kFloat64, false, {2}), refuse),
               FormatError);
}

// An unsharded array (bytes + blosc, one chunk per file), as zarr-python or zarrita write it.
TEST(ZarrReaderPlain, ReadsBytesPlusBloscArrays) {
  ScratchDir dir;
  const fs::path array = dir.path() / "time_series.zarr/p";
  fs::create_directories(array / "c" / "0");
  fs::create_directories(array / "c" / "1");
  const Json meta = Json::parse(R"({
    "zarr_format": 3, "node_type": "array", "shape": [5, 2], "data_type": "uint16",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 2]}},
    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
    "fill_value": 0,
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
               {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5,
                "shuffle": "shuffle", "typesize": 2, "blocksize": 0}}],
    "attributes": {}, "dimension_names": ["step", "ch"]})");
  std::ofstream(array / "zarr.json") << meta.dump();
  std::vector<std::uint16_t> all{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0};
  // Each chunk with another of the codecs readers accept (docs/format.md §8.4).
  const char* cnames[] = {"lz4", "zlib"};
  for (int c = 0; c < 2; ++c) {
    std::span bytes(reinterpret_cast<const std::uint8_t*>(all.data() + 6 * c), 12);
    const std::vector<std::uint8_t> frame = zarr::BloscCompress(bytes, 2, 5, cnames[c]);
    std::ofstream(array / "c" / std::to_string(c) / "0", std::ios::binary)
        .write(reinterpret_cast<const char*>(frame.data()),
               static_cast<std::streamsize>(frame.size()));
  }
  ZarrReader reader;
  DirResolver resolver{dir.path()};
  auto spec = MakeNdSpec("p", DType::kUint16, false, {2});
  EXPECT_TRUE(reader.Read("time_series.zarr/p", 1, 4, *spec, resolver.Fn()) ==
              ValueArray::Of<std::uint16_t>({3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(reader.stats().inner_chunks_decoded, 2u);
}

}  // namespace
}  // namespace timef::values
