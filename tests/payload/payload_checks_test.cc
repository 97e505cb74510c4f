// The read-side checks of FORMAT.md §9: each violated check is a FormatError naming the text key
// or axis and the file; files the writers refuse to produce are crafted with the engine.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <system_error>
#include <vector>

#include "payload/payload_test_util.h"
#include "timef/error.h"

namespace timef::payload {
namespace {

using testing::CraftedTextRow;
using ::testing::HasSubstr;
using testing::MakeOffsetsRef;
using testing::MakeTextRef;
using testing::ScratchDir;
using testing::WriteCraftedOffsetsFile;
using testing::WriteCraftedTextFile;

// Runs `read` and checks it throws a FormatError (not a subclass such as FileError) whose
// location names `file` and `subject` and whose problem contains `problem`.
void ExpectFormatError(const std::function<void()>& read, const std::string& file,
                       const std::string& subject, const std::string& problem) {
  try {
    read();
    ADD_FAILURE() << "expected FormatError about " << problem;
  } catch (const FileError& error) {
    ADD_FAILURE() << "unexpected FileError: " << error.what();
  } catch (const FormatError& error) {
    ASSERT_TRUE(error.path().has_value()) << error.what();
    EXPECT_EQ(error.path()->string(), file) << error.what();
    EXPECT_EQ(error.where(), subject) << error.what();
    EXPECT_THAT(error.problem(), HasSubstr(problem));
  }
}

class TextChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TextPayloadWriter writer(dir_.path());
    text_ = writer.AddText("h\xc3\xa9llo");  // 6 bytes
    list_ = writer.AddTextList(std::vector<std::string>{"a", "", "c"});
    writer.Finish();
  }
  TextRef Ref(const TextLocator& location) const {
    return MakeTextRef(dir_.path(), location, /*text_key=*/42);
  }

  ScratchDir dir_;
  TextLocator text_;
  TextLocator list_;
  PayloadReader reader_;
};

TEST_F(TextChecksTest, CorrectRefsRead) {
  EXPECT_EQ(reader_.ReadText(Ref(text_)), "h\xc3\xa9llo");
  EXPECT_EQ(reader_.ReadTextList(Ref(list_)), (std::vector<std::string>{"a", "", "c"}));
}

TEST_F(TextChecksTest, WrongLength) {
  TextRef ref = Ref(text_);
  ref.locator.length = 5;  // characters, not bytes
  ExpectFormatError([&] { reader_.ReadText(ref); }, text_.file, "text key 42", "6 UTF-8 bytes");
  TextRef list = Ref(list_);
  list.locator.length = 2;
  ExpectFormatError([&] { reader_.ReadTextList(list); }, list_.file, "text key 42", "3 elements");
}

TEST_F(TextChecksTest, WrongKind) {
  ExpectFormatError([&] { reader_.ReadTextList(Ref(text_)); }, text_.file, "text key 42",
                    "holds a text value, the catalog says text_list");
  ExpectFormatError([&] { reader_.ReadText(Ref(list_)); }, list_.file, "text key 42",
                    "holds a text_list value, the catalog says text");
}

TEST_F(TextChecksTest, RowBeyondTheFile) {
  TextRef ref = Ref(text_);
  ref.locator.row = 2;
  ExpectFormatError([&] { reader_.ReadText(ref); }, text_.file, "text key 42",
                    "row 2 is beyond the file's 2 rows");
  ref.locator.row = -1;
  ExpectFormatError([&] { reader_.ReadText(ref); }, text_.file, "text key 42", "row -1");
}

TEST(TextCraftedChecksTest, BothOrNeitherColumnSetAndInvalidStoredUtf8) {
  ScratchDir dir;
  const std::string name = "payloads/text-00000000.parquet";
  WriteCraftedTextFile(dir.path() / name,
                       {CraftedTextRow{"both", std::vector<std::string>{"x"}}, CraftedTextRow{},
                        CraftedTextRow{"bad \xff", std::nullopt},
                        CraftedTextRow{std::nullopt, std::vector<std::string>{"ok", "\xc3"}}});
  PayloadReader reader;
  auto ref = [&](std::int64_t row, std::int64_t length) {
    return TextRef{dir.path() / name, TextLocator{std::nullopt, name, row, length}, 9};
  };
  ExpectFormatError([&] { reader.ReadText(ref(0, 4)); }, name, "text key 9", "both");
  ExpectFormatError([&] { reader.ReadTextList(ref(1, 0)); }, name, "text key 9",
                    "both `text` and `text_list` are null");
  ExpectFormatError([&] { reader.ReadText(ref(2, 5)); }, name, "text key 9", "not valid UTF-8");
  ExpectFormatError([&] { reader.ReadTextList(ref(3, 2)); }, name, "text key 9",
                    "text_list[1] is not valid UTF-8");
}

