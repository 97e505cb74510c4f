// Deterministic, bounded fuzzing of the decoders: random and mutated inputs must either decode or
// throw DecodeError — never crash, hang, overrun (ASan/UBSan builds check) or throw anything else.
#include <gtest/gtest.h>

#include <random>
#include <typeinfo>

#include "parquet/compression.h"
#include "parquet/errors.h"
#include "parquet/format_test_support.h"
#include "parquet/metadata.h"
#include "parquet/metadata_samples.h"

namespace timef::parquet {
namespace {

// Applies 1-4 random edits: overwrite, bit flip, insert, delete, truncate, or a varint-looking
// run that often turns into a huge length.
std::vector<std::byte> Mutate(std::mt19937_64& rng, std::vector<std::byte> bytes) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = bytes.empty() ? 0 : rng() % bytes.size();
    switch (rng() % 6) {
      case 0:
        if (!bytes.empty()) bytes[at] = static_cast<std::byte>(rng());
        break;
      case 1:
        if (!bytes.empty()) bytes[at] ^= static_cast<std::byte>(1u << (rng() % 8));
        break;
      case 2:
        bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                     static_cast<std::byte>(rng()));
        break;
      case 3:
        if (!bytes.empty()) bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at));
        break;
      case 4:
        bytes.resize(at);
        break;
      case 5:
        for (int i = 0; i < 4 && at + i < bytes.size(); ++i) bytes[at + i] = std::byte{0xFF};
        break;
    }
  }
  return bytes;
}

struct Outcome {
  int decoded = 0;
  int rejected = 0;
};

// Decodes `input` as T. On success, re-encoding must decode to the same value.
template <typename T>
void DecodeOne(std::span<const std::byte> input, Outcome& outcome) {
  T value;
  try {
    value = ReadThrift<T>(input);
  } catch (const DecodeError&) {
    ++outcome.rejected;
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE() << typeid(T).name() << ": unexpected " << typeid(e).name() << ": " << e.what();
    return;
  }
  ++outcome.decoded;
  std::vector<std::byte> again;
  WriteThrift(value, again);
  EXPECT_TRUE(ReadThrift<T>(again) == value) << typeid(T).name();
}

template <typename T>
Outcome FuzzType(const T& seed, std::uint64_t rng_seed, int random_inputs, int mutations) {
  std::mt19937_64 rng(rng_seed);
  Outcome outcome;
  std::vector<std::byte> valid;
  WriteThrift(seed, valid);
  for (int i = 0; i < random_inputs; ++i) {
    const auto input = testing::RandomBytes(rng, rng() % 64);
    DecodeOne<T>(input, outcome);
  }
  for (int i = 0; i < mutations; ++i) DecodeOne<T>(Mutate(rng, valid), outcome);
  return outcome;
}

TEST(FormatFuzzTest, MetadataDecodersRejectGarbageCleanly) {
  using namespace testing;
  std::uint64_t seed = 1;
  int total = 0;
  int rejected = 0;
  auto run = [&](const auto& value, int mutations) {
    const Outcome o = FuzzType(value, seed++, 200, mutations);
    total += o.decoded + o.rejected;
    rejected += o.rejected;
  };
  run(FullFileMetaData(), 1500);
  run(MinimalFileMetaData(), 200);
  run(FullDataPageV1Header(), 500);
  run(FullDataPageV2Header(), 500);
  run(FullDictionaryPageHeader(), 300);
  run(FullColumnIndex(), 400);
  run(FullOffsetIndex(), 400);
  run(FullColumnMetaData(), 400);
  run(FullColumnChunk(), 200);
  run(FullRowGroup(), 300);
  run(FullSchema()[3], 300);
  run(LogicalType::Timestamp(true, TimeUnit::kNanos), 200);
  run(FullStatistics(), 200);
  run(ColumnOrder{}, 100);
  EXPECT_GT(total, 8000);
  // Sanity: the mutations mostly break things, but not always (the decoders are not simply
  // rejecting everything).
  EXPECT_GT(rejected, total / 2);
  EXPECT_LT(rejected, total);
}

TEST(FormatFuzzTest, DecompressorsRejectGarbageCleanly) {
  std::mt19937_64 rng(99);
  const auto plain = testing::CompressibleBytes(rng, 4000);
  Decompressor decompressor;
  int runs = 0;
  for (auto codec : {CompressionCodec::kSnappy, CompressionCodec::kGzip, CompressionCodec::kZstd,
                     CompressionCodec::kLz4Raw, CompressionCodec::kUncompressed}) {
    std::vector<std::byte> valid;
    Compress(codec, plain, 0, valid);
    for (int i = 0; i < 600; ++i) {
      const bool mutate = i % 3 != 0;
      const auto input = mutate ? Mutate(rng, valid) : testing::RandomBytes(rng, rng() % 200);
      const std::size_t declared = mutate && i % 2 == 0 ? plain.size() : rng() % 10000;
      std::vector<std::byte> out(declared);
      try {
        decompressor.Decompress(codec, input, out);
      } catch (const DecodeError&) {
      } catch (const std::exception& e) {
        ADD_FAILURE() << ToString(codec) << ": unexpected " << e.what();
      }
      ++runs;
    }
  }
  EXPECT_EQ(runs, 3000);
}

}  // namespace
}  // namespace timef::parquet
