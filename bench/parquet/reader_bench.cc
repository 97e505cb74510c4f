// The reader's hot path (Google Benchmark):
//  - one row of a TimeF-like values shard (a list of 5,000 float32 per row, zstd, 16 KiB pages)
//    read through the page index, against decoding the whole row group as readers without page
//    access do;
//  - whole-column decode throughput of files DuckDB writes (v1 and v2 pages, several codecs),
//    with DuckDB's own scan of the same column in the same run for the ratio.
#include <benchmark/benchmark.h>
#include <duckdb.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/file_writer.h"

namespace timef::parquet {
namespace {

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
BENCHMARK(BM_OneRowWithPageIndex);

void BM_OneRowByWholeRowGroup(benchmark::State& state) {
  FileReader reader = FileReader::Open(std::make_shared<MemoryFile>(ShardBytes(), "shard"));
  ColumnData data;
  std::mt19937 rng(2);
  for (auto _ : state) {
    reader.ReadColumnChunk(static_cast<int>(rng() % kGroups), 0, data);
    benchmark::DoNotOptimize(data.values.data());
  }
}
BENCHMARK(BM_OneRowByWholeRowGroup);

// ---- Whole columns of DuckDB-written files ----

class DuckDbFiles {
 public:
  DuckDbFiles() {
    dir_ = std::filesystem::temp_directory_path() / "timef_reader_bench";
    std::filesystem::create_directories(dir_);
    if (duckdb_open(nullptr, &db_) != DuckDBSuccess ||
        duckdb_connect(db_, &con_) != DuckDBSuccess) {
      throw std::runtime_error("duckdb");
    }
  }
  ~DuckDbFiles() {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  static DuckDbFiles& Get() {
    static DuckDbFiles files;
    return files;
  }

  // 8 M rows: a (int64), d (double), s (dictionary strings), n (nullable int32), l (int list).
  std::filesystem::path File(const std::string& options) {
    std::string name;
    for (char c : options) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    const auto path = dir_ / (name + ".parquet");
    if (!std::filesystem::exists(path)) {
      Run("COPY (SELECT i::BIGINT AS a, i * 0.37 AS d, 'label-' || (i % 1000) AS s,"
          " CASE WHEN i % 10 = 0 THEN NULL ELSE i::INTEGER END AS n,"
          " [i::INTEGER, (i + 1)::INTEGER, (i + 2)::INTEGER] AS l"
          " FROM range(8000000) t(i)) TO '" +
          path.string() + "' (FORMAT parquet, " + options + ")");
    }
    return path;
  }
  void Run(const std::string& sql) {
    duckdb_result result;
    const bool ok = duckdb_query(con_, sql.c_str(), &result) == DuckDBSuccess;
    const std::string error = ok ? "" : duckdb_result_error(&result);
    duckdb_destroy_result(&result);
    if (!ok) throw std::runtime_error(error);
  }

 private:
  std::filesystem::path dir_;
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

const char* const kOptions[] = {"COMPRESSION uncompressed", "COMPRESSION zstd",
                                "COMPRESSION snappy", "COMPRESSION zstd, PARQUET_VERSION v2"};
const char* const kColumnNames[] = {"a", "d", "s", "n", "l"};

void BM_TimefDecodeColumn(benchmark::State& state) {
  const auto path = DuckDbFiles::Get().File(kOptions[state.range(0)]);
  FileReader reader = FileReader::OpenFile(path);
  const int column = reader.ColumnIndex(kColumnNames[state.range(1)]);
  ColumnData data;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      reader.ReadColumnChunk(g, column, data);
      bytes += static_cast<std::int64_t>(data.values.size());
    }
  }
  state.SetBytesProcessed(bytes);
  state.SetLabel(std::string(kOptions[state.range(0)]) + " / " + kColumnNames[state.range(1)]);
}

// DuckDB scanning the same column (an aggregate it cannot answer from statistics, so every value
// is decoded; the aggregate itself adds a little).
void BM_DuckDbScanColumn(benchmark::State& state) {
  auto& files = DuckDbFiles::Get();
  const auto path = files.File(kOptions[state.range(0)]);
  const std::string column = kColumnNames[state.range(1)];
  const std::string expression = column == "s"   ? "sum(length(s))"
                                 : column == "l" ? "sum(len(l))"
                                                 : "sum(" + column + ")";
  for (auto _ : state) {
    files.Run("SELECT " + expression + " FROM read_parquet('" + path.string() + "')");
  }
  state.SetLabel(std::string(kOptions[state.range(0)]) + " / " + column);
}

void ColumnArgs(benchmark::internal::Benchmark* b) {
  for (int o = 0; o < 4; ++o) {
    for (int c = 0; c < 5; ++c) b->Args({o, c});
  }
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_TimefDecodeColumn)->Apply(ColumnArgs);
BENCHMARK(BM_DuckDbScanColumn)->Apply(ColumnArgs);

}  // namespace
}  // namespace timef::parquet

BENCHMARK_MAIN();
