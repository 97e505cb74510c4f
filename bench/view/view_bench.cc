// timef_view_bench [--quick] [--out DIR] [--repeats N]: what `timef view` costs on a long signal
// (issue 36). One float32 signal of 24 h at 250 Hz (21.6 M steps; --quick: 2.4 h, 2.16 M) written
// with the default layout (1 MiB chunks, 16 KiB page target, zstd level 3 to keep the write
// short), then through the view's range API (tools/view/view_api.h):
//   - the overview, 1,000 buckets over the whole signal, on a fresh Reader (cold: footers and page
//     indexes read) and again (warm);
//   - a 10-second window in the middle, 1,000 buckets;
// against decoding the whole signal (SignalValuesRef::LoadValues on a fresh Reader) and folding it
// into the same 1,000 buckets. Reports time (median of the repeats) and Parquet data pages decoded
// (ReaderCounters). Writes DIR/view.json and DIR/view.md (also to stdout).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "common/timing.h"
#include "support/scratch_dir.h"
#include "timef/model.h"
#include "timef/reader.h"
#include "timef/writer.h"
#include "view/view_api.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;
using timef::Json;

using timef::bench::Median;
using timef::bench::Ms;

fs::path WriteLongSignal(const fs::path& root, std::int64_t steps) {
  using namespace timef::model;  // NOLINT(google-build-using-namespace)
  Dataset dataset("bench/view", "1.0.0");
  auto record = dataset.AddRecord();
  auto spec = Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
  std::vector<float> values(static_cast<std::size_t>(steps));
  std::mt19937 rng(1);
  std::normal_distribution<float> noise(0.0f, 0.02f);
  for (std::int64_t i = 0; i < steps; ++i) {
    const double t = static_cast<double>(i) / 250.0;
    const double beat = std::fmod(t, 0.8);
    values[i] = static_cast<float>(0.1 * std::sin(2 * M_PI * 0.25 * t) +
                                   (beat < 0.04 ? 1.2 * std::sin(M_PI * beat / 0.04) : 0.0)) +
                noise(rng);
  }
  record->AddSource("device")->AddSignal(std::make_shared<Signal>(
      "lead_II", spec, TimeAxis::RegularFromRate(250), ValueArray::Of(std::move(values))));
  timef::manifest::Card card;
  card.name = "View bench";
  card.description = "one long ECG lead";
  card.license = timef::manifest::License::kCcBy4_0;
  timef::WriteOptions options;
  options.compression_level = 3;
  return timef::WriteRelease(dataset, card, root, options).release_dir;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  fs::path out = ".";
  int repeats = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (arg == "--repeats" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: timef_view_bench [--quick] [--out DIR] [--repeats N]\n");
      return 2;
    }
  }
  if (quick) repeats = std::min(repeats, 3);
  const std::int64_t steps = quick ? 2'160'000 : 21'600'000;
  timef::testing::ScratchDir scratch;
  const auto write_start = Clock::now();
  const fs::path release = WriteLongSignal(scratch.path(), steps);
  const double write_ms = Ms(Clock::now() - write_start);

  std::int64_t signal_id = 0;
  {
    timef::Reader reader = timef::Reader::Open(release);
    signal_id = reader.SignalIds().front();
  }
  const std::string base = "/api/signals/" + std::to_string(signal_id) + "/range?";
  const std::string overview = base + "buckets=1000";
  const std::int64_t mid_us = steps / 2 * 4000;  // 250 Hz: 4,000 µs per step
  const std::string window = base + "start_us=" + std::to_string(mid_us) +
                             "&end_us=" + std::to_string(mid_us + 10'000'000) + "&buckets=1000";

  std::vector<double> cold, warm, win, full;
  std::uint64_t overview_pages = 0, window_pages = 0, full_pages = 0;
  std::int64_t overview_buckets = 0, overview_from_statistics = 0, window_buckets = 0;
  for (int r = 0; r < repeats; ++r) {
    {
      // Opening the reader is not counted (the server opens it once at start).
      timef::view::ViewApi api(timef::Reader::Open(release));
      auto t0 = Clock::now();
      const timef::view::Response first = api.Get(overview);
      cold.push_back(Ms(Clock::now() - t0));
      if (first.status != 200) {
        std::fprintf(stderr, "overview: %d %s\n", first.status, first.body.c_str());
        return 1;
      }
      const Json j = Json::parse(first.body);
      overview_pages = api.counters().data_pages_decoded;
      overview_buckets = static_cast<std::int64_t>(j["min"].size());
      overview_from_statistics = j["pages_from_statistics"];
      t0 = Clock::now();
      api.Get(overview);
      warm.push_back(Ms(Clock::now() - t0));
      const std::uint64_t before = api.counters().data_pages_decoded;
      t0 = Clock::now();
      const timef::view::Response w = api.Get(window);
      win.push_back(Ms(Clock::now() - t0));
      window_pages = api.counters().data_pages_decoded - before;
      window_buckets = static_cast<std::int64_t>(Json::parse(w.body)["min"].size());
    }
    {
      timef::Reader reader = timef::Reader::Open(release);
      const auto t0 = Clock::now();
      const auto values = reader.GetSignalValues(signal_id).LoadValues();
      const auto data = values->values<float>();
      const std::int64_t step = (steps + 999) / 1000;
      std::vector<float> lo(1000, INFINITY), hi(1000, -INFINITY);
      for (std::int64_t i = 0; i < steps; ++i) {
        const std::size_t b = static_cast<std::size_t>(i / step);
        lo[b] = std::min(lo[b], data[i]);
        hi[b] = std::max(hi[b], data[i]);
      }
      full.push_back(Ms(Clock::now() - t0));
      full_pages = reader.counters().data_pages_decoded;
      if (lo[0] > hi[0]) return 1;  // keeps the fold
    }
  }
  const double speedup = Median(full) / Median(cold);
  Json report = {{"steps", steps},
                 {"repeats", repeats},
                 {"write_ms", write_ms},
                 {"overview_cold_ms", Median(cold)},
                 {"overview_warm_ms", Median(warm)},
                 {"overview_buckets", overview_buckets},
                 {"overview_pages_from_statistics", overview_from_statistics},
                 {"overview_data_pages_decoded", overview_pages},
                 {"window_10s_ms", Median(win)},
                 {"window_10s_buckets", window_buckets},
                 {"window_10s_data_pages_decoded", window_pages},
                 {"full_decode_ms", Median(full)},
                 {"full_decode_data_pages_decoded", full_pages},
                 {"overview_speedup", speedup}};
  fs::create_directories(out);
  std::ofstream(out / "view.json") << report.dump(2) << "\n";
  char md[2048];
  std::snprintf(
      md, sizeof(md),
      "# timef view: range API on a %.1f M-step float32 signal (250 Hz, %s)\n\n"
      "| workload | time (median of %d) | data pages decoded | buckets |\n"
      "|---|---|---|---|\n"
      "| overview, 1,000 buckets, cold reader | %.2f ms | %llu | %lld |\n"
      "| overview, warm | %.3f ms | 0 | %lld |\n"
      "| 10-second window, 1,000 buckets | %.3f ms | %llu | %lld |\n"
      "| decode the whole signal + fold into 1,000 buckets | %.1f ms | %llu | 1000 |\n\n"
      "Overview (cold) is %.0f× faster than decoding everything (target ≥ 20×); its "
      "%lld buckets are page-aligned and come from %lld pages' ColumnIndex bounds.\n",
      static_cast<double>(steps) / 1e6, quick ? "--quick" : "24 h", repeats, Median(cold),
      static_cast<unsigned long long>(overview_pages), static_cast<long long>(overview_buckets),
      Median(warm), static_cast<long long>(overview_buckets), Median(win),
      static_cast<unsigned long long>(window_pages), static_cast<long long>(window_buckets),
      Median(full), static_cast<unsigned long long>(full_pages), speedup,
      static_cast<long long>(overview_buckets), static_cast<long long>(overview_from_statistics));
  std::ofstream(out / "view.md") << md;
  std::fputs(md, stdout);
  return 0;
}
