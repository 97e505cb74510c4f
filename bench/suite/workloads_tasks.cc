// Task hydration over the task-heavy corpus: every task as model objects (lazy text), against
// the SQL floor of fetching the same catalog rows with DuckDB without building any object.
#include <filesystem>
#include <fstream>

#include "core/checksum.h"
#include "suite/duckdb_peer.h"
#include "suite/stats.h"
#include "suite/workloads.h"
#include "timef/reader.h"

namespace timef::bench {
namespace {

constexpr const char* kTaskTables[] = {"tasks", "task_targets", "task_record_refs",
                                       "task_dependencies", "text_payloads"};

}  // namespace

Json TaskHydrationWorkload(const SuiteOptions& options, CorpusKind kind, bool iterate) {
  const CorpusPaths paths = PathsFor(options, kind);
  Reader reader = Reader::Open(paths.release);
  reader.RecordIds();  // the catalog is open before the clock starts
  DuckDb catalog(paths.release / manifest::kControlFileName, /*read_only=*/true,
                 options.duckdb_threads);
  Json timef = Json::array(), duckdb = Json::array(), drop = Json::array();
  std::int64_t tasks = 0, rows = 0;
  for (int rep = 0; rep < options.repeats; ++rep) {
    // ReadTasks' result is dropped after the clock stops (its own figure below): the workload
    // times the call, not the caller freeing 200,000 tasks (issue 37). IterTasks hands out one
    // batch at a time, and the loop drops each before asking for the next, inside the clock.
    std::vector<std::shared_ptr<model::Task>> read;
    Stopwatch clock;
    std::int64_t n = 0;
    if (iterate) {
      TaskStream stream = reader.IterTasks();
      while (auto batch = stream.Next()) n += static_cast<std::int64_t>(batch->size());
    } else {
      read = reader.ReadTasks();
      n = static_cast<std::int64_t>(read.size());
    }
    timef.push_back(clock.Seconds());
    tasks = n;
    if (!iterate) {
      Stopwatch drop_clock;
      read = {};
      drop.push_back(drop_clock.Seconds());
    }

    Stopwatch duck_clock;
    std::int64_t r = 0;
    for (const char* table : kTaskTables)
      r += catalog.FetchAll(std::string("SELECT * FROM ") + table);
    duckdb.push_back(duck_clock.Seconds());
    rows = r;
  }
  return Json{{"timef", timef},
              {"duckdb", duckdb},
              {"extra",
               {{"tasks", tasks},
                {"result_drop_s", iterate ? Json() : ToJson(Summarize(drop))},
                {"duckdb_rows_fetched", rows},
                {"duckdb_peer", "SELECT * of the task tables (rows only, no objects)"}}}};
}

void ReblockCatalog(const std::filesystem::path& release, std::int64_t block_size) {
  namespace fs = std::filesystem;
  const fs::path catalog = release / manifest::kControlFileName;
  const fs::path copy = release / "control.reblocked.duckdb";
  fs::remove(copy);
  {
    DuckDb db({}, /*read_only=*/false, 1);
    db.Execute("ATTACH " + QuoteSql(catalog.string()) + " AS src (READ_ONLY)");
    db.Execute("ATTACH " + QuoteSql(copy.string()) + " AS dst (BLOCK_SIZE " +
               std::to_string(block_size) + ")");
    db.Execute("COPY FROM DATABASE src TO dst");
    db.Execute("DETACH dst");
    db.Execute("DETACH src");
  }
  fs::rename(copy, catalog);
  const fs::path manifest_path = release / manifest::kManifestFileName;
  manifest::Manifest m = manifest::ReadManifest(manifest_path);
  m.files.control.size = static_cast<std::int64_t>(fs::file_size(catalog));
  m.files.control.checksum = FileChecksum(catalog);
  std::ofstream(manifest_path, std::ios::binary | std::ios::trunc) << manifest::WriteManifest(m);
}

}  // namespace timef::bench
