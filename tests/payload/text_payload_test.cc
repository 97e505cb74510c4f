// Text payload files: round trip of texts and text lists mixed in one file, the file layout the
// engine wrote (schema, encodings, codec, statistics, page index, CRC), rotation with tiny budgets,
// and the write-side validation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/metadata.h"
#include "parquet/writer_options.h"
#include "payload/payload_test_util.h"
#include "timef/error.h"

namespace timef::payload {
namespace {

using testing::LongText;
using testing::MakeTextRef;
using testing::ScratchDir;
using Value = std::variant<std::string, std::vector<std::string>>;

struct Written {
  Value value;
  TextLocator location;
};

Written Add(TextPayloadWriter& writer, const Value& value) {
  if (const auto* text = std::get_if<std::string>(&value)) {
    return {value, writer.AddText(*text)};
  }
  return {value, writer.AddTextList(std::get<std::vector<std::string>>(value))};
}

void ExpectReadsBack(PayloadReader& reader, const std::filesystem::path& release,
                     const std::vector<Written>& written) {
  for (std::size_t i = 0; i < written.size(); ++i) {
    SCOPED_TRACE("value " + std::to_string(i));
    const TextRef ref = MakeTextRef(release, written[i].location, static_cast<std::int64_t>(i));
    if (const auto* text = std::get_if<std::string>(&written[i].value)) {
      EXPECT_EQ(reader.ReadText(ref), *text);
    } else {
      EXPECT_EQ(reader.ReadTextList(ref), std::get<std::vector<std::string>>(written[i].value));
    }
  }
}

std::vector<Value> MixedValues() {
  return {std::string(),
          std::string("h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac \xf0\x9f\x98\x80"),
          std::vector<std::string>{},
          std::string("line one\nline two\r\n\ttabbed\n"),
          std::vector<std::string>{"", ""},
          LongText(3 * 1024 * 1024 + 17),
          std::vector<std::string>{"a", "\xe2\x82\xac", "", "line\nbreak"},
          std::string(1, '\0') + "nul inside",
          std::vector<std::string>{LongText(1500 * 1024)},
          std::string("after the long ones")};
}

TEST(TextPayloadTest, MixedTextsAndListsRoundTripInOneFile) {
  ScratchDir dir;
  std::vector<Written> written;
  std::vector<PayloadFile> files;
  {
    TextPayloadWriter writer(dir.path());
    for (const Value& value : MixedValues()) written.push_back(Add(writer, value));
    files = writer.Finish();
  }
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "payloads/text-00000000.parquet");
  EXPECT_EQ(files[0].rows, static_cast<std::int64_t>(written.size()));
  EXPECT_EQ(files[0].bytes,
            static_cast<std::int64_t>(std::filesystem::file_size(dir.path() / files[0].path)));
  for (std::size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ(written[i].location.file, files[0].path);
    EXPECT_EQ(written[i].location.row, static_cast<std::int64_t>(i));
    if (const auto* text = std::get_if<std::string>(&written[i].value)) {
      EXPECT_EQ(written[i].location.length, static_cast<std::int64_t>(text->size()));
    } else {
      EXPECT_EQ(
          written[i].location.length,
          static_cast<std::int64_t>(std::get<std::vector<std::string>>(written[i].value).size()));
    }
  }
  PayloadReader reader;
  ExpectReadsBack(reader, dir.path(), written);
  EXPECT_EQ(reader.stats().files_opened, 1u);
  EXPECT_EQ(reader.stats().values_read, written.size());
}

TEST(TextPayloadTest, FileFollowsThePayloadSchemaAndShardRules) {
  ScratchDir dir;
  TextPayloadWriter writer(dir.path());
  for (int i = 0; i < 40; ++i) writer.AddText(LongText(10000 + 37 * i));
  writer.AddTextList(std::vector<std::string>{"x", "yy"});
  writer.AddText("");
  const auto files = writer.Finish();
  ASSERT_EQ(files.size(), 1u);
  auto file = parquet::FileReader::OpenFile(dir.path() / files[0].path);

  const auto& columns = file.columns();
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(columns[0].name, "text");
  EXPECT_EQ(columns[0].physical_type, parquet::Type::kByteArray);
  EXPECT_TRUE(columns[0].nullable);
  EXPECT_FALSE(columns[0].is_list);
  EXPECT_EQ(columns[0].logical_type,
            parquet::LogicalType::Simple(parquet::LogicalType::Kind::kString));
  EXPECT_EQ(columns[1].name, "text_list");
  EXPECT_EQ(columns[1].physical_type, parquet::Type::kByteArray);
  EXPECT_TRUE(columns[1].nullable);
  EXPECT_TRUE(columns[1].is_list);
  EXPECT_FALSE(columns[1].element_nullable);
  EXPECT_EQ(columns[1].logical_type,
            parquet::LogicalType::Simple(parquet::LogicalType::Kind::kString));
  EXPECT_EQ(file.metadata().created_by, parquet::DefaultCreatedBy());
  EXPECT_EQ(file.num_rows(), 42);

  std::size_t pages = 0;
  for (int g = 0; g < file.num_row_groups(); ++g) {
    for (int c = 0; c < 2; ++c) {
      const parquet::ColumnChunk& chunk = file.column_chunk(g, c);
      ASSERT_TRUE(chunk.meta_data.has_value());
      EXPECT_EQ(chunk.meta_data->codec, parquet::CompressionCodec::kZstd);
      EXPECT_THAT(chunk.meta_data->encodings, ::testing::Contains(parquet::Encoding::kPlain));
      EXPECT_THAT(chunk.meta_data->encodings,
                  ::testing::Not(::testing::Contains(parquet::Encoding::kRleDictionary)));
      EXPECT_FALSE(chunk.meta_data->dictionary_page_offset.has_value());
      ASSERT_TRUE(chunk.meta_data->statistics.has_value());
      EXPECT_TRUE(chunk.meta_data->statistics->null_count.has_value());
      EXPECT_TRUE(chunk.column_index_offset.has_value());
      const parquet::OffsetIndex* index = file.offset_index(g, c);
      ASSERT_NE(index, nullptr);
      auto raw = parquet::OpenPreadFile(dir.path() / files[0].path);
      for (const parquet::PageLocation& page : index->page_locations) {
        const auto bytes = raw->Read(static_cast<std::uint64_t>(page.offset),
                                     static_cast<std::uint64_t>(page.compressed_page_size));
        const auto header = parquet::ReadThrift<parquet::PageHeader>(bytes);
        EXPECT_TRUE(header.crc.has_value());
        // 16 KiB pages at row boundaries: a row of 10 KB or more never shares a text page.
        if (c == 0) {
          EXPECT_LE(header.uncompressed_page_size, 16 * 1024 + 64);
        }
        ++pages;
      }
    }
  }
  EXPECT_GT(pages, 40u);
}

TEST(TextPayloadTest, TinyBudgetsRotateFilesWithFileGlobalRows) {
  ScratchDir dir;
  PayloadOptions options;
  options.row_group_target_bytes = 150;  // about two 100-byte texts per row group
  options.shard_target_bytes = 1000;
  options.compression = parquet::CompressionCodec::kUncompressed;
  std::vector<Written> written;
  std::vector<PayloadFile> files;
  {
    TextPayloadWriter writer(dir.path(), options);
    for (int i = 0; i < 60; ++i) {
      const std::string text = std::to_string(i) + ":" + std::string(100, 'a' + i % 26);
      if (i % 7 == 3) {
        written.push_back(Add(writer, std::vector<std::string>{text, ""}));
      } else {
        written.push_back(Add(writer, text));
      }
    }
    files = writer.Finish();
  }
  ASSERT_GE(files.size(), 3u);
  std::map<std::string, std::int64_t> rows_per_file;
  for (std::size_t i = 0; i < files.size(); ++i) {
    char expected[64];
    std::snprintf(expected, sizeof(expected), "payloads/text-%08zu.parquet", i);
    EXPECT_EQ(files[i].path, expected);
    const auto path = dir.path() / files[i].path;
    ASSERT_TRUE(std::filesystem::exists(path));
    EXPECT_EQ(files[i].bytes, static_cast<std::int64_t>(std::filesystem::file_size(path)));
    if (i + 1 < files.size()) {
      EXPECT_GE(files[i].bytes, options.shard_target_bytes);
    }
    EXPECT_EQ(parquet::FileReader::OpenFile(path).num_rows(), files[i].rows);
    EXPECT_GT(parquet::FileReader::OpenFile(path).num_row_groups(), 1);
    rows_per_file[files[i].path] = 0;
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path() / "payloads"),
                          std::filesystem::directory_iterator()),
            static_cast<std::ptrdiff_t>(files.size()));
  // Rows run 0, 1, 2, ... within each file, and files are filled in order.
  std::string previous_file;
  for (const Written& w : written) {
    ASSERT_TRUE(rows_per_file.count(w.location.file)) << w.location.file;
    EXPECT_GE(w.location.file, previous_file);
    previous_file = w.location.file;
    EXPECT_EQ(w.location.row, rows_per_file[w.location.file]++);
  }
  for (const PayloadFile& file : files) EXPECT_EQ(rows_per_file[file.path], file.rows);
  PayloadReader reader;
  ExpectReadsBack(reader, dir.path(), written);
  EXPECT_EQ(reader.stats().files_opened, files.size());
}

