// Read workloads: open, full scan, random and batched series reads, step windows, verify. Each
// interleaves timef and its peers operation by operation.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>

#include "core/checksum.h"
#include "corpus/rng.h"
#include "suite/read_setup.h"
#include "suite/stats.h"
#include "suite/workloads.h"

namespace timef::bench {
namespace {

// Signals per GetSignalValues + LoadValues call of `scan_values`.
constexpr std::size_t kScanValuesBatch = 256;

std::span<const float> Floats(const model::ValueArray& values) { return values.values<float>(); }

// Throws unless `values` are signal `id`'s floats in the raw store, bit for bit.
void CheckAgainstRaw(const RawStore& raw, std::int64_t id, const model::ValueArray& values,
                     const std::string& workload) {
  const auto want = raw.Series(id);
  const auto got = Floats(values);
  if (got.size() != want.size() ||
      (!got.empty() && std::memcmp(got.data(), want.data(), got.size_bytes()) != 0)) {
    throw std::runtime_error(workload + ": signal " + std::to_string(id) +
                             " differs from the raw store");
  }
}

// The samples of a full-pass workload: timef's MB/s, then DuckDB's scan of the same values.
struct PassSamples {
  Json timef = Json::array();
  Json duckdb = Json::array();
  double timef_sum = 0;
  double duckdb_sum = 0;
  std::int64_t n_values = 0;
};

// One repetition: `pass(consume)` hands every series to consume(id, values) inside the clock.
template <typename Pass>
void TimePass(ReadSetup& setup, const Pass& pass, PassSamples& out) {
  {
    Stopwatch clock;
    double sum = 0;
    std::int64_t n = 0;
    pass([&](std::int64_t, const model::ValueArray& values) {
      sum += SumOf(Floats(values));
      n += values.size();
    });
    out.timef.push_back(static_cast<double>(n) * 4 / 1e6 / clock.Seconds());
    out.timef_sum = sum;
    out.n_values = n;
  }
  Stopwatch clock;
  out.duckdb_sum = setup.duckdb->ScanSum();
  out.duckdb.push_back(static_cast<double>(out.n_values) * 4 / 1e6 / clock.Seconds());
}

}  // namespace

Json OpenWorkload(const SuiteOptions& options, CorpusKind kind) {
  const CorpusPaths paths = PathsFor(options, kind);
  Json timef = Json::array(), raw = Json::array(), first_request = Json::array();
  for (int rep = 0; rep < options.repeats; ++rep) {
    Stopwatch clock;
    Reader reader = Reader::Open(paths.release);
    timef.push_back(clock.Seconds() * kMs);
    Stopwatch catalog_clock;
    const auto record_ids = reader.RecordIds();
    first_request.push_back(catalog_clock.Seconds() * kMs);
    Stopwatch raw_clock;
    RawStore store = RawStore::Open(paths.raw);
    raw.push_back(raw_clock.Seconds() * kMs);
    if (record_ids.empty() || store.All().empty()) throw std::runtime_error("empty corpus");
  }
  return Json{{"timef", timef},
              {"raw_mmap", raw},
              {"extra", {{"first_catalog_request_ms", ToJson(Summarize(first_request))}}}};
}

Json ScanWorkload(const SuiteOptions& options, CorpusKind kind) {
  ReadSetup setup(options, kind);
  setup.reader.RecordIds();  // the catalog is open before the clock starts
  RecordQuery query;
  if (options.decode_threads > 1) {
    // The API's parallel decoding: batches of values decoded on the reader's decode threads,
    // the next batch while this loop sums the current one.
    query.batch_size = 64;
    query.load.signal_values = Loading::kEager;
  }
  auto pass = [&](const RecordQuery& q, const auto& consume) {
    RecordStream stream = setup.reader.IterRecords(q);
    while (auto batch = stream.Next()) {
      for (const auto& record : *batch) {
        for (const auto& signal : record->Signals()) consume(*signal->id(), *signal->LoadValues());
      }
    }
  };
  PassSamples samples;
  Json raw = Json::array();
  double raw_sum = 0;
  for (int rep = 0; rep < options.repeats; ++rep) {
    TimePass(
        setup, [&](const auto& consume) { pass(query, consume); }, samples);
    Stopwatch clock;
    raw_sum = SumOf(setup.raw.All());
    raw.push_back(static_cast<double>(setup.raw.All().size()) * 4 / 1e6 / clock.Seconds());
  }
  if (samples.n_values != static_cast<std::int64_t>(setup.raw.All().size())) {
    throw std::runtime_error("timef scan saw " + std::to_string(samples.n_values) +
                             " values, raw store " + std::to_string(setup.raw.All().size()));
  }
  // Untimed: every series of a lazy pass bit for bit against the raw store.
  pass(RecordQuery{}, [&](std::int64_t id, const model::ValueArray& values) {
    CheckAgainstRaw(setup.raw, id, values, "scan");
  });
  return Json{
      {"timef", samples.timef},
      {"duckdb", samples.duckdb},
      {"raw_mmap", raw},
      {"extra",
       {{"values", samples.n_values},
        {"checked_bit_exact", true},
        {"sum",
         {{"timef", samples.timef_sum}, {"duckdb", samples.duckdb_sum}, {"raw_mmap", raw_sum}}}}}};
}

Json ScanValuesWorkload(const SuiteOptions& options, CorpusKind kind) {
  ReadSetup setup(options, kind);
  setup.reader.RecordIds();  // the catalog is open before the clock starts
  // Each pass lists the IDs and fetches the refs inside the clock: the whole epoch is timed.
  auto pass = [&](const auto& consume) {
    const std::vector<std::int64_t> ids = setup.reader.SignalIds();
    const std::span<const std::int64_t> all(ids);
    for (std::size_t at = 0; at < all.size(); at += kScanValuesBatch) {
      const auto batch = all.subspan(at, std::min(kScanValuesBatch, all.size() - at));
      const std::vector<SignalValuesRef> refs = setup.reader.GetSignalValues(batch);
      const auto arrays = setup.reader.LoadValues(refs);
      for (std::size_t i = 0; i < batch.size(); ++i) consume(batch[i], *arrays[i]);
    }
  };
  PassSamples samples;
  for (int rep = 0; rep < options.repeats; ++rep) TimePass(setup, pass, samples);
  // Untimed: every series bit for bit against the raw store, and every series seen once.
  std::int64_t series = 0;
  pass([&](std::int64_t id, const model::ValueArray& values) {
    CheckAgainstRaw(setup.raw, id, values, "scan_values");
    ++series;
  });
  if (samples.n_values != static_cast<std::int64_t>(setup.raw.All().size()) ||
      series != static_cast<std::int64_t>(setup.ids.size())) {
    throw std::runtime_error("timef scan_values saw " + std::to_string(samples.n_values) +
                             " values in " + std::to_string(series) + " series, raw store " +
                             std::to_string(setup.raw.All().size()) + " in " +
                             std::to_string(setup.ids.size()));
  }
  return Json{{"timef", samples.timef},
              {"duckdb", samples.duckdb},
              {"extra",
               {{"values", samples.n_values},
                {"series", series},
                {"batch", kScanValuesBatch},
                {"checked_bit_exact", true},
                {"sum", {{"timef", samples.timef_sum}, {"duckdb", samples.duckdb_sum}}}}}};
}

Json RandomSeriesWorkload(const SuiteOptions& options, CorpusKind kind, SeriesPath path) {
  ReadSetup setup(options, kind);
  const auto picks = PickIds(setup.ids, options.random_reads, options.seed, 0x5E41);
  std::map<std::int64_t, std::shared_ptr<model::Signal>> hydrated;
  if (path == SeriesPath::kHandle) hydrated = setup.Handles(picks);
  // Warm, like the raw store's offsets: the catalog is open and (for the index path) the
  // locator index holds every signal after one lookup.
  setup.reader.RecordIds();
  if (path == SeriesPath::kIndex) setup.reader.GetSignalValues(picks.front());
  Json timef = Json::array(), duckdb = Json::array(), raw = Json::array();
  std::int64_t checked = 0, mismatches = 0;
  double sink = 0;
  const int passes = path == SeriesPath::kObject ? options.random_by_id_passes : options.repeats;
  const bool with_duckdb = path == SeriesPath::kIndex || path == SeriesPath::kInto;
  // kInto's buffer, kept across reads like a training loop's (sized before timing).
  std::size_t longest = 0;
  for (std::int64_t id : picks) longest = std::max(longest, setup.raw.Series(id).size());
  std::vector<float> buffer(path == SeriesPath::kInto ? longest : 0);
  // Each peer reads the picks in a pass of its own: interleaved, every read started in the
  // caches and heap the other peers' reads had just churned (a DuckDB query between two timef
  // reads tripled them; docs/benchmarks.md, issue 37 section). The check against the raw store
  // is outside the timed calls.
  auto check = [&](std::int64_t id, std::span<const float> got) {
    ++checked;
    if (!SameBits(got, setup.raw.Series(id))) ++mismatches;
  };
  for (int rep = 0; rep < passes; ++rep) {
    for (std::int64_t id : picks) {
      Stopwatch clock;
      std::shared_ptr<const model::ValueArray> values;
      switch (path) {
        case SeriesPath::kIndex:
          values = setup.reader.GetSignalValues(id).LoadValues();
          break;
        case SeriesPath::kObject:
          values = setup.reader.GetSignal(id)->LoadValues();
          break;
        case SeriesPath::kHandle:
          values = hydrated.at(id)->LoadValues();
          break;
        case SeriesPath::kInto: {
          const SignalValuesRef ref = setup.reader.GetSignalValues(id);
          const std::span<float> into =
              std::span(buffer).first(static_cast<std::size_t>(ref.n_values()));
          ref.LoadValuesInto(into);
          timef.push_back(clock.Seconds() * kUs);
          sink += static_cast<double>(into.size());
          if (rep == 0) check(id, into);
          continue;
        }
      }
      timef.push_back(clock.Seconds() * kUs);
      sink += values->size();
      if (rep == 0) check(id, Floats(*values));
    }
    // The DuckDB lookup answers "values of signal ID" like the index path; it is timed there
    // only (it is the slowest part of the suite).
    if (with_duckdb) {
      for (std::int64_t id : picks) {
        Stopwatch duck_clock;
        const std::vector<float> duck_values = setup.duckdb->ReadSeries(id);
        duckdb.push_back(duck_clock.Seconds() * kUs);
        sink += duck_values.size();
        if (rep == 0) check(id, duck_values);
      }
    }
    for (std::int64_t id : picks) {
      Stopwatch raw_clock;
      const auto series = setup.raw.Series(id);
      if (path == SeriesPath::kInto) {
        std::copy(series.begin(), series.end(), buffer.begin());
        raw.push_back(raw_clock.Seconds() * kUs);
        sink += buffer[series.size() / 2];
        continue;
      }
      const std::vector<float> raw_values(series.begin(), series.end());
      raw.push_back(raw_clock.Seconds() * kUs);
      sink += raw_values.size();
    }
  }
  if (mismatches) throw std::runtime_error(std::to_string(mismatches) + " series differ");
  return Json{
      {"timef", timef},
      {"duckdb", duckdb},
      {"raw_mmap", raw},
      {"extra", {{"reads", picks.size()}, {"checked_bit_exact", checked}, {"sink", sink > 0}}}};
}

// GetRecord(id) of a random record, built lazily (sources, signals, axes, annotations; no values):
// the object path's catalog half. The first lookup fills the reader's catalog row cache and is
// one of the samples.
Json RandomRecordWorkload(const SuiteOptions& options, CorpusKind kind) {
  ReadSetup setup(options, kind);
  const std::vector<std::int64_t> records = setup.reader.RecordIds();
  const auto picks = PickIds(records, options.random_reads, options.seed, 0x2EC0);
  Json timef = Json::array();
  std::int64_t signals = 0, reads = 0;
  for (int rep = 0; rep < options.random_by_id_passes; ++rep) {
    for (std::int64_t id : picks) {
      Stopwatch clock;
      const std::shared_ptr<model::Record> record = setup.reader.GetRecord(id);
      timef.push_back(clock.Seconds() * kUs);
      if (*record->id() != id) throw std::runtime_error("GetRecord returned another record");
      signals += static_cast<std::int64_t>(record->Signals().size());
      ++reads;
    }
  }
  return Json{{"timef", timef},
              {"extra",
               {{"reads", reads},
                {"signals_per_record", reads ? static_cast<double>(signals) / reads : 0.0}}}};
}

Json BatchedRandomWorkload(const SuiteOptions& options, CorpusKind kind, SeriesPath path) {
  ReadSetup setup(options, kind);
  setup.reader.RecordIds();
  std::vector<std::vector<std::int64_t>> batches;
  for (int b = 0; b < options.batches; ++b) {
    batches.push_back(PickIds(setup.ids, options.batch_size, options.seed, 0xBA7C + b));
  }
  Json timef = Json::array(), duckdb = Json::array(), raw = Json::array();
  double sink = 0;
  // kInto's buffer for the largest batch, kept across batches (sized before timing); the raw peer
  // copies into it too.
  const bool into = path == SeriesPath::kInto;
  std::size_t most = 0;
  for (const auto& ids : batches) {
    std::size_t values = 0;
    for (std::int64_t id : ids) values += setup.raw.Series(id).size();
    most = std::max(most, values);
  }
  std::vector<float> buffer(into ? most : 0);
  // Each peer reads the batches in a pass of its own (as RandomSeriesWorkload).
  for (int rep = 0; rep < options.repeats; ++rep) {
    for (const auto& ids : batches) {
      Stopwatch clock;
      // The batch API of each path: Reader::LoadValues decodes the batch on the reader's decode
      // threads; GetSignals builds the records first.
      std::vector<std::shared_ptr<const model::ValueArray>> loaded;
      if (into) {
        const std::vector<SignalValuesRef> refs = setup.reader.GetSignalValues(ids);
        std::vector<model::ScalarSpan> outs;
        outs.reserve(refs.size());
        std::size_t at = 0;
        for (const SignalValuesRef& ref : refs) {
          outs.push_back(std::span(buffer).subspan(at, static_cast<std::size_t>(ref.n_values())));
          at += static_cast<std::size_t>(ref.n_values());
        }
        setup.reader.LoadValuesInto(refs, outs);
        timef.push_back(clock.Seconds() * kMs);
        sink += buffer[at / 2];
        if (rep == 0) {
          for (std::size_t i = 0; i < ids.size(); ++i) {
            const auto series = setup.raw.Series(ids[i]);
            if (!SameBits(std::get<std::span<float>>(outs[i]),
                          std::vector<float>(series.begin(), series.end()))) {
              throw std::runtime_error("batched read of signal " + std::to_string(ids[i]) +
                                       " into a buffer differs from the raw store");
            }
          }
        }
        continue;
      }
      if (path == SeriesPath::kIndex) {
        loaded = setup.reader.LoadValues(setup.reader.GetSignalValues(ids));
      } else {
        for (const auto& signal : setup.reader.GetSignals(ids)) {
          loaded.push_back(signal->LoadValues());
        }
      }
      for (const auto& values : loaded) sink += values->size();
      timef.push_back(clock.Seconds() * kMs);
      if (rep == 0) {
        for (std::size_t i = 0; i < ids.size(); ++i) {
          const auto series = setup.raw.Series(ids[i]);
          if (!SameBits(Floats(*loaded[i]), std::vector<float>(series.begin(), series.end()))) {
            throw std::runtime_error("batched read of signal " + std::to_string(ids[i]) +
                                     " differs from the raw store");
          }
        }
      }
    }
    if (path != SeriesPath::kObject) {  // the same DuckDB batches as kObject's: timed here
      for (const auto& ids : batches) {
        Stopwatch duck_clock;
        for (const auto& values : setup.duckdb->ReadSeriesBatch(ids)) sink += values.size();
        duckdb.push_back(duck_clock.Seconds() * kMs);
      }
    }
    for (const auto& ids : batches) {
      Stopwatch raw_clock;
      std::size_t at = 0;
      for (std::int64_t id : ids) {
        const auto series = setup.raw.Series(id);
        if (into) {
          at = std::copy(series.begin(), series.end(), buffer.begin() + at) - buffer.begin();
        } else {
          sink += std::vector<float>(series.begin(), series.end()).size();
        }
      }
      raw.push_back(raw_clock.Seconds() * kMs);
      if (into) sink += buffer[at / 2];
    }
  }
  return Json{
      {"timef", timef},
      {"duckdb", duckdb},
      {"raw_mmap", raw},
      {"extra", {{"batches", batches.size()}, {"batch_size", options.batch_size}, {"sink", sink}}}};
}

Json WindowWorkload(const SuiteOptions& options, CorpusKind kind) {
  ReadSetup setup(options, kind);
  const std::int64_t chunk_values = setup.ChunkValues();
  const int per_record = kind == CorpusKind::kLong ? options.long_windows_per_record : 1;

  using Part = ParquetPeer::Window;
  std::vector<std::vector<Part>> windows = PlanWindows(setup, options, per_record);

  const std::size_t all_windows = windows.size();
  if (static_cast<int>(windows.size()) > options.max_windows) {
    // A seeded sample keeps the run bounded (DuckDB needs one query per window).
    Rng pick = Rng::For({options.seed, 0x3141});
    for (std::size_t i = 0; i < static_cast<std::size_t>(options.max_windows); ++i) {
      std::swap(windows[i], windows[i + pick.Below(windows.size() - i)]);
    }
    windows.resize(options.max_windows);
  }
  std::vector<std::int64_t> wanted;
  for (const auto& parts : windows) {
    for (const Part& p : parts) wanted.push_back(p.signal_id);
  }
  const auto handles = setup.Handles(wanted);
  Json timef = Json::array(), duckdb = Json::array(), raw = Json::array();
  std::int64_t steps = 0, mismatches = 0;
  for (int rep = 0; rep < options.repeats; ++rep) {
    for (const auto& parts : windows) {
      std::vector<model::ValueArray> got;
      Stopwatch clock;
      for (const Part& p : parts) got.push_back(handles.at(p.signal_id)->ReadSteps(p.begin, p.end));
      timef.push_back(clock.Seconds() * kMs);

      Stopwatch duck_clock;
      const std::vector<std::vector<float>> duck = setup.duckdb->ReadWindows(parts, chunk_values);
      duckdb.push_back(duck_clock.Seconds() * kMs);

      std::vector<std::vector<float>> flat;
      Stopwatch raw_clock;
      for (const Part& p : parts) {
        const auto series = setup.raw.Series(p.signal_id).subspan(p.begin, p.end - p.begin);
        flat.emplace_back(series.begin(), series.end());
      }
      raw.push_back(raw_clock.Seconds() * kMs);

      if (rep == 0) {
        for (std::size_t k = 0; k < parts.size(); ++k) {
          steps += parts[k].end - parts[k].begin;
          if (!SameBits(Floats(got[k]), flat[k]) || !SameBits(duck[k], flat[k])) ++mismatches;
        }
      }
    }
  }
  if (mismatches) throw std::runtime_error(std::to_string(mismatches) + " windows differ");
  return Json{{"timef", timef},
              {"duckdb", duckdb},
              {"raw_mmap", raw},
              {"extra",
               {{"windows", windows.size()},
                {"windows_before_sampling", all_windows},
                {"window_seconds", options.window_seconds},
                {"steps_per_pass", steps},
                {"checked_bit_exact", true}}}};
}

Json VerifyWorkload(const SuiteOptions& options, CorpusKind kind) {
  const CorpusPaths paths = PathsFor(options, kind);
  Reader reader = Reader::Open(paths.release);
  std::int64_t release_bytes = reader.manifest().files.control.size;
  for (const auto& p : reader.manifest().files.time_series) release_bytes += p.size;
  for (const auto& p : reader.manifest().files.payloads) release_bytes += p.size;
  const auto raw_file = paths.raw / "values.f32";
  Json timef = Json::array(), raw = Json::array();
  for (int rep = 0; rep < options.repeats; ++rep) {
    Stopwatch clock;
    reader.Verify();
    timef.push_back(clock.Seconds());
    Stopwatch raw_clock;
    const std::string digest = FileChecksum(raw_file);
    raw.push_back(raw_clock.Seconds());
    if (digest.empty()) throw std::runtime_error("no digest");
  }
  return Json{{"timef", timef},
              {"raw_mmap", raw},
              {"extra",
               {{"release_bytes_hashed", release_bytes},
                {"raw_bytes_hashed", std::filesystem::file_size(raw_file)}}}};
}

}  // namespace timef::bench
