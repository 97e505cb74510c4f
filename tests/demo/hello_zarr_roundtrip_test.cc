// hello-zarr (docs/format.md §8) written with its options and read back: the store layout, a
// dataset equal in every field, bit-exact special floats, nulls, the N-D spectrogram, lazy window
// reads by counters, and the refusals of each backend.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
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

class HelloZarrRoundTripTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* out = std::getenv("TIMEF_TEST_OUT");
    fs::path base = out != nullptr ? fs::path(out) : fs::temp_directory_path();
    root_ = base / ("zarr-roundtrip-" + std::to_string(std::random_device{}()));
    fs::remove_all(root_);
    auto dataset = BuildHelloZarr();
    release_ = WriteRelease(*dataset, HelloZarrCard(), root_, HelloZarrWriteOptions()).release_dir;
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  static std::int64_t SpectrogramId(Reader& reader) {
    auto record = reader.GetRecord(kSpectrogramRecordId);
    return *record->Signals().front()->id();
  }

  static inline fs::path root_;
  static inline fs::path release_;
};

TEST_F(HelloZarrRoundTripTest, WritesTheZarrStoreAndVerifies) {
  Reader reader = Reader::Open(release_);
  EXPECT_NO_THROW(reader.Verify());
  const manifest::Manifest& m = reader.manifest();
  EXPECT_EQ(m.values_backend, manifest::ValuesBackend::kZarr);
  EXPECT_TRUE(m.value_encoding.empty());
  std::vector<std::string> paths;
  for (const auto& part : m.files.time_series) {
    EXPECT_TRUE(part.path.starts_with("time_series.zarr/")) << part.path;
    paths.push_back(part.path);
  }
  EXPECT_TRUE(std::is_sorted(paths.begin(), paths.end()));
  for (const char* want :
       {"time_series.zarr/zarr.json", "time_series.zarr/_validity/zarr.json",
        "time_series.zarr/_validity/heart_rate/zarr.json", "time_series.zarr/spectrogram/zarr.json",
        "time_series.zarr/ecg/c/0", "time_series.zarr/spectrogram/c/0/0/0"}) {
    EXPECT_TRUE(std::find(paths.begin(), paths.end(), want) != paths.end()) << want;
  }
  // Every staged file is listed and nothing else is there.
  std::size_t on_disk = 0;
  for (const auto& entry : fs::recursive_directory_iterator(release_ / "time_series.zarr")) {
    if (entry.is_regular_file()) ++on_disk;
  }
  EXPECT_EQ(on_disk, paths.size());
  EXPECT_FALSE(fs::exists(release_ / "time_series"));
}

TEST_F(HelloZarrRoundTripTest, ReadsBackTheSameDataset) {
  Reader reader = Reader::Open(release_);
  auto read = reader.Read(LoadPlan::AllEager());
  auto built = BuildHelloZarr();
  const auto unordered = [](const Json& dump) { return nlohmann::json::parse(dump.dump()); };
  const auto read_dump = unordered(model::DumpDataset(*read, {.values = true}));
  const auto built_dump = unordered(model::DumpDataset(*built, {.values = true}));
  EXPECT_TRUE(read_dump == built_dump)
      << nlohmann::json::diff(built_dump, read_dump).dump().substr(0, 4000);
  // Values compare bit-exactly (NaN payloads, -0.0) signal by signal as well.
  for (const auto& record : built->records()) {
    for (const auto& signal : record->Signals()) {
      auto stored = reader.GetSignal(*signal->id());
      EXPECT_TRUE(*stored->LoadValues() == *signal->LoadValues()) << signal->Describe();
    }
  }
}

