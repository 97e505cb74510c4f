// Laziness: reading one value of a multi-row-group payload file decodes only the page(s) holding
// its row, counted by the engine's ReaderStats.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "payload/payload_test_util.h"

namespace timef::payload {
namespace {

using testing::MakeOffsetsRef;
using testing::MakeTextRef;
using testing::RandomText;
using testing::ScratchDir;

TEST(PayloadLazyTest, OneTextDecodesOnlyItsPages) {
  ScratchDir dir;
  PayloadOptions options;
  options.row_group_target_bytes = 64 * 1024;  // about three 20 KB texts per row group
  std::vector<TextLocator> locations;
  std::vector<std::string> texts;
  {
    TextPayloadWriter writer(dir.path(), options);
    for (int i = 0; i < 30; ++i) {
      texts.push_back(RandomText(20000, static_cast<unsigned>(i)));
      locations.push_back(writer.AddText(texts.back()));
    }
    ASSERT_EQ(writer.Finish().size(), 1u);
  }
  const auto path = dir.path() / locations[0].file;
  const auto file_bytes = std::filesystem::file_size(path);
  ASSERT_GE(parquet::FileReader::OpenFile(path).num_row_groups(), 5);

  PayloadReader reader;
  EXPECT_EQ(reader.ReadText(MakeTextRef(dir.path(), locations[17])), texts[17]);
  const PayloadReaderStats one = reader.stats();
  EXPECT_EQ(one.files_opened, 1u);
  EXPECT_EQ(one.values_read, 1u);
  // One page of `text` (each 20 KB text has its own) and the one `text_list` page of its row
  // group; the other row groups are never touched.
  EXPECT_EQ(one.pages.data_pages_decoded, 2u);
  EXPECT_EQ(one.pages.offset_indexes_loaded, 2u);
  EXPECT_LT(one.pages.bytes_decompressed, 25000u);
  EXPECT_LT(one.pages.io_bytes, file_bytes / 4);

  EXPECT_EQ(reader.ReadText(MakeTextRef(dir.path(), locations[3])), texts[3]);
  const PayloadReaderStats two = reader.stats();
  EXPECT_EQ(two.files_opened, 1u);  // kept open
  EXPECT_EQ(two.values_read, 2u);
  EXPECT_EQ(two.pages.data_pages_decoded, 4u);

  reader.Clear();
  const PayloadReaderStats cleared = reader.stats();
  EXPECT_EQ(cleared.pages.data_pages_decoded, 4u);  // kept after the files are dropped
  EXPECT_EQ(reader.ReadText(MakeTextRef(dir.path(), locations[29])), texts[29]);
  EXPECT_EQ(reader.stats().files_opened, 2u);
}

TEST(PayloadLazyTest, OneAxisDecodesOnlyItsPage) {
  ScratchDir dir;
  PayloadOptions options;
  options.row_group_target_bytes = 40000;  // two or three axes per row group
  std::vector<OffsetsLocator> locations;
  std::vector<std::vector<std::int64_t>> axes;
  {
    OffsetsPayloadWriter writer(dir.path(), options);
    for (int i = 0; i < 20; ++i) {
      std::vector<std::int64_t> axis;
      for (int k = 0; k < 2000; ++k) axis.push_back(i * 1000000 + k * (k % 7 + 1));
      std::sort(axis.begin(), axis.end());
      axes.push_back(axis);
      locations.push_back(writer.Add(axis));
    }
    writer.Finish();
  }
  ASSERT_GE(parquet::FileReader::OpenFile(dir.path() / locations[0].path).num_row_groups(), 5);
  PayloadReader reader;
  EXPECT_EQ(reader.ReadOffsets(MakeOffsetsRef(dir.path(), locations[11], axes[11])), axes[11]);
  EXPECT_EQ(reader.stats().pages.data_pages_decoded, 1u);
  EXPECT_EQ(reader.stats().pages.offset_indexes_loaded, 1u);
}

}  // namespace
}  // namespace timef::payload
