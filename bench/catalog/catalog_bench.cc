// Catalog write and hydration (issue 4): 2,000 records × 12 signals written; 10,000 records
// hydrated (all, and 100 scattered IDs batched vs one at a time); 200,000 classification tasks on
// 10,000 records written and hydrated.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/hydrate/hydrate.h"
#include "catalog/hydrate/value_resolver.h"
#include "catalog/write/model_writer.h"
#include "timef/error.h"
#include "timef/model.h"

namespace timef::catalog {
namespace {

std::filesystem::path Scratch(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "timef-catalog-bench";
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / name;
  std::filesystem::remove(path);
  return path;
}

// One chunk per signal, 128 rows per row group, 4096 per shard; no offsets, text inline.
class OneChunkEach final : public PayloadSink {
 public:
  std::vector<ChunkLocator> Chunks(const model::Signal& signal) override {
    const int64_t r = row_++;
    return std::vector<ChunkLocator>{ChunkLocator{
        .value_path = "time_series/part-" + std::string(8 - std::to_string(r / 4096).size(), '0') +
                      std::to_string(r / 4096) + ".parquet",
        .major = (r % 4096) / 128,
        .minor = r % 128,
        .n_values = signal.n_values()}};
  }
  std::optional<OffsetsLocator> StoreOffsets(const model::TimeAxis&) override {
    return std::nullopt;
  }
  std::optional<TextLocator> PackText(const model::Text&) override { return std::nullopt; }
  std::optional<TextLocator> PackTextList(const model::TextList&) override { return std::nullopt; }

