// Import throughput (issue 33): EDF+C files written in the run by EDFlib and WFDB 212 records
// written by the tests' WFDB writer, imported by timef::ImportFiles with 1 and 2 jobs, against the
// same EDF files decoded by EDFlib alone (edfread_physical_samples over every channel into a
// buffer, nothing written) in the same run. With --memory-gib G, also the peak RSS of the import
// of one EDF file of G GiB (in a child process). Writes <out>/import.md and <out>/import.json.
//
//   timef_import_bench [--quick] [--size small|medium] [--repeats N] [--memory-gib G]
//                      [--compression-level L] [--scratch DIR] [--out DIR]
#include <edflib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "importers/wfdb_writer.h"
#include "timef/importers.h"
#include "timef/json.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Args {
  bool quick = false;
  std::string size = "medium";
  int repeats = 3;
  double memory_gib = 0;
  int compression_level = timef::kImportCompressionLevel;  // the import's default
  fs::path scratch;
  fs::path out = "bench/results";
};

[[noreturn]] void Usage(const std::string& problem) {
  std::cerr << "timef_import_bench: " << problem
            << "\nusage: timef_import_bench [--quick] [--size small|medium] [--repeats N] "
               "[--memory-gib G] [--compression-level L] [--scratch DIR] [--out DIR]\n";
  std::exit(2);
}

Args ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--quick") {
      args.quick = true;
    } else if (a == "--size") {
      args.size = value();
      if (args.size != "small" && args.size != "medium") Usage("--size is small or medium");
    } else if (a == "--repeats") {
      args.repeats = std::stoi(value());
    } else if (a == "--memory-gib") {
      args.memory_gib = std::stod(value());
    } else if (a == "--compression-level") {
      args.compression_level = std::stoi(value());
    } else if (a == "--scratch") {
      args.scratch = value();
    } else if (a == "--out") {
      args.out = value();
    } else {
      Usage("unknown argument " + a);
    }
  }
  if (args.quick) {
    args.size = "small";
    args.repeats = 1;
  }
  if (args.repeats < 1) Usage("--repeats must be >= 1");
  return args;
}

// A deterministic pseudo-random stream (SplitMix64).
struct Rng {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Roughly normal, mean 0, sd 1 (sum of four uniforms).
  double Noise() {
    double s = 0;
    for (int k = 0; k < 4; ++k) s += static_cast<double>(Next() >> 11) * 0x1.0p-53;
    return (s - 2.0) * 1.7320508;
  }
};

// A polysomnography-like EDF+C layout: 1 s data records.
struct EdfChannel {
  const char* label;
  int rate;  // samples per data record
  const char* unit;
  double pmin, pmax;
  double hz, amplitude, noise;  // the synthetic signal: a sine plus noise, in digital units
};
const std::vector<EdfChannel>& PsgChannels() {
  static const std::vector<EdfChannel> channels = {
      {"EEG F3-M2", 256, "uV", -500, 500, 10, 3000, 400},
      {"EEG F4-M1", 256, "uV", -500, 500, 9, 3000, 400},
      {"EEG C3-M2", 256, "uV", -500, 500, 11, 3000, 400},
      {"EEG C4-M1", 256, "uV", -500, 500, 10.5, 3000, 400},
      {"EEG O1-M2", 256, "uV", -500, 500, 8, 3000, 400},
      {"EEG O2-M1", 256, "uV", -500, 500, 8.5, 3000, 400},
      {"EOG E1-M2", 256, "uV", -1000, 1000, 0.5, 5000, 300},
      {"EOG E2-M2", 256, "uV", -1000, 1000, 0.4, 5000, 300},
      {"EMG Chin", 512, "uV", -250, 250, 60, 1000, 2000},
      {"ECG II", 512, "mV", -5, 5, 1.2, 8000, 200},
      {"Resp Thorax", 32, "mV", -10, 10, 0.25, 12000, 100},
      {"SpO2", 1, "%", 0, 100, 0.01, 300, 30},
  };
  return channels;
}

int64_t PsgRecordBytes() {
  int64_t bytes = 0;
  for (const EdfChannel& c : PsgChannels()) bytes += 2 * c.rate;
  return bytes;
}

void Check(int rc, const char* what) {
  if (rc != 0) throw std::runtime_error(std::string("EDFlib ") + what + " failed");
}

