#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/json_forms.h"
#include "timef/error.h"

namespace timef {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

Json Parse(std::string_view text) {
  std::string problem;
  std::optional<Json> value = ParseJsonStrict(text, &problem);
  EXPECT_TRUE(value.has_value()) << problem;
  return value.value_or(Json());
}

std::string ParseProblem(std::string_view text) {
  std::string problem;
  EXPECT_FALSE(ParseJsonStrict(text, &problem).has_value()) << text;
  return problem;
}

// The same value with object keys sorted at every level (what the compact form reads back as).
Json Sorted(const Json& value) {
  if (value.is_array()) {
    Json out = Json::array();
    for (const Json& element : value) out.push_back(Sorted(element));
    return out;
  }
  if (!value.is_object()) return value;
  std::vector<std::string> keys;
  for (const auto& [key, unused] : value.items()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  Json out = Json::object();
  for (const std::string& key : keys) out[key] = Sorted(value.at(key));
  return out;
}

Json Sample() {
  Json value = Json::object();
  value["timef_format_version"] = 1;
  value["dataset_id"] = "physionet/ptb-xl";
  value["empty_object"] = Json::object();
  value["empty_array"] = Json::array();
  value["list"] = Json::array({1, -2, 2.5, true, false, nullptr, "x"});
  value["nested"] = Json::object();
  value["nested"]["z"] = Json::array({Json::object({{"b", 1}, {"a", 2}})});
  value["nested"]["a"] = "\u00e9\u6f22\U0001F600";
  return value;
}

TEST(JsonWriteTest, ManifestFormGolden) {
  EXPECT_EQ(WriteManifestJson(Sample()),
            "{\n"
            "  \"timef_format_version\": 1,\n"
            "  \"dataset_id\": \"physionet/ptb-xl\",\n"
            "  \"empty_object\": {},\n"
            "  \"empty_array\": [],\n"
            "  \"list\": [\n"
            "    1,\n"
            "    -2,\n"
            "    2.5,\n"
            "    true,\n"
            "    false,\n"
            "    null,\n"
            "    \"x\"\n"
            "  ],\n"
            "  \"nested\": {\n"
            "    \"z\": [\n"
            "      {\n"
            "        \"b\": 1,\n"
            "        \"a\": 2\n"
            "      }\n"
            "    ],\n"
            "    \"a\": \"\u00e9\u6f22\U0001F600\"\n"
            "  }\n"
            "}\n");
}

TEST(JsonWriteTest, CompactFormGolden) {
  EXPECT_EQ(WriteCompactJson(Sample()),
            "{\"dataset_id\":\"physionet/ptb-xl\",\"empty_array\":[],\"empty_object\":{},"
            "\"list\":[1,-2,2.5,true,false,null,\"x\"],"
            "\"nested\":{\"a\":\"\u00e9\u6f22\U0001F600\",\"z\":[{\"a\":2,\"b\":1}]},"
            "\"timef_format_version\":1}");
}

TEST(JsonWriteTest, ScalarsAtTheRoot) {
  EXPECT_EQ(WriteManifestJson(Json::object()), "{}\n");
  EXPECT_EQ(WriteManifestJson(Json::array()), "[]\n");
  EXPECT_EQ(WriteCompactJson(Json()), "null");
  EXPECT_EQ(WriteCompactJson(Json("a")), "\"a\"");
  EXPECT_EQ(WriteManifestJson(Json(7)), "7\n");
}

TEST(JsonWriteTest, CompactSortsKeysByByteOrder) {
  Json value = Json::object();
  value["\u00e9"] = 1;  // C3 A9 sorts after every ASCII key
  value["z"] = 2;
  value["Z"] = 3;
  value["a"] = 4;
  value[""] = 5;
  value["\U0001F600"] = 6;  // F0 ... sorts last
  value["\u6f22"] = 7;      // E6 ...
  EXPECT_EQ(WriteCompactJson(value),
            "{\"\":5,\"Z\":3,\"a\":4,\"z\":2,\"\u00e9\":1,\"\u6f22\":7,\"\U0001F600\":6}");
}

struct EscapeCase {
  std::string raw;
  std::string written;
};

TEST(JsonWriteTest, EscapesOnlyQuoteBackslashAndControls) {
  const EscapeCase cases[] = {
      {"\"", "\\\""},
      {"\\", "\\\\"},
      {"/", "/"},
      {"\b", "\\b"},
      {"\f", "\\f"},
      {"\n", "\\n"},
      {"\r", "\\r"},
      {"\t", "\\t"},
      {std::string(1, '\0'), "\\u0000"},
      {"\x01", "\\u0001"},
      {"\x0b", "\\u000b"},
      {"\x1f", "\\u001f"},
      {"\x7f", "\x7f"},
      {" ~", " ~"},
      {"\u00e9", "\u00e9"},
      {"\u2028", "\u2028"},
      {"\U0010FFFF", "\U0010FFFF"},
      {"a\"b\\c\nd", "a\\\"b\\\\c\\nd"},
  };
  for (const EscapeCase& c : cases) {
    SCOPED_TRACE(c.written);
    EXPECT_EQ(WriteCompactJson(Json(c.raw)), "\"" + c.written + "\"");
    Json object = Json::object();
    object[c.raw] = c.raw;
    EXPECT_EQ(WriteCompactJson(object), "{\"" + c.written + "\":\"" + c.written + "\"}");
    EXPECT_EQ(Parse("\"" + c.written + "\"").get<std::string>(), c.raw);
  }
}

struct NumberCase {
  Json value;
  std::string written;
};

TEST(JsonWriteTest, Numbers) {
  const NumberCase cases[] = {
      {Json(0), "0"},
      {Json(-1), "-1"},
      {Json(std::numeric_limits<int64_t>::min()), "-9223372036854775808"},
      {Json(std::numeric_limits<int64_t>::max()), "9223372036854775807"},
      {Json(std::numeric_limits<uint64_t>::max()), "18446744073709551615"},
      {Json(0.0), "0.0"},
      {Json(-0.0), "-0.0"},
      {Json(1.0), "1.0"},
      {Json(100.0), "100.0"},
      {Json(-3.0), "-3.0"},
      {Json(2.5), "2.5"},
      {Json(0.1), "0.1"},
      {Json(1.0 / 3.0), "0.3333333333333333"},
      {Json(1e20), "1e+20"},
      {Json(1e21), "1e+21"},
      {Json(1e-7), "1e-07"},
      {Json(123456789012.0), "123456789012.0"},
      {Json(5e-324), "5e-324"},
      {Json(std::numeric_limits<double>::max()), "1.7976931348623157e+308"},
  };
  for (const NumberCase& c : cases) {
    SCOPED_TRACE(c.written);
    EXPECT_EQ(WriteCompactJson(c.value), c.written);
    const Json back = Parse(c.written);
    EXPECT_EQ(back.type() == Json::value_t::number_float,
              c.value.type() == Json::value_t::number_float);
    EXPECT_EQ(back, c.value);
  }
}

TEST(JsonWriteTest, NonFiniteNumbersNameThePointer) {
  struct Case {
    double number;
    const char* problem;
  };
  for (const Case& c :
       {Case{std::nan(""), "NaN"}, Case{std::numeric_limits<double>::infinity(), "infinity"},
        Case{-std::numeric_limits<double>::infinity(), "infinity"}}) {
    Json value = Json::object();
    value["metadata"]["extra/x"] = Json::array({1, c.number});
    for (auto write : {&WriteManifestJson, &WriteCompactJson}) {
      try {
        write(value);
        FAIL() << c.problem;
      } catch (const ValidationError& e) {
        EXPECT_EQ(e.where(), "/metadata/extra~1x/1");
        EXPECT_THAT(e.what(), HasSubstr(c.problem));
      }
    }
  }
}

TEST(JsonWriteTest, InvalidUtf8NamesThePointer) {
  Json value = Json::object();
  value["a"]["b~"] = Json::array({"ok", "bad\xff"});
  try {
    WriteManifestJson(value);
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_EQ(e.where(), "/a/b~0/1");
    EXPECT_THAT(e.what(), HasSubstr("invalid UTF-8"));
  }
  Json bad_key = Json::object();
  bad_key["a"]["k\xc3"] = 1;
  try {
    WriteCompactJson(bad_key);
    FAIL();
  } catch (const ValidationError& e) {
    EXPECT_EQ(e.where(), "/a/k\\xc3");
    EXPECT_THAT(e.what(), HasSubstr("object key"));
  }
  for (const char* bad : {"\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\xe2\x82"}) {
    EXPECT_THROW(WriteCompactJson(Json(std::string(bad))), ValidationError) << bad;
  }
}

TEST(JsonWriteTest, RejectsBinaryAndTooDeepValues) {
  EXPECT_THROW(WriteCompactJson(Json::binary({1, 2})), ValidationError);
  Json deep = Json::array();
  for (int i = 0; i < 600; ++i) deep = Json::array({std::move(deep)});
  EXPECT_THROW(WriteCompactJson(deep), ValidationError);
}

TEST(JsonParseTest, AcceptsAnyValidJsonAndKeepsOrder) {
  const Json value = Parse(" {\"b\": [1, 2.0, \"\\u00e9\\ud83d\\ude00\"], \"a\": {}} \n");
  ASSERT_TRUE(value.is_object());
  EXPECT_EQ(value.begin().key(), "b");
  EXPECT_EQ(value["b"][1].type(), Json::value_t::number_float);
  EXPECT_EQ(value["b"][2].get<std::string>(), "\u00e9\U0001F600");
  EXPECT_EQ(Parse("-5"), Json(-5));
  EXPECT_EQ(Parse("18446744073709551615"), Json(std::numeric_limits<uint64_t>::max()));
  EXPECT_EQ(Parse("\"\""), Json(""));
}

TEST(JsonParseTest, RejectsDuplicateKeysAtAnyDepth) {
  EXPECT_EQ(ParseProblem("{\"a\":1,\"a\":2}"), "/a: duplicate object key 'a'");
  EXPECT_EQ(ParseProblem("{\"x\":[{},{\"k\":{\"m\":1,\"n\":2,\"m\":3}}]}"),
            "/x/1/k/m: duplicate object key 'm'");
  EXPECT_EQ(ParseProblem("[[{\"a/b\":1,\"a/b\":1}]]"), "/0/0/a~1b: duplicate object key 'a/b'");
  // Same key in sibling objects is fine.
  EXPECT_EQ(Parse("[{\"a\":1},{\"a\":2}]").size(), 2u);
  EXPECT_EQ(Parse("{\"a\":{\"a\":{\"a\":1}}}")["a"]["a"]["a"], 1);
}

TEST(JsonParseTest, RejectsBomInvalidUtf8AndGarbage) {
  EXPECT_EQ(ParseProblem("\xEF\xBB\xBF{}"), "byte 0: a UTF-8 byte order mark is not allowed");
  EXPECT_EQ(ParseProblem("{\"a\":\"x\xff\"}"), "byte 7: invalid UTF-8");
  EXPECT_EQ(ParseProblem("{\"a\":\"\xed\xa0\x80\"}"), "byte 6: invalid UTF-8");
  EXPECT_THAT(ParseProblem("{} x"), StartsWith("byte 3: "));
  EXPECT_THAT(ParseProblem("{}{}"), StartsWith("byte 2: "));
  EXPECT_THAT(ParseProblem(""), StartsWith("byte 0: "));
  EXPECT_THAT(ParseProblem("{\"a\":1,}"), StartsWith("byte 7: "));
  EXPECT_THAT(ParseProblem("[1, 2"), StartsWith("byte 5: "));
  EXPECT_THAT(ParseProblem("{\"a\":NaN}"), StartsWith("byte 5: "));
  EXPECT_THAT(ParseProblem("/* c */ {}"), StartsWith("byte 0: "));
  EXPECT_THAT(ParseProblem("\"\\ud800\""), StartsWith("byte "));
  EXPECT_THAT(ParseProblem("\"a\nb\""), StartsWith("byte "));
  EXPECT_EQ(ParseProblem("{\"n\":[1e400]}"), "byte 10: number overflow parsing '1e400'");
}

TEST(JsonParseTest, RejectsExcessiveNesting) {
  const std::string ok = std::string(500, '[') + std::string(500, ']');
  EXPECT_TRUE(ParseJsonStrict(ok, nullptr).has_value());
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_THAT(ParseProblem(deep), HasSubstr("nesting deeper than"));
}

TEST(JsonRoundTripTest, ParseOfWriteIsIdentity) {
  Json value = Sample();
  value["numbers"] = Json::array({0.5, 1e300, -1e-300, 3.0, std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<uint64_t>::max(), 0.30000000000000004});
  value["text"] = std::string("ctl\x01\x1f\"\\/\u00e9\U0001F600 \t\r\n") + std::string(1, '\0');
  value["tilde~/slash"] = Json::object({{"k", Json::array({Json::object(), Json::array()})}});

  const std::string manifest = WriteManifestJson(value);
  EXPECT_EQ(Parse(manifest), value);
  EXPECT_EQ(WriteManifestJson(Parse(manifest)), manifest);

  const std::string compact = WriteCompactJson(value);
  EXPECT_EQ(Parse(compact), Sorted(value));
  EXPECT_EQ(WriteCompactJson(Parse(compact)), compact);
  EXPECT_EQ(WriteCompactJson(Parse(manifest)), compact);
}

// The escaping the writers share with the Parquet dump: no quotes added, UTF-8 and DEL raw.
TEST(JsonEscapeTest, EscapesQuoteBackslashAndControlsOnly) {
  std::string out = "<";
  core::AppendJsonEscaped("a\"b\\c\b\f\n\r\t\x01\x1f\x7f/\u00e9", out);
  out += ">";
  EXPECT_EQ(out, "<a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0001\\u001f\x7f/\u00e9>");
}

TEST(JsonEscapeTest, PointerTokensEscapeTildeAndSlash) {
  std::string pointer = "/a";
  core::AppendJsonPointerToken(pointer, "x~y/z");
  core::AppendJsonPointerToken(pointer, "");
  EXPECT_EQ(pointer, "/a/x~0y~1z/");
}

}  // namespace
}  // namespace timef