 private:
  int64_t row_ = 0;
};

// Builds model objects only: signals get no values source, nothing is packed or irregular.
class NoFiles final : public ValueResolver {
 public:
  std::shared_ptr<const model::SignalValues> Values(const model::Signal&,
                                                    std::vector<ChunkLocator>) const override {
    return nullptr;
  }
  std::shared_ptr<const model::TimeOffsets> Offsets(const OffsetsLocator&, int64_t,
                                                    int64_t) const override {
    throw Error({.object = "bench"}, "no irregular axes in this benchmark");
  }
  model::Text Text(const TextLocator&, int64_t) const override { return model::Text(""); }
  model::TextList TextList(const TextLocator&, int64_t) const override { return model::TextList{}; }
};

CatalogHydrator Hydrator(const Database& db) {
  return CatalogHydrator(Connection(db), std::make_shared<const NoFiles>());
}

// `records` records, each with one device source holding `signals` signals on a shared axis and
// one record annotation; `tasks` classification tasks over them.
std::unique_ptr<model::Dataset> MakeDataset(int records, int signals, int tasks) {
  auto d = std::make_unique<model::Dataset>("bench/catalog", "1.0.0");
  auto spec = model::Spec::Make({.spec_type = "ecg_lead", .name = "ECG lead", .unit = "mV"});
  auto axis = model::TimeAxis::Regular(4000);
  auto label =
      std::make_shared<model::AnnotationContent>("label", model::AnnotationValue::OfText("normal"));
  std::vector<std::shared_ptr<model::Record>> all;
  for (int r = 0; r < records; ++r) {
    auto record = d->AddRecord();
    record->set_start_time_us(1700000000000000 + r);
    record->set_metadata(Json{{"subject", r}});
    auto device = record->AddSource("device");
    for (int s = 0; s < signals; ++s) {
      device->AddSignal(
          std::make_shared<model::Signal>("lead" + std::to_string(s), spec, axis, 5000));
    }
    record->Annotate(label);
    all.push_back(std::move(record));
  }
  for (int t = 0; t < tasks; ++t) {
    auto task = d->AddTask(model::TaskType::kClassification);
    task->AddInput(all[t % records]);
    task->set_prompt(model::Text("Rhythm?"));
    task->set_split(t % 10 == 0 ? model::Split::kTest : model::Split::kTrain);
    task->AddTarget(model::TaskTarget::OfText(t % 3 == 0 ? "afib" : "normal"));
  }
  d->AssignIds();
  d->Validate();  // WriteCatalog's precondition
  return d;
}

void BM_WriteRecords(benchmark::State& state) {
  auto d = MakeDataset(2000, 12, 0);
  for (auto _ : state) {
    const auto path = Scratch("write.duckdb");
    OneChunkEach sink;
    WriteCatalog(path, *d, sink);
  }
  state.SetItemsProcessed(state.iterations() * 2000 * 12);
}
BENCHMARK(BM_WriteRecords)->Unit(benchmark::kMillisecond)->Iterations(3);

const std::filesystem::path& TenThousand() {
  static const std::filesystem::path path = [] {
    auto d = MakeDataset(10000, 12, 200000);
    auto path = Scratch("read.duckdb");
    OneChunkEach sink;
    WriteCatalog(path, *d, sink);
    return path;
  }();
  return path;
}

void BM_HydrateAllRecords(benchmark::State& state) {
  Database db = Database::Open(TenThousand(), AccessMode::kReadOnly);
  CatalogHydrator hydrator = Hydrator(db);
  for (auto _ : state) {
    int64_t n = 0;
    hydrator.ForEachRecordBatch([&](std::vector<std::shared_ptr<model::Record>> batch) {
      n += static_cast<int64_t>(batch.size());
    });
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_HydrateAllRecords)->Unit(benchmark::kMillisecond)->Iterations(3);

std::vector<int64_t> ScatteredIds() {
  std::mt19937_64 random(7);
  std::vector<int64_t> ids;
  for (int i = 0; i < 100; ++i) ids.push_back(1 + static_cast<int64_t>(random() % 10000));
  return ids;
}

void BM_Hydrate100ByIdBatched(benchmark::State& state) {
  Database db = Database::Open(TenThousand(), AccessMode::kReadOnly);
  CatalogHydrator hydrator = Hydrator(db);
  const std::vector<int64_t> ids = ScatteredIds();
  for (auto _ : state) benchmark::DoNotOptimize(hydrator.RecordsById(ids));
}
BENCHMARK(BM_Hydrate100ByIdBatched)->Unit(benchmark::kMillisecond);

void BM_Hydrate100ByIdOneAtATime(benchmark::State& state) {
  Database db = Database::Open(TenThousand(), AccessMode::kReadOnly);
  CatalogHydrator hydrator = Hydrator(db);
  const std::vector<int64_t> ids = ScatteredIds();
  for (auto _ : state) {
    for (int64_t id : ids) benchmark::DoNotOptimize(hydrator.RecordsById(std::vector<int64_t>{id}));
  }
}
BENCHMARK(BM_Hydrate100ByIdOneAtATime)->Unit(benchmark::kMillisecond);

void BM_WriteTasks(benchmark::State& state) {
  auto d = MakeDataset(10000, 1, 200000);
  for (auto _ : state) {
    const auto path = Scratch("tasks.duckdb");
    OneChunkEach sink;
    WriteCatalog(path, *d, sink);
  }
  state.SetItemsProcessed(state.iterations() * 200000);
}
BENCHMARK(BM_WriteTasks)->Unit(benchmark::kMillisecond)->Iterations(2);

void BM_HydrateAllTasks(benchmark::State& state) {
  Database db = Database::Open(TenThousand(), AccessMode::kReadOnly);
  CatalogHydrator hydrator = Hydrator(db);
  for (auto _ : state) {
    int64_t n = 0;
    hydrator.ForEachTaskBatch({}, [&](std::vector<std::shared_ptr<model::Task>> batch) {
      n += static_cast<int64_t>(batch.size());
    });
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(state.iterations() * 200000);
}
BENCHMARK(BM_HydrateAllTasks)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace
}  // namespace timef::catalog

BENCHMARK_MAIN();
