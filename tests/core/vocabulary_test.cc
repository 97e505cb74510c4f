// The schema vocabulary is declared once: the model's and the manifest's names are the same types,
// and every name goes through the one table.
#include "timef/vocabulary.h"

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "core/enum_table.h"
#include "timef/manifest.h"
#include "timef/model.h"

namespace timef {
namespace {

static_assert(std::is_same_v<model::DType, DType> && std::is_same_v<manifest::DType, DType>);
static_assert(std::is_same_v<model::Modality, Modality> &&
              std::is_same_v<manifest::Modality, Modality>);
static_assert(std::is_same_v<model::AnnotationType, AnnotationType> &&
              std::is_same_v<manifest::AnnotationType, AnnotationType>);
static_assert(std::is_same_v<model::AnnotationValueType, AnnotationValueType> &&
              std::is_same_v<manifest::AnnotationValueType, AnnotationValueType>);
static_assert(std::is_same_v<model::TaskType, TaskType> &&
              std::is_same_v<manifest::TaskType, TaskType>);

template <typename E, typename ParseFn>
void ExpectEveryNameRoundTrips(ParseFn parse) {
  const std::vector<std::string> names = core::EnumNames<E>();
  ASSERT_FALSE(names.empty());
  for (const auto& entry : core::EnumTable<E>()) {
    EXPECT_EQ(ToString(entry.value), entry.name);
    EXPECT_EQ(parse(entry.name), entry.value) << entry.name;
  }
  EXPECT_EQ(parse("no such name"), std::nullopt);
}

TEST(VocabularyTest, EveryNameRoundTrips) {
  ExpectEveryNameRoundTrips<DType>(ParseDType);
  ExpectEveryNameRoundTrips<Modality>(ParseModality);
  ExpectEveryNameRoundTrips<AnnotationType>(ParseAnnotationType);
  ExpectEveryNameRoundTrips<AnnotationValueType>(ParseAnnotationValueType);
  ExpectEveryNameRoundTrips<TaskType>(ParseTaskType);
}

TEST(VocabularyTest, ModelAndManifestSpellingsReachTheSameTable) {
  EXPECT_EQ(model::ToString(model::DType::kUint16), "uint16");
  EXPECT_EQ(manifest::ToString(manifest::TaskType::kTsEditing), "ts_editing");
  EXPECT_EQ(model::ParseAnnotationValueType("list"), AnnotationValueType::kList);
  EXPECT_EQ(manifest::ParseModality("no_input"), std::nullopt);  // a task modality only
}

TEST(VocabularyTest, AValueOutsideTheEnumerationHasNoName) {
  EXPECT_EQ(ToString(static_cast<DType>(99)), "?");
  EXPECT_EQ(core::EnumNameList<AnnotationType>(), "static, point, interval");
}

}  // namespace
}  // namespace timef
