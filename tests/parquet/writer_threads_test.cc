// Compressing pages on several threads changes nothing on disk: for every codec, page version
// and a mix of column shapes, a file written with compression_threads = 2, 3 or 8 is
// byte-identical to the one written on the calling thread alone, and it reads back. With several
// threads a row group is stored in the background: its size bound holds, and a failure there
// reaches the caller at the next call that waits for it. Row groups encoded apart
// (RowGroupWriter), on threads of their own, and written in order give the same bytes too.
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <stdexcept>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "parquet/writer_test_util.h"

namespace timef::parquet {
namespace {

using writer_testing::Column;
using writer_testing::FailingStream;
using writer_testing::RandomRows;
using writer_testing::Rows;
using writer_testing::StageRowGroup;
using writer_testing::WriteFile;

std::vector<ColumnDescriptor> Schema() {
  return {Column("f", Type::kFloat), Column("d", Type::kDouble, /*nullable=*/true),
          Column("i", Type::kInt64), Column("s", Type::kByteArray, true),
          Column("l", Type::kFloat, true, /*is_list=*/true, /*element_nullable=*/true)};
}

std::vector<std::vector<Rows>> RowGroups(const std::vector<ColumnDescriptor>& schema) {
  std::vector<std::vector<Rows>> groups;
  for (std::uint64_t g = 0; g < 3; ++g) {
    std::vector<Rows> group;
    for (std::size_t c = 0; c < schema.size(); ++c) {
      group.push_back(RandomRows(schema[c], 6000, 100 * g + c));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

TEST(WriterThreadsTest, AnyThreadCountWritesTheSameBytes) {
  const auto schema = Schema();
  const auto groups = RowGroups(schema);
  for (const CompressionCodec codec : {CompressionCodec::kZstd, CompressionCodec::kUncompressed,
                                       CompressionCodec::kSnappy, CompressionCodec::kGzip}) {
    for (const DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
      WriterOptions options;
      options.compression = codec;
      options.compression_level = codec == CompressionCodec::kZstd ? 9 : 0;
      options.data_page_version = version;
      options.data_page_target_bytes = 2048;  // many pages per chunk
      options.columns = {ColumnWriteOptions{Encoding::kByteStreamSplit},
                         ColumnWriteOptions{Encoding::kRleDictionary},
                         ColumnWriteOptions{Encoding::kDeltaBinaryPacked},
                         ColumnWriteOptions{Encoding::kRleDictionary},
                         ColumnWriteOptions{Encoding::kPlain}};
      const std::vector<std::byte> one = WriteFile(schema, groups, options);
      for (const int threads : {2, 3, 8}) {
        options.compression_threads = threads;
        EXPECT_EQ(WriteFile(schema, groups, options), one)
            << ToString(codec) << " v" << static_cast<int>(version) << ", " << threads
            << " threads";
      }
      auto file = std::make_shared<MemoryFile>(one, "threads");
      FileReader reader = FileReader::Open(file);
      EXPECT_EQ(reader.num_rows(), 18000);
      ColumnData out;
      for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
        for (int c = 0; c < static_cast<int>(schema.size()); ++c) {
          EXPECT_NO_THROW(reader.ReadColumnChunk(rg, c, out));
        }
      }
    }
  }
}

TEST(WriterThreadsTest, TheSizeBoundOfARowGroupInFlightHoldsForEveryCodec) {
  const auto schema = Schema();
  const auto groups = RowGroups(schema);
  for (const CompressionCodec codec :
       {CompressionCodec::kZstd, CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
        CompressionCodec::kGzip, CompressionCodec::kLz4Raw}) {
    WriterOptions options;
    options.compression = codec;
    options.compression_level = codec == CompressionCodec::kZstd ? 3 : 0;
    options.compression_threads = 2;
    options.data_page_target_bytes = 2048;
    MemoryOutputStream out;
    FileWriter writer(out, schema, options);
    EXPECT_EQ(writer.StoredBytesAtMost(), 4);  // the leading magic, nothing in flight
    std::int64_t previous = 4;
    for (const auto& group : groups) {
      StageRowGroup(writer, schema, group);
      writer.FlushRowGroup();
      const std::int64_t at_most = writer.StoredBytesAtMost();
      const std::int64_t stored = writer.StoredBytes();
      EXPECT_GT(stored, previous) << ToString(codec);
      EXPECT_LE(stored, at_most) << ToString(codec);
      EXPECT_EQ(writer.StoredBytesAtMost(), stored) << ToString(codec) << ": nothing in flight";
      previous = stored;
    }
    writer.Close();
    EXPECT_EQ(writer.num_row_groups(), 3);
  }
}

TEST(WriterThreadsTest, AFailureInTheBackgroundReachesTheNextCallThatWaits) {
  const auto schema = Schema();
  const auto groups = RowGroups(schema);
  WriterOptions options;
  options.compression_threads = 2;
  // Room for the magic and part of the first row group: its background store fails.
  FailingStream out(1000);
  FileWriter writer(out, schema, options);
  StageRowGroup(writer, schema, groups[0]);
  writer.FlushRowGroup();  // returns while the row group is stored
  StageRowGroup(writer, schema, groups[1]);
  try {
    writer.FlushRowGroup();
    ADD_FAILURE() << "the background failure was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_THROW(writer.FlushRowGroup(), std::logic_error);
  EXPECT_THROW(writer.StoredBytes(), std::logic_error);
  EXPECT_THROW(writer.Close(), std::logic_error);
}

TEST(WriterThreadsTest, CloseWaitsForTheRowGroupInFlightAndReportsItsFailure) {
  const auto schema = Schema();
  const auto groups = RowGroups(schema);
  WriterOptions options;
  options.compression_threads = 3;
  FailingStream out(1000);
  FileWriter writer(out, schema, options);
  StageRowGroup(writer, schema, groups[0]);
  writer.FlushRowGroup();
  EXPECT_THROW(writer.Close(), std::runtime_error);
  EXPECT_FALSE(writer.closed());
}

// Every row group staged and encoded on a thread of its own, all at once, then written in order.
std::vector<std::byte> WriteEncodedApart(const std::vector<ColumnDescriptor>& schema,
                                         const std::vector<std::vector<Rows>>& groups,
                                         const WriterOptions& options) {
  std::vector<std::future<std::unique_ptr<RowGroupWriter>>> encoding;
  for (const auto& group : groups) {
    encoding.push_back(std::async(std::launch::async, [&schema, &options, &group] {
      auto writer = std::make_unique<RowGroupWriter>(schema, options);
      for (std::size_t c = 0; c < schema.size(); ++c) {
        const ColumnData data = ToColumnData(schema[c], group[c], schema[c].is_list ? 2 : 0);
        writer->WriteColumn(c, data.View());
      }
      writer->Encode();
      return writer;
    }));
  }
  MemoryOutputStream out;
  FileWriter writer(out, schema, options);
  for (auto& pending : encoding) {
    std::unique_ptr<RowGroupWriter> group = pending.get();
    EXPECT_EQ(group->encoded_rows(), 6000);
    writer.WriteRowGroup(*group);
    EXPECT_EQ(group->encoded_rows(), 0);
  }
  writer.Close();
  return out.Release();
}

TEST(WriterThreadsTest, RowGroupsEncodedApartWriteTheSameBytes) {
  const auto schema = Schema();
  const auto groups = RowGroups(schema);
  for (const CompressionCodec codec : {CompressionCodec::kZstd, CompressionCodec::kUncompressed}) {
    for (const int threads : {1, 3}) {
      WriterOptions options;
      options.compression = codec;
      options.compression_level = codec == CompressionCodec::kZstd ? 3 : 0;
      options.compression_threads = threads;
      options.data_page_target_bytes = 2048;
      options.columns = {ColumnWriteOptions{Encoding::kByteStreamSplit},
                         ColumnWriteOptions{Encoding::kRleDictionary},
                         ColumnWriteOptions{Encoding::kDeltaBinaryPacked},
                         ColumnWriteOptions{Encoding::kRleDictionary},
                         ColumnWriteOptions{Encoding::kPlain}};
      EXPECT_EQ(WriteEncodedApart(schema, groups, options), WriteFile(schema, groups, options))
          << ToString(codec) << ", " << threads << " threads";
    }
  }
}

TEST(WriterThreadsTest, ARowGroupEncodedApartMustFitTheFile) {
  const auto schema = Schema();
  const auto groups = RowGroups(schema);
  WriterOptions options;
  MemoryOutputStream out;
  FileWriter writer(out, schema, options);
  // Another column count.
  std::vector<ColumnDescriptor> fewer(schema.begin(), schema.end() - 1);
  RowGroupWriter narrow(fewer, options);
  for (std::size_t c = 0; c < fewer.size(); ++c) {
    narrow.WriteColumn(c, ToColumnData(fewer[c], groups[0][c], fewer[c].is_list ? 2 : 0).View());
  }
  narrow.Encode();
  EXPECT_THROW(writer.WriteRowGroup(narrow), ValidationError);
  // Unequal row counts are refused by Encode, which leaves the group as it was.
  RowGroupWriter uneven(schema, options);
  uneven.WriteColumn(0, ToColumnData(schema[0], groups[0][0], 0).View());
  EXPECT_THROW(uneven.Encode(), ValidationError);
  EXPECT_EQ(uneven.pending_rows(0), 6000);
  // The file's own open row group must be empty.
  RowGroupWriter whole(schema, options);
  for (std::size_t c = 0; c < schema.size(); ++c) {
    whole.WriteColumn(c, ToColumnData(schema[c], groups[1][c], schema[c].is_list ? 2 : 0).View());
  }
  whole.Encode();
  EXPECT_THROW(whole.WriteColumn(0, ToColumnData(schema[0], groups[1][0], 0).View()),
               std::logic_error);
  writer.WriteColumn(0, ToColumnData(schema[0], groups[0][0], 0).View());
  EXPECT_THROW(writer.WriteRowGroup(whole), ValidationError);
  EXPECT_EQ(whole.encoded_rows(), 6000);  // still there
  EXPECT_EQ(writer.num_row_groups(), 0);
}

TEST(WriterThreadsTest, ThreadCountOutsideItsRangeIsRefused) {
  WriterOptions options;
  for (const int threads : {0, -1, 257}) {
    options.compression_threads = threads;
    MemoryOutputStream out;
    EXPECT_THROW(FileWriter(out, Schema(), options), ValidationError) << threads;
  }
}

}  // namespace
}  // namespace timef::parquet
