// hello-world written with its own options and read back: the release is multi-chunk, verifies,
// and the dataset (values, special floats, nulls, packed texts) comes back unchanged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <string>

#include "timef/demo.h"
#include "timef/error.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef::demo {
namespace {

namespace fs = std::filesystem;

// One release written once for the whole suite, in a fresh directory under TIMEF_TEST_OUT.
class HelloWorldRoundTripTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* out = std::getenv("TIMEF_TEST_OUT");
    fs::path base = out != nullptr ? fs::path(out) : fs::temp_directory_path();
    root_ = base / ("demo-roundtrip-" + std::to_string(std::random_device{}()));
    fs::remove_all(root_);
    auto dataset = BuildHelloWorld();
    release_ =
        WriteRelease(*dataset, HelloWorldCard(), root_, HelloWorldWriteOptions()).release_dir;
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  static inline fs::path root_;
  static inline fs::path release_;
};

TEST_F(HelloWorldRoundTripTest, LandsInTheRegistryLayoutAndVerifies) {
  EXPECT_EQ(release_, root_ / std::string(kHelloWorldId) / std::string(kHelloWorldVersion));
  Reader reader = Reader::Open(release_);
  EXPECT_NO_THROW(reader.Verify());
  const manifest::Manifest& manifest = reader.manifest();
  EXPECT_EQ(manifest.metadata, HelloWorldCard());
  EXPECT_EQ(manifest.counts.records, 4);
  EXPECT_EQ(manifest.schema.tasks.size(), 8u);
  // 40,000 float32 steps in 16 KiB chunks: 10 chunks per lead.
  EXPECT_GE(manifest.counts.signal_chunks, 2 * 10);
  EXPECT_FALSE(manifest.files.payloads.empty()) << "long texts are packed";
}

TEST_F(HelloWorldRoundTripTest, ReadsBackTheSameDataset) {
  Reader reader = Reader::Open(release_);
  auto read = reader.Read(LoadPlan::AllEager());
  auto built = BuildHelloWorld();
  // Metadata key order is not kept (FORMAT.md §13: the catalog stores the compact form with
  // sorted keys) but DumpDataset keeps it, so compare the dumps as unordered JSON.
  const auto unordered = [](const Json& dump) { return nlohmann::json::parse(dump.dump()); };
  const auto read_dump = unordered(model::DumpDataset(*read, {.values = true}));
  const auto built_dump = unordered(model::DumpDataset(*built, {.values = true}));
  // The dumps hold every value; on a mismatch show the JSON patch, not megabytes of dump.
  EXPECT_TRUE(read_dump == built_dump)
      << nlohmann::json::diff(built_dump, read_dump).dump().substr(0, 4000);
}

TEST_F(HelloWorldRoundTripTest, SpecialFloatsAndNullsSurviveLazyReads) {
  Reader reader = Reader::Open(release_);
  auto lead = reader.GetSignal(kSpecialSignalId);
  EXPECT_EQ(lead->name(), kSpecialSignalName);
  auto at = [&](int64_t step) { return lead->ReadSteps(step, step + 1).values<float>()[0]; };
  EXPECT_TRUE(std::isnan(at(kNanStep)));
  EXPECT_EQ(at(kPosInfStep), std::numeric_limits<float>::infinity());
  EXPECT_EQ(at(kNegInfStep), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(at(kNegZeroStep) == 0.0f && std::signbit(at(kNegZeroStep)));
  EXPECT_TRUE(std::isfinite(at(kNanStep - 1)));

  auto heart_rate = reader.GetSignal(kHeartRateSignalId);
  EXPECT_EQ(heart_rate->name(), kHeartRateSignalName);
  model::ValueArray values = heart_rate->ReadSteps(0, kIrregularSteps);
  for (int64_t step : kHeartRateNullSteps) EXPECT_FALSE(values.IsValid(step)) << step;
  EXPECT_TRUE(values.IsValid(kHeartRateNanStep));
  EXPECT_TRUE(std::isnan(values.values<double>()[kHeartRateNanStep]));
}

TEST_F(HelloWorldRoundTripTest, WritingTheSameVersionAgainIsRefused) {
  auto dataset = BuildHelloWorld();
  EXPECT_THROW(WriteRelease(*dataset, HelloWorldCard(), root_, HelloWorldWriteOptions()),
               ValidationError);
}

}  // namespace
}  // namespace timef::demo
