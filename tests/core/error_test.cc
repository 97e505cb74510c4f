#include "timef/error.h"

#include <gtest/gtest.h>

namespace timef {
namespace {

TEST(ErrorTest, MessageNamesFileAndField) {
  ManifestError e(ErrorSite{.file = "rel/manifest.json", .where = "/metadata/license"},
                  "unknown license 'foo'");
  EXPECT_STREQ(e.what(), "rel/manifest.json: /metadata/license: unknown license 'foo'");
  ASSERT_TRUE(e.path().has_value());
  EXPECT_EQ(*e.path(), "rel/manifest.json");
  EXPECT_EQ(e.where(), "/metadata/license");
  EXPECT_EQ(e.problem(), "unknown license 'foo'");
}

TEST(ErrorTest, MessageNamesTableAndColumn) {
  FormatError e(ErrorSite{.object = "records", .where = "read_order"}, "not a permutation");
  EXPECT_STREQ(e.what(), "records: read_order: not a permutation");
  EXPECT_FALSE(e.path().has_value());
}

TEST(ErrorTest, PlainProblem) {
  Error e("something broke");
  EXPECT_STREQ(e.what(), "something broke");
  EXPECT_EQ(e.where(), "");
}

TEST(ErrorTest, HierarchyMatchesFormatSection12) {
  EXPECT_TRUE((std::is_base_of_v<std::runtime_error, Error>));
  EXPECT_TRUE((std::is_base_of_v<Error, ValidationError>));
  EXPECT_TRUE((std::is_base_of_v<ValidationError, NotFoundError>));
  EXPECT_TRUE((std::is_base_of_v<Error, FormatError>));
  EXPECT_TRUE((std::is_base_of_v<FormatError, FileError>));
  EXPECT_TRUE((std::is_base_of_v<FileError, MissingFileError>));
  EXPECT_TRUE((std::is_base_of_v<FormatError, ManifestError>));
  EXPECT_TRUE((std::is_base_of_v<Error, ReaderError>));
  EXPECT_FALSE((std::is_base_of_v<FormatError, ValidationError>));
}

TEST(ErrorTest, FileErrorCarriesCode) {
  FileError e(ErrorSite{.file = "x/manifest.json"}, "missing",
              std::make_error_code(std::errc::no_such_file_or_directory));
  EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
  try {
    throw e;
  } catch (const FormatError& caught) {
    EXPECT_STREQ(caught.what(), "x/manifest.json: missing");
  }
}

TEST(ErrorTest, MissingFileErrorAlwaysCarriesNoSuchFile) {
  MissingFileError e(ErrorSite{.file = "x/manifest.json"}, "no such file");
  EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
  EXPECT_STREQ(e.what(), "x/manifest.json: no such file");
}

TEST(ErrorTest, ThrowFileErrorPicksMissingFileErrorForAnAbsentFile) {
  try {
    ThrowFileError({.file = "a"}, "cannot open",
                   std::make_error_code(std::errc::no_such_file_or_directory));
  } catch (const MissingFileError& e) {
    EXPECT_STREQ(e.what(), "a: cannot open");
  } catch (...) {
    ADD_FAILURE() << "not a MissingFileError";
  }
  try {
    ThrowFileError({.file = "a"}, "cannot open",
                   std::make_error_code(std::errc::permission_denied));
  } catch (const MissingFileError&) {
    ADD_FAILURE() << "a denied file is not missing";
  } catch (const FileError& e) {
    EXPECT_EQ(e.code(), std::errc::permission_denied);
  }
}

}  // namespace
}  // namespace timef
