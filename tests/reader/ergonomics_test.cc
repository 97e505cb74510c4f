// The C++ forms a first program reaches for (issue 17 "C++ ergonomics"): range-for over record and
// task streams, one verb for loading a signal's values, ToString() results usable as std::string,
// braced ID lists. Most checks are compile-time (static_assert, overload resolution) and fail the
// build when the ergonomics regress; the run-time checks prove the forms do what they say on the
// hello-world release.
#include <gtest/gtest.h>

#include <concepts>
#include <iterator>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>

#include "scratch_dir.h"
#include "support/serve_release.h"
#include "timef/demo.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {

// ---- compile-time checks ----

// Streams are input ranges of shared_ptr elements, usable in range-for and std::ranges.
static_assert(std::input_iterator<RecordStream::iterator>);
static_assert(std::sentinel_for<std::default_sentinel_t, RecordStream::iterator>);
static_assert(std::ranges::input_range<RecordStream>);
static_assert(std::ranges::input_range<TaskStream>);
static_assert(
    std::same_as<std::iter_value_t<RecordStream::iterator>, std::shared_ptr<model::Record>>);

// ToString of every public enumeration returns a std::string that cannot dangle.
template <class E>
constexpr bool kStringToString =
    std::is_same_v<decltype(ToString(std::declval<E>())), const std::string&>;
static_assert(kStringToString<DType>);
static_assert(kStringToString<Modality>);
static_assert(kStringToString<AnnotationType>);
static_assert(kStringToString<AnnotationValueType>);
static_assert(kStringToString<TaskType>);
static_assert(kStringToString<model::Split>);
static_assert(kStringToString<model::InputModality>);
static_assert(kStringToString<model::LocalizationMode>);
static_assert(kStringToString<model::AxisType>);
static_assert(kStringToString<model::SpanKind>);
static_assert(kStringToString<model::TargetKind>);
static_assert(kStringToString<model::ValueKind>);
static_assert(kStringToString<WriteStage>);
static_assert(kStringToString<manifest::License>);
static_assert(kStringToString<manifest::ValuesBackend>);

// Braced lists pick the list overloads; a braced single ID is a list of one, never ambiguous.
template <class R>
constexpr bool kIsVector = false;
template <class T>
constexpr bool kIsVector<std::vector<T>> = true;
static_assert(kIsVector<decltype(std::declval<Reader&>().GetRecords({7}))>);
static_assert(kIsVector<decltype(std::declval<Reader&>().GetRecords({1, 2, 3}))>);
static_assert(kIsVector<decltype(std::declval<Reader&>().GetSignals({7}))>);
static_assert(kIsVector<decltype(std::declval<Reader&>().GetTasks({7}))>);
static_assert(kIsVector<decltype(std::declval<Reader&>().GetTasks({1, 2}, TaskType::kAnswer))>);
static_assert(kIsVector<decltype(std::declval<Reader&>().GetSignalValues({7}))>);
static_assert(std::same_as<decltype(std::declval<Reader&>().GetSignalValues(7)), SignalValuesRef>);

// One verb for "load a signal's values" on both user-facing types.
static_assert(std::same_as<decltype(std::declval<const model::Signal&>().LoadValues()),
                           std::shared_ptr<const model::ValueArray>>);
static_assert(std::same_as<decltype(std::declval<const SignalValuesRef&>().LoadValues()),
                           std::shared_ptr<const model::ValueArray>>);

// ---- run-time checks on hello-world ----

class ErgonomicsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = std::make_unique<testing::ScratchDir>();
    auto dataset = demo::BuildHelloWorld();
    release_ = WriteRelease(*dataset, demo::HelloWorldCard(), scratch_->path(),
                            demo::HelloWorldWriteOptions())
                   .release_dir;
  }
  static void TearDownTestSuite() { scratch_.reset(); }
  static inline std::unique_ptr<testing::ScratchDir> scratch_;
  static inline std::filesystem::path release_;
};

