// A profiling driver for the by-ID read paths of an existing release (issue 14): runs one path in
// a loop with nothing else in the process, so that `perf record` sees only that path. Not a
// benchmark (the suite times and checks); it prints the median per operation as a sanity figure.
//
// usage: timef_read_probe RELEASE series|series_into|object|handle|batch|batch_load|batch_object|
//        record|scan|scan_eager|scan_values N [SEED] [CATALOG_CACHE_BYTES] [DECODE_THREADS]
//        (ReaderOptions::catalog_cache_bytes, 0 = every lookup runs SQL; ReaderOptions::
//        decode_threads). series_into: LoadValuesInto a float32 buffer kept across reads (float32
//        releases only). batch_load: 64 refs through Reader::LoadValues; scan_eager: IterRecords
//        with the values loaded in batches of 64 records ($PROBE_BATCH records when set).
//        $PROBE_BETWEEN=trim|caches|both: what a caller does between two reads, untimed (below).
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "timef/reader.h"

namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: timef_read_probe RELEASE "
                 "series|series_into|object|handle|batch|batch_load|batch_object|record|scan|"
                 "scan_eager|scan_values N "
                 "[SEED] [CATALOG_CACHE_BYTES] [DECODE_THREADS]\n";
    return 2;
  }
  const std::string mode = argv[2];
  const int n = std::atoi(argv[3]);
  std::mt19937_64 rng(argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1);
  timef::ReaderOptions options;
  if (argc > 5) options.catalog_cache_bytes = std::strtoll(argv[5], nullptr, 10);
  if (argc > 6) options.decode_threads = std::atoi(argv[6]);
  timef::Reader reader = timef::Reader::Open(argv[1], options);
  const std::vector<std::int64_t> record_ids = reader.RecordIds();
  std::vector<std::int64_t> signal_ids;
  for (const auto& record : reader.GetRecords(record_ids)) {
    for (const auto& signal : record->Signals()) signal_ids.push_back(*signal->id());
  }
  auto pick = [&](const std::vector<std::int64_t>& from) { return from[rng() % from.size()]; };
  reader.GetSignalValues(signal_ids.front());  // the locator index, as the suite warms it
  std::vector<double> us;
  double sink = 0;
  using Clock = std::chrono::steady_clock;
  // $PROBE_BETWEEN imitates what a caller does between two reads (the suite's peers, a training
  // step), outside the timing: "trim" returns the heap's free memory to the system
  // (malloc_trim), "caches" writes 64 MiB (evicts the CPU caches), "both" does both.
  const std::string between = std::getenv("PROBE_BETWEEN") ? std::getenv("PROBE_BETWEEN") : "";
  std::vector<float> buffer;  // series_into's, kept across reads
  std::vector<char> evict(between == "caches" || between == "both" ? 64 << 20 : 0);
  for (int i = 0; i < n; ++i) {
    if (between == "trim" || between == "both") malloc_trim(0);
    if (!evict.empty()) std::memset(evict.data(), i & 0xff, evict.size());
    const auto start = Clock::now();
    if (mode == "series") {
      sink += reader.GetSignalValues(pick(signal_ids)).LoadValues()->size();
    } else if (mode == "series_into") {
      const timef::SignalValuesRef ref = reader.GetSignalValues(pick(signal_ids));
      if (buffer.size() < static_cast<std::size_t>(ref.n_values())) {
        buffer.resize(static_cast<std::size_t>(ref.n_values()));
      }
      ref.LoadValuesInto(std::span(buffer).first(static_cast<std::size_t>(ref.n_values())));
      sink += buffer[0];
    } else if (mode == "object") {
      sink += reader.GetSignal(pick(signal_ids))->LoadValues()->size();
    } else if (mode == "scan") {  // one operation = a full pass: IterRecords + every LoadValues
      timef::RecordStream stream = reader.IterRecords();
      while (auto batch = stream.Next()) {
        for (const auto& record : *batch) {
          for (const auto& signal : record->Signals()) sink += signal->LoadValues()->size();
        }
      }
    } else if (mode == "scan_eager") {
      timef::RecordQuery query;
      query.batch_size = std::getenv("PROBE_BATCH") ? std::atoi(std::getenv("PROBE_BATCH")) : 64;
      query.load.signal_values = timef::Loading::kEager;
      timef::RecordStream stream = reader.IterRecords(query);
      while (auto batch = stream.Next()) {
        for (const auto& record : *batch) {
          for (const auto& signal : record->Signals()) sink += signal->LoadValues()->size();
        }
      }
    } else if (mode == "scan_values") {  // one operation = a values-only epoch, 256 per batch
      const std::vector<std::int64_t> ids = reader.SignalIds();
      const std::span<const std::int64_t> all(ids);
      for (std::size_t at = 0; at < all.size(); at += 256) {
        const auto batch = all.subspan(at, std::min<std::size_t>(256, all.size() - at));
        for (const auto& values : reader.LoadValues(reader.GetSignalValues(batch))) {
          sink += values->size();
        }
      }
    } else if (mode == "record") {
      sink += reader.GetRecord(pick(record_ids))->Signals().size();
    } else if (mode == "batch_load") {
      std::vector<std::int64_t> ids(64);
      for (auto& id : ids) id = pick(signal_ids);
      for (const auto& values : reader.LoadValues(reader.GetSignalValues(ids))) {
        sink += values->size();
      }
    } else if (mode == "batch" || mode == "batch_object") {
      std::vector<std::int64_t> ids(64);
      for (auto& id : ids) id = pick(signal_ids);
      if (mode == "batch") {
        for (const auto& ref : reader.GetSignalValues(ids)) sink += ref.LoadValues()->size();
      } else {
        for (const auto& s : reader.GetSignals(ids)) sink += s->LoadValues()->size();
      }
    } else {
      std::cerr << "unknown mode " << mode << "\n";
      return 2;
    }
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  const timef::ReaderCounters c = reader.counters();
  std::cout << mode << ": median " << Median(us) << " us over " << n << " (sink " << sink
            << "); chunks read " << c.chunks_read << ", data pages " << c.data_pages_decoded
            << " (+" << c.data_pages_resumed << " resumed)"
            << ", dictionary pages " << c.dictionary_pages_decoded << ", dictionary cache hits "
            << c.dictionary_cache_hits << ", catalog requests " << c.catalog_requests
            << ", catalog cache loads " << c.catalog_cache_loads << "\n";
  return 0;
}
