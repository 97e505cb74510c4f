// timef_bench_suite: the benchmark suite of issue 6. For each corpus it writes a release (and the
// raw mmap store of the same values), then runs every workload in its own child process with the
// peers interleaved, and writes the JSON and Markdown report.
//
//   timef_bench_suite [--quick] [--size small|medium|large] [--corpora ecg,tsqa,long,tasks]
//                     [--out DIR] [--work DIR] [--keep] [--repeats N] [--write-repeats N]
//                     [--seed N] [--duckdb-threads N] [--zstd-level N] [--page-size BYTES]
//                     [--threads N]
//   timef_bench_suite --merge A.json B.json ... [--out DIR]
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "suite/child.h"
#include "suite/report.h"
#include "suite/stats.h"
#include "suite/workloads.h"

namespace timef::bench {
namespace {

struct Args {
  SuiteOptions options;
  std::filesystem::path out = std::filesystem::path(TIMEF_SOURCE_DIR) / "bench" / "results";
  bool keep = false;
  bool explicit_work = false;
};

[[noreturn]] void Usage(const std::string& problem, int code = 2) {
  std::cerr << "timef_bench_suite: " << problem
            << "\nusage: timef_bench_suite [--quick] [--size small|medium|large] "
               "[--corpora ecg,tsqa,long,tasks] [--out DIR] [--work DIR] [--keep] "
               "[--repeats N] [--write-repeats N] [--seed N] [--duckdb-threads N] "
               "[--zstd-level N] [--page-size BYTES] [--threads N] "
               "[--compare-catalog-block-size BYTES] [--workloads NAME,NAME...]\n";
  std::exit(code);
}

Args ParseArgs(int argc, char** argv) {
  Args args;
  bool size_given = false, repeats_given = false, write_repeats_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      Usage("benchmark suite of issue 6", 0);
    } else if (a == "--quick") {
      args.options.quick = true;
    } else if (a == "--size") {
      args.options.size = ParseCorpusSize(value());
      size_given = true;
    } else if (a == "--corpora") {
      args.options.corpora.clear();
      std::stringstream list(value());
      for (std::string name; std::getline(list, name, ',');) {
        args.options.corpora.push_back(ParseCorpusKind(name));
      }
    } else if (a == "--out") {
      args.out = value();
    } else if (a == "--work") {
      args.options.work_dir = value();
      args.explicit_work = true;
    } else if (a == "--keep") {
      args.keep = true;
    } else if (a == "--repeats") {
      args.options.repeats = std::stoi(value());
      repeats_given = true;
    } else if (a == "--write-repeats") {
      args.options.write_repeats = std::stoi(value());
      write_repeats_given = true;
    } else if (a == "--seed") {
      args.options.seed = std::stoull(value());
    } else if (a == "--duckdb-threads") {
      args.options.duckdb_threads = std::stoi(value());
    } else if (a == "--zstd-level") {
      args.options.write_options.compression_level = std::stoi(value());
    } else if (a == "--threads") {
      // WriteOptions::threads (pages compressed on this many threads; same bytes for any count)
      // and ReaderOptions::decode_threads (values decoded on this many; the same values).
      args.options.write_options.threads = std::stoi(value());
      if (args.options.write_options.threads < 1) Usage("--threads < 1");
      args.options.decode_threads = args.options.write_options.threads;
    } else if (a == "--compare-catalog-block-size") {
      args.options.compare_catalog_block_size = std::stoll(value());
      if (args.options.compare_catalog_block_size < 16384) {
        Usage("--compare-catalog-block-size < 16384");
      }
    } else if (a == "--workloads") {
      std::stringstream list(value());
      for (std::string name; std::getline(list, name, ',');) args.options.workloads.insert(name);
    } else if (a == "--page-size") {
      // docs/format.md §7.3 leaves the data page target to the writer; this compares choices.
      args.options.write_options.data_page_target_bytes = std::stoll(value());
      if (args.options.write_options.data_page_target_bytes < 1024) Usage("--page-size < 1024");
    } else {
      Usage("unknown argument " + a);
    }
  }
  SuiteOptions& o = args.options;
  if (o.quick) {
    // CI proves the suite works; the figures say nothing.
    if (!size_given) o.size = CorpusSize::kSmall;
    if (!repeats_given) o.repeats = 2;
    if (!write_repeats_given) o.write_repeats = 1;
    o.random_reads = 30;
    o.batches = 2;
    o.long_windows_per_record = 8;
    o.max_windows = 20;
  } else if (!size_given) {
    o.size = CorpusSize::kLarge;
  }
  if (o.repeats < 1 || o.write_repeats < 1) Usage("repeats must be >= 1");
  if (!args.explicit_work) {
    const char* tmp = std::getenv("TMPDIR");
    o.work_dir =
        std::filesystem::path(tmp ? tmp : "/tmp") / ("timef-bench-" + std::to_string(::getpid()));
  }
  return args;
}