TEST_F(ErgonomicsTest, RangeForVisitsEveryRecordAndTaskAcrossBatches) {
  Reader reader = testing::OpenForRead(release_);
  std::vector<int64_t> seen;
  // batch_size 1: every element after the first comes from a new Next().
  for (const auto& record : reader.IterRecords({.batch_size = 1})) seen.push_back(*record->id());
  EXPECT_EQ(seen, reader.RecordIds());

  std::vector<int64_t> by_batch;
  TaskStream batches = reader.IterTasks({.batch_size = 3});
  while (auto batch = batches.Next()) {
    for (const auto& task : *batch) by_batch.push_back(*task->id());
  }
  std::vector<int64_t> by_element;
  for (const auto& task : reader.IterTasks({.batch_size = 3})) by_element.push_back(*task->id());
  EXPECT_EQ(by_element, by_batch);
  EXPECT_FALSE(by_element.empty());

  // Given IDs keep the caller's order; an empty list yields nothing.
  std::vector<int64_t> chosen;
  for (const auto& record : reader.IterRecords({.ids = std::vector<int64_t>{3, 1}}))
    chosen.push_back(*record->id());
  EXPECT_EQ(chosen, (std::vector<int64_t>{3, 1}));
  int count = 0;
  for (const auto& record : reader.IterRecords({.ids = std::vector<int64_t>{}})) {
    (void)record;
    ++count;
  }
  EXPECT_EQ(count, 0);
}

TEST_F(ErgonomicsTest, IteratorElementsOutliveTheirBatch) {
  Reader reader = testing::OpenForRead(release_);
  std::vector<std::shared_ptr<model::Record>> kept;
  for (const auto& record : reader.IterRecords({.batch_size = 1})) kept.push_back(record);
  const std::vector<int64_t> ids = reader.RecordIds();
  ASSERT_EQ(kept.size(), ids.size());
  for (size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(*kept[i]->id(), ids[i]);
  // Each batch was dropped by the stream; the kept records still reach their signals' values.
  for (const auto& record : kept) {
    for (const auto& signal : record->Signals()) EXPECT_TRUE(signal->LoadValues() != nullptr);
  }
}

TEST_F(ErgonomicsTest, BracedIdListsReachTheListOverloads) {
  Reader reader = testing::OpenForRead(release_);
  const auto one = reader.GetRecords({demo::kEcgRecordId});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(*one[0]->id(), demo::kEcgRecordId);
  const auto two = reader.GetRecords({demo::kVitalsRecordId, demo::kEcgRecordId});
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(*two[0]->id(), demo::kVitalsRecordId);
  const auto signals = reader.GetSignals({demo::kSpecialSignalId, demo::kHeartRateSignalId});
  ASSERT_EQ(signals.size(), 2u);
  EXPECT_EQ(signals[1]->name(), demo::kHeartRateSignalName);
  const auto refs = reader.GetSignalValues({demo::kSpecialSignalId});
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(*refs[0].LoadValues(), *signals[0]->LoadValues());
  std::vector<int64_t> task_ids;
  for (const auto& task : reader.ReadTasks()) task_ids.push_back(*task->id());
  ASSERT_GE(task_ids.size(), 2u);
  const auto tasks = reader.GetTasks({task_ids[1], task_ids[0]});
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(*tasks[0]->id(), task_ids[1]);
}

TEST_F(ErgonomicsTest, ToStringConcatenatesAndConvertsToStringView) {
  const std::string owned = ToString(DType::kFloat32);
  EXPECT_EQ(owned, "float32");
  EXPECT_EQ("dtype " + ToString(DType::kEnum), "dtype enum");
  EXPECT_EQ(ToString(model::Split::kTest) + "/" + ToString(TaskType::kAnswer), "test/answer");
  const std::string_view view = ToString(model::AxisType::kIrregular);
  EXPECT_EQ(view, "irregular");
  // The same object every time: a reference to one immutable string per enumerator.
  EXPECT_EQ(&ToString(Modality::kAudio), &ToString(Modality::kAudio));
  EXPECT_EQ(ToString(static_cast<DType>(999)), "?");
}

}  // namespace
}  // namespace timef