TEST(TextPayloadTest, InvalidUtf8IsAValidationErrorAndTakesNoRow) {
  ScratchDir dir;
  TextPayloadWriter writer(dir.path());
  EXPECT_THROW(writer.AddText("ok \xff"), ValidationError);
  EXPECT_THROW(writer.AddText("\xed\xa0\x80"), ValidationError);  // a surrogate
  try {
    writer.AddTextList(std::vector<std::string>{"fine", "\xc0\x80"});  // overlong NUL
    FAIL() << "expected ValidationError";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.where(), "text_list[1]");
  }
  const TextLocator location = writer.AddText("valid");
  EXPECT_EQ(location.row, 0);
  const auto files = writer.Finish();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].rows, 1);
  PayloadReader reader;
  EXPECT_EQ(reader.ReadText(MakeTextRef(dir.path(), location)), "valid");
}

TEST(TextPayloadTest, NoValuesWriteNoFile) {
  ScratchDir dir;
  TextPayloadWriter writer(dir.path());
  EXPECT_TRUE(writer.Finish().empty());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "payloads"));
}

TEST(TextPayloadTest, TextAndOffsetsFilesAreNumberedIndependently) {
  ScratchDir dir;
  TextPayloadWriter texts(dir.path());
  OffsetsPayloadWriter offsets(dir.path());
  const std::vector<std::int64_t> axis = {0, 5, 9};
  EXPECT_EQ(offsets.Add(axis).path, "payloads/offsets-00000000.parquet");
  EXPECT_EQ(texts.AddText("t").file, "payloads/text-00000000.parquet");
  EXPECT_EQ(offsets.Finish().at(0).path, "payloads/offsets-00000000.parquet");
  EXPECT_EQ(texts.Finish().at(0).path, "payloads/text-00000000.parquet");
}