// Writes an EDF+C file of `seconds` data records with EDFlib (edfwrite_digital_short_samples,
// one call per channel and data record) and one annotation a minute.
void WriteEdf(const fs::path& path, int64_t seconds, uint64_t seed) {
  const auto& channels = PsgChannels();
  const int n = static_cast<int>(channels.size());
  const int h = edfopen_file_writeonly(path.c_str(), EDFLIB_FILETYPE_EDFPLUS, n);
  if (h < 0) throw std::runtime_error("edfopen_file_writeonly " + path.string());
  for (int i = 0; i < n; ++i) {
    const EdfChannel& c = channels[static_cast<size_t>(i)];
    Check(edf_set_samplefrequency(h, i, c.rate), "samplefrequency");
    Check(edf_set_physical_maximum(h, i, c.pmax), "physical_maximum");
    Check(edf_set_physical_minimum(h, i, c.pmin), "physical_minimum");
    Check(edf_set_digital_maximum(h, i, 32767), "digital_maximum");
    Check(edf_set_digital_minimum(h, i, -32768), "digital_minimum");
    Check(edf_set_label(h, i, c.label), "label");
    Check(edf_set_physical_dimension(h, i, c.unit), "physical_dimension");
  }
  Check(edf_set_startdatetime(h, 2024, 5, 1, 22, 30, 0), "startdatetime");
  Check(edf_set_patientcode(h, "BENCH-1"), "patientcode");
  Rng rng{seed};
  std::vector<short> buf(512);
  for (int64_t r = 0; r < seconds; ++r) {
    for (const EdfChannel& c : channels) {
      for (int s = 0; s < c.rate; ++s) {
        const double t = static_cast<double>(r) + static_cast<double>(s) / c.rate;
        const double v = c.amplitude * std::sin(2 * M_PI * c.hz * t) + c.noise * rng.Noise();
        buf[static_cast<size_t>(s)] =
            static_cast<short>(std::clamp(std::lround(v), -32768L, 32767L));
      }
      Check(edfwrite_digital_short_samples(h, buf.data()), "write_digital_short_samples");
    }
    if (r % 60 == 0) {
      Check(edfwrite_annotation_utf8(h, r * 10000, 300000, r % 120 == 0 ? "Sleep stage W" : "N2"),
            "annotation");
    }
  }
  Check(edfclose_file(h), "close");
}

// A two-lead MIT-BIH-like WFDB record in format 212 (11-bit ADC, 360 Hz), `seconds` long.
fs::path WriteWfdb212(const fs::path& dir, const std::string& name, int64_t seconds,
                      uint64_t seed) {
  timef::wfdb_writer::Record record;
  record.name = name;
  record.frequency = "360";
  record.base_time = "08:00:00";
  record.base_date = "01/05/2024";
  Rng rng{seed};
  const int64_t frames = seconds * 360;
  const char* leads[] = {"MLII", "V5"};
  for (int k = 0; k < 2; ++k) {
    timef::wfdb_writer::Signal s;
    s.file = name + ".dat";
    s.format = 212;
    s.gain = "200";
    s.baseline = 1024;
    s.adc_resolution = 11;
    s.adc_zero = 1024;
    s.description = leads[k];
    s.samples.resize(static_cast<size_t>(frames));
    for (int64_t f = 0; f < frames; ++f) {
      const double t = static_cast<double>(f) / 360.0;
      const double beat = std::fmod(t, 0.8);
      const double qrs = std::exp(-std::pow((beat - 0.2) / 0.012, 2)) * (k == 0 ? 300 : 200);
      const double v = 1024 + qrs + 40 * std::sin(2 * M_PI * 0.3 * t) + 6 * rng.Noise();
      s.samples[static_cast<size_t>(f)] =
          static_cast<int32_t>(std::clamp(std::lround(v), 0L, 2047L));
    }
    record.signals.push_back(std::move(s));
  }
  return timef::wfdb_writer::Write(dir, record);
}

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int64_t InputBytes(const std::vector<fs::path>& files) {
  int64_t total = 0;
  for (const fs::path& f : files) {
    if (f.extension() == ".hea") {
      fs::path dat = f;
      dat.replace_extension(".dat");
      total += static_cast<int64_t>(fs::file_size(dat));
    }
    total += static_cast<int64_t>(fs::file_size(f));
  }
  return total;
}

