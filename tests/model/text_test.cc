#include "timef/model/text.h"

#include <gtest/gtest.h>

#include <atomic>

namespace timef::model {
namespace {

// A lazy text that counts its reads, so tests can tell whether a comparison read it.
class CountingText : public LazyText {
 public:
  CountingText(std::string value, int row) : value_(std::move(value)), row_(row) {}
  int64_t size() const override { return static_cast<int64_t>(value_.size()); }
  std::string Read() const override {
    ++reads;
    return value_;
  }
  bool SameStoredValue(const LazyText& other) const override {
    const auto* counting = dynamic_cast<const CountingText*>(&other);
    return counting != nullptr && counting->row_ == row_;
  }
  mutable int reads = 0;

 private:
  std::string value_;
  int row_;
};

TEST(TextTest, InlineTextComparesByContent) {
  Text a("héllo");
  EXPECT_EQ(a.size(), 6);
  EXPECT_TRUE(a.is_loaded());
  EXPECT_EQ(a, Text(std::string("héllo")));
  EXPECT_FALSE(a == Text("hello"));
  EXPECT_EQ(a, std::string_view("héllo"));
  EXPECT_TRUE(Text("").empty());
}

TEST(TextTest, LazyTextReadsOnlyWhenItMustCompareContent) {
  auto source = std::make_shared<CountingText>("abc", 1);
  Text lazy = Text::Lazy(source);
  EXPECT_FALSE(lazy.is_loaded());
  EXPECT_EQ(lazy.size(), 3);
  EXPECT_EQ(lazy.inline_value(), nullptr);
  // Different lengths: unequal without a read.
  EXPECT_FALSE(lazy == Text("abcd"));
  EXPECT_EQ(source->reads, 0);
  // Same stored row: equal without a read.
  Text same_row = Text::Lazy(std::make_shared<CountingText>("abc", 1));
  EXPECT_TRUE(lazy == same_row);
  EXPECT_EQ(source->reads, 0);
  // Equal lengths: the content decides, so it is read.
  EXPECT_TRUE(lazy == Text("abc"));
  EXPECT_FALSE(lazy == Text("abd"));
  EXPECT_EQ(source->reads, 2);
  EXPECT_EQ(lazy.Read(), "abc");
}

TEST(TextTest, TextListComparesElementwise) {
  TextList list({"a", "b"});
  EXPECT_EQ(list.size(), 2);
  EXPECT_EQ(list, TextList({"a", "b"}));
  EXPECT_FALSE(list == TextList({"b", "a"}));
  EXPECT_EQ(list, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(TextList().empty());
}

}  // namespace
}  // namespace timef::model
