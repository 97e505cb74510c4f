// The ECG corpus on the Zarr values backend (docs/format.md §8) against the same corpus on
// Parquet, in the same run: write time and bytes, scan, random series and windows. zarr_write
// writes the Zarr release next to the Parquet one; the read workloads interleave the two readers
// operation by operation (the "parquet" peer is timef's own Parquet release).
#include <algorithm>

#include "suite/read_setup.h"
#include "suite/stats.h"
#include "suite/workloads.h"

namespace timef::bench {
namespace {

std::filesystem::path ZarrRelease(const SuiteOptions& options, CorpusKind kind) {
  return PathsFor(options, kind).release.parent_path() / "zarr-release";
}

std::int64_t ValuesBytes(const std::filesystem::path& release) {
  const manifest::Manifest m = manifest::ReadManifest(release / manifest::kManifestFileName);
  std::int64_t total = 0;
  for (const auto& part : m.files.time_series) total += part.size;
  return total;
}

double ScanOnce(Reader& reader, std::int64_t& n) {
  double sum = 0;
  n = 0;
  RecordStream stream = reader.IterRecords();
  while (auto batch = stream.Next()) {
    for (const auto& record : *batch) {
      for (const auto& signal : record->Signals()) {
        const auto values = signal->LoadValues();
        sum += SumOf(values->values<float>());
        n += values->size();
      }
    }
  }
  return sum;
}

}  // namespace

Json ZarrWriteWorkload(const SuiteOptions& options, CorpusKind kind) {
  WriteOptions write = options.write_options;
  write.values_backend = manifest::ValuesBackend::kZarr;
  const auto release = ZarrRelease(options, kind);
  Json seconds = Json::array();
  for (int rep = 0; rep < options.write_repeats; ++rep) {
    std::filesystem::remove_all(release);
    Corpus corpus = BuildCorpus(kind, options.size, options.seed);
    Stopwatch clock;
    WriteReleaseTo(*corpus.dataset, corpus.card, release, write);
    seconds.push_back(clock.Seconds());
  }
  const std::int64_t zarr = ValuesBytes(release);
  const std::int64_t parquet = ValuesBytes(PathsFor(options, kind).release);
  return Json{{"timef", seconds},
              {"extra",
               {{"zarr_values_bytes", zarr},
                {"parquet_values_bytes", parquet},
                {"zarr_over_parquet_bytes", static_cast<double>(zarr) / parquet}}}};
}

Json ZarrScanWorkload(const SuiteOptions& options, CorpusKind kind) {
  Reader zarr = Reader::Open(ZarrRelease(options, kind));
  Reader parquet = Reader::Open(PathsFor(options, kind).release);
  zarr.RecordIds();
  parquet.RecordIds();
  Json timef = Json::array(), peer = Json::array();
  double zarr_sum = 0, parquet_sum = 0;
  std::int64_t n = 0;
  for (int rep = 0; rep < options.repeats; ++rep) {
    Stopwatch clock;
    zarr_sum = ScanOnce(zarr, n);
    timef.push_back(static_cast<double>(n) * 4 / 1e6 / clock.Seconds());
    Stopwatch parquet_clock;
    parquet_sum = ScanOnce(parquet, n);
    peer.push_back(static_cast<double>(n) * 4 / 1e6 / parquet_clock.Seconds());
  }
  if (zarr_sum != parquet_sum) throw std::runtime_error("zarr and parquet scans differ");
  return Json{{"timef", timef}, {"parquet", peer}, {"extra", {{"values", n}}}};
}

Json ZarrRandomSeriesWorkload(const SuiteOptions& options, CorpusKind kind) {
  ReadSetup setup(options, kind);  // the Parquet reader and the corpus IDs
  Reader zarr = Reader::Open(ZarrRelease(options, kind));
  const auto picks = PickIds(setup.ids, options.random_reads, options.seed, 0x5E41);
  zarr.GetSignalValues(picks.front());
  setup.reader.GetSignalValues(picks.front());
  Json timef = Json::array(), peer = Json::array();
  std::int64_t mismatches = 0;
  for (int rep = 0; rep < options.repeats; ++rep) {
    for (std::int64_t id : picks) {
      Stopwatch clock;
      const auto z = zarr.GetSignalValues(id).LoadValues();
      timef.push_back(clock.Seconds() * kUs);
      Stopwatch parquet_clock;
      const auto p = setup.reader.GetSignalValues(id).LoadValues();
      peer.push_back(parquet_clock.Seconds() * kUs);
      if (rep == 0 && !SameBits(z->values<float>(), p->values<float>())) ++mismatches;
    }
  }
  if (mismatches) throw std::runtime_error(std::to_string(mismatches) + " series differ");
  return Json{{"timef", timef}, {"parquet", peer}, {"extra", {{"reads", picks.size()}}}};
}

Json ZarrWindowWorkload(const SuiteOptions& options, CorpusKind kind) {
  ReadSetup setup(options, kind);
  Reader zarr = Reader::Open(ZarrRelease(options, kind));
  zarr.RecordIds();
  setup.reader.RecordIds();
  // The first max_windows windows, one per record.
  using Part = ParquetPeer::Window;
  std::vector<std::vector<Part>> windows = PlanWindows(setup, options, 1);
  if (static_cast<int>(windows.size()) > options.max_windows) windows.resize(options.max_windows);
  Json timef = Json::array(), peer = Json::array();
  std::int64_t mismatches = 0;
  for (int rep = 0; rep < options.repeats; ++rep) {
    for (const auto& parts : windows) {
      std::vector<model::ValueArray> z, p;
      Stopwatch clock;
      for (const Part& part : parts) {
        z.push_back(zarr.GetSignalValues(part.signal_id).ReadSteps(part.begin, part.end));
      }
      timef.push_back(clock.Seconds() * kMs);
      Stopwatch parquet_clock;
      for (const Part& part : parts) {
        p.push_back(setup.reader.GetSignalValues(part.signal_id).ReadSteps(part.begin, part.end));
      }
      peer.push_back(parquet_clock.Seconds() * kMs);
      if (rep == 0) {
        for (std::size_t i = 0; i < z.size(); ++i) mismatches += z[i] == p[i] ? 0 : 1;
      }
    }
  }
  if (mismatches) throw std::runtime_error(std::to_string(mismatches) + " windows differ");
  return Json{{"timef", timef}, {"parquet", peer}, {"extra", {{"windows", windows.size()}}}};
}

}  // namespace timef::bench