TEST(TextPayloadTest, BadOptionsAreValidationErrors) {
  ScratchDir dir;
  PayloadOptions zero_budget;
  zero_budget.shard_target_bytes = 0;
  EXPECT_THROW(TextPayloadWriter(dir.path(), zero_budget), ValidationError);
  PayloadOptions snappy;
  snappy.compression = parquet::CompressionCodec::kSnappy;
  EXPECT_THROW(OffsetsPayloadWriter(dir.path(), snappy), ValidationError);
  PayloadOptions level;
  level.compression_level = 23;
  EXPECT_THROW(TextPayloadWriter(dir.path(), level), ValidationError);
}

TEST(TextPayloadTest, UnwritableReleaseIsAFileErrorNamingThePath) {
  ScratchDir dir;
  // A regular file where the payloads directory should go.
  std::ofstream(dir.path() / "payloads") << "in the way";
  TextPayloadWriter writer(dir.path(), PayloadOptions{.row_group_target_bytes = 1});
  try {
    writer.AddText("x");
    writer.Finish();
    FAIL() << "expected FileError";
  } catch (const FileError& error) {
    ASSERT_TRUE(error.path().has_value());
    EXPECT_THAT(error.path()->string(), ::testing::HasSubstr("payloads"));
  }
}

}  // namespace
}  // namespace timef::payload