TEST(TextCraftedChecksTest, OffsetsFileReadAsTextLacksTheColumns) {
  ScratchDir dir;
  const std::string name = "payloads/offsets-00000000.parquet";
  WriteCraftedOffsetsFile(dir.path() / name, {{1, 2}});
  PayloadReader reader;
  ExpectFormatError(
      [&] {
        reader.ReadText(TextRef{dir.path() / name, TextLocator{std::nullopt, name, 0, 2}, 3});
      },
      name, "text key 3", "neither");
}

TEST(PayloadReaderTest, MissingFileIsAFileErrorWithNoSuchFile) {
  ScratchDir dir;
  PayloadReader reader;
  const TextRef ref{dir.path() / "payloads/text-00000007.parquet",
                    TextLocator{std::nullopt, "payloads/text-00000007.parquet", 0, 1}, 1};
  try {
    reader.ReadText(ref);
    FAIL() << "expected FileError";
  } catch (const FileError& error) {
    EXPECT_EQ(error.code(), std::make_error_code(std::errc::no_such_file_or_directory));
    EXPECT_THAT(std::string(error.what()), HasSubstr("text-00000007.parquet"));
  }
  EXPECT_EQ(reader.stats().files_opened, 0u);
}

class OffsetsChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    OffsetsPayloadWriter writer(dir_.path());
    location_ = writer.Add(axis_);
    writer.Finish();
  }
  OffsetsRef Ref() const { return MakeOffsetsRef(dir_.path(), location_, axis_, "axis 3"); }

  ScratchDir dir_;
  std::vector<std::int64_t> axis_ = {100, 250, 250, 900};
  OffsetsLocator location_;
  PayloadReader reader_;
};

TEST_F(OffsetsChecksTest, CorrectRefReads) { EXPECT_EQ(reader_.ReadOffsets(Ref()), axis_); }

TEST_F(OffsetsChecksTest, WrongCount) {
  OffsetsRef ref = Ref();
  ref.locator.n_values = 5;
  ExpectFormatError([&] { reader_.ReadOffsets(ref); }, location_.path, "axis 3",
                    "holds 4 offsets, the catalog says offsets_n_values = 5");
}

TEST_F(OffsetsChecksTest, WrongDigest) {
  OffsetsRef ref = Ref();
  ref.locator.digest = OffsetsDigest(std::vector<std::int64_t>{100, 250, 251, 900});
  ExpectFormatError([&] { reader_.ReadOffsets(ref); }, location_.path, "axis 3", "digest");
}

TEST_F(OffsetsChecksTest, WrongFirstAndLast) {
  OffsetsRef first = Ref();
  first.first_us = 99;
  ExpectFormatError([&] { reader_.ReadOffsets(first); }, location_.path, "axis 3",
                    "first offset is 100, the catalog says first_us = 99");
  OffsetsRef last = Ref();
  last.last_us = 901;
  ExpectFormatError([&] { reader_.ReadOffsets(last); }, location_.path, "axis 3",
                    "last offset is 900, the catalog says last_us = 901");
}

TEST_F(OffsetsChecksTest, RowBeyondTheFile) {
  OffsetsRef ref = Ref();
  ref.locator.row = 1;
  ExpectFormatError([&] { reader_.ReadOffsets(ref); }, location_.path, "axis 3",
                    "row 1 is beyond the file's 1 rows");
}

TEST(OffsetsCraftedChecksTest, DecreasingOffsetsWithMatchingLocatorFail) {
  ScratchDir dir;
  const std::string name = "payloads/offsets-00000000.parquet";
  const std::vector<std::int64_t> decreasing = {10, 30, 20, 40};
  WriteCraftedOffsetsFile(dir.path() / name, {{1, 2, 3}, decreasing});
  PayloadReader reader;
  // Count, digest, first and last all match: only the order is wrong.
  const OffsetsRef ref{dir.path() / name,
                       OffsetsLocator{std::nullopt, name, 1, 4, OffsetsDigest(decreasing)}, 10, 40,
                       "axis 8"};
  ExpectFormatError([&] { reader.ReadOffsets(ref); }, name, "axis 8", "not non-decreasing");
  const OffsetsRef fine{
      dir.path() / name,
      OffsetsLocator{std::nullopt, name, 0, 3, OffsetsDigest(std::vector<std::int64_t>{1, 2, 3})},
      1, 3, "axis 7"};
  EXPECT_EQ(reader.ReadOffsets(fine), (std::vector<std::int64_t>{1, 2, 3}));
}

TEST(OffsetsCraftedChecksTest, TextFileReadAsOffsetsLacksTheColumn) {
  ScratchDir dir;
  const std::string name = "payloads/text-00000000.parquet";
  WriteCraftedTextFile(dir.path() / name, {CraftedTextRow{"x", std::nullopt}});
  PayloadReader reader;
  const OffsetsRef ref{
      dir.path() / name,
      OffsetsLocator{std::nullopt, name, 0, 1, OffsetsDigest(std::vector<std::int64_t>{0})}, 0, 0,
      "axis 1"};
  ExpectFormatError([&] { reader.ReadOffsets(ref); }, name, "axis 1", "no `offsets_us` column");
}

}  // namespace
}  // namespace timef::payload
