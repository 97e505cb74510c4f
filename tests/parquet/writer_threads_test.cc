// Compressing pages on several threads changes nothing on disk: for every codec, page version
// and a mix of column shapes, a file written with compression_threads = 2, 3 or 8 is
// byte-identical to the one written on the calling thread alone, and it reads back.
#include <gtest/gtest.h>

#include <vector>

#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "parquet/writer_test_util.h"

namespace timef::parquet {
namespace {

using writer_testing::Column;
using writer_testing::RandomRows;
using writer_testing::Rows;
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