// EDFlib alone: every channel of every file read as physical values into a buffer.
double EdflibDecode(const std::vector<fs::path>& files, double* checksum) {
  const auto start = Clock::now();
  std::vector<double> buffer(1 << 16);
  double sum = 0;
  for (const fs::path& path : files) {
    edf_hdr_struct hdr{};
    if (edfopen_file_readonly(path.c_str(), &hdr, EDFLIB_READ_ALL_ANNOTATIONS) != 0) {
      throw std::runtime_error("EDFlib cannot open " + path.string());
    }
    for (int i = 0; i < hdr.edfsignals; ++i) {
      long long left = hdr.signalparam[i].smp_in_file;
      while (left > 0) {
        const int n = static_cast<int>(std::min<long long>(left, buffer.size()));
        if (edfread_physical_samples(hdr.handle, i, n, buffer.data()) != n) {
          throw std::runtime_error("edfread_physical_samples " + path.string());
        }
        sum += buffer[0] + buffer[static_cast<size_t>(n - 1)];
        left -= n;
      }
    }
    edfclose_file(hdr.handle);
  }
  *checksum = sum;
  return Seconds(start);
}

// timef's readers alone: every file read (ReadEdf / ReadWfdb, no checksum) and every signal's
// values produced by its piece loader (VisitValues), nothing written.
double TimefDecode(timef::ImportFormat format, const std::vector<fs::path>& files) {
  timef::ReadOptions options;
  options.checksum = false;
  const auto start = Clock::now();
  int64_t values = 0;
  for (const fs::path& path : files) {
    const auto record = format == timef::ImportFormat::kEdf ? timef::ReadEdf(path, options)
                                                            : timef::ReadWfdb(path, options);
    for (const auto& signal : record->Signals()) {
      signal->VisitValues([&values](timef::model::ValueArray piece) { values += piece.size(); });
    }
  }
  if (values == 0) throw std::runtime_error("no values decoded");
  return Seconds(start);
}

timef::manifest::Card BenchCard(const std::string& version) {
  timef::manifest::Card card;
  card.dataset_id = "bench/import";
  card.dataset_version = version;
  card.name = "import bench";
  card.description = "timef_import_bench";
  card.license = timef::manifest::License::kMit;
  return card;
}

// CPU seconds (user + system) of this process, every thread.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

// One import into a fresh root; returns wall seconds and adds its CPU seconds to *cpu. The release
// stays until the caller removes it.
double Import(timef::ImportFormat format, const std::vector<fs::path>& files, const fs::path& root,
              int jobs, int level, double* cpu = nullptr) {
  timef::ImportOptions options;
  options.write.threads = jobs;
  options.write.compression_level = level;
  const double cpu_start = CpuSeconds();
  const auto start = Clock::now();
  timef::ImportFiles(format, files, BenchCard("1.0.0"), root, options);
  const double wall = Seconds(start);
  if (cpu != nullptr) *cpu += CpuSeconds() - cpu_start;
  return wall;
}

