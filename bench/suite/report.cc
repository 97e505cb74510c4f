#include "suite/report.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "suite/stats.h"

namespace timef::bench {
namespace {

std::string FirstLineWith(const std::filesystem::path& file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return line;
  }
  return "";
}

std::string After(const std::string& line, char separator) {
  const auto at = line.find(separator);
  if (at == std::string::npos) return "";
  const auto start = line.find_first_not_of(" \t", at + 1);
  return start == std::string::npos ? "" : line.substr(start);
}

// Runs a read-only command and returns its stdout and exit status.
std::pair<std::string, int> Run(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {"", -1};
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  const int status = ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return {out, status};
}

Json SummaryOrNull(const Json& samples, const std::string& key) {
  if (!samples.contains(key) || !samples[key].is_array() || samples[key].empty()) return nullptr;
  return ToJson(Summarize(samples[key].get<std::vector<double>>()));
}

// Three significant digits, plain notation.
std::string Num(double v) {
  if (v == 0) return "0";
  const double a = std::fabs(v);
  const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.1 ? 3 : 4;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

std::string Cell(const Json& summary, bool range) {
  if (summary.is_null()) return "–";
  std::string out = Num(summary["median"].get<double>());
  if (range) {
    out += " (" + Num(summary["min"].get<double>()) + "–" + Num(summary["max"].get<double>()) + ")";
  }
  return out;
}

std::string Ratio(const Json& ratio) {
  if (ratio.is_null()) return "–";
  return Num(ratio.get<double>()) + "×";
}

std::string Mb(std::int64_t bytes) { return Num(static_cast<double>(bytes) / 1e6); }

}  // namespace

Json MachineInfo() {
  Json out;
  out["cpu_model"] = After(FirstLineWith("/proc/cpuinfo", "model name"), ':');
  out["cores"] = ::sysconf(_SC_NPROCESSORS_ONLN);
  const std::string mem = After(FirstLineWith("/proc/meminfo", "MemTotal"), ':');
  out["ram_bytes"] = mem.empty() ? 0 : std::stoll(mem) * 1024;
  utsname names{};
  if (::uname(&names) == 0) out["kernel"] = std::string(names.sysname) + " " + names.release;
  std::ifstream load("/proc/loadavg");
  double l1 = 0, l5 = 0, l15 = 0;
  load >> l1 >> l5 >> l15;
  out["load_average"] = {l1, l5, l15};
  return out;
}

Json GitInfo(const std::filesystem::path& source_dir) {
  const std::string git = "git -C '" + source_dir.string() + "' ";
  const auto [revision, status] = Run(git + "rev-parse HEAD 2>/dev/null");
  if (status != 0) return Json{{"revision", nullptr}, {"dirty", nullptr}};
  const auto diff = Run(git + "diff --quiet HEAD -- 2>/dev/null");
  return Json{{"revision", revision}, {"dirty", diff.second != 0}};
}

std::string UtcNow(bool compact) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

Json MakeRow(const std::string& corpus, const std::string& workload, const std::string& unit,
             bool higher_is_better, const Json& samples) {
  Json row;
  row["corpus"] = corpus;
  row["workload"] = workload;
  row["unit"] = unit;
  row["better"] = higher_is_better ? "higher" : "lower";
  row["timef"] = SummaryOrNull(samples, "timef");
  if (row["timef"].is_null()) throw std::runtime_error(corpus + "/" + workload + ": no samples");
  row["peers"] = {{"duckdb", SummaryOrNull(samples, "duckdb")},
                  {"raw_mmap", SummaryOrNull(samples, "raw_mmap")}};
  // Any other peer a workload measured (e.g. the parent's write beside an edit).
  for (const auto& [peer, values] : samples.items()) {
    if (peer != "timef" && peer != "extra" && !row["peers"].contains(peer)) {
      row["peers"][peer] = SummaryOrNull(samples, peer);
    }
  }
  Json ratio = Json::object();
  for (const auto& [peer, p] : row["peers"].items()) {
    const double t = row["timef"]["median"].get<double>();
    if (p.is_null() || t <= 0 || p["median"].get<double>() <= 0) {
      ratio[peer] = nullptr;
      continue;
    }
    const double m = p["median"].get<double>();
    ratio[peer] = higher_is_better ? t / m : m / t;
  }
  row["ratio"] = ratio;
  if (samples.contains("extra")) row["extra"] = samples["extra"];
  return row;
}

std::string RenderMarkdown(const Json& report) {
  std::ostringstream md;
  const Json& m = report["machine"];
  const Json& p = report["parameters"];
  md << "Run " << report["timestamp"].get<std::string>() << ", size `"
     << p["size"].get<std::string>() << "`" << (p["quick"].get<bool>() ? " (quick)" : "")
     << ", git " << report["git"]["revision"].dump()
     << (report["git"]["dirty"] == true ? " (dirty)" : "") << "; "
     << m["cpu_model"].get<std::string>() << ", " << m["cores"].dump() << " cores, "
     << Num(m["ram_bytes"].get<double>() / 1e9) << " GB RAM, load average at start "
     << Num(m["load_average"][0].get<double>()) << "; " << p["repeats"].dump()
     << " repeats, timef threads " << p.value("threads", 1) << ", DuckDB threads "
     << p["duckdb_threads"].dump() << ", zstd level "
     << p["write_options"]["compression_level"].dump() << ". Ratios > 1 mean timef is better.\n\n";
  md << "| corpus | workload | unit | timef median (min–max) | DuckDB | raw mmap | vs DuckDB | vs "
        "raw mmap | other peers |\n";
  md << "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const Json& row : report["results"]) {
    std::string others;
    for (const auto& [peer, summary] : row["peers"].items()) {
      if (peer == "duckdb" || peer == "raw_mmap" || summary.is_null()) continue;
      others += (others.empty() ? "" : "; ") + peer + " " + Cell(summary, false) + " (" +
                Ratio(row["ratio"][peer]) + ")";
    }
    md << "| " << row["corpus"].get<std::string>() << " | " << row["workload"].get<std::string>()
       << " | " << row["unit"].get<std::string>() << " | " << Cell(row["timef"], true) << " | "
       << Cell(row["peers"]["duckdb"], false) << " | " << Cell(row["peers"]["raw_mmap"], false)
       << " | " << Ratio(row["ratio"]["duckdb"]) << " | " << Ratio(row["ratio"]["raw_mmap"])
       << " | " << (others.empty() ? "–" : others) << " |\n";
  }
  md << "\nBytes per encoding (values shards against the raw float32 bytes they hold):\n\n";
  md << "| corpus | spec_type | encoding | raw MB | shard MB | shard/raw | catalog MB | payload MB "
        "|\n";
  md << "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const Json& corpus : report["corpora"]) {
    if (!corpus.contains("sizes")) continue;
    const Json& sizes = corpus["sizes"];
    for (const Json& s : sizes["by_spec_type"]) {
      md << "| " << corpus["corpus"].get<std::string>() << " | "
         << s["spec_type"].get<std::string>() << " | " << s["value_encoding"].get<std::string>()
         << " | " << Mb(s["raw_value_bytes"].get<std::int64_t>()) << " | "
         << Mb(s["shard_bytes"].get<std::int64_t>()) << " | "
         << Num(s["shard_to_raw"].get<double>()) << " | "
         << Mb(sizes["files"]["control"].get<std::int64_t>()) << " | "
         << Mb(sizes["files"]["payloads"]["bytes"].get<std::int64_t>()) << " |\n";
    }
  }
  return md.str();
}

void WriteReport(const Json& report, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const std::string json = report.dump(2) + "\n";
  const std::string name = "suite-" + report["timestamp_compact"].get<std::string>() + ".json";
  for (const auto& file : {dir / name, dir / "latest.json"}) {
    std::ofstream(file, std::ios::binary) << json;
  }
  std::ofstream(dir / "latest.md", std::ios::binary) << RenderMarkdown(report);
}

}  // namespace timef::bench
