#include "parquet/compression.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>

#include "parquet/errors.h"
#include "parquet/format_test_support.h"
#include "timef/error.h"

namespace timef::parquet {
namespace {

using testing::CompressibleBytes;
using ::testing::HasSubstr;
using testing::RandomBytes;

constexpr CompressionCodec kCodecs[] = {CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                        CompressionCodec::kGzip, CompressionCodec::kZstd,
                                        CompressionCodec::kLz4Raw};

std::vector<std::byte> CompressWith(CompressionCodec codec, std::span<const std::byte> input,
                                    int level = 0) {
  std::vector<std::byte> out;
  Compress(codec, input, level, out);
  return out;
}

std::vector<std::byte> DecompressTo(CompressionCodec codec, std::span<const std::byte> input,
                                    std::size_t size) {
  std::vector<std::byte> out(size);
  Decompress(codec, input, out);
  return out;
}

class CodecTest : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(CodecTest, RoundTripsDataOfManySizes) {
  const CompressionCodec codec = GetParam();
  std::mt19937_64 rng(7);
  std::vector<std::vector<std::byte>> inputs;
  inputs.push_back({});
  inputs.push_back({std::byte{42}});
  inputs.push_back(RandomBytes(rng, 1000));
  inputs.push_back(CompressibleBytes(rng, 16 * 1024));
  inputs.push_back(CompressibleBytes(rng, 3 * 1024 * 1024 + 17));
  inputs.push_back(std::vector<std::byte>(1 << 20, std::byte{0}));
  for (const auto& input : inputs) {
    SCOPED_TRACE(input.size());
    const auto compressed = CompressWith(codec, input);
    EXPECT_NO_THROW(CheckDecompressedSize(codec, compressed.size(), input.size()));
    EXPECT_EQ(DecompressTo(codec, compressed, input.size()), input);
    if (codec != CompressionCodec::kUncompressed && input.size() > 10000) {
      // Compressible inputs really shrink (the codec is not a copy).
      EXPECT_LT(compressed.size() * 2, input.size());
    }
  }
}

TEST_P(CodecTest, AppendsToTheOutputBuffer) {
  const CompressionCodec codec = GetParam();
  const auto input = testing::BytesOf("some bytes to compress, some bytes to compress");
  std::vector<std::byte> out = {std::byte{1}, std::byte{2}};
  Compress(codec, input, 0, out);
  ASSERT_GT(out.size(), 2u);
  EXPECT_EQ(out[0], std::byte{1});
  EXPECT_EQ(DecompressTo(codec, std::span(out).subspan(2), input.size()), input);
}

TEST_P(CodecTest, OutputIsDeterministic) {
  std::mt19937_64 rng(11);
  const auto input = CompressibleBytes(rng, 100000);
  EXPECT_EQ(CompressWith(GetParam(), input), CompressWith(GetParam(), input));
}

TEST_P(CodecTest, WrongDeclaredSizeThrows) {
  const CompressionCodec codec = GetParam();
  std::mt19937_64 rng(3);
  const auto input = CompressibleBytes(rng, 50000);
  const auto compressed = CompressWith(codec, input);
  for (std::size_t declared : {input.size() - 1, input.size() + 1, input.size() / 2}) {
    SCOPED_TRACE(declared);
    EXPECT_THROW(DecompressTo(codec, compressed, declared), DecodeError);
  }
  EXPECT_THROW(DecompressTo(codec, compressed, 0), DecodeError);
}

// The codecs that produce a stream (everything but UNCOMPRESSED).
class StreamCodecTest : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(StreamCodecTest, TruncatedInputThrows) {
  const CompressionCodec codec = GetParam();
  std::mt19937_64 rng(5);
  const auto input = CompressibleBytes(rng, 50000);
  const auto compressed = CompressWith(codec, input);
  for (std::size_t keep :
       {std::size_t{0}, std::size_t{1}, compressed.size() / 2, compressed.size() - 1}) {
    SCOPED_TRACE(keep);
    EXPECT_THROW(DecompressTo(codec, std::span(compressed).first(keep), input.size()), DecodeError);
  }
}

TEST_P(StreamCodecTest, CorruptedInputThrowsOrStaysInBounds) {
  // Flipping bytes must never crash or overrun (ASan checks). Not every flip is detectable: a
  // flipped literal (or a gzip header's mtime byte) can decode to other bytes of the right length,
  // which the page CRC catches a layer above.
  const CompressionCodec codec = GetParam();
  std::mt19937_64 rng(9);
  const auto input = CompressibleBytes(rng, 20000);
  const auto compressed = CompressWith(codec, input);
  int detected = 0;
  for (int trial = 0; trial < 300; ++trial) {
    auto corrupt = compressed;
    corrupt[rng() % corrupt.size()] ^= static_cast<std::byte>(1 + rng() % 255);
    std::vector<std::byte> out(input.size());
    try {
      Decompress(codec, corrupt, out);
    } catch (const DecodeError&) {
      ++detected;
    }
  }
  EXPECT_GT(detected, 0);
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecTest, ::testing::ValuesIn(kCodecs),
                         [](const auto& info) { return ToString(info.param); });
INSTANTIATE_TEST_SUITE_P(StreamCodecs, StreamCodecTest,
                         ::testing::ValuesIn(std::span(kCodecs).subspan(1)),
                         [](const auto& info) { return ToString(info.param); });

TEST(CompressionTest, ZstdLevelsChangeTheOutputAndAreValidated) {
  std::mt19937_64 rng(1);
  const auto input = CompressibleBytes(rng, 200000);
  const auto fast = CompressWith(CompressionCodec::kZstd, input, 1);
  const auto strong = CompressWith(CompressionCodec::kZstd, input, 19);
  EXPECT_LT(strong.size(), fast.size());
  EXPECT_EQ(DecompressTo(CompressionCodec::kZstd, strong, input.size()), input);
  EXPECT_EQ(DecompressTo(CompressionCodec::kZstd, CompressWith(CompressionCodec::kZstd, input, -5),
                         input.size()),
            input);
  EXPECT_THROW(CompressWith(CompressionCodec::kZstd, input, 23), ValidationError);
  EXPECT_THROW(CompressWith(CompressionCodec::kGzip, input, 10), ValidationError);
  EXPECT_THROW(CompressWith(CompressionCodec::kGzip, input, -2), ValidationError);
  EXPECT_EQ(DecompressTo(CompressionCodec::kGzip, CompressWith(CompressionCodec::kGzip, input, 9),
                         input.size()),
            input);
}

TEST(CompressionTest, GzipUsesTheGzipWrapper) {
  const auto compressed = CompressWith(CompressionCodec::kGzip, testing::BytesOf("hello"));
  ASSERT_GE(compressed.size(), 18u);
  EXPECT_EQ(compressed[0], std::byte{0x1f});
  EXPECT_EQ(compressed[1], std::byte{0x8b});
}

TEST(CompressionTest, GzipAcceptsConcatenatedMembers) {
  const auto a = testing::BytesOf("first member, ");
  const auto b = testing::BytesOf("second member");
  auto both = CompressWith(CompressionCodec::kGzip, a);
  const auto second = CompressWith(CompressionCodec::kGzip, b);
  both.insert(both.end(), second.begin(), second.end());
  const auto out = DecompressTo(CompressionCodec::kGzip, both, a.size() + b.size());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(out.data()), out.size()),
            "first member, second member");
  // Garbage after the stream is not silently ignored.
  auto trailing = CompressWith(CompressionCodec::kGzip, a);
  trailing.push_back(std::byte{0});
  EXPECT_THROW(DecompressTo(CompressionCodec::kGzip, trailing, a.size()), DecodeError);
}

