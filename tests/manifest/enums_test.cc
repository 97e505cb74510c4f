// Every enumeration serializes by exactly the names FORMAT.md lists, and parses them back.
#include <gtest/gtest.h>

#include <set>

#include "core/enum_table.h"
#include "timef/manifest.h"

namespace timef::manifest {
namespace {

using core::EnumTable;

template <typename E>
std::vector<std::string> Names() {
  return core::EnumNames<E>();
}

template <typename E, typename ParseFn>
void ExpectRoundTrip(ParseFn parse) {
  std::set<std::string_view> seen;
  for (const auto& entry : EnumTable<E>()) {
    EXPECT_TRUE(seen.insert(entry.name).second) << entry.name;
    EXPECT_EQ(ToString(entry.value), entry.name);
    EXPECT_EQ(parse(entry.name), entry.value) << entry.name;
  }
  EXPECT_FALSE(parse("").has_value());
  EXPECT_FALSE(parse("no such name").has_value());
}

TEST(EnumsTest, NamesAreFormatMdNames) {
  EXPECT_EQ(Names<License>(), (std::vector<std::string>{
                                  "MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "GPL-3.0",
                                  "LGPL-3.0", "MPL-2.0", "CC0-1.0", "CC-BY-4.0", "CC-BY-SA-4.0",
                                  "CC-BY-NC-4.0", "CC-BY-NC-SA-4.0", "ODC-By-1.0", "ODbL-1.0",
                                  "PhysioNet-Credentialed-Health-Data-1.5.0", "other"}));
  EXPECT_EQ(Names<Domain>(),
            (std::vector<std::string>{"health", "cardiology", "respiratory", "sleep", "activity",
                                      "motion", "economics", "finance", "environment", "energy",
                                      "transport", "observability", "audio", "general"}));
  EXPECT_EQ(Names<TaskType>(),
            (std::vector<std::string>{"classification", "answer", "scalar_prediction",
                                      "temporal_localization", "forecasting", "ts_editing",
                                      "ts_generation", "ts_correspondence"}));
  EXPECT_EQ(Names<DType>(),
            (std::vector<std::string>{"bool", "int8", "int16", "int32", "uint8", "uint16", "uint32",
                                      "float32", "float64", "str", "enum"}));
  EXPECT_EQ(Names<Modality>(), (std::vector<std::string>{"text", "time_series", "image", "audio"}));
  EXPECT_EQ(Names<ValueEncodingChoice>(),
            (std::vector<std::string>{"auto", "dictionary", "byte_stream_split", "plain"}));
  EXPECT_EQ(Names<AnnotationValueType>(),
            (std::vector<std::string>{"bool", "int", "float", "str", "list"}));
}

TEST(EnumsTest, EachRoundTrips) {
  ExpectRoundTrip<License>(ParseLicense);
  ExpectRoundTrip<Domain>(ParseDomain);
  ExpectRoundTrip<Access>(ParseAccess);
  ExpectRoundTrip<ValueEncoding>(ParseValueEncoding);
  ExpectRoundTrip<ValueEncodingChoice>(ParseValueEncodingChoice);
  ExpectRoundTrip<ValuesBackend>(ParseValuesBackend);
  ExpectRoundTrip<DType>(ParseDType);
  ExpectRoundTrip<Modality>(ParseModality);
  ExpectRoundTrip<AnnotationType>(ParseAnnotationType);
  ExpectRoundTrip<AnnotationValueType>(ParseAnnotationValueType);
  ExpectRoundTrip<TaskType>(ParseTaskType);
  EXPECT_FALSE(ParseModality("no_input").has_value());
  EXPECT_FALSE(ParseLicense("mit").has_value());
}

}  // namespace
}  // namespace timef::manifest
