// The C++ side of bench/python/bench_python.py: writes the ECG bench corpus, and measures the C++
// paths the Python bench measures, on the same release in the same run, so the report gives
// Python/C++ ratios rather than absolute times.
//
//   timef_python_peer write SIZE DIR [THREADS]  writes the ECG corpus below DIR (WriteOptions::
//       threads, 2 by default), prints the release; also a write to profile with nothing else
//   timef_python_peer measure RELEASE IDS_FILE REPEATS
//       prints JSON: per-read µs of GetSignal(id)->LoadValues() and GetSignalValues(id).Load()
//       for each ID of IDS_FILE (one per line), and the seconds of each full pass (IterRecords,
//       every signal's LoadValues()).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "corpus/corpus.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Like `timef demo`: a committed corpus is kept (a version is never rewritten) and reported.
int Write(const std::string& size, const std::string& dir, int threads) {
  const std::filesystem::path committed = std::filesystem::path(dir) / "bench" / "ecg" / "1.0.0";
  if (std::filesystem::exists(committed / "manifest.json")) {
    std::cerr << "bench/ecg@1.0.0 is already committed\n";
    std::cout << committed.string() << "\n";
    return 0;
  }
  auto corpus = timef::bench::BuildCorpus(timef::bench::CorpusKind::kEcg,
                                          timef::bench::ParseCorpusSize(size), 42);
  timef::WriteOptions options;
  options.threads = threads;
  auto result = timef::WriteRelease(*corpus.dataset, corpus.card, dir, options);
  std::cout << result.release_dir.string() << "\n";
  return 0;
}

int Measure(const std::string& release, const std::string& ids_file, int repeats) {
  std::vector<std::int64_t> ids;
  std::ifstream in(ids_file);
  for (std::int64_t id; in >> id;) ids.push_back(id);
  timef::Reader reader = timef::Reader::Open(release);
  reader.RecordIds();                   // catalog open before the clock, as in the Python bench
  reader.GetSignalValues(ids.front());  // the locator index is loaded
  timef::Json object_us = timef::Json::array(), index_us = timef::Json::array();
  timef::Json pass_s = timef::Json::array();
  double sink = 0;
  for (std::int64_t id : ids) {
    auto start = Clock::now();
    auto values = reader.GetSignal(id)->LoadValues();
    object_us.push_back(Since(start) * 1e6);
    start = Clock::now();
    auto indexed = reader.GetSignalValues(id).Load();
    index_us.push_back(Since(start) * 1e6);
    sink += values->size() + indexed->size();
  }
  for (int rep = 0; rep < repeats; ++rep) {
    auto start = Clock::now();
    timef::RecordStream stream = reader.IterRecords();
    while (auto batch = stream.Next()) {
      for (const auto& record : *batch) {
        for (const auto& signal : record->Signals()) sink += signal->LoadValues()->size();
      }
    }
    pass_s.push_back(Since(start));
  }
  std::cout << timef::Json{{"get_signal_us", object_us},
                           {"signal_values_us", index_us},
                           {"full_pass_s", pass_s},
                           {"sink", sink}}
                   .dump()
            << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "write" && (argc == 4 || argc == 5)) {
      return Write(argv[2], argv[3], argc == 5 ? std::stoi(argv[4]) : 2);
    }
    if (cmd == "measure" && argc == 5) return Measure(argv[2], argv[3], std::stoi(argv[4]));
    std::cerr
        << "usage: timef_python_peer write SIZE DIR [THREADS] | measure RELEASE IDS_FILE REPEATS\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "timef_python_peer: " << e.what() << "\n";
    return 1;
  }
}