TEST(CompressionTest, GzipReadsZlibWrappedStreamsToo) {
  const auto input = testing::BytesOf("zlib wrapped data zlib wrapped data");
  std::vector<std::byte> zlib_stream(compressBound(input.size()));
  uLongf length = zlib_stream.size();
  ASSERT_EQ(compress(reinterpret_cast<Bytef*>(zlib_stream.data()), &length,
                     reinterpret_cast<const Bytef*>(input.data()), input.size()),
            Z_OK);
  zlib_stream.resize(length);
  EXPECT_EQ(DecompressTo(CompressionCodec::kGzip, zlib_stream, input.size()), input);
}

TEST(CompressionTest, UnsupportedCodecs) {
  for (auto codec : {CompressionCodec::kLzo, CompressionCodec::kBrotli, CompressionCodec::kLz4,
                     static_cast<CompressionCodec>(99)}) {
    SCOPED_TRACE(ToString(codec));
    EXPECT_FALSE(IsSupportedCodec(codec));
    std::vector<std::byte> out(4);
    try {
      Decompress(codec, testing::BytesOf("abcd"), out);
      FAIL() << "no exception";
    } catch (const DecodeError& e) {
      EXPECT_THAT(e.what(), HasSubstr("not supported"));
    }
    EXPECT_THROW(CompressWith(codec, out), ValidationError);
  }
  for (auto codec : kCodecs) EXPECT_TRUE(IsSupportedCodec(codec));
}

