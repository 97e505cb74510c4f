#include "timef/ids.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "timef/error.h"

namespace timef {
namespace {

using ::testing::HasSubstr;

TEST(DatasetIdTest, Accepts) {
  for (const char* id :
       {"physionet/ptb-xl", "a/b", "A_1/b.c", "_x/-y", "org/name.v2", "0/9", "a-/b_", "a..b/c"}) {
    EXPECT_TRUE(IsValidDatasetId(id)) << id;
  }
}

TEST(DatasetIdTest, Rejects) {
  for (const char* id : {"", "a", "a/b/c", "../evil", ".x/y", "x/.y", " a/b", "a/b ", "a /b", "/b",
                         "a/", "/", "a//b", "a\\b", "a/b@1.0.0", "ä/b", "a/b\n"}) {
    EXPECT_FALSE(IsValidDatasetId(id)) << id;
  }
}

TEST(AliasTest, Pattern) {
  for (const char* alias : {"a", "ptbxl", "ptb_xl-2", "z9"}) {
    EXPECT_TRUE(IsValidAlias(alias)) << alias;
  }
  for (const char* alias : {"", "A", "Ptbxl", "1a", "_a", "-a", "a.b", "a b", "a/b", "é"}) {
    EXPECT_FALSE(IsValidAlias(alias)) << alias;
  }
}

TEST(SpecTypeTest, RejectsReservedEmptyAndInvalidUtf8) {
  for (const char* spec : {"ecg_lead", "x", "_", "...", "_validity_", "Ünïcode", "a/b"}) {
    EXPECT_TRUE(IsValidSpecType(spec)) << spec;
  }
  for (const char* spec : {"", ".", "..", "_irregular", "_time_offsets", "_validity", "bad\xff",
                           "\xc3", "\xed\xa0\x80"}) {
    EXPECT_FALSE(IsValidSpecType(spec)) << spec;
  }
}

TEST(VersionTest, ParsesValid) {
  EXPECT_EQ(Version::TryParse("0.0.0"), (Version{0, 0, 0}));
  EXPECT_EQ(Version::TryParse("1.10.0"), (Version{1, 10, 0}));
  EXPECT_EQ(Version::TryParse("9223372036854775807.0.1"), (Version{INT64_MAX, 0, 1}));
  EXPECT_EQ(Version::Parse("3.2.1").ToString(), "3.2.1");
  EXPECT_EQ(Version::Parse("0.9223372036854775807.0").ToString(), "0.9223372036854775807.0");
}

TEST(VersionTest, RejectsInvalid) {
  for (const char* text : {"",
                           "1",
                           "1.0",
                           "1.0.0.0",
                           "01.0.0",
                           "1.00.0",
                           "1.0.01",
                           "+1.0.0",
                           "-1.0.0",
                           " 1.0.0",
                           "1.0.0 ",
                           "1. 0.0",
                           "v1.0.0",
                           "1.0.0-rc1",
                           "1..0",
                           ".1.0",
                           "1.0.",
                           "a.b.c",
                           "9223372036854775808.0.0",
                           "0.0.99999999999999999999",
                           "1.0.0\n"}) {
    EXPECT_FALSE(Version::TryParse(text).has_value()) << text;
  }
}

TEST(VersionTest, OrdersNumerically) {
  EXPECT_LT(Version::Parse("1.9.0"), Version::Parse("1.10.0"));
  EXPECT_LT(Version::Parse("1.99.99"), Version::Parse("2.0.0"));
  EXPECT_LT(Version::Parse("0.0.9"), Version::Parse("0.0.10"));
  EXPECT_GT(Version::Parse("10.0.0"), Version::Parse("9.9.9"));
  EXPECT_EQ(Version::Parse("1.2.3"), (Version{1, 2, 3}));
}

TEST(VersionTest, ParseErrorNamesFieldAndText) {
  try {
    Version::Parse("01.2.3", "/version");
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_EQ(e.where(), "/version");
    EXPECT_THAT(e.what(), HasSubstr("'01.2.3'"));
  }
}

TEST(ReleaseRefTest, ParsesAndPrints) {
  auto ref = ReleaseRef::TryParse("physionet/ptb-xl@1.0.0");
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->dataset_id, "physionet/ptb-xl");
  EXPECT_EQ(ref->version, (Version{1, 0, 0}));
  EXPECT_EQ(ref->ToString(), "physionet/ptb-xl@1.0.0");
  EXPECT_LT(ReleaseRef::Parse("a/b@1.9.0"), ReleaseRef::Parse("a/b@1.10.0"));
  EXPECT_LT(ReleaseRef::Parse("a/b@9.0.0"), ReleaseRef::Parse("a/c@1.0.0"));
}

TEST(ReleaseRefTest, Rejects) {
  for (const char* text : {"", "a/b", "a/b@", "@1.0.0", "a/b@@1.0.0", "a/b@1.0.0@2.0.0",
                           "a@b/c@1.0.0", "a/b/c@1.0.0", "a/b@01.0.0", "a/b @1.0.0", "a/b@1.0"}) {
    EXPECT_FALSE(ReleaseRef::TryParse(text).has_value()) << text;
  }
  try {
    ReleaseRef::Parse("x@1.0.0", "parents[0].ref");
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_EQ(e.where(), "parents[0].ref");
    EXPECT_THAT(e.what(), HasSubstr("'x@1.0.0'"));
  }
}

}  // namespace
}  // namespace timef
