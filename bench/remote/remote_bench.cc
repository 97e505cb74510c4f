// timef_remote_bench [--quick] [--out DIR] [--reads N] [--size small|medium|large]: reading a
// release over HTTP against reading it locally (issue 35), on loopback, one run, every peer in the
// same run. The ECG corpus of the suite (bench/corpus) is written once and served by nginx
// (tests/support/nginx.h, which logs the body bytes of every response), then:
//   - scan: every signal's values in ID order, in batches of 256 (GetSignalValues + LoadValues),
//     on a fresh local reader and on a fresh remote reader (catalog already in the cache), three
//     times each in turn, the median kept: MB/s of float32 values; each decode run of a remote
//     batch prefetches its chunks' pages in a few coalesced requests (docs/remote.md "Prefetch");
//   - random series: GetSignalValues(id).LoadValues() of N random signals on the two readers the
//     scan warmed (footers and page indexes read), median latency; bytes the server sent per read
//     against the bytes of the data pages that hold the series (page headers included, from the
//     shards' OffsetIndex and the catalog's chunk locators); and `curl` downloading a whole shard
//     (the way in without timef);
//   - pull: PullRelease (4 files at a time) against `curl --parallel --parallel-max 4` of the
//     same files.
// Every value read remotely is compared with the local read. Writes DIR/remote.json and
// DIR/remote.md (also to stdout).
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/timing.h"
#include "corpus/corpus.h"
#include "corpus/rng.h"
#include "parquet/file_reader.h"
#include "suite/duckdb_peer.h"
#include "support/nginx.h"
#include "support/scratch_dir.h"
#include "timef/reader.h"
#include "timef/remote.h"
#include "timef/writer.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;
using timef::Json;

using timef::bench::Median;
using timef::bench::Ms;

// Runs a shell command; its exit status must be 0.
void Run(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("command failed: " + command);
  }
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool SameBytes(const timef::model::ValueArray& a, const timef::model::ValueArray& b) {
  const auto x = a.values<float>();
  const auto y = b.values<float>();
  return x.size() == y.size() &&
         (x.empty() || std::memcmp(x.data(), y.data(), x.size_bytes()) == 0);
}

// The compressed bytes (page headers included) of the data pages that hold each signal's chunks,
// from the catalog's locators and the shards' OffsetIndex: what a reader must fetch at the least.
class PageBytes {
 public:
  explicit PageBytes(const fs::path& release) : release_(release) {
    timef::bench::DuckDb db(release / "control.duckdb", /*read_only=*/true, 1);
    duckdb_result result;
    const std::string sql =
        "SELECT g.signal_id, c.value_path, c.chunk_major_index, coalesce(c.chunk_minor_index, 0) "
        "FROM signal_chunks c JOIN signals g ON g.signal_key = c.signal_key "
        "WHERE c.payload_source IS NULL";
    if (duckdb_query(db.connection(), sql.c_str(), &result) == DuckDBError) {
      const std::string error = duckdb_result_error(&result);
      duckdb_destroy_result(&result);
      throw std::runtime_error("signal_chunks: " + error);
    }
    const idx_t rows = duckdb_row_count(&result);
    for (idx_t r = 0; r < rows; ++r) {
      char* path = duckdb_value_varchar(&result, 1, r);
      chunks_[duckdb_value_int64(&result, 0, r)].push_back(
          {path, duckdb_value_int64(&result, 2, r), duckdb_value_int64(&result, 3, r)});
      duckdb_free(path);
    }
    duckdb_destroy_result(&result);
  }