Json WriteOptionsJson(const WriteOptions& w) {
  return Json{{"chunk_max_bytes", w.chunk_max_bytes},
              {"row_group_target_bytes", w.row_group_target_bytes},
              {"shard_target_bytes", w.shard_target_bytes},
              {"data_page_target_bytes", w.data_page_target_bytes},
              {"compression", w.compression},
              {"compression_level", w.compression_level},
              {"text_pack_threshold_bytes", w.text_pack_threshold_bytes}};
}

void Log(const std::string& line) {
  std::cerr << "[" << UtcNow(false) << "] " << line << std::endl;
}

// Writes the corpus `write_repeats` times (each in a fresh child) with the raw store write
// interleaved; the last release and raw store stay for the read workloads.
void RunWrites(const SuiteOptions& o, CorpusKind kind, Json& results, Json& corpus_entry) {
  const std::string corpus = std::string(ToString(kind));
  const CorpusPaths paths = PathsFor(o, kind);
  Json seconds = {{"timef", Json::array()}, {"raw_mmap", Json::array()}};
  Json throughput = seconds, rss = seconds;
  double value_mb = 0;
  for (int rep = 0; rep < o.write_repeats; ++rep) {
    std::filesystem::remove_all(paths.release);
    const ChildResult t = RunInChild([&] { return TimefWriteOnce(o, kind); });
    const double s = t.output["seconds"].get<double>();
    const double mb = t.output["value_bytes"].get<double>() / 1e6;
    value_mb = mb;
    seconds["timef"].push_back(s);
    throughput["timef"].push_back(mb / s);
    rss["timef"].push_back(static_cast<double>(t.max_rss_kib) / 1024);
    Log(corpus + " write " + std::to_string(rep + 1) + "/" + std::to_string(o.write_repeats) +
        ": " + std::to_string(s) + " s, peak RSS " + std::to_string(t.max_rss_kib / 1024) + " MiB");

    std::filesystem::remove_all(paths.raw);
    const ChildResult r = RunInChild([&] { return RawWriteOnce(o, kind); });
    const double rs = r.output["seconds"].get<double>();
    seconds["raw_mmap"].push_back(rs);
    throughput["raw_mmap"].push_back(mb / rs);
    rss["raw_mmap"].push_back(static_cast<double>(r.max_rss_kib) / 1024);
  }
  // DuckDB writes the values of the last release (loaded into memory first, untimed).
  seconds["duckdb"] = Json::array();
  throughput["duckdb"] = Json::array();
  for (int rep = 0; rep < (o.Wants("write") ? o.write_repeats : 0); ++rep) {
    const Json d = RunInChild([&] { return DuckDbWriteOnce(o, kind); }).output;
    const double s = d["seconds"].get<double>();
    seconds["duckdb"].push_back(s);
    throughput["duckdb"].push_back(value_mb / s);
    Log(corpus + " duckdb write " + std::to_string(rep + 1) + "/" +
        std::to_string(o.write_repeats) + ": " + std::to_string(s) + " s, " +
        std::to_string(d["bytes"].get<std::int64_t>()) + " B");
  }
  const Json generation = RunInChild([&] { return GenerateOnce(o, kind); }).output;
  seconds["extra"] = {{"corpus_generation_s", generation["seconds"]},
                      {"note",
                       "timef and raw writes include generating the values in the loaders; "
                       "DuckDB's COPY starts from the values already in memory"}};
  corpus_entry["write_seconds"] = seconds["timef"];
  results.push_back(MakeRow(corpus, "write", "s", false, seconds));
  results.push_back(MakeRow(corpus, "write_throughput", "MB/s", true, throughput));
  results.push_back(MakeRow(corpus, "write_peak_rss", "MiB", false, rss));
  corpus_entry["sizes"] = RunInChild([&] { return MeasureSizes(o, kind); }).output;
}

