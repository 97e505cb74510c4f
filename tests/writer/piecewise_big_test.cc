// Bounded memory (issue 16): one int8 signal of 2^31 + 1 samples — past the 2^31 − 1 steps a
// chunk may hold and the 2^31 values a row group may hold (docs/format.md §7.2) — written from a
// piece loader at zstd level 1 in a child process whose peak RSS (wait4) must stay under 600 MB,
// then read back exactly at its end, at a chunk boundary and across the 2^31 row-group limit.
// Its own binary and the ctest label `big`: `ctest -L big` runs it alone, `-LE big` skips it.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

#include "release_fixture.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {

constexpr std::int64_t kSteps = (std::int64_t{1} << 31) + 1;
constexpr std::int64_t kPieceSteps = std::int64_t{8} << 20;  // 8 MiB pieces
constexpr std::int64_t kBlock = std::int64_t{1} << 20;
constexpr long kMaxRssKiB = 600 * 1024;

// The value at step `i`: depends on the position within and across chunks (of 2^20 int8 steps),
// so a window read from the wrong offset does not match.
std::int8_t ValueAt(std::int64_t i) { return static_cast<std::int8_t>(i % 127 + (i >> 20) % 100); }

// Adds `add` to each of `n` bytes: 2^31 steps pass through here, so it is optimised although test
// code is compiled at -O0 (cmake/TimefTesting.cmake).
__attribute__((optimize("O2"))) void AddToEach(std::int8_t* bytes, std::int64_t n,
                                               std::int8_t add) {
  for (std::int64_t i = 0; i < n; ++i) bytes[i] = static_cast<std::int8_t>(bytes[i] + add);
}

void WriteBig(const std::filesystem::path& root) {
  model::Dataset dataset("test/big", "1.0.0");
  auto spec = model::Spec::Make({.spec_type = "big", .name = "Big", .dtype = model::DType::kInt8});
  auto record = dataset.AddRecord();
  record->set_start_time_us(1'700'000'000'000'000);
  auto signal =
      std::make_shared<model::Signal>("s", spec, model::TimeAxis::RegularFromRate(1000), kSteps);
  signal->SetPieceLoader([](const model::PieceSink& emit) {
    // ValueAt without a division per step (generation is otherwise a tenth of the run): the
    // i % 127 pattern is copied from a template, and i >> 20 is constant over 2^20 steps.
    std::vector<std::int8_t> period(127 + kPieceSteps);
    for (std::size_t i = 0; i < period.size(); ++i) period[i] = static_cast<std::int8_t>(i % 127);
    for (std::int64_t at = 0; at < kSteps; at += kPieceSteps) {
      const std::int64_t n = std::min(kPieceSteps, kSteps - at);
      std::vector<std::int8_t> piece(period.begin() + at % 127, period.begin() + at % 127 + n);
      for (std::int64_t block = 0; block < n; block += kBlock) {  // pieces start on a block
        const auto add = static_cast<std::int8_t>(((at + block) >> 20) % 100);
        const std::int64_t end = std::min(n, block + kBlock);
        AddToEach(piece.data() + block, end - block, add);
      }
      emit(model::ValueArray::Of(std::move(piece)));
    }
  });
  record->AddSource("device")->AddSignal(signal);
  WriteOptions options;
  options.compression_level = 1;
  WriteRelease(dataset, testing::FixtureCard(), root, options);
}

void ExpectWindow(const SignalValuesRef& ref, std::int64_t begin, std::int64_t end) {
  SCOPED_TRACE("window [" + std::to_string(begin) + ", " + std::to_string(end) + ")");
  const model::ValueArray got = ref.ReadSteps(begin, end);
  ASSERT_EQ(got.size(), end - begin);
  const auto values = got.values<std::int8_t>();
  for (std::int64_t i = begin; i < end; ++i) {
    ASSERT_EQ(values[static_cast<std::size_t>(i - begin)], ValueAt(i)) << "step " << i;
  }
}

TEST(PiecewiseBigTest, TwoToThe31PlusOneInt8StepsInBoundedMemory) {
  testing::TempDir root;
  std::fflush(nullptr);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      WriteBig(root.path());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "write failed: %s\n", e.what());
      _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  rusage usage{};
  ASSERT_EQ(wait4(child, &status, 0, &usage), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer child failed";
  std::printf("peak RSS of the writer: %ld KiB\n", usage.ru_maxrss);
  EXPECT_LT(usage.ru_maxrss, kMaxRssKiB);

  Reader reader = Reader::Open(root.path() / "test/big/1.0.0");
  std::int64_t signal_id = -1;
  for (const auto& record : reader.IterRecords()) signal_id = *record->Signals().front()->id();
  ASSERT_GE(signal_id, 0);
  const SignalValuesRef ref = reader.GetSignalValues(signal_id);
  ASSERT_EQ(ref.n_values(), kSteps);
  const std::int64_t chunk = std::int64_t{1} << 20;           // 1 MiB chunks of int8
  ExpectWindow(ref, kSteps - 5000, kSteps);                   // the end
  ExpectWindow(ref, 3 * chunk - 100, 3 * chunk + 100);        // a chunk boundary
  ExpectWindow(ref, (std::int64_t{1} << 31) - 1000, kSteps);  // past 2^31 − 1
}

}  // namespace
}  // namespace timef
