// Legacy ECG corpus (issue 18): the medium ECG size (300 records × 12 leads × 5,000 float32 at
// 500 Hz, docs/benchmarks.md) in the legacy layout, chunks of 2,500 values, 1,024 chunks per shard.
//   BM_LegacyFullPass   Reader::Open on the legacy directory (its metadata catalog built in the
//                       cache directory by the first iteration, reused by the second) and every
//                       signal's values loaded by ID, read in place from the legacy shards
//   BM_LegacyReadDirect ReadLegacy and every signal's values loaded (no native write)
//   BM_NativeFullPass   the same full pass on the upgraded release
//   BM_Upgrade          timef::Upgrade into a fresh root (zstd 19, the defaults)
// TIMEF_BENCH_WORK (default /tmp) holds the corpus; TIMEF_LEGACY_RECORDS overrides the 300.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "corpus/corpus.h"
#include "legacy/legacy_fixture.h"
#include "timef/reader.h"
#include "timef/upgrade.h"

namespace timef {
namespace {

namespace fs = std::filesystem;

constexpr int kSamples = 5000;
constexpr int kLeads = 12;

int Records() {
  const char* text = std::getenv("TIMEF_LEGACY_RECORDS");
  return text != nullptr ? std::atoi(text) : 300;
}

struct Corpus {
  fs::path legacy;
  fs::path native;
  int records = 0;
  std::int64_t values = 0;
  std::int64_t legacy_bytes = 0;
};

std::vector<float> Lead(int record, int lead) {
  return bench::EcgLead(7, static_cast<std::uint64_t>(record), lead, kSamples, 500);
}

const Corpus& TheCorpus() {
  static const Corpus corpus = [] {
    Corpus c;
    c.records = Records();
    const char* work = std::getenv("TIMEF_BENCH_WORK");
    const fs::path root = fs::path(work ? work : "/tmp") / "timef-legacy-bench";
    fs::remove_all(root);
    c.legacy = root / "legacy" / std::to_string(c.records);
    testing::WriteLegacyEcgCorpus(c.legacy, c.records, kSamples, 2500, 1024, Lead);
    c.native = Upgrade(c.legacy, root / "native").written.release_dir;
    c.values = static_cast<std::int64_t>(c.records) * kLeads * kSamples;
    for (const auto& part : LegacyFiles(c.legacy)) c.legacy_bytes += part.size;
    // The corpus reads back what was generated (first and last lead).
    Reader reader = Reader::Open(c.native);
    const auto last = static_cast<std::int64_t>(c.records) * kLeads;
    if (reader.GetSignalValues(1).LoadValues()->values<float>()[17] != Lead(0, 0)[17] ||
        reader.GetSignalValues(last).LoadValues()->values<float>()[4999] !=
            Lead(c.records - 1, kLeads - 1)[4999]) {
      throw std::runtime_error("legacy bench corpus does not read back");
    }
    return c;
  }();
  return corpus;
}

void FullPass(Reader& reader, const Corpus& c, benchmark::State& state) {
  double sum = 0;
  const std::int64_t signals = static_cast<std::int64_t>(c.records) * kLeads;
  for (std::int64_t id = 1; id <= signals; ++id) {
    sum += reader.GetSignalValues(id).LoadValues()->values<float>()[0];
  }
  benchmark::DoNotOptimize(sum);
  (void)state;
}

void Counters(benchmark::State& state, const Corpus& c) {
  state.counters["values_per_s"] = benchmark::Counter(
      static_cast<double>(c.values), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["value_MB_per_s"] = benchmark::Counter(
      static_cast<double>(c.values) * 4 / 1e6, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["records"] = c.records;
  state.counters["legacy_MB"] = static_cast<double>(c.legacy_bytes) / 1e6;
}

// Reader::Open on the corpus's `dir`, then every value, per iteration.
void OpenAndPass(benchmark::State& state, fs::path Corpus::*dir) {
  const Corpus& c = TheCorpus();
  for (auto _ : state) {
    Reader reader = Reader::Open(c.*dir);
    FullPass(reader, c, state);
  }
  Counters(state, c);
}

void BM_LegacyFullPass(benchmark::State& state) { OpenAndPass(state, &Corpus::legacy); }

void BM_LegacyReadDirect(benchmark::State& state) {
  const Corpus& c = TheCorpus();
  for (auto _ : state) {
    LegacyDataset legacy = ReadLegacy(c.legacy);
    double sum = 0;
    for (const auto& record : legacy.dataset->records()) {
      for (const auto& signal : record->Signals()) {
        sum += signal->LoadValues()->values<float>()[0];
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  Counters(state, c);
}

void BM_NativeFullPass(benchmark::State& state) { OpenAndPass(state, &Corpus::native); }

void BM_Upgrade(benchmark::State& state) {
  const Corpus& c = TheCorpus();
  const fs::path out = c.legacy.parent_path().parent_path() / "upgrade-out";
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(out);
    state.ResumeTiming();
    benchmark::DoNotOptimize(Upgrade(c.legacy, out));
  }
  fs::remove_all(out);
  Counters(state, c);
}

BENCHMARK(BM_LegacyFullPass)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_LegacyReadDirect)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_NativeFullPass)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_Upgrade)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace timef

BENCHMARK_MAIN();
