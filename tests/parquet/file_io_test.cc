#include "parquet/file_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <thread>

#include "parquet/format_test_support.h"
#include "timef/error.h"

namespace timef::parquet {
namespace {

using ::testing::HasSubstr;
using testing::ScratchDir;

std::vector<std::byte> WriteFile(const std::filesystem::path& path, std::size_t size) {
  std::mt19937_64 rng(size);
  auto bytes = testing::RandomBytes(rng, size);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

std::vector<std::byte> ReadWhole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  if (!chars.empty()) std::memcpy(out.data(), chars.data(), chars.size());
  return out;
}

enum class Impl { kPread, kMmap, kMemory };

std::unique_ptr<RandomAccessFile> Open(Impl impl, const std::filesystem::path& path) {
  switch (impl) {
    case Impl::kPread:
      return OpenPreadFile(path);
    case Impl::kMmap:
      return OpenMmapFile(path);
    case Impl::kMemory:
      return std::make_unique<MemoryFile>(ReadWhole(path), path);
  }
  return nullptr;
}

class RandomAccessFileTest : public ::testing::TestWithParam<Impl> {
 protected:
  ScratchDir dir_;
};

TEST_P(RandomAccessFileTest, ReadsAnyRangeInside) {
  const auto path = dir_.path() / "data.bin";
  const auto bytes = WriteFile(path, 100000);
  const auto file = Open(GetParam(), path);
  EXPECT_EQ(file->size(), bytes.size());
  EXPECT_EQ(file->path(), path);
  std::vector<std::byte> buffer(1000);
  file->ReadAt(12345, buffer);
  EXPECT_TRUE(std::equal(buffer.begin(), buffer.end(), bytes.begin() + 12345));
  EXPECT_EQ(file->Read(0, bytes.size()), bytes);
  EXPECT_EQ(file->Read(bytes.size() - 8, 8), std::vector<std::byte>(bytes.end() - 8, bytes.end()));
  EXPECT_TRUE(file->Read(bytes.size(), 0).empty());  // empty range at the end is inside
  const auto view = file->View(10, 20);
  if (GetParam() == Impl::kPread) {
    EXPECT_FALSE(view.has_value());
  } else {
    ASSERT_TRUE(view.has_value());
    EXPECT_TRUE(std::equal(view->begin(), view->end(), bytes.begin() + 10));
  }
}

TEST_P(RandomAccessFileTest, RangesOutsideTheFileThrowNamingPathAndOffset) {
  const auto path = dir_.path() / "small.bin";
  WriteFile(path, 100);
  const auto file = Open(GetParam(), path);
  std::vector<std::byte> buffer(10);
  try {
    file->ReadAt(95, buffer);
    FAIL() << "no exception";
  } catch (const FileError&) {
    FAIL() << "a range outside the file is a format problem, not an I/O failure";
  } catch (const FormatError& e) {
    EXPECT_EQ(*e.path(), path);
    EXPECT_EQ(e.where(), "offset 95");
    EXPECT_THAT(e.problem(), HasSubstr("past the end of the 100-byte file"));
  }
  EXPECT_THROW(file->ReadAt(101, std::span(buffer).first(0)), FormatError);
  EXPECT_THROW(file->ReadAt(std::numeric_limits<std::uint64_t>::max(), buffer), FormatError);
  EXPECT_THROW(file->Read(50, std::numeric_limits<std::uint64_t>::max() - 10), FormatError);
  EXPECT_THROW(file->View(0, 101), FormatError);
  EXPECT_NO_THROW(file->ReadAt(90, buffer));
}

TEST_P(RandomAccessFileTest, EmptyFile) {
  const auto path = dir_.path() / "empty.bin";
  WriteFile(path, 0);
  const auto file = Open(GetParam(), path);
  EXPECT_EQ(file->size(), 0u);
  EXPECT_TRUE(file->Read(0, 0).empty());
  EXPECT_THROW(file->Read(0, 1), FormatError);
}

TEST_P(RandomAccessFileTest, ConcurrentReadsSeeTheirOwnBytes) {
  const auto path = dir_.path() / "shared.bin";
  const auto bytes = WriteFile(path, 1 << 16);
  const auto file = Open(GetParam(), path);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<std::byte> buffer(257);
      for (std::uint64_t offset = t; offset + buffer.size() <= bytes.size(); offset += 997) {
        file->ReadAt(offset, buffer);
        if (!std::equal(buffer.begin(), buffer.end(), bytes.begin() + offset)) ++mismatches[t];
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

INSTANTIATE_TEST_SUITE_P(AllImplementations, RandomAccessFileTest,
                         ::testing::Values(Impl::kPread, Impl::kMmap, Impl::kMemory),
                         [](const auto& info) {
                           switch (info.param) {
                             case Impl::kPread:
                               return "Pread";
                             case Impl::kMmap:
                               return "Mmap";
                             default:
                               return "Memory";
                           }
                         });

TEST(OpenFileTest, MissingFileIsAFileErrorWithErrno) {
  ScratchDir dir;
  for (auto open : {&OpenPreadFile, &OpenMmapFile}) {
    try {
      open(dir.path() / "nope.parquet");
      FAIL() << "no exception";
    } catch (const FileError& e) {
      EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
      EXPECT_EQ(*e.path(), dir.path() / "nope.parquet");
    }
  }
}

TEST(OpenFileTest, DirectoryIsRefused) {
  ScratchDir dir;
  EXPECT_THROW(OpenPreadFile(dir.path()), FileError);
  EXPECT_THROW(OpenMmapFile(dir.path()), FileError);
}

TEST(CountingFileTest, RecordsEveryRead) {
  std::vector<std::byte> bytes(1000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i);
  CountingFile file(std::make_unique<MemoryFile>(bytes, "mem.parquet"));
  EXPECT_EQ(file.size(), 1000u);
  EXPECT_EQ(file.path(), "mem.parquet");
  EXPECT_FALSE(file.View(0, 10).has_value()) << "views would bypass the counter";
  std::vector<std::byte> buffer(100);
  file.ReadAt(0, buffer);
  file.ReadAt(900, buffer);
  EXPECT_EQ(buffer[0], std::byte{900 % 256});
  EXPECT_EQ(file.Read(10, 5).size(), 5u);
  EXPECT_EQ(file.read_calls(), 3u);
  EXPECT_EQ(file.bytes_read(), 205u);
  EXPECT_EQ(file.reads(), (std::vector<CountingFile::Range>{{0, 100}, {900, 100}, {10, 5}}));
  // Rejected reads touch nothing.
  EXPECT_THROW(file.ReadAt(950, buffer), FormatError);
  EXPECT_EQ(file.read_calls(), 3u);
  file.Reset();
  EXPECT_EQ(file.read_calls(), 0u);
  EXPECT_EQ(file.bytes_read(), 0u);
  EXPECT_TRUE(file.reads().empty());
}

TEST(FileOutputStreamTest, WritesBufferedAndLargeChunksInOrder) {
  ScratchDir dir;
  const auto path = dir.path() / "out.bin";
  std::mt19937_64 rng(2);
  std::vector<std::byte> expected;
  FileOutputStream out(path, FileOutputOptions{.buffer_size = 1000});
  for (std::size_t size : {10, 500, 700, 5000, 1, 999, 1000, 0, 3}) {
    const auto chunk = testing::RandomBytes(rng, size);
    out.Write(chunk);
    expected.insert(expected.end(), chunk.begin(), chunk.end());
    EXPECT_EQ(out.position(), expected.size());
  }
  out.Close();
  EXPECT_EQ(ReadWhole(path), expected);
  EXPECT_NO_THROW(out.Close());  // idempotent
  EXPECT_THROW(out.Write(expected), std::logic_error);
}

TEST(FileOutputStreamTest, FlushMakesBytesVisible) {
  ScratchDir dir;
  const auto path = dir.path() / "flush.bin";
  FileOutputStream out(path);
  out.Write(testing::BytesOf("PAR1"));
  EXPECT_EQ(std::filesystem::file_size(path), 0u);  // still buffered
  out.Flush();
  EXPECT_EQ(std::filesystem::file_size(path), 4u);
  out.Close();
}

TEST(FileOutputStreamTest, FsyncOnCloseAndTruncation) {
  ScratchDir dir;
  const auto path = dir.path() / "sync.bin";
  WriteFile(path, 5000);
  FileOutputStream out(path, FileOutputOptions{.fsync_on_close = true});
  out.Write(testing::BytesOf("abc"));
  out.Close();
  EXPECT_EQ(ReadWhole(path), testing::BytesOf("abc"));
}

TEST(FileOutputStreamTest, ExclusiveRefusesAnExistingFile) {
  ScratchDir dir;
  const auto path = dir.path() / "exists.bin";
  WriteFile(path, 10);
  try {
    FileOutputStream out(path, FileOutputOptions{.exclusive = true});
    FAIL() << "no exception";
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::errc::file_exists);
    EXPECT_EQ(*e.path(), path);
  }
  EXPECT_EQ(std::filesystem::file_size(path), 10u);
  FileOutputStream fresh(dir.path() / "new.bin", FileOutputOptions{.exclusive = true});
  fresh.Close();
}

TEST(FileOutputStreamTest, DestructorFlushesWithoutClose) {
  ScratchDir dir;
  const auto path = dir.path() / "dtor.bin";
  {
    FileOutputStream out(path);
    out.Write(testing::BytesOf("kept"));
  }
  EXPECT_EQ(ReadWhole(path), testing::BytesOf("kept"));
}

TEST(FileOutputStreamTest, UncreatableFileIsAFileError) {
  ScratchDir dir;
  try {
    FileOutputStream out(dir.path() / "missing-dir" / "x.bin");
    FAIL() << "no exception";
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
  }
}

TEST(MemoryOutputStreamTest, CollectsBytes) {
  MemoryOutputStream out;
  out.Write(testing::BytesOf("ab"));
  out.Write(testing::BytesOf("cd"));
  EXPECT_EQ(out.position(), 4u);
  EXPECT_EQ(out.bytes(), testing::BytesOf("abcd"));
  out.Close();
  EXPECT_THROW(out.Write(testing::BytesOf("e")), std::logic_error);
  EXPECT_EQ(out.Release(), testing::BytesOf("abcd"));
}

}  // namespace
}  // namespace timef::parquet