struct Workload {
  const char* name;
  const char* unit;
  bool higher_is_better;
  std::function<Json(const SuiteOptions&, CorpusKind)> run;
};

std::vector<Workload> WorkloadsFor(CorpusKind kind) {
  const Workload open{"open", "ms", false, OpenWorkload};
  const Workload scan{"scan", "MB/s", true, ScanWorkload};
  const Workload scan_values{"scan_values", "MB/s", true, ScanValuesWorkload};
  auto series = [](SeriesPath path) {
    return [path](const SuiteOptions& o, CorpusKind k) { return RandomSeriesWorkload(o, k, path); };
  };
  auto batch = [](SeriesPath path) {
    return
        [path](const SuiteOptions& o, CorpusKind k) { return BatchedRandomWorkload(o, k, path); };
  };
  const Workload random{"random_series", "µs", false, series(SeriesPath::kIndex)};
  const Workload random_object{"random_series_object", "µs", false, series(SeriesPath::kObject)};
  const Workload random_handle{"random_series_handle", "µs", false, series(SeriesPath::kHandle)};
  const Workload random_into{"random_series_into", "µs", false, series(SeriesPath::kInto)};
  const Workload random_record{"random_record", "µs", false, RandomRecordWorkload};
  const Workload batched{"batched_random", "ms/batch", false, batch(SeriesPath::kIndex)};
  const Workload batched_object{"batched_random_object", "ms/batch", false,
                                batch(SeriesPath::kObject)};
  const Workload batched_into{"batched_random_into", "ms/batch", false, batch(SeriesPath::kInto)};
  const Workload window{"window", "ms/window", false, WindowWorkload};
  const Workload verify{"verify", "s", false, VerifyWorkload};
  const Workload tasks{"task_hydration", "s", false, [](const SuiteOptions& o, CorpusKind k) {
                         return TaskHydrationWorkload(o, k, false);
                       }};
  const Workload tasks_iter{
      "task_hydration_iter", "s", false,
      [](const SuiteOptions& o, CorpusKind k) { return TaskHydrationWorkload(o, k, true); }};
  switch (kind) {
    case CorpusKind::kEcg:
      // Then the same corpus on the Zarr backend against this Parquet release (docs/format.md §8).
      return {open,
              scan,
              scan_values,
              random,
              random_object,
              random_handle,
              random_into,
              random_record,
              batched,
              batched_object,
              batched_into,
              window,
              verify,
              {"zarr_write", "s", false, ZarrWriteWorkload},
              {"zarr_scan", "MB/s", true, ZarrScanWorkload},
              {"zarr_random_series", "µs", false, ZarrRandomSeriesWorkload},
              {"zarr_window", "ms/window", false, ZarrWindowWorkload}};
    case CorpusKind::kTsqa:
      return {open,          scan,        scan_values,   random,  random_object,
              random_handle, random_into, random_record, batched, batched_object,
              batched_into,  window,      verify};
    case CorpusKind::kLong:
      // A few 50M-sample series: single-series reads would just be scans; windows matter.
      return {open, scan, window, verify};
    case CorpusKind::kTasks:
      return {open, scan, tasks, tasks_iter, verify};
  }
  return {};
}