TEST(CompressionTest, EmptySectionsNeedNoStream) {
  std::vector<std::byte> none;
  for (auto codec : kCodecs) EXPECT_NO_THROW(Decompress(codec, {}, none));
}

TEST(CompressionTest, DeclaredSizesAreChecked) {
  using C = CompressionCodec;
  EXPECT_NO_THROW(CheckDecompressedSize(C::kUncompressed, 100, 100));
  EXPECT_THROW(CheckDecompressedSize(C::kUncompressed, 100, 101), DecodeError);
  EXPECT_THROW(CheckDecompressedSize(C::kZstd, -1, 10), DecodeError);
  EXPECT_THROW(CheckDecompressedSize(C::kZstd, 10, -1), DecodeError);
  // The 1 GiB cap holds whatever the ratio.
  EXPECT_THROW(CheckDecompressedSize(C::kZstd, 1 << 30, (std::int64_t{1} << 30) + 1), DecodeError);
  EXPECT_NO_THROW(CheckDecompressedSize(C::kZstd, 1 << 30, std::int64_t{1} << 30));
  // Ratios no real stream reaches are refused.
  EXPECT_THROW(CheckDecompressedSize(C::kSnappy, 100, 1'000'000), DecodeError);
  EXPECT_THROW(CheckDecompressedSize(C::kLz4Raw, 100, 1'000'000), DecodeError);
  EXPECT_THROW(CheckDecompressedSize(C::kGzip, 100, 1'000'000), DecodeError);
  EXPECT_THROW(CheckDecompressedSize(C::kZstd, 10, 100'000'000), DecodeError);
  EXPECT_NO_THROW(CheckDecompressedSize(C::kZstd, 100, 1'000'000));
  EXPECT_NO_THROW(CheckDecompressedSize(C::kSnappy, 0, 0));
}

TEST(CompressionTest, ExtremeButRealRatiosPassTheCheck) {
  // The densest inputs each codec meets: long runs of one byte.
  const std::vector<std::byte> zeros(16 << 20, std::byte{0});
  for (auto codec : kCodecs) {
    SCOPED_TRACE(ToString(codec));
    const int level = codec == CompressionCodec::kZstd   ? 19
                      : codec == CompressionCodec::kGzip ? 9
                                                         : 0;
    const auto compressed = CompressWith(codec, zeros, level);
    EXPECT_NO_THROW(CheckDecompressedSize(codec, compressed.size(), zeros.size()))
        << compressed.size() << " bytes";
  }
}

TEST(CompressionTest, ReusedDecompressorHandlesManyPages) {
  std::mt19937_64 rng(21);
  Compressor compressor(CompressionCodec::kZstd, 3);
  Decompressor decompressor;
  for (int i = 0; i < 50; ++i) {
    const auto input = CompressibleBytes(rng, 1000 + 100 * i);
    std::vector<std::byte> compressed;
    compressor.Compress(input, compressed);
    std::vector<std::byte> out(input.size());
    decompressor.Decompress(CompressionCodec::kZstd, compressed, out);
    EXPECT_EQ(out, input);
    // A failure does not poison the context for the next page.
    std::vector<std::byte> wrong(input.size() + 1);
    EXPECT_THROW(decompressor.Decompress(CompressionCodec::kZstd, compressed, wrong), DecodeError);
  }
}

}  // namespace
}  // namespace timef::parquet