// The values shards of the release `dir` (relative path → bytes), for the byte-identity check
// of 1 and 2 jobs.
std::vector<std::pair<std::string, std::string>> ValuesFiles(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), dir).string();
    if (rel.rfind("time_series", 0) != 0) continue;  // the values shards (docs/format.md §7)
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    files.emplace_back(rel, s.str());
  }
  std::sort(files.begin(), files.end());
  return files;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  fs::path scratch = args.scratch;
  if (scratch.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "timef-import-bench-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    scratch = tmpl;
  }
  fs::create_directories(scratch);
  fs::create_directories(args.out);
  const bool medium = args.size == "medium";
  // medium: 4 EDF files of 1 h (≈ 26 MB each) and 4 WFDB records of 2 h (≈ 7.8 MB each);
  // small: a tenth.
  const int n_files = 4;
  const int64_t edf_seconds = medium ? 3600 : 360;
  const int64_t wfdb_seconds = medium ? 7200 : 720;

  timef::Json report;
  report["load_average_start"] = LoadAverage();
  report["size"] = args.size;
  report["repeats"] = args.repeats;
  report["compression_level"] = args.compression_level;
  std::cerr << "timef_import_bench: writing the inputs into " << scratch << "\n";
  std::vector<fs::path> edf_files;
  std::vector<fs::path> wfdb_files;
  for (int i = 0; i < n_files; ++i) {
    edf_files.push_back(scratch / ("night" + std::to_string(i) + ".edf"));
    WriteEdf(edf_files.back(), edf_seconds, 100 + static_cast<uint64_t>(i));
    wfdb_files.push_back(WriteWfdb212(scratch / "wfdb", "rec" + std::to_string(i), wfdb_seconds,
                                      200 + static_cast<uint64_t>(i)));
  }
  const int64_t edf_bytes = InputBytes(edf_files);
  const int64_t wfdb_bytes = InputBytes(wfdb_files);
  report["edf_input_bytes"] = edf_bytes;
  report["wfdb_input_bytes"] = wfdb_bytes;

  // Interleaved repeats: EDFlib, then every import, per round.
  std::vector<double> edflib_s, edf1, edf2, wfdb1, wfdb2, edf_read, wfdb_read;
  // CPU and wall seconds of the 1-job and 2-job imports (both formats, every round): the cores
  // the imports got on a shared machine.
  double cpu1 = 0, cpu2 = 0, wall1 = 0, wall2 = 0;
  double check = 0;
  bool identical = true;
  for (int round = 0; round < args.repeats; ++round) {
    edflib_s.push_back(EdflibDecode(edf_files, &check));
    edf_read.push_back(TimefDecode(timef::ImportFormat::kEdf, edf_files));
    wfdb_read.push_back(TimefDecode(timef::ImportFormat::kWfdb, wfdb_files));
    for (auto [format, files, s1, s2] :
         {std::tuple{timef::ImportFormat::kEdf, &edf_files, &edf1, &edf2},
          std::tuple{timef::ImportFormat::kWfdb, &wfdb_files, &wfdb1, &wfdb2}}) {
      const fs::path one = scratch / "root1";
      const fs::path two = scratch / "root2";
      s1->push_back(Import(format, *files, one, 1, args.compression_level, &cpu1));
      s2->push_back(Import(format, *files, two, 2, args.compression_level, &cpu2));
      wall1 += s1->back();
      wall2 += s2->back();
      if (round == 0) {
        const auto shards = ValuesFiles(one / "bench/import/1.0.0");
        if (shards.empty() || shards != ValuesFiles(two / "bench/import/1.0.0")) identical = false;
      }
      fs::remove_all(one);
      fs::remove_all(two);
    }
    std::cerr << "round " << round + 1 << " of " << args.repeats << " done\n";
  }
  const double mb = 1e6;
  const double edflib_mbs = edf_bytes / mb / Median(edflib_s);
  const double edf1_mbs = edf_bytes / mb / Median(edf1);
  const double edf2_mbs = edf_bytes / mb / Median(edf2);
  const double wfdb1_mbs = wfdb_bytes / mb / Median(wfdb1);
  const double wfdb2_mbs = wfdb_bytes / mb / Median(wfdb2);
  const double edf_read_mbs = edf_bytes / mb / Median(edf_read);
  const double wfdb_read_mbs = wfdb_bytes / mb / Median(wfdb_read);
  report["edflib_decode_mb_s"] = edflib_mbs;
  report["timef_edf_decode_mb_s"] = edf_read_mbs;
  report["timef_wfdb212_decode_mb_s"] = wfdb_read_mbs;
  report["edf_import_1_job_mb_s"] = edf1_mbs;
  report["edf_import_2_jobs_mb_s"] = edf2_mbs;
  report["wfdb212_import_1_job_mb_s"] = wfdb1_mbs;
  report["wfdb212_import_2_jobs_mb_s"] = wfdb2_mbs;
  report["jobs_1_and_2_values_identical"] = identical;
  report["cores_used_1_job"] = cpu1 / wall1;
  report["cores_used_2_jobs"] = cpu2 / wall2;
  report["cpu_s_1_job"] = cpu1;
  report["cpu_s_2_jobs"] = cpu2;
  report["edflib_checksum"] = check;

  // Bounded memory: one large EDF file imported in a child process, its peak RSS from wait4.
  double big_rss_mib = -1, big_s = -1;
  int64_t big_bytes = 0;
  if (args.memory_gib > 0) {
    const fs::path big = scratch / "big.edf";
    const auto seconds =
        static_cast<int64_t>(args.memory_gib * 1024 * 1024 * 1024 / PsgRecordBytes());
    std::cerr << "writing a " << args.memory_gib << " GiB EDF file\n";
    WriteEdf(big, seconds, 7);
    big_bytes = static_cast<int64_t>(fs::file_size(big));
    const auto start = Clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
      try {
        Import(timef::ImportFormat::kEdf, {big}, scratch / "root-big", 2, args.compression_level);
        _exit(0);
      } catch (const std::exception& e) {
        std::cerr << "big import: " << e.what() << "\n";
        _exit(1);
      }
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    big_s = Seconds(start);
    fs::remove_all(scratch / "root-big");
    if (args.scratch.empty()) fs::remove(big);  // a --scratch directory keeps it (to measure more)
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::cerr << "the large import failed\n";
      return 1;
    }
    big_rss_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;
    report["big_edf_bytes"] = big_bytes;
    report["big_import_peak_rss_mib"] = big_rss_mib;
    report["big_import_s"] = big_s;
  }
  report["load_average_end"] = LoadAverage();

  std::ostringstream md;
  md << "# Import throughput (issue 33, `timef_import_bench`)\n\n"
     << "Size `" << args.size << "`, " << args.repeats << " repeats (medians), zstd level "
     << args.compression_level << "; load average at start "
     << report["load_average_start"].get<std::string>() << ", at end "
     << report["load_average_end"].get<std::string>() << ". Inputs: " << n_files
     << " EDF+C files written by EDFlib, " << Fixed(edf_bytes / mb, 1) << " MB; " << n_files
     << " WFDB 212 records, " << Fixed(wfdb_bytes / mb, 1) << " MB.\n\n"
     << "| workload | MB/s of input | vs EDFlib decode |\n| --- | --- | --- |\n"
     << "| EDFlib decode alone (edfread_physical_samples) | " << Fixed(edflib_mbs, 1) << " | 1× |\n"
     << "| timef ReadEdf + every signal's piece loader, no write | " << Fixed(edf_read_mbs, 1)
     << " | " << Fixed(edf_read_mbs / edflib_mbs, 3) << "× |\n"
     << "| timef import edf, 1 job | " << Fixed(edf1_mbs, 1) << " | "
     << Fixed(edf1_mbs / edflib_mbs, 3) << "× |\n"
     << "| timef import edf, 2 jobs | " << Fixed(edf2_mbs, 1) << " | "
     << Fixed(edf2_mbs / edflib_mbs, 3) << "× |\n"
     << "| timef ReadWfdb + every signal's piece loader (212), no write | "
     << Fixed(wfdb_read_mbs, 1) << " | – |\n"
     << "| timef import wfdb (212), 1 job | " << Fixed(wfdb1_mbs, 1) << " | – |\n"
     << "| timef import wfdb (212), 2 jobs | " << Fixed(wfdb2_mbs, 1) << " | – |\n\n"
     << "2 jobs against 1: EDF " << Fixed(edf2_mbs / edf1_mbs, 2) << "×, WFDB "
     << Fixed(wfdb2_mbs / wfdb1_mbs, 2)
     << "×. Values shards of 1 and 2 jobs byte-identical: " << (identical ? "yes" : "NO")
     << ". Cores used (CPU s / wall s of the imports): 1 job " << Fixed(cpu1 / wall1, 2)
     << ", 2 jobs " << Fixed(cpu2 / wall2, 2) << "; CPU s 1 job " << Fixed(cpu1, 1) << ", 2 jobs "
     << Fixed(cpu2, 1) << ".\n";
  if (big_rss_mib >= 0) {
    md << "\nLarge EDF: " << Fixed(big_bytes / (1024.0 * 1024 * 1024), 2)
       << " GiB imported with 2 jobs in " << Fixed(big_s, 1) << " s, peak RSS "
       << Fixed(big_rss_mib, 1) << " MiB.\n";
  }
  std::ofstream(args.out / "import.md") << md.str();
  std::ofstream(args.out / "import.json") << report.dump(2) << "\n";
  std::cout << md.str();
  if (args.scratch.empty()) fs::remove_all(scratch);
  return identical ? 0 : 1;
}