// --merge A.json B.json …: one report from runs that each covered some corpora (e.g. a long run
// finished corpus by corpus). Later files replace the rows of a corpus that earlier ones hold.
int Merge(const std::vector<std::string>& files, const std::filesystem::path& out) {
  Json merged;
  Json sources = Json::array();
  for (const std::string& file : files) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot read " + file);
    const Json run = Json::parse(in);
    sources.push_back({{"file", std::filesystem::path(file).filename().string()},
                       {"timestamp", run["timestamp"]},
                       {"corpora", run["parameters"]["corpora"]}});
    if (merged.is_null()) {
      merged = run;
      continue;
    }
    for (const Json& corpus : run["corpora"]) {
      const Json name = corpus["corpus"];
      auto& corpora = merged["corpora"];
      auto& results = merged["results"];
      for (auto it = corpora.begin(); it != corpora.end();) {
        it = (*it)["corpus"] == name ? corpora.erase(it) : it + 1;
      }
      for (auto it = results.begin(); it != results.end();) {
        it = (*it)["corpus"] == name ? results.erase(it) : it + 1;
      }
      corpora.push_back(corpus);
      for (const Json& row : run["results"]) {
        if (row["corpus"] == name) results.push_back(row);
      }
    }
  }
  if (merged.is_null()) Usage("--merge needs report files");
  // Failures of the corpora that were kept (a replaced corpus's failures no longer count).
  int failures = 0;
  for (const Json& corpus : merged["corpora"]) {
    if (corpus.contains("error")) ++failures;
    if (corpus.contains("errors")) failures += static_cast<int>(corpus["errors"].size());
  }
  merged["failures"] = failures;
  merged["merged_from"] = sources;
  merged["timestamp_compact"] = UtcNow(true);
  merged["complete"] = merged["corpora"].size() == 4;
  WriteReport(merged, out);
  Log("merged " + std::to_string(files.size()) + " reports into " + out.string());
  return 0;
}