  std::int64_t Of(std::int64_t signal_id) {
    std::int64_t total = 0;
    std::set<std::pair<std::string, std::int64_t>> pages;  // a page shared by chunks counts once
    for (const Chunk& c : chunks_.at(signal_id)) {
      timef::parquet::FileReader& file = File(c.path);
      const int column = file.ColumnIndex("values");
      const auto* index = file.offset_index(static_cast<int>(c.row_group), column);
      if (index == nullptr) throw std::runtime_error(c.path + " has no OffsetIndex");
      const auto& locations = index->page_locations;
      std::size_t page = 0;
      while (page + 1 < locations.size() && locations[page + 1].first_row_index <= c.row) ++page;
      if (pages.insert({c.path + "#" + std::to_string(c.row_group), page}).second) {
        total += locations[page].compressed_page_size;
      }
    }
    return total;
  }

 private:
  struct Chunk {
    std::string path;
    std::int64_t row_group;
    std::int64_t row;
  };
  timef::parquet::FileReader& File(const std::string& path) {
    auto found = files_.find(path);
    if (found == files_.end()) {
      found = files_
                  .emplace(path, std::make_unique<timef::parquet::FileReader>(
                                     timef::parquet::FileReader::OpenFile(release_ / path)))
                  .first;
    }
    return *found->second;
  }

  fs::path release_;
  std::map<std::int64_t, std::vector<Chunk>> chunks_;
  std::map<std::string, std::unique_ptr<timef::parquet::FileReader>> files_;
};

