#include "core/paths.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "timef/error.h"

namespace timef {
namespace {

using ::testing::HasSubstr;

TEST(PartPathTest, RendersEightDigits) {
  EXPECT_EQ(PartPath(kValuesShardTemplate, 0), "time_series/part-00000000.parquet");
  EXPECT_EQ(PartPath(kValuesShardTemplate, 7), "time_series/part-00000007.parquet");
  EXPECT_EQ(PartPath(kTextPayloadTemplate, 12345), "payloads/text-00012345.parquet");
  EXPECT_EQ(PartPath(kOffsetsPayloadTemplate, 99'999'999), "payloads/offsets-99999999.parquet");
  EXPECT_EQ(PartPath("{:08d}", 42), "00000042");
}

TEST(PartPathTest, RejectsIndexOutsideRangeNamingTemplateAndIndex) {
  for (int64_t index : {int64_t{-1}, int64_t{100'000'000}, INT64_MIN, INT64_MAX}) {
    SCOPED_TRACE(index);
    try {
      PartPath(kValuesShardTemplate, index);
      FAIL() << "no error for " << index;
    } catch (const ValidationError& e) {
      EXPECT_THAT(e.what(), HasSubstr("time_series/part-{:08d}.parquet"));
      EXPECT_THAT(e.what(), HasSubstr(std::to_string(index)));
    }
  }
}

TEST(PartPathTest, RejectsTemplateWithoutExactlyOnePlaceholder) {
  EXPECT_THROW(PartPath("part.parquet", 0), ValidationError);
  EXPECT_THROW(PartPath("{:08d}-{:08d}", 0), ValidationError);
  EXPECT_THROW(PartPath("part-{}.parquet", 0), ValidationError);
}

TEST(RelativePathTest, AcceptsPlainRelativePaths) {
  for (const char* path : {"a", "manifest.json", "time_series/part-00000000.parquet", "a/b/c.d",
                           "..a/b", "a../b", ".hidden/x", "a/.b", "a b/c"}) {
    SCOPED_TRACE(path);
    EXPECT_EQ(RelativePathProblem(path), "");
    EXPECT_NO_THROW(CheckRelativePath("files.x", path));
  }
}

struct BadPath {
  std::string path;
  std::string problem;
};

TEST(RelativePathTest, RejectsEveryForbiddenShape) {
  const BadPath cases[] = {
      {"", "empty"},
      {"/etc/passwd", "absolute"},
      {"/", "absolute"},
      {"..", "'..'"},
      {"../evil", "'..'"},
      {"a/../b", "'..'"},
      {"a/..", "'..'"},
      {"a\\b", "backslash"},
      {std::string("a\0b", 3), "NUL"},
      {"a//b", "empty segment"},
      {"a/", "ends with '/'"},
      {".", "'.' segment"},
      {"./a", "'.' segment"},
      {"a/./b", "'.' segment"},
  };
  for (const BadPath& c : cases) {
    SCOPED_TRACE(c.path);
    EXPECT_THAT(RelativePathProblem(c.path), HasSubstr(c.problem));
    try {
      CheckRelativePath("files.time_series[2].path", c.path);
      FAIL() << "accepted";
    } catch (const ValidationError& e) {
      EXPECT_EQ(e.where(), "files.time_series[2].path");
      EXPECT_THAT(e.what(), HasSubstr("files.time_series[2].path: "));
      EXPECT_THAT(e.what(), HasSubstr(c.problem));
    }
  }
}

TEST(RelativePathTest, MessageQuotesThePath) {
  try {
    CheckRelativePath("files.values[0].path", "../x/y.parquet");
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_STREQ(e.what(), "files.values[0].path: path has a '..' segment (path '../x/y.parquet')");
  }
  try {
    CheckRelativePath("p", std::string("a\0b", 3));
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("(path 'a\\x00b')"));
  }
}

}  // namespace
}  // namespace timef