int Main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--merge") {
    std::vector<std::string> files;
    std::filesystem::path out = std::filesystem::path(TIMEF_SOURCE_DIR) / "bench" / "results";
    for (int i = 2; i < argc; ++i) {
      if (std::string(argv[i]) == "--out" && i + 1 < argc) {
        out = argv[++i];
      } else {
        files.emplace_back(argv[i]);
      }
    }
    return Merge(files, out);
  }
  const Args args = ParseArgs(argc, argv);
  const SuiteOptions& o = args.options;
  Stopwatch total;
  Json report;
  report["suite"] = "timef_bench_suite";
  report["timestamp"] = UtcNow(false);
  report["timestamp_compact"] = UtcNow(true);
  report["machine"] = MachineInfo();
  report["git"] = GitInfo(TIMEF_SOURCE_DIR);
  Json corpora_names = Json::array();
  for (CorpusKind kind : o.corpora) corpora_names.push_back(std::string(ToString(kind)));
  report["parameters"] = {{"size", std::string(ToString(o.size))},
                          {"quick", o.quick},
                          {"corpora", corpora_names},
                          {"seed", o.seed},
                          {"repeats", o.repeats},
                          {"write_repeats", o.write_repeats},
                          {"duckdb_threads", o.duckdb_threads},
                          {"threads", o.decode_threads},
                          {"random_reads", o.random_reads},
                          {"random_by_id_passes", o.random_by_id_passes},
                          {"batches", o.batches},
                          {"batch_size", o.batch_size},
                          {"window_seconds", o.window_seconds},
                          {"long_windows_per_record", o.long_windows_per_record},
                          {"max_windows", o.max_windows},
                          {"write_options", WriteOptionsJson(o.write_options)},
                          {"compare_catalog_block_size", o.compare_catalog_block_size},
                          {"build_type", TIMEF_BUILD_TYPE}};
  report["rss_baseline_mib"] =
      static_cast<double>(RunInChild([] { return Json::object(); }).max_rss_kib) / 1024;
  Json results = Json::array();
  Json corpora = Json::array();
  int failures = 0;
  // The report is rewritten after every corpus, so a long run that is cut short keeps the
  // corpora it finished (`complete` says whether every corpus ran).
  auto flush = [&] {
    report["corpora"] = corpora;
    report["results"] = results;
    report["failures"] = failures;
    report["complete"] = corpora.size() == o.corpora.size();
    report["elapsed_seconds"] = total.Seconds();
    report["machine"]["load_average_end"] = MachineInfo()["load_average"];
    WriteReport(report, args.out);
  };
  for (CorpusKind kind : o.corpora) {
    const std::string corpus = std::string(ToString(kind));
    Json entry = {{"corpus", corpus}};
    entry["params"] = RunInChild([&] { return BuildCorpus(kind, o.size, o.seed).params; }).output;
    Log(corpus + ": " + entry["params"].dump());
    try {
      RunWrites(o, kind, results, entry);
    } catch (const std::exception& e) {
      Log(corpus + " write FAILED: " + e.what());
      entry["error"] = std::string("write: ") + e.what();
      corpora.push_back(entry);
      ++failures;
      flush();
      continue;
    }
    auto run_workloads = [&](const std::string& suffix, bool catalog_only) {
      for (const Workload& w : WorkloadsFor(kind)) {
        const std::string name = std::string(w.name) + suffix;
        if (!o.Wants(w.name)) continue;
        if (catalog_only && name.rfind("open", 0) != 0 && name.rfind("task_hydration", 0) != 0)
          continue;
        try {
          const ChildResult c = RunInChild([&] { return w.run(o, kind); });
          Json row = MakeRow(corpus, name, w.unit, w.higher_is_better, c.output);
          row["process_peak_rss_mib"] = static_cast<double>(c.max_rss_kib) / 1024;
          Log(corpus + " " + name + ": timef median " + row["timef"]["median"].dump() + " " +
              w.unit + ", ratio " + row["ratio"].dump());
          results.push_back(std::move(row));
        } catch (const std::exception& e) {
          Log(corpus + " " + name + " FAILED: " + e.what());
          entry["errors"].push_back(name + ": " + e.what());
          ++failures;
        }
      }
    };
    run_workloads("", false);
    if (kind == CorpusKind::kEcg &&
        (o.Wants("edit") || o.Wants("derive") || o.Wants("scan_via_child"))) {
      // Composition on the written corpus: edit, derive and a pass through the child.
      try {
        for (Json& row : ComposeWorkloads(o, kind, entry["write_seconds"])) {
          Log(corpus + " " + row["workload"].get<std::string>() + ": timef median " +
              row["timef"]["median"].dump() + " " + row["unit"].get<std::string>() + ", ratio " +
              row["ratio"].dump());
          results.push_back(std::move(row));
        }
      } catch (const std::exception& e) {
        Log(corpus + " compose FAILED: " + e.what());
        entry["errors"].push_back(std::string("compose: ") + e.what());
        ++failures;
      }
    }
    if (o.compare_catalog_block_size > 0) {
      // A/B/A on the same corpus in the same run: the written catalog, the copy with the other
      // block size, the written catalog again (restored byte for byte).
      const CorpusPaths paths = PathsFor(o, kind);
      const auto saved = o.work_dir / (corpus + "-written-catalog");
      std::filesystem::remove_all(saved);
      std::filesystem::create_directories(saved);
      for (std::string_view f : {manifest::kControlFileName, manifest::kManifestFileName})
        std::filesystem::copy_file(paths.release / f, saved / f);
      const std::string tag = "@" + std::to_string(o.compare_catalog_block_size);
      entry["compare_catalog_bytes"] = {
          {"written", std::filesystem::file_size(paths.release / manifest::kControlFileName)}};
      ReblockCatalog(paths.release, o.compare_catalog_block_size);
      entry["compare_catalog_bytes"][tag] =
          std::filesystem::file_size(paths.release / manifest::kControlFileName);
      run_workloads(tag, true);
      for (std::string_view f : {manifest::kControlFileName, manifest::kManifestFileName})
        std::filesystem::copy_file(saved / f, paths.release / f,
                                   std::filesystem::copy_options::overwrite_existing);
      run_workloads("@written-again", true);
    }
    corpora.push_back(entry);
    if (!args.keep) std::filesystem::remove_all(o.work_dir / corpus);
    flush();
  }
  if (!args.keep) std::filesystem::remove_all(o.work_dir);
  Log("report in " + args.out.string() + " (" + std::to_string(total.Seconds()) + " s, " +
      std::to_string(failures) + " failures)");
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace timef::bench

int main(int argc, char** argv) {
  try {
    return timef::bench::Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "timef_bench_suite: " << e.what() << "\n";
    return 1;
  }
}