TEST_F(HelloZarrRoundTripTest, SpecialFloatsAndNullsSurviveLazyReads) {
  Reader reader = Reader::Open(release_);
  auto lead = reader.GetSignal(kSpecialSignalId);
  auto at = [&](int64_t step) { return lead->ReadSteps(step, step + 1).values<float>()[0]; };
  EXPECT_TRUE(std::isnan(at(kNanStep)));
  EXPECT_EQ(at(kPosInfStep), std::numeric_limits<float>::infinity());
  EXPECT_EQ(at(kNegInfStep), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(at(kNegZeroStep) == 0.0f && std::signbit(at(kNegZeroStep)));
  model::ValueArray rate = reader.GetSignal(kHeartRateSignalId)->ReadSteps(0, kIrregularSteps);
  for (int64_t step : kHeartRateNullSteps) EXPECT_FALSE(rate.IsValid(step)) << step;
  EXPECT_TRUE(std::isnan(rate.values<double>()[kHeartRateNanStep]));
}

TEST_F(HelloZarrRoundTripTest, TheSpectrogramKeepsItsShapeAndDimensionNames) {
  Reader reader = Reader::Open(release_);
  const std::int64_t id = SpectrogramId(reader);
  SignalValuesRef ref = reader.GetSignalValues(id);
  EXPECT_EQ(ref.n_values(), kSpectrogramSteps);
  EXPECT_EQ(ref.spec().value_shape, (std::vector<std::int64_t>{2, 8}));
  EXPECT_EQ(ref.spec().dimension_names, (std::vector<std::string>{"channel", "freq"}));
  // ReadSteps returns [steps, *value_shape] scalars in row-major order.
  const model::ValueArray window = ref.ReadSteps(3, 7);
  EXPECT_EQ(window.size(), 4 * 16);
  auto built = BuildHelloZarr();
  std::shared_ptr<model::Signal> signal;
  for (const auto& record : built->records()) {
    if (*record->id() == kSpectrogramRecordId) signal = record->Signals().front();
  }
  ASSERT_NE(signal, nullptr);
  EXPECT_TRUE(window == signal->LoadValues()->SliceSteps(3, 7, 16));
  std::ifstream meta(release_ / "time_series.zarr/spectrogram/zarr.json");
  const Json j = Json::parse(meta);
  EXPECT_EQ(j["shape"], Json::parse("[64, 2, 8]"));
  EXPECT_EQ(j["dimension_names"], Json::parse(R"(["step", "channel", "freq"])"));
}

// Zarr values into caller buffers (SignalValuesRef::LoadValuesInto): the shaped spectrogram as
// [steps, *value_shape] scalars and the nullable heart rate with its validity, as LoadValues.
TEST_F(HelloZarrRoundTripTest, ValuesIntoCallerBuffersEqualLoadedArrays) {
  Reader reader = Reader::Open(release_);
  const SignalValuesRef spectrogram = reader.GetSignalValues(SpectrogramId(reader));
  const auto expected = spectrogram.LoadValues();
  std::vector<float> scalars(static_cast<std::size_t>(spectrogram.n_values() * 16), -1.0f);
  spectrogram.LoadValuesInto(std::span<float>(scalars));
  EXPECT_TRUE(model::ValueArray::Of(scalars) == *expected);
  EXPECT_THROW(spectrogram.LoadValuesInto(std::span<float>(scalars).first(
                   static_cast<std::size_t>(spectrogram.n_values()))),
               ValidationError);

  const SignalValuesRef hr = reader.GetSignalValues(kHeartRateSignalId);
  const auto loaded = hr.LoadValues();
  ASSERT_TRUE(loaded->has_validity());
  std::vector<std::uint8_t> validity(static_cast<std::size_t>(hr.n_values()), 7);
  std::visit(
      [&](const auto& held) {
        using T = typename std::decay_t<decltype(held)>::value_type;
        if constexpr (!std::is_same_v<T, std::string>) {
          std::vector<T> out(held.size());
          EXPECT_THROW(hr.LoadValuesInto(std::span<T>(out)), ValidationError);  // nulls
          hr.LoadValuesInto(std::span<T>(out), validity);
          EXPECT_TRUE(model::ValueArray(loaded->dtype(), std::move(out), validity) == *loaded);
        }
      },
      loaded->data());
}

TEST_F(HelloZarrRoundTripTest, AWindowOpensOnlyItsShardAndDecodesOnlyItsInnerChunk) {
  Reader reader = Reader::Open(release_);
  SignalValuesRef lead = reader.GetSignalValues(kSpecialSignalId);
  const ReaderCounters before = reader.counters();
  // 16 KiB inner chunks hold 4096 float32 steps, 256 KiB shards 65536: a 10-step window of the
  // second lead (array steps 45000..45009) lies in shard 0, inner chunk 10.
  const model::ValueArray window = lead.ReadSteps(kNanStep, kNanStep + 10);
  EXPECT_EQ(window.size(), 10);
  const ReaderCounters after = reader.counters();
  EXPECT_EQ(after.values_files_opened - before.values_files_opened, 2u);  // zarr.json + 1 shard
  EXPECT_EQ(after.data_pages_decoded - before.data_pages_decoded, 1u);
  // A nullable window also opens the validity array's zarr.json and shard.
  reader.GetSignalValues(kHeartRateSignalId).ReadSteps(0, 5);
  const ReaderCounters nullable = reader.counters();
  EXPECT_EQ(nullable.values_files_opened - after.values_files_opened, 4u);
  EXPECT_EQ(nullable.data_pages_decoded - after.data_pages_decoded, 2u);
}

TEST_F(HelloZarrRoundTripTest, AStoreFileTheManifestDoesNotListIsAFormatError) {
  const fs::path copy = root_ / "unlisted" / std::string(kHelloZarrId) / "1.0.0";
  fs::create_directories(copy.parent_path());
  fs::copy(release_, copy, fs::copy_options::recursive);
  std::ifstream in(copy / "manifest.json");
  Json m = Json::parse(in);
  in.close();
  auto& parts = m["files"]["time_series"];
  for (auto it = parts.begin(); it != parts.end(); ++it) {
    if ((*it)["path"] == "time_series.zarr/spectrogram/c/0/0/0") {
      parts.erase(it);
      break;
    }
  }
  std::ofstream(copy / "manifest.json", std::ios::trunc) << m.dump(2) << "\n";
  // docs/format.md §3.1: the release is refused when it is opened, before any value is read.
  try {
    Reader::Open(copy);
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("spectrogram/c/0/0/0"), std::string::npos) << e.what();
  }
}

TEST_F(HelloZarrRoundTripTest, EachBackendRefusesWhatItCannotStore) {
  auto zarr = BuildHelloZarr();
  WriteOptions parquet = HelloWorldWriteOptions();
  EXPECT_THROW(WriteRelease(*zarr, HelloZarrCard(), root_ / "parquet", parquet), ValidationError);
  auto world = BuildHelloWorld();
  EXPECT_THROW(WriteRelease(*world, HelloWorldCard(), root_ / "zarr", HelloZarrWriteOptions()),
               ValidationError);
  EXPECT_FALSE(fs::exists(root_ / "parquet" / std::string(kHelloZarrId)));
}

}  // namespace
}  // namespace timef::demo