// One scan of every signal in ID order, batches of 256; MB/s of values. Fills `out` when given.
double Scan(timef::Reader& reader,
            std::vector<std::shared_ptr<const timef::model::ValueArray>>* out) {
  const std::vector<std::int64_t> ids = reader.SignalIds();
  const std::span<const std::int64_t> all(ids);
  std::int64_t bytes = 0;
  const auto start = Clock::now();
  for (std::size_t at = 0; at < all.size(); at += 256) {
    const auto batch = all.subspan(at, std::min<std::size_t>(256, all.size() - at));
    const auto arrays = reader.LoadValues(reader.GetSignalValues(batch));
    for (const auto& a : arrays) {
      bytes += static_cast<std::int64_t>(a->values<float>().size_bytes());
      if (out != nullptr) out->push_back(a);
    }
  }
  return static_cast<double>(bytes) / 1e6 / (Ms(Clock::now() - start) / 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  fs::path out = ".";
  int reads = 200;
  std::string size = "medium";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (arg == "--reads" && i + 1 < argc) {
      reads = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--size" && i + 1 < argc) {
      size = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: timef_remote_bench [--quick] [--out DIR] [--reads N] "
                   "[--size small|medium|large]\n");
      return 2;
    }
  }
  if (quick) {
    size = "small";
    reads = std::min(reads, 50);
  }
  try {
    timef::testing::ScratchDir scratch;
    const fs::path root = scratch.path() / "registry";
    ::setenv("TIMEF_CACHE_DIR", (scratch.path() / "cache").c_str(), 1);

    // The suite's ECG corpus with the default write options (the layout a user gets).
    timef::bench::Corpus corpus = timef::bench::BuildCorpus(
        timef::bench::CorpusKind::kEcg, timef::bench::ParseCorpusSize(size), 42);
    const auto write_start = Clock::now();
    const fs::path release = timef::WriteRelease(*corpus.dataset, corpus.card, root).release_dir;
    const double write_s = Ms(Clock::now() - write_start) / 1e3;
    std::int64_t release_bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(release)) {
      if (e.is_regular_file()) release_bytes += static_cast<std::int64_t>(e.file_size());
    }

    timef::testing::NginxServer nginx(root, /*log_bytes=*/true);
    const std::string url = nginx.url() + "/" + release.lexically_relative(root).generic_string();

    // ---- scan ----
    std::vector<std::shared_ptr<const timef::model::ValueArray>> local_values, remote_values;
    timef::Reader local = timef::Reader::Open(release);
    {
      timef::Reader warm = timef::Reader::Open(url);
      warm.SignalIds();
    }  // catalog into the cache
    timef::Reader remote = timef::Reader::Open(url);
    // Three scans each, local and HTTP in turn, each by a reader opened for it (the first by the
    // readers the random reads below reuse); the median of each side. One scan of this corpus
    // lasts 0.1-0.2 s, so a single one moved the ratio by ±0.03 from run to run.
    constexpr int kScanRuns = 3;
    std::vector<double> local_scans, remote_scans;
    std::int64_t scan_bytes = 0;
    for (int run = 0; run < kScanRuns; ++run) {
      if (run == 0) {
        local_scans.push_back(Scan(local, &local_values));
      } else {
        timef::Reader fresh = timef::Reader::Open(release);
        local_scans.push_back(Scan(fresh, nullptr));
      }
      const std::int64_t scan_bytes_before = nginx.BodyBytesLogged();
      if (run == 0) {
        remote_scans.push_back(Scan(remote, &remote_values));
        scan_bytes = nginx.BodyBytesLogged() - scan_bytes_before;
      } else {
        timef::Reader fresh = timef::Reader::Open(url);
        remote_scans.push_back(Scan(fresh, nullptr));
      }
    }
    const double local_scan = Median(local_scans);
    const double remote_scan = Median(remote_scans);
    for (std::size_t i = 0; i < local_values.size(); ++i) {
      if (i >= remote_values.size() || !SameBytes(*local_values[i], *remote_values[i])) {
        throw std::runtime_error("scan: series " + std::to_string(i) + " differs over HTTP");
      }
    }

    // ---- random series on the warmed readers ----
    const std::vector<std::int64_t> ids = local.SignalIds();
    timef::bench::Rng rng = timef::bench::Rng::For({42, 0x7E30, 0x9D5});
    std::vector<std::int64_t> picks;
    for (int i = 0; i < reads; ++i) picks.push_back(ids[rng.Below(ids.size())]);
    PageBytes page_bytes(release);
    std::vector<double> local_ms, remote_ms;
    std::int64_t fetched = 0, needed = 0;
    for (std::int64_t id : picks) {
      auto t0 = Clock::now();
      const auto a = local.GetSignalValues(id).LoadValues();
      local_ms.push_back(Ms(Clock::now() - t0));
      const std::int64_t before = nginx.BodyBytesLogged();
      t0 = Clock::now();
      const auto b = remote.GetSignalValues(id).LoadValues();
      remote_ms.push_back(Ms(Clock::now() - t0));
      fetched += nginx.BodyBytesLogged() - before;
      needed += page_bytes.Of(id);
      if (!SameBytes(*a, *b)) {
        throw std::runtime_error("signal " + std::to_string(id) + " differs over HTTP");
      }
    }

    // curl of whole shards, the way in without timef.
    std::vector<double> curl_shard_ms;
    std::int64_t shard_bytes = 0;
    for (const auto& part : local.manifest().files.time_series) {
      const auto t0 = Clock::now();
      Run("curl -sSf -o /dev/null " + Quote(url + "/" + part.path));
      curl_shard_ms.push_back(Ms(Clock::now() - t0));
      shard_bytes += part.size;
    }
    const double shard_mean_bytes =
        static_cast<double>(shard_bytes) / std::max<std::size_t>(1, curl_shard_ms.size());

    // ---- pull against curl of each file ----
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(release)) {
      if (e.is_regular_file())
        files.push_back(e.path().lexically_relative(release).generic_string());
    }
    std::sort(files.begin(), files.end());
    auto t0 = Clock::now();
    const timef::PullResult pulled =
        timef::PullRelease(url, scratch.path() / "pulled", timef::PullOptions{.threads = 4});
    const double pull_s = Ms(Clock::now() - t0) / 1e3;
    std::string curl = "curl -sSf --no-progress-meter --create-dirs --parallel --parallel-max 4";
    for (const std::string& f : files) {
      curl += " -o " + Quote((scratch.path() / "curled" / f).string()) + " " + Quote(url + "/" + f);
    }
    t0 = Clock::now();
    Run(curl);
    const double curl_s = Ms(Clock::now() - t0) / 1e3;

    const double local_med = Median(local_ms), remote_med = Median(remote_ms);
    const double bytes_ratio = needed > 0 ? static_cast<double>(fetched) / needed : 0;
    const double pull_mbs = static_cast<double>(pulled.bytes_downloaded) / 1e6 / pull_s;
    const double curl_mbs = static_cast<double>(release_bytes) / 1e6 / curl_s;
    const Json report = {
        {"corpus",
         {{"kind", "ecg"},
          {"size", size},
          {"signals", ids.size()},
          {"release_bytes", release_bytes},
          {"write_s", write_s}}},
        {"scan",
         {{"local_mb_s", local_scan},
          {"http_mb_s", remote_scan},
          {"local_runs_mb_s", local_scans},
          {"http_runs_mb_s", remote_scans},
          {"ratio", remote_scan / local_scan},
          {"http_bytes", scan_bytes},
          {"target", 0.6}}},
        {"random_series",
         {{"reads", reads},
          {"local_ms", local_med},
          {"http_ms", remote_med},
          {"http_minus_local_ms", remote_med - local_med},
          {"http_bytes_per_read", static_cast<double>(fetched) / reads},
          {"page_bytes_per_read", static_cast<double>(needed) / reads},
          {"bytes_ratio", bytes_ratio},
          {"curl_shard_ms", Median(curl_shard_ms)},
          {"shard_bytes", shard_mean_bytes},
          {"target_ms_over_local", 1.0},
          {"target_bytes_ratio", 1.3}}},
        {"pull",
         {{"files", files.size()},
          {"bytes", pulled.bytes_downloaded},
          {"pull_s", pull_s},
          {"curl_s", curl_s},
          {"pull_mb_s", pull_mbs},
          {"curl_mb_s", curl_mbs},
          {"ratio", curl_s / pull_s},
          {"target", 0.9}}},
    };
    fs::create_directories(out);
    std::ofstream(out / "remote.json") << report.dump(2) << "\n";
    char md[4096];
    std::snprintf(
        md, sizeof md,
        "# Remote reads over HTTP (nginx on loopback), ECG %s: %zu signals, %.1f MB release\n\n"
        "| workload | timef over HTTP | peer | ratio | target | met |\n"
        "| --- | ---: | ---: | ---: | --- | --- |\n"
        "| scan (MB/s of values) | %.1f | local scan %.1f | %.2f× | ≥ 0.6× | %s |\n"
        "| random series, median ms | %.3f | local %.3f | +%.3f ms | ≤ local + 1 ms | %s |\n"
        "| random series, bytes per read | %.0f | pages needed %.0f | %.2f× | ≤ 1.3× | %s |\n"
        "| random series via curl of its shard, ms | | %.2f (%.0f bytes) | | | |\n"
        "| pull (%zu files, MB/s) | %.1f | curl --parallel %.1f | %.2f× | ≥ 0.9× | %s |\n",
        size.c_str(), ids.size(), release_bytes / 1e6, remote_scan, local_scan,
        remote_scan / local_scan, remote_scan / local_scan >= 0.6 ? "yes" : "no", remote_med,
        local_med, remote_med - local_med, remote_med - local_med <= 1.0 ? "yes" : "no",
        static_cast<double>(fetched) / reads, static_cast<double>(needed) / reads, bytes_ratio,
        bytes_ratio <= 1.3 ? "yes" : "no", Median(curl_shard_ms), shard_mean_bytes, files.size(),
        pull_mbs, curl_mbs, curl_s / pull_s, curl_s / pull_s >= 0.9 ? "yes" : "no");
    std::ofstream(out / "remote.md") << md;
    std::fputs(md, stdout);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "timef_remote_bench: %s\n", e.what());
    return 1;
  }
}
