// The §7.4 value encoding: measured, forced globally or per spec_type, fixed for bool and enum,
// with the §7.3 dictionary fallback; every decision is checked in the footers written.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <deque>

#include "values/encoding_decision.h"
#include "values_test_support.h"

namespace timef::values {
namespace {

using model::DType;
using model::ValueArray;
using parquet::Encoding;
using testing::HasEncoding;
using testing::MakeInput;
using testing::MakeSpec;
using testing::ScratchDir;
using testing::ValuesEncodings;

template <class T>
ValueArray Cycle(std::int64_t n, std::int64_t distinct) {
  std::vector<T> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    values[static_cast<std::size_t>(i)] = static_cast<T>(i % distinct);
  return ValueArray::Of<T>(std::move(values));
}

// Writes one signal per (spec_type, values) and returns the footer encodings of each spec_type's
// first shard's values column (row group 0).
struct Written {
  ValuesResult result;
  std::map<std::string, std::vector<Encoding>> footer;
};

Written Write(const std::filesystem::path& dir, std::vector<SignalInput> inputs,
              const ValuesOptions& options) {
  Written written;
  written.result = WriteValues(dir, std::move(inputs), options);
  for (const ShardInfo& shard : written.result.shards) {
    if (written.footer.count(shard.spec_type) == 0) {
      written.footer[shard.spec_type] = ValuesEncodings(dir / shard.path).at(0);
    }
  }
  return written;
}

ValuesOptions Fast() {
  ValuesOptions options;
  options.compression_level = 1;
  return options;
}

TEST(ValueEncodingTest, AutomaticChoiceFollowsTheDistinctCount) {
  ScratchDir dir;
  std::vector<SignalInput> inputs;
  inputs.push_back(MakeInput(1, "a", MakeSpec("few_f", DType::kFloat32), Cycle<float>(100000, 10)));
  inputs.push_back(
      MakeInput(2, "a", MakeSpec("many_f", DType::kFloat64), Cycle<double>(100000, 100000)));
  inputs.push_back(
      MakeInput(3, "a", MakeSpec("few_i", DType::kInt32), Cycle<std::int32_t>(100000, 65536)));
  inputs.push_back(
      MakeInput(4, "a", MakeSpec("many_i", DType::kInt32), Cycle<std::int32_t>(100000, 65537)));
  std::vector<std::string> words;
  for (int i = 0; i < 5000; ++i) words.push_back("w" + std::to_string(i % 3));
  inputs.push_back(
      MakeInput(5, "a", MakeSpec("few_s", DType::kStr), ValueArray::Of<std::string>(words)));
  inputs.push_back(
      MakeInput(6, "a", MakeSpec("b", DType::kBool), ValueArray::Bools({true, false})));
  inputs.push_back(MakeInput(7, "a", MakeSpec("e", DType::kEnum, false, {"p", "q"}),
                             ValueArray::EnumCodes({1, 1, 0})));
  Written w = Write(dir.path(), std::move(inputs), Fast());
  const auto& enc = w.result.encodings;
  EXPECT_EQ(enc.at("few_f"), manifest::ValueEncoding::kDictionary);
  EXPECT_EQ(enc.at("many_f"), manifest::ValueEncoding::kByteStreamSplit);
  EXPECT_EQ(enc.at("few_i"), manifest::ValueEncoding::kDictionary);
  EXPECT_EQ(enc.at("many_i"), manifest::ValueEncoding::kPlain);
  EXPECT_EQ(enc.at("few_s"), manifest::ValueEncoding::kDictionary);
  EXPECT_EQ(enc.at("b"), manifest::ValueEncoding::kPlain);
  EXPECT_EQ(enc.at("e"), manifest::ValueEncoding::kDictionary);
  EXPECT_TRUE(HasEncoding(w.footer.at("few_f"), Encoding::kRleDictionary));
  EXPECT_TRUE(HasEncoding(w.footer.at("many_f"), Encoding::kByteStreamSplit));
  EXPECT_FALSE(HasEncoding(w.footer.at("many_f"), Encoding::kRleDictionary));
  EXPECT_TRUE(HasEncoding(w.footer.at("few_i"), Encoding::kRleDictionary));
  EXPECT_TRUE(HasEncoding(w.footer.at("many_i"), Encoding::kPlain));
  EXPECT_FALSE(HasEncoding(w.footer.at("many_i"), Encoding::kRleDictionary));
  EXPECT_TRUE(HasEncoding(w.footer.at("few_s"), Encoding::kRleDictionary));
  EXPECT_EQ(w.footer.at("b"), (std::vector<Encoding>{Encoding::kPlain, Encoding::kRle}));
  EXPECT_TRUE(HasEncoding(w.footer.at("e"), Encoding::kRleDictionary));
}

TEST(ValueEncodingTest, EnumDictionaryHoldsExactlyTheCategoriesInOrder) {
  ScratchDir dir;
  auto spec = MakeSpec("e", DType::kEnum, true, {"zeta", "alpha", "mu", "unused"});
  ValuesOptions options;
  options.compression = parquet::CompressionCodec::kUncompressed;  // to read the page directly
  ValuesResult result = WriteValues(
      dir.path(), {MakeInput(1, "a", spec, ValueArray::EnumCodes({2, 0, 0}, {1, 1, 0}))}, options);
  const auto path = dir.path() / result.shards[0].path;
  parquet::FileReader reader = parquet::FileReader::OpenFile(path);
  const auto& meta = *reader.column_chunk(0, 5).meta_data;
  ASSERT_TRUE(meta.dictionary_page_offset.has_value());
  auto file = parquet::OpenPreadFile(path);
  std::vector<std::byte> bytes =
      file->Read(static_cast<std::uint64_t>(*meta.dictionary_page_offset),
                 static_cast<std::uint64_t>(meta.data_page_offset - *meta.dictionary_page_offset));
  std::size_t header_size = 0;
  auto header = parquet::ReadThrift<parquet::PageHeader>(bytes, &header_size);
  ASSERT_TRUE(header.dictionary_page_header.has_value());
  EXPECT_EQ(header.dictionary_page_header->num_values, 4);
  // PLAIN byte arrays: a 4-byte little-endian length, then the bytes.
  std::vector<std::string> labels;
  std::size_t at = header_size;
  while (at + 4 <= bytes.size()) {
    std::uint32_t length = 0;
    std::memcpy(&length, bytes.data() + at, 4);
    at += 4;
    labels.emplace_back(reinterpret_cast<const char*>(bytes.data()) + at, length);
    at += length;
  }
  EXPECT_EQ(labels, spec->categories);
  ChunkReader chunks;
  EXPECT_TRUE(testing::ReadSignal(chunks, dir.path(), result, 1, *spec) ==
              ValueArray::EnumCodes({2, 0, 0}, {1, 1, 0}));
}

TEST(ValueEncodingTest, GlobalOverrideLandsInTheFooterExceptForBoolAndEnum) {
  for (auto [choice, expected] :
       {std::pair{manifest::ValueEncodingChoice::kPlain, Encoding::kPlain},
        std::pair{manifest::ValueEncodingChoice::kDictionary, Encoding::kRleDictionary}}) {
    ScratchDir dir;
    std::vector<SignalInput> inputs;
    inputs.push_back(
        MakeInput(1, "a", MakeSpec("many_f", DType::kFloat32), Cycle<float>(70000, 70000)));
    inputs.push_back(
        MakeInput(2, "a", MakeSpec("few_i", DType::kInt16), Cycle<std::int16_t>(1000, 3)));
    inputs.push_back(MakeInput(3, "a", MakeSpec("b", DType::kBool), ValueArray::Bools({true})));
    inputs.push_back(
        MakeInput(4, "a", MakeSpec("e", DType::kEnum, false, {"p"}), ValueArray::EnumCodes({0})));
    ValuesOptions options = Fast();
    options.value_encoding = choice;
    Written w = Write(dir.path(), std::move(inputs), options);
    EXPECT_TRUE(HasEncoding(w.footer.at("many_f"), expected));
    EXPECT_TRUE(HasEncoding(w.footer.at("few_i"), expected));
    if (expected == Encoding::kPlain) {
      EXPECT_FALSE(HasEncoding(w.footer.at("few_i"), Encoding::kRleDictionary));
      EXPECT_EQ(w.result.encodings.at("few_i"), manifest::ValueEncoding::kPlain);
    }
    EXPECT_FALSE(HasEncoding(w.footer.at("b"), Encoding::kRleDictionary));
    EXPECT_TRUE(HasEncoding(w.footer.at("e"), Encoding::kRleDictionary));
  }
}

TEST(ValueEncodingTest, ForcedByteStreamSplitNeedsFloats) {
  ScratchDir dir;
  ValuesOptions options;
  options.value_encoding = manifest::ValueEncodingChoice::kByteStreamSplit;
  std::vector<SignalInput> inputs;
  inputs.push_back(MakeInput(1, "a", MakeSpec("f", DType::kFloat32), Cycle<float>(10, 2)));
  inputs.push_back(
      MakeInput(2, "a", MakeSpec("counts", DType::kUint16), Cycle<std::uint16_t>(10, 2)));
  try {
    WriteValues(dir.path(), inputs, options);
    FAIL() << "expected ValidationError";
  } catch (const ValidationError& error) {
    EXPECT_NE(std::string(error.what()).find("counts"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "time_series"));  // checked up front

  // Only floats: accepted and written.
  inputs.pop_back();
  Written w = Write(dir.path(), inputs, options);
  EXPECT_TRUE(HasEncoding(w.footer.at("f"), Encoding::kByteStreamSplit));
  EXPECT_EQ(w.result.encodings.at("f"), manifest::ValueEncoding::kByteStreamSplit);
}

TEST(ValueEncodingTest, PerSpecTypeMapWinsOverTheGlobalOverride) {
  ScratchDir dir;
  ValuesOptions options = Fast();
  options.value_encoding = manifest::ValueEncodingChoice::kByteStreamSplit;
  options.value_encoding_by_spec["i"] = manifest::ValueEncoding::kDictionary;
  options.value_encoding_by_spec["g"] = manifest::ValueEncoding::kPlain;
  std::vector<SignalInput> inputs;
  inputs.push_back(MakeInput(1, "a", MakeSpec("f", DType::kFloat32), Cycle<float>(100, 2)));
  inputs.push_back(MakeInput(2, "a", MakeSpec("g", DType::kFloat64), Cycle<double>(100, 2)));
  inputs.push_back(MakeInput(3, "a", MakeSpec("i", DType::kInt32), Cycle<std::int32_t>(100, 100)));
  Written w = Write(dir.path(), inputs, options);
  EXPECT_TRUE(HasEncoding(w.footer.at("f"), Encoding::kByteStreamSplit));
  EXPECT_TRUE(HasEncoding(w.footer.at("g"), Encoding::kPlain));
  EXPECT_FALSE(HasEncoding(w.footer.at("g"), Encoding::kByteStreamSplit));
  EXPECT_TRUE(HasEncoding(w.footer.at("i"), Encoding::kRleDictionary));
  EXPECT_EQ(w.result.encodings.at("g"), manifest::ValueEncoding::kPlain);

  ValuesOptions bad;
  bad.value_encoding_by_spec["i"] = manifest::ValueEncoding::kByteStreamSplit;
  EXPECT_THROW(WriteValues(dir.path() / "x", inputs, bad), ValidationError);
  ValuesOptions enum_plain;
  enum_plain.value_encoding_by_spec["e"] = manifest::ValueEncoding::kPlain;
  EXPECT_THROW(WriteValues(dir.path() / "y",
                           {MakeInput(9, "a", MakeSpec("e", DType::kEnum, false, {"p"}),
                                      ValueArray::EnumCodes({0}))},
                           enum_plain),
               ValidationError);
}

TEST(ValueEncodingTest, LargeDictionaryFallsBackPerColumnChunk) {
  ScratchDir dir;
  ValuesOptions options = Fast();
  options.value_encoding = manifest::ValueEncodingChoice::kDictionary;
  // 200,000 distinct doubles = 1.6 MB of PLAIN dictionary > 1 MiB; 300,000 int32 = 1.2 MB.
  std::vector<SignalInput> inputs;
  inputs.push_back(
      MakeInput(1, "a", MakeSpec("f", DType::kFloat64), Cycle<double>(200000, 200000)));
  inputs.push_back(
      MakeInput(2, "a", MakeSpec("i", DType::kInt32), Cycle<std::int32_t>(300000, 300000)));
  Written w = Write(dir.path(), inputs, options);
  EXPECT_EQ(w.result.encodings.at("f"), manifest::ValueEncoding::kDictionary);  // the decision
  EXPECT_TRUE(HasEncoding(w.footer.at("f"), Encoding::kByteStreamSplit));  // the footer's truth
  EXPECT_FALSE(HasEncoding(w.footer.at("f"), Encoding::kRleDictionary));
  EXPECT_TRUE(HasEncoding(w.footer.at("i"), Encoding::kPlain));
  EXPECT_FALSE(HasEncoding(w.footer.at("i"), Encoding::kRleDictionary));
  ChunkReader reader;
  EXPECT_TRUE(testing::ReadSignal(reader, dir.path(), w.result, 1, *inputs[0].spec) ==
              *inputs[0].load());
}

TEST(ValueEncodingTest, MeasurementLooksOnlyAtTheLeadingFourMebibytes) {
  // 1 MiB chunks of int32: the first 4 chunks (4 MiB) decide.
  constexpr std::int64_t kWindowValues = (std::int64_t{4} << 20) / 4;
  std::vector<std::int32_t> few_then_many(static_cast<std::size_t>(2 * kWindowValues));
  for (std::int64_t i = 0; i < 2 * kWindowValues; ++i) {
    few_then_many[static_cast<std::size_t>(i)] =
        i < kWindowValues ? static_cast<std::int32_t>(i % 7) : static_cast<std::int32_t>(i);
  }
  std::vector<std::int32_t> many_then_few(few_then_many.rbegin(), few_then_many.rend());
  ScratchDir dir;
  Written w = Write(dir.path(),
                    {MakeInput(1, "a", MakeSpec("first_few", DType::kInt32),
                               ValueArray::Of<std::int32_t>(few_then_many)),
                     MakeInput(2, "a", MakeSpec("first_many", DType::kInt32),
                               ValueArray::Of<std::int32_t>(many_then_few))},
                    Fast());
  EXPECT_EQ(w.result.encodings.at("first_few"), manifest::ValueEncoding::kDictionary);
  EXPECT_EQ(w.result.encodings.at("first_many"), manifest::ValueEncoding::kPlain);
}

BufferedChunk ChunkOf(ValueArray values) {
  BufferedChunk chunk;
  chunk.values = std::move(values);
  chunk.bytes = chunk.values.size() * 4;
  return chunk;
}

TEST(ValueEncodingTest, SamplingSkipsValuesBetweenSampledIndicesAndDropsNulls) {
  // One chunk of m = 300,000: s = 200,000 samples at ⌊1.5 j⌋, so indices ≡ 2 (mod 3) are never
  // looked at. Make only those distinct.
  std::vector<float> values(300000, 1.0f);
  for (std::size_t i = 2; i < values.size(); i += 3) values[i] = static_cast<float>(i);
  std::deque<BufferedChunk> chunks;
  chunks.push_back(ChunkOf(ValueArray::Of<float>(values)));
  EXPECT_EQ(MeasureEncoding(DType::kFloat32, chunks), manifest::ValueEncoding::kDictionary);
  // Shift by one: now the distinct values are sampled.
  values.insert(values.begin(), 1.0f);
  values.pop_back();
  chunks.clear();
  chunks.push_back(ChunkOf(ValueArray::Of<float>(values)));
  EXPECT_EQ(MeasureEncoding(DType::kFloat32, chunks), manifest::ValueEncoding::kByteStreamSplit);
  // The same values, all null but a few: nulls are dropped before sampling.
  std::vector<std::uint8_t> validity(values.size(), 0);
  validity[0] = validity[10] = 1;
  chunks.clear();
  chunks.push_back(ChunkOf(ValueArray::Of<float>(values, validity)));
  EXPECT_EQ(MeasureEncoding(DType::kFloat32, chunks), manifest::ValueEncoding::kDictionary);
}

TEST(ValueEncodingTest, BitPatternsNotValuesAreCounted) {
  // 65,537 NaNs with distinct payloads are 65,537 distinct bit patterns; so are -0.0 vs 0.0.
  std::vector<float> nans;
  for (std::uint32_t i = 0; i < 65537; ++i) nans.push_back(std::bit_cast<float>(0x7fc00000u | i));
  std::deque<BufferedChunk> chunks;
  chunks.push_back(ChunkOf(ValueArray::Of<float>(nans)));
  EXPECT_EQ(MeasureEncoding(DType::kFloat32, chunks), manifest::ValueEncoding::kByteStreamSplit);
  nans.pop_back();
  chunks.clear();
  chunks.push_back(ChunkOf(ValueArray::Of<float>(nans)));
  EXPECT_EQ(MeasureEncoding(DType::kFloat32, chunks), manifest::ValueEncoding::kDictionary);
}

}  // namespace
}  // namespace timef::values
