#include "core/checksum.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "support/scratch_dir.h"
#include "timef/error.h"

namespace timef {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kEmptySha =
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr std::string_view kAbcSha =
    "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

// Deterministic bytes (a 64-bit LCG), so every run hashes the same content.
std::string DeterministicBytes(size_t size) {
  std::string out(size, '\0');
  uint64_t state = 0x9E3779B97F4A7C15ull;
  for (char& c : out) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    c = static_cast<char>(state >> 56);
  }
  return out;
}

std::filesystem::path WriteFile(const std::filesystem::path& dir, const std::string& name,
                                const std::string& bytes) {
  std::filesystem::path path = dir / name;
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  EXPECT_TRUE(out.good());
  return path;
}

// An independent implementation: coreutils' sha256sum, run at test time.
std::string Sha256Sum(const std::filesystem::path& path) {
  const std::string command = "sha256sum '" + path.string() + "'";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  char hex[65] = {};
  const size_t got = fread(hex, 1, 64, pipe);
  pclose(pipe);
  return got == 64 ? "sha256:" + std::string(hex, 64) : "sha256sum failed";
}

TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ(Sha256().Finish(), kEmptySha);
  Sha256 abc;
  abc.Update(std::string_view("abc"));
  EXPECT_EQ(abc.Finish(), kAbcSha);
  Sha256 two_blocks;
  two_blocks.Update(std::string_view("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"));
  EXPECT_EQ(two_blocks.Finish(),
            "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 million_a;
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) million_a.Update(std::string_view(thousand));
  EXPECT_EQ(million_a.Finish(),
            "sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, SplitUpdatesEqualOneUpdate) {
  const std::string bytes = DeterministicBytes(10'000);
  Sha256 whole;
  whole.Update(std::string_view(bytes));
  const std::string expected = whole.Finish();
  for (size_t split : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{9'999}}) {
    Sha256 parts;
    parts.Update(std::string_view(bytes).substr(0, split));
    parts.Update(std::as_bytes(std::span(bytes).subspan(split)));
    EXPECT_EQ(parts.Finish(), expected) << split;
  }
}

TEST(Sha256Test, FinishTwiceAndUpdateAfterFinishThrow) {
  Sha256 hash;
  hash.Finish();
  EXPECT_THROW(hash.Finish(), Error);
  EXPECT_THROW(hash.Update(std::string_view("x")), Error);
  Sha256 moved_to = std::move(hash);
  Sha256 fresh;
  moved_to = std::move(fresh);
  EXPECT_EQ(moved_to.Finish(), kEmptySha);
}

class ChecksumSizeTest : public ::testing::TestWithParam<size_t> {};

TEST_P(ChecksumSizeTest, FileStreamAndSha256sumAgree) {
  const size_t size = GetParam();
  testing::ScratchDir dir;
  const std::string bytes = DeterministicBytes(size);
  const auto path = WriteFile(dir.path(), "data.bin", bytes);

  const std::string from_file = FileChecksum(path);
  std::ifstream in(path, std::ios::binary);
  const std::string from_stream = StreamChecksum(in);
  std::istringstream memory(bytes);
  const std::string from_memory = StreamChecksum(memory);
  Sha256 one_shot;
  one_shot.Update(std::string_view(bytes));

  EXPECT_TRUE(IsValidChecksum(from_file)) << from_file;
  EXPECT_EQ(from_file, from_stream);
  EXPECT_EQ(from_file, from_memory);
  EXPECT_EQ(from_file, one_shot.Finish());
  EXPECT_EQ(from_file, Sha256Sum(path));
  if (size == 0) {
    EXPECT_EQ(from_file, kEmptySha);
  }
}

INSTANTIATE_TEST_SUITE_P(BlockEdges, ChecksumSizeTest,
                         ::testing::Values(size_t{0}, size_t{1}, kChecksumBlockSize - 1,
                                           kChecksumBlockSize, kChecksumBlockSize + 1,
                                           3 * kChecksumBlockSize + 1));

TEST(ChecksumTest, DifferentBytesGiveDifferentChecksums) {
  std::string bytes = DeterministicBytes(kChecksumBlockSize + 5);
  std::istringstream a(bytes);
  const std::string first = StreamChecksum(a);
  bytes.back() ^= 1;
  std::istringstream b(bytes);
  EXPECT_NE(StreamChecksum(b), first);
}

TEST(ChecksumTest, StreamHashesFromCurrentPosition) {
  std::istringstream stream("xyzabc");
  stream.seekg(3);
  EXPECT_EQ(StreamChecksum(stream), kAbcSha);
}

TEST(ChecksumTest, FailedStreamThrows) {
  std::istringstream stream("abc");
  stream.setstate(std::ios::failbit);
  EXPECT_THROW(StreamChecksum(stream), FileError);
}

TEST(ChecksumTest, MissingFileIsFileErrorWithCode) {
  testing::ScratchDir dir;
  const auto missing = dir.path() / "nope.parquet";
  try {
    FileChecksum(missing);
    FAIL();
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    ASSERT_TRUE(e.path().has_value());
    EXPECT_EQ(*e.path(), missing);
    EXPECT_THAT(e.what(), HasSubstr("nope.parquet"));
  }
}

TEST(ChecksumTest, DirectoryIsFileError) {
  testing::ScratchDir dir;
  try {
    FileChecksum(dir.path());
    FAIL();
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::errc::is_a_directory);
  }
}

TEST(ChecksumTest, ValidatesPattern) {
  EXPECT_TRUE(IsValidChecksum(kEmptySha));
  EXPECT_TRUE(IsValidChecksum("sha256:" + std::string(64, '0')));
  const std::string bad[] = {
      "",
      "sha256:",
      std::string(kEmptySha.substr(7)),
      "sha256:" + std::string(63, 'a'),
      "sha256:" + std::string(65, 'a'),
      "sha256:" + std::string(63, 'a') + "A",
      "sha256:" + std::string(63, 'a') + "g",
      "SHA256:" + std::string(64, 'a'),
      "sha512:" + std::string(64, 'a'),
      " sha256:" + std::string(64, 'a'),
      "sha256:" + std::string(64, 'a') + "\n",
  };
  for (const std::string& text : bad) EXPECT_FALSE(IsValidChecksum(text)) << text;
}

}  // namespace
}  // namespace timef
