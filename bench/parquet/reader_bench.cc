// The reader's hot path (Google Benchmark):
//  - one row of a TimeF-like values shard (a list of 5,000 float32 per row, zstd, 16 KiB pages)
//    read through the page index, against decoding the whole row group as readers without page
//    access do, and against DuckDB selecting that row by file_row_number;
//  - decode throughput per encoding and compression of a 256 MB file timef writes (one column per
//    encoding), timef against DuckDB's read_parquet of the same column in the same run;
//  - whole-column decode throughput of files DuckDB writes (v1 and v2 pages, several codecs),
//    with DuckDB's own scan of the same column in the same run for the ratio.
// DuckDB runs with one thread (timef decodes on the calling thread), so the ratio compares one
// core with one core. DuckDB's queries aggregate every value (sum, sum of lengths, sum of list
// sums): a count or a projection it could answer from metadata or without decoding would not
// measure decoding. ratios.py turns the JSON output into the timef/DuckDB table of
// docs/benchmarks.md.
#include <benchmark/benchmark.h>
#include <duckdb.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "parquet/file_io.h"
#include "parquet/file_reader.h"
#include "parquet/file_writer.h"

namespace timef::parquet {
namespace {

// ---- An in-memory DuckDB with one thread, and a scratch directory for the files ----

class Bench {
 public:
  Bench() {
    dir_ = std::filesystem::temp_directory_path() / "timef_reader_bench";
    std::filesystem::create_directories(dir_);
    if (duckdb_open(nullptr, &db_) != DuckDBSuccess ||
        duckdb_connect(db_, &con_) != DuckDBSuccess) {
      throw std::runtime_error("duckdb");
    }
    Run("SET threads = 1");
  }
  ~Bench() {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  static Bench& Get() {
    static Bench bench;
    return bench;
  }

  const std::filesystem::path& dir() const { return dir_; }

  void Run(const std::string& sql) {
    duckdb_result result;
    const bool ok = duckdb_query(con_, sql.c_str(), &result) == DuckDBSuccess;
    const std::string error = ok ? "" : duckdb_result_error(&result);
    duckdb_destroy_result(&result);
    if (!ok) throw std::runtime_error(error + "\nSQL: " + sql);
  }

 private:
  std::filesystem::path dir_;
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

// A DuckDB aggregate over `column` that needs every decoded value of it.
std::string DecodingAggregate(const std::string& column, bool is_string, bool is_list) {
  if (is_list) return "sum(list_sum(" + column + "))";
  if (is_string) return "sum(length(" + column + "))";
  return "sum(" + column + ")";
}

// timef decoding every row group of `column`; returns the decoded value bytes of one pass.
std::int64_t TimefDecode(benchmark::State& state, FileReader& reader, int column) {
  ColumnData data;
  std::int64_t pass_bytes = 0;
  for (auto _ : state) {
    pass_bytes = 0;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      reader.ReadColumnChunk(g, column, data);
      benchmark::DoNotOptimize(data.values.data());
      pass_bytes += static_cast<std::int64_t>(data.values.size());
    }
  }
  state.SetBytesProcessed(state.iterations() * pass_bytes);
  return pass_bytes;
}

// Decoded value bytes per (file, column), measured by timef, so DuckDB's rate uses the same unit.
std::map<std::string, std::int64_t>& ValueBytes() {
  static std::map<std::string, std::int64_t> bytes;
  return bytes;
}

std::int64_t ValueBytesOf(const std::filesystem::path& path, const std::string& column) {
  const std::string key = path.string() + "#" + column;
  auto& cache = ValueBytes();
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  FileReader reader = FileReader::OpenFile(path);
  ColumnData data;
  std::int64_t bytes = 0;
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    reader.ReadColumnChunk(g, reader.ColumnIndex(column), data);
    bytes += static_cast<std::int64_t>(data.values.size());
  }
  return cache[key] = bytes;
}

void DuckDbDecode(benchmark::State& state, const std::filesystem::path& path,
                  const std::string& column, const std::string& aggregate) {
  const std::string sql = "SELECT " + aggregate + " FROM read_parquet('" + path.string() + "')";
  Bench::Get().Run(sql);  // warm-up: parse the footer once outside the timing, as timef does
  for (auto _ : state) Bench::Get().Run(sql);
  state.SetBytesProcessed(state.iterations() * ValueBytesOf(path, column));
}

// ---- One row of a values shard: page index vs whole row group vs DuckDB ----

constexpr int kGroups = 8;
constexpr int kRowsPerGroup = 200;
constexpr int kValuesPerRow = 5000;

// A values-shard-like file in memory, built once.
const std::vector<std::byte>& ShardBytes() {
  static const std::vector<std::byte> bytes = [] {
    ColumnDescriptor column;
    column.name = "values";
    column.physical_type = Type::kFloat;
    column.is_list = true;
    WriterOptions options;  // zstd 19, 16 KiB pages: the TimeF defaults
    MemoryOutputStream out;
    FileWriter writer(out, {column}, options);
    std::mt19937 rng(1);
    std::normal_distribution<float> noise(0.0f, 0.05f);
    for (int g = 0; g < kGroups; ++g) {
      ColumnData data;
      data.physical_type = Type::kFloat;
      data.num_rows = kRowsPerGroup;
      data.list_offsets.push_back(0);
      for (int r = 0; r < kRowsPerGroup; ++r) {
        for (int k = 0; k < kValuesPerRow; ++k) {
          const float v = std::sin(0.01f * static_cast<float>(k + r)) + noise(rng);
          const auto* p = reinterpret_cast<const std::byte*>(&v);
          data.values.insert(data.values.end(), p, p + sizeof v);
        }
        data.list_offsets.push_back(std::int64_t{r + 1} * kValuesPerRow);
      }
      writer.WriteColumn(0, data.View());
      writer.FlushRowGroup();
    }
    writer.Close();
    return out.Release();
  }();
  return bytes;
}

const std::filesystem::path& ShardFile() {
  static const std::filesystem::path path = [] {
    const auto p = Bench::Get().dir() / "shard.parquet";
    FileOutputStream out(p);
    out.Write(ShardBytes());
    out.Close();
    return p;
  }();
  return path;
}

void BM_OneRowWithPageIndex(benchmark::State& state) {
  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(ShardBytes(), "shard"));
  ColumnData data;
  std::mt19937 rng(2);
  for (auto _ : state) {
    const int group = static_cast<int>(rng() % kGroups);
    const std::int64_t row = rng() % kRowsPerGroup;
    reader.ReadRows(group, 0, row, row + 1, data);
    benchmark::DoNotOptimize(data.values.data());
  }
  state.counters["pages/read"] = benchmark::Counter(
      static_cast<double>(reader.stats().data_pages_decoded), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_OneRowWithPageIndex)->Unit(benchmark::kMicrosecond);

void BM_OneRowByWholeRowGroup(benchmark::State& state) {
  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(ShardBytes(), "shard"));
  ColumnData data;
  std::mt19937 rng(2);
  for (auto _ : state) {
    reader.ReadColumnChunk(static_cast<int>(rng() % kGroups), 0, data);
    benchmark::DoNotOptimize(data.values.data());
  }
  state.counters["pages/read"] = benchmark::Counter(
      static_cast<double>(reader.stats().data_pages_decoded), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_OneRowByWholeRowGroup)->Unit(benchmark::kMicrosecond);

// The same file on disk, one row with the page index through pread (what a reader of a dataset on
// a local disk does).
void BM_OneRowWithPageIndexFromFile(benchmark::State& state) {
  FileReader reader = FileReader::OpenFile(ShardFile());
  ColumnData data;
  std::mt19937 rng(2);
  for (auto _ : state) {
    const int group = static_cast<int>(rng() % kGroups);
    const std::int64_t row = rng() % kRowsPerGroup;
    reader.ReadRows(group, 0, row, row + 1, data);
    benchmark::DoNotOptimize(data.values.data());
  }
}
BENCHMARK(BM_OneRowWithPageIndexFromFile)->Unit(benchmark::kMicrosecond);

// DuckDB fetching one row of the same file by its row number (it skips other row groups by
// the file_row_number filter but decodes the whole chunk of the one it reads).
void BM_OneRowDuckDb(benchmark::State& state) {
  const std::string path = ShardFile().string();
  std::mt19937 rng(2);
  for (auto _ : state) {
    const auto row = rng() % (kGroups * kRowsPerGroup);
    Bench::Get().Run("SELECT list_sum(\"values\") FROM read_parquet('" + path +
                     "', file_row_number = true) WHERE file_row_number = " + std::to_string(row));
  }
}
BENCHMARK(BM_OneRowDuckDb)->Unit(benchmark::kMicrosecond);

// ---- A 256 MB file timef writes: one column per encoding, uncompressed and zstd ----

constexpr std::int64_t kBigRowsPerGroup = std::int64_t{1} << 17;
// 20 row groups, 2.6 M rows: about 256 MB of PLAIN pages when uncompressed.
constexpr std::int64_t kBigRows = 20 * kBigRowsPerGroup;
constexpr int kBigListLength = 16;

struct BigColumn {
  const char* name;
  Type type;
  Encoding encoding;
  bool is_list = false;
  bool nullable = false;
  bool is_string = false;
};

const BigColumn kBigColumns[] = {
    {"i64_plain", Type::kInt64, Encoding::kPlain},
    {"i64_delta", Type::kInt64, Encoding::kDeltaBinaryPacked},
    {"f64_plain", Type::kDouble, Encoding::kPlain},
    {"f64_bss", Type::kDouble, Encoding::kByteStreamSplit},
    {"str_dict", Type::kByteArray, Encoding::kRleDictionary, false, false, true},
    {"f32_list_bss", Type::kFloat, Encoding::kByteStreamSplit, true},
    {"i32_nullable_plain", Type::kInt32, Encoding::kPlain, false, true},
};
constexpr int kBigColumnCount = static_cast<int>(std::size(kBigColumns));

template <typename T>
void Append(std::vector<std::byte>& out, T value) {
  const auto* p = reinterpret_cast<const std::byte*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

// Values resembling sensor data: a clock with jitter, noisy readings, a small label vocabulary.
ColumnData BigColumnData(int column, std::int64_t first_row, std::int64_t rows) {
  const BigColumn& spec = kBigColumns[column];
  std::mt19937_64 rng(static_cast<std::uint64_t>(first_row * 31 + column));
  std::normal_distribution<double> noise(0.0, 1.0);
  ColumnData data;
  data.physical_type = spec.type;
  data.num_rows = rows;
  if (spec.is_list) data.list_offsets.push_back(0);
  if (spec.is_string) data.byte_offsets.push_back(0);
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t row = first_row + i;
    switch (column) {
      case 0:
        Append<std::int64_t>(data.values, static_cast<std::int64_t>(rng()));
        break;
      case 1:
        Append<std::int64_t>(data.values, 1'700'000'000'000'000 + row * 1'000'000 +
                                              static_cast<std::int64_t>(rng() % 1000));
        break;
      case 2:
      case 3:
        Append<double>(data.values, std::sin(0.001 * static_cast<double>(row)) + noise(rng));
        break;
      case 4: {
        const std::string label = "label-" + std::to_string(rng() % 1000);
        const auto* p = reinterpret_cast<const std::byte*>(label.data());
        data.values.insert(data.values.end(), p, p + label.size());
        data.byte_offsets.push_back(static_cast<std::int64_t>(data.values.size()));
        break;
      }
      case 5:
        for (int k = 0; k < kBigListLength; ++k) {
          Append<float>(data.values, static_cast<float>(0.1 * k + 0.01 * noise(rng)));
        }
        data.list_offsets.push_back((i + 1) * kBigListLength);
        break;
      default: {
        const bool present = rng() % 10 != 0;
        data.validity.push_back(present ? 1 : 0);
        Append<std::int32_t>(data.values, present ? static_cast<std::int32_t>(rng() % 100000) : 0);
      }
    }
  }
  return data;
}

// kUncompressed or kZstd (level 3: level 19, the values-shard default, would take minutes to
// write 256 MB and decodes at the same speed).
const std::filesystem::path& BigFile(CompressionCodec codec) {
  static std::map<CompressionCodec, std::filesystem::path> files;
  if (auto it = files.find(codec); it != files.end()) return it->second;
  const auto path = Bench::Get().dir() /
                    (codec == CompressionCodec::kZstd ? "big_zstd3.parquet" : "big_none.parquet");
  std::vector<ColumnDescriptor> schema;
  WriterOptions options;
  options.compression = codec;
  options.compression_level = 3;
  options.data_page_target_bytes = 1 << 20;  // DuckDB-like pages; the shard above has 16 KiB ones
  for (const BigColumn& c : kBigColumns) {
    ColumnDescriptor d;
    d.name = c.name;
    d.physical_type = c.type;
    d.is_list = c.is_list;
    d.nullable = c.nullable;
    if (c.is_string) {
      d.logical_type = LogicalType::Simple(LogicalType::Kind::kString);
      d.converted_type = ConvertedType::kUtf8;
    }
    schema.push_back(d);
    ColumnWriteOptions column_options;
    column_options.encoding = c.encoding;
    options.columns.push_back(column_options);
  }
  FileOutputStream out(path);
  FileWriter writer(out, schema, options);
  for (std::int64_t first = 0; first < kBigRows; first += kBigRowsPerGroup) {
    for (int c = 0; c < kBigColumnCount; ++c) {
      writer.WriteColumn(static_cast<std::size_t>(c),
                         BigColumnData(c, first, kBigRowsPerGroup).View());
    }
    writer.FlushRowGroup();
  }
  writer.Close();
  out.Close();
  return files[codec] = path;
}

CompressionCodec BigCodec(std::int64_t arg) {
  return arg == 0 ? CompressionCodec::kUncompressed : CompressionCodec::kZstd;
}

std::string BigLabel(const benchmark::State& state) {
  const std::string codec = state.range(0) == 0 ? "none" : "zstd3";
  const std::string column =
      state.range(1) == kBigColumnCount ? "all" : kBigColumns[state.range(1)].name;
  return codec + "/" + column;
}

void BM_Big_Timef(benchmark::State& state) {
  const auto& path = BigFile(BigCodec(state.range(0)));
  FileReader reader = FileReader::OpenFile(path);
  if (state.range(1) < kBigColumnCount) {
    TimefDecode(state, reader, static_cast<int>(state.range(1)));
  } else {
    ColumnData data;
    std::int64_t pass_bytes = 0;
    for (auto _ : state) {
      pass_bytes = 0;
      for (int g = 0; g < reader.num_row_groups(); ++g) {
        for (int c = 0; c < kBigColumnCount; ++c) {
          reader.ReadColumnChunk(g, c, data);
          benchmark::DoNotOptimize(data.values.data());
          pass_bytes += static_cast<std::int64_t>(data.values.size());
        }
      }
    }
    state.SetBytesProcessed(state.iterations() * pass_bytes);
  }
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  state.SetLabel(BigLabel(state));
}

void BM_Big_DuckDb(benchmark::State& state) {
  const auto& path = BigFile(BigCodec(state.range(0)));
  if (state.range(1) < kBigColumnCount) {
    const BigColumn& c = kBigColumns[state.range(1)];
    DuckDbDecode(state, path, c.name, DecodingAggregate(c.name, c.is_string, c.is_list));
  } else {
    std::string aggregates;
    std::int64_t bytes = 0;
    for (const BigColumn& c : kBigColumns) {
      if (!aggregates.empty()) aggregates += ", ";
      aggregates += DecodingAggregate(c.name, c.is_string, c.is_list);
      bytes += ValueBytesOf(path, c.name);
    }
    const std::string sql = "SELECT " + aggregates + " FROM read_parquet('" + path.string() + "')";
    Bench::Get().Run(sql);
    for (auto _ : state) Bench::Get().Run(sql);
    state.SetBytesProcessed(state.iterations() * bytes);
  }
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  state.SetLabel(BigLabel(state));
}

// ---- Whole columns of DuckDB-written files ----

// 8 M rows: a (int64), d (double), s (dictionary strings), n (nullable int32), l (int list).
std::filesystem::path DuckDbFile(const std::string& options) {
  std::string name;
  for (char c : options) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  const auto path = Bench::Get().dir() / (name + ".parquet");
  if (!std::filesystem::exists(path)) {
    Bench::Get().Run(
        "COPY (SELECT i::BIGINT AS a, i * 0.37 AS d, 'label-' || (i % 1000) AS s,"
        " CASE WHEN i % 10 = 0 THEN NULL ELSE i::INTEGER END AS n,"
        " [i::INTEGER, (i + 1)::INTEGER, (i + 2)::INTEGER] AS l"
        " FROM range(8000000) t(i)) TO '" +
        path.string() + "' (FORMAT parquet, " + options + ")");
  }
  return path;
}

const char* const kOptions[] = {"COMPRESSION uncompressed", "COMPRESSION zstd",
                                "COMPRESSION snappy", "COMPRESSION zstd, PARQUET_VERSION v2"};
const char* const kColumnNames[] = {"a", "d", "s", "n", "l"};

std::string DuckLabel(const benchmark::State& state) {
  return std::string(kOptions[state.range(0)]) + " / " + kColumnNames[state.range(1)];
}

void BM_DuckFile_Timef(benchmark::State& state) {
  const auto path = DuckDbFile(kOptions[state.range(0)]);
  FileReader reader = FileReader::OpenFile(path);
  TimefDecode(state, reader, reader.ColumnIndex(kColumnNames[state.range(1)]));
  state.SetLabel(DuckLabel(state));
}

void BM_DuckFile_DuckDb(benchmark::State& state) {
  const auto path = DuckDbFile(kOptions[state.range(0)]);
  const std::string column = kColumnNames[state.range(1)];
  DuckDbDecode(state, path, column, DecodingAggregate(column, column == "s", column == "l"));
  state.SetLabel(DuckLabel(state));
}

// Each timef case is registered right before DuckDB's on the same file and column, so that the
// two of a pair run back to back under the same machine load.
const bool kRegistered = [] {
  for (int codec = 0; codec < 2; ++codec) {
    for (int c = 0; c <= kBigColumnCount; ++c) {
      benchmark::RegisterBenchmark("BM_Big_Timef", BM_Big_Timef)
          ->Args({codec, c})
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark("BM_Big_DuckDb", BM_Big_DuckDb)
          ->Args({codec, c})
          ->Unit(benchmark::kMillisecond);
    }
  }
  for (int o = 0; o < 4; ++o) {
    for (int c = 0; c < 5; ++c) {
      benchmark::RegisterBenchmark("BM_DuckFile_Timef", BM_DuckFile_Timef)
          ->Args({o, c})
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark("BM_DuckFile_DuckDb", BM_DuckFile_DuckDb)
          ->Args({o, c})
          ->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}();

}  // namespace
}  // namespace timef::parquet

BENCHMARK_MAIN();
