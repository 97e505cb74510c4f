// Offsets payload files: round trip, digest against independently computed SHA-256 values,
// DELTA_BINARY_PACKED elements, rotation, and the write-side validation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "payload/payload_test_util.h"
#include "timef/error.h"

namespace timef::payload {
namespace {

using testing::MakeOffsetsRef;
using testing::ScratchDir;

// SHA-256 through OpenSSL's one-shot API over bytes laid out here, little-endian by hand.
std::string IndependentDigest(const std::vector<std::int64_t>& offsets) {
  std::vector<unsigned char> bytes;
  for (std::int64_t value : offsets) {
    auto bits = static_cast<std::uint64_t>(value);
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<unsigned char>(bits >> (8 * i)));
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EXPECT_EQ(EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr), 1);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (unsigned int i = 0; i < size; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

std::vector<std::vector<std::int64_t>> SampleAxes() {
  std::vector<std::vector<std::int64_t>> axes = {
      {0},
      {7, 7, 7},
      {0, 1, 2, 1000000, 1000000, std::numeric_limits<std::int64_t>::max()},
      {-40, -3, 0, 12},
  };
  std::mt19937_64 rng(42);
  std::vector<std::int64_t> big;
  std::int64_t t = 1'700'000'000'000'000;
  for (int i = 0; i < 200000; ++i) {
    t += static_cast<std::int64_t>(rng() % 5000);
    big.push_back(t);
  }
  axes.push_back(big);
  return axes;
}

TEST(OffsetsDigestTest, MatchesKnownAndIndependentSha256) {
  // Computed with Python's hashlib over struct.pack('<q', 1) and struct.pack('<3q', -5, 0, 2**40).
  EXPECT_EQ(OffsetsDigest(std::vector<std::int64_t>{1}),
            "sha256:7c9fa136d4413fa6173637e883b6998d32e1d675f88cddff9dcbcf331820f4b8");
  EXPECT_EQ(OffsetsDigest(std::vector<std::int64_t>{-5, 0, std::int64_t{1} << 40}),
            "sha256:8aae8eb9a6773f101eb13f067a7b6f62ca1117c76fd40f8d5c4623291ed561d1");
  for (const auto& axis : SampleAxes()) EXPECT_EQ(OffsetsDigest(axis), IndependentDigest(axis));
}

TEST(OffsetsPayloadTest, RoundTripWithDigestAndOneRowPerAdd) {
  ScratchDir dir;
  const auto axes = SampleAxes();
  std::vector<OffsetsLocator> locations;
  OffsetsPayloadWriter writer(dir.path());
  for (const auto& axis : axes) locations.push_back(writer.Add(axis));
  // Equal offsets are stored again: no deduplication.
  locations.push_back(writer.Add(axes[1]));
  const auto files = writer.Finish();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "payloads/offsets-00000000.parquet");
  EXPECT_EQ(files[0].rows, static_cast<std::int64_t>(axes.size()) + 1);

  PayloadReader reader;
  for (std::size_t i = 0; i < locations.size(); ++i) {
    const auto& axis = i < axes.size() ? axes[i] : axes[1];
    EXPECT_EQ(locations[i].path, files[0].path);
    EXPECT_EQ(locations[i].row, static_cast<std::int64_t>(i));
    EXPECT_EQ(locations[i].n_values, static_cast<std::int64_t>(axis.size()));
    EXPECT_EQ(locations[i].digest, IndependentDigest(axis));
    EXPECT_EQ(reader.ReadOffsets(MakeOffsetsRef(dir.path(), locations[i], axis)), axis);
  }

  auto file = parquet::FileReader::OpenFile(dir.path() / files[0].path);
  ASSERT_EQ(file.columns().size(), 1u);
  EXPECT_EQ(file.columns()[0].name, "offsets_us");
  EXPECT_EQ(file.columns()[0].physical_type, parquet::Type::kInt64);
  EXPECT_TRUE(file.columns()[0].is_list);
  EXPECT_FALSE(file.columns()[0].nullable);
  EXPECT_FALSE(file.columns()[0].element_nullable);
  for (int g = 0; g < file.num_row_groups(); ++g) {
    const auto& meta = file.column_chunk(g, 0).meta_data;
    ASSERT_TRUE(meta.has_value());
    EXPECT_THAT(meta->encodings, ::testing::Contains(parquet::Encoding::kDeltaBinaryPacked));
    EXPECT_THAT(meta->encodings, ::testing::Not(::testing::Contains(parquet::Encoding::kPlain)));
    EXPECT_EQ(meta->codec, parquet::CompressionCodec::kZstd);
    ASSERT_TRUE(meta->statistics.has_value());
    EXPECT_TRUE(meta->statistics->min_value.has_value());
    EXPECT_NE(file.offset_index(g, 0), nullptr);
  }
}

TEST(OffsetsPayloadTest, TinyBudgetsRotateFiles) {
  ScratchDir dir;
  PayloadOptions options;
  options.row_group_target_bytes = 64;
  options.shard_target_bytes = 600;
  options.compression = parquet::CompressionCodec::kUncompressed;
  OffsetsPayloadWriter writer(dir.path(), options);
  std::vector<std::pair<OffsetsLocator, std::vector<std::int64_t>>> written;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 50; ++i) {
    std::vector<std::int64_t> axis;
    std::int64_t t = i;
    for (int k = 0; k < 5 + i % 4; ++k)
      axis.push_back(t += static_cast<std::int64_t>(rng() % 1000000));
    written.emplace_back(writer.Add(axis), axis);
  }
  const auto files = writer.Finish();
  ASSERT_GE(files.size(), 3u);
  std::map<std::string, std::int64_t> next_row;
  for (std::size_t i = 0; i < files.size(); ++i) {
    char expected[64];
    std::snprintf(expected, sizeof(expected), "payloads/offsets-%08zu.parquet", i);
    EXPECT_EQ(files[i].path, expected);
    next_row[files[i].path] = 0;
  }
  PayloadReader reader;
  for (const auto& [location, axis] : written) {
    ASSERT_TRUE(next_row.count(location.path)) << location.path;
    EXPECT_EQ(location.row, next_row[location.path]++);
    EXPECT_EQ(reader.ReadOffsets(MakeOffsetsRef(dir.path(), location, axis)), axis);
  }
  for (const PayloadFile& file : files) EXPECT_EQ(next_row[file.path], file.rows);
}

TEST(OffsetsPayloadTest, EmptyOrDecreasingOffsetsAreValidationErrors) {
  ScratchDir dir;
  OffsetsPayloadWriter writer(dir.path());
  EXPECT_THROW(writer.Add(std::vector<std::int64_t>{}), ValidationError);
  try {
    writer.Add(std::vector<std::int64_t>{0, 10, 9, 20});
    FAIL() << "expected ValidationError";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.where(), "offsets_us[2]");
  }
  EXPECT_EQ(writer.Add(std::vector<std::int64_t>{3}).row, 0);
  EXPECT_EQ(writer.Finish().at(0).rows, 1);
}

}  // namespace
}  // namespace timef::payload
