#include "parquet/errors.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "parquet/format_test_support.h"
#include "parquet/metadata.h"

namespace timef::parquet {
namespace {

using ::testing::HasSubstr;

TEST(ErrorContextTest, WhereNamesRowGroupColumnAndOffset) {
  ErrorContext file{"/data/part-0.parquet"};
  EXPECT_EQ(file.Where(), "");
  EXPECT_EQ(file.WithOffset(12).Where(), "offset 12");
  const ErrorContext column = file.WithRowGroup(2).WithColumn("values.list.element");
  EXPECT_EQ(column.Where(), "row group 2, column values.list.element");
  EXPECT_EQ(column.WithOffset(4096).Where(),
            "row group 2, column values.list.element, offset 4096");
  // Narrowing returns copies.
  EXPECT_EQ(file.Where(), "");
}

TEST(ErrorContextTest, ThrowsFormatErrorWithSite) {
  const ErrorContext context =
      ErrorContext{"/data/x.parquet"}.WithRowGroup(0).WithColumn("a").WithOffset(7);
  try {
    context.Throw("bad page");
    FAIL() << "no exception";
  } catch (const FormatError& e) {
    ASSERT_TRUE(e.path().has_value());
    EXPECT_EQ(*e.path(), "/data/x.parquet");
    EXPECT_EQ(e.where(), "row group 0, column a, offset 7");
    EXPECT_EQ(e.problem(), "bad page");
    EXPECT_STREQ(e.what(), "/data/x.parquet: row group 0, column a, offset 7: bad page");
  }
}

TEST(ErrorContextTest, RethrowAddsTheBufferBaseToTheRelativeOffset) {
  const ErrorContext context = ErrorContext{"f.parquet"}.WithRowGroup(3).WithColumn("c");
  try {
    context.Rethrow(DecodeErrorAt("broken", 10), 1000);
    FAIL() << "no exception";
  } catch (const DecodeError&) {
    FAIL() << "must become a plain FormatError, not stay a DecodeError";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.where(), "row group 3, column c, offset 1010");
    EXPECT_EQ(e.problem(), "broken");
  }
  try {
    context.Rethrow(DecodeError("no offset known"), 500);
    FAIL() << "no exception";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.where(), "row group 3, column c, offset 500");
  }
}

TEST(ErrorContextTest, WithErrorContextWrapsDecodeErrorsOnly) {
  const ErrorContext context{"meta.parquet"};
  const auto truncated = testing::Bytes({0x15, 0x02, 0x19});  // FileMetaData cut short
  try {
    WithErrorContext(context, 2000, [&] { return ReadThrift<FileMetaData>(truncated); });
    FAIL() << "no exception";
  } catch (const FormatError& e) {
    EXPECT_EQ(*e.path(), "meta.parquet");
    EXPECT_EQ(e.where(), "offset 2003");
    EXPECT_THAT(e.problem(), HasSubstr("thrift"));
  }
  EXPECT_EQ(WithErrorContext(context, 0, [] { return 5; }), 5);
  EXPECT_THROW(WithErrorContext(context, 0, []() -> int { throw std::logic_error("x"); }),
               std::logic_error);
}

}  // namespace
}  // namespace timef::parquet
