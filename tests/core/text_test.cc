#include "core/text.h"

#include <gtest/gtest.h>

namespace timef::core {
namespace {

TEST(Utf8Test, FindsFirstIllFormedByte) {
  EXPECT_EQ(FindInvalidUtf8(""), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("plain ascii"), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("\u00e9\u0800\uffff\U00010000\U0010FFFF"), std::string_view::npos);
  struct Case {
    const char* text;
    size_t offset;
  };
  const Case cases[] = {
      {"a\x80", 1},             // lone continuation byte
      {"ab\xc0\xaf", 2},        // overlong '/'
      {"\xc1\xbf", 0},          // overlong
      {"\xe0\x9f\xbf", 0},      // overlong 3-byte
      {"x\xed\xa0\x80", 1},     // UTF-16 surrogate
      {"\xf0\x8f\xbf\xbf", 0},  // overlong 4-byte
      {"\xf4\x90\x80\x80", 0},  // above U+10FFFF
      {"\xf5\x80\x80\x80", 0},  // invalid lead
      {"\xff", 0},
      {"ok\xe2\x82", 2},  // truncated at the end
      {"\xe2\x82x", 0},   // truncated in the middle
      {"\u00e9\xc3", 2},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FindInvalidUtf8(c.text), c.offset) << c.text;
    EXPECT_FALSE(IsValidUtf8(c.text));
  }
}

TEST(PrintableTest, EscapesControlsAndBadBytes) {
  EXPECT_EQ(PrintableForMessage("a b/\u00e9"), "a b/\u00e9");
  EXPECT_EQ(PrintableForMessage(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(PrintableForMessage("a\nb\x7f"), "a\\x0ab\\x7f");
  EXPECT_EQ(PrintableForMessage("a\\b"), "a\\\\b");
  EXPECT_EQ(PrintableForMessage("x\xff\xc3"), "x\\xff\\xc3");
}

}  // namespace
}  // namespace timef::core
