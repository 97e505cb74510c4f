#include "catalog/hydrate/hydrate.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>
#include <numeric>
#include <string>
#include <unordered_map>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/duckdb/duckdb_statement.h"
#include "catalog/hydrate/hydrate_graph.h"
#include "catalog/hydrate/lookup.h"
#include "catalog/task_filter_sql.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

std::vector<int64_t> Column(Result result) {
  std::vector<int64_t> out;
  while (std::optional<Chunk> chunk = result.Next()) {
    auto column = chunk->Int64(0);
    for (idx_t row = 0; row < chunk->size(); ++row) out.push_back(column.Get(row));
  }
  return out;
}

// The high-water marks of control_metadata (§4, §6.3): each key once, a decimal int64 ≥ 0.
model::IdHighWater ReadHighWaterMarks(Connection& connection) {
  Result r = connection.Query(
      "SELECT \"key\", \"value\" FROM control_metadata WHERE \"key\" IN "
      "('max_record_id', 'max_signal_id', 'max_task_id')",
      "control_metadata");
  std::map<std::string, int64_t, std::less<>> marks;
  while (std::optional<Chunk> chunk = r.Next()) {
    for (idx_t row = 0; row < chunk->size(); ++row) {
      const std::string_view key = chunk->Varchar(0).Get(row);
      const std::string_view text = chunk->Varchar(1).Get(row);
      int64_t value = -1;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || end != text.data() + text.size() || value < 0) {
        throw FormatError({.object = "control_metadata", .where = std::string(key)},
                          "'" + std::string(text) + "' is not a decimal high-water mark ≥ 0");
      }
      if (!marks.emplace(key, value).second) {
        throw FormatError({.object = "control_metadata", .where = std::string(key)},
                          "the key appears more than once");
      }
    }
  }
  auto mark = [&](std::string_view key) {
    auto found = marks.find(key);
    if (found == marks.end()) {
      throw FormatError({.object = "control_metadata", .where = std::string(key)},
                        "the high-water mark is missing");
    }
    return found->second;
  };
  model::IdHighWater out;
  out.max_record_id = mark("max_record_id");
  out.max_signal_id = mark("max_signal_id");
  out.max_task_id = mark("max_task_id");
  return out;
}

// Tasks matching `filter` with task_id > after_task_id, by task_id, at most `limit`, built in
// `graph`.
std::vector<std::shared_ptr<model::Task>> TasksIn(Connection& connection, HydrateGraph& graph,
                                                  const TaskFilter& filter, int64_t after_task_id,
                                                  int64_t limit) {
  const TaskFilterSql conditions(filter, 2);
  const int limit_param = conditions.next_param();
  const std::string sql = "SELECT t.task_key, t.task_id FROM tasks t WHERE t.task_id > $1" +
                          conditions.conditions() + " ORDER BY t.task_id LIMIT $" +
                          std::to_string(limit_param);
  PreparedStatement statement = connection.Prepare(sql, "tasks");
  statement.BindInt64(1, after_task_id);
  conditions.Bind(statement);
  statement.BindInt64(limit_param, limit);
  std::vector<int64_t> keys;
  int64_t last_task_id = after_task_id;
  {
    Result result = statement.Execute();
    while (std::optional<Chunk> chunk = result.Next()) {
      auto key = chunk->Int64(0);
      auto id = chunk->Int64(1);
      for (idx_t row = 0; row < chunk->size(); ++row) {
        keys.push_back(key.Get(row));
        last_task_id = id.Get(row);
      }
    }
  }
  if (!keys.empty() && !filter.adopt.empty()) graph.AdoptRecords(filter.adopt);
  // Without conditions, the tasks selected are exactly those with an ID in (after, last]: the task
  // queries join that range instead of a bound list of every key (binding and joining 50,000 keys
  // per IterTasks round was half of a stream, issue 37).
  std::string range;
  if (conditions.conditions().empty() && filter.adopt.empty()) {
    range = "SELECT task_key AS k FROM tasks WHERE task_id > " + std::to_string(after_task_id) +
            " AND task_id <= " + std::to_string(last_task_id);
  }
  graph.LoadTasks(keys, range);
  std::vector<std::shared_ptr<model::Task>> out;
  out.reserve(keys.size());
  for (int64_t key : keys) out.push_back(graph.task(key));
  return out;
}

}  // namespace

CatalogHydrator::CatalogHydrator(Connection connection,
                                 std::shared_ptr<const ValueResolver> requested,
                                 std::shared_ptr<const ValueResolver> parents_only,
                                 HydrateBatching batching)
    : connection_(std::move(connection)),
      requested_(std::move(requested)),
      parents_only_(std::move(parents_only)),
      batching_(batching) {}

CatalogHydrator::CatalogHydrator(Connection connection,
                                 std::shared_ptr<const ValueResolver> resolver,
                                 HydrateBatching batching)
    : CatalogHydrator(std::move(connection), resolver, resolver, batching) {}

int64_t CatalogHydrator::RecordCount() {
  return Column(connection_.Query("SELECT count(*)::BIGINT FROM records", "records")).at(0);
}

std::vector<std::pair<int64_t, int64_t>> CatalogHydrator::RecordKeysBy(
    std::string_view column, std::span<const int64_t> values) {
  const std::string c(column);
  const std::string domain = "SELECT " + c + " AS k FROM records";
  RowStream rows = RunKeyed(connection_, cache_.get(),
                            {.what = "records",
                             .sql = "SELECT r." + c +
                                    ", r.record_key FROM records r JOIN {keys} q "
                                    "ON r." +
                                    c + " = q.k ORDER BY r." + c,
                             .key_column = 0,
                             .domain = domain},
                            values);
  std::vector<std::pair<int64_t, int64_t>> out;
  out.reserve(values.size());
  while (std::optional<Chunk> chunk = rows.Next()) {
    auto value = chunk->Int64(0);
    auto key = chunk->Int64(1);
    for (idx_t row = 0; row < chunk->size(); ++row) out.emplace_back(value.Get(row), key.Get(row));
  }
  return out;
}

std::vector<std::shared_ptr<model::Record>> CatalogHydrator::BuildRecords(
    const std::vector<int64_t>& keys) {
  HydrateGraph graph(connection_, *requested_, *parents_only_, cache_.get());
  graph.LoadRecords(keys);
  std::vector<std::shared_ptr<model::Record>> out;
  out.reserve(keys.size());
  for (int64_t key : keys) out.push_back(graph.record(key));
  return out;
}

std::vector<std::shared_ptr<model::Record>> CatalogHydrator::RecordsInReadOrder(int64_t begin,
                                                                                int64_t count) {
  std::vector<int64_t> keys;
  if (cache_ != nullptr) {
    // With a row cache, the read order of every record is one cached result, so a batch (one of
    // many in a pass) runs no SQL for it.
    std::vector<int64_t> orders(static_cast<size_t>(std::max<int64_t>(0, count)));
    std::iota(orders.begin(), orders.end(), begin);
    for (const auto& [order, key] : RecordKeysBy("read_order", orders)) keys.push_back(key);
  } else {
    PreparedStatement statement = connection_.Prepare(
        "SELECT record_key FROM records WHERE read_order >= $1 AND read_order < $2 "
        "ORDER BY read_order",
        "records");
    statement.BindInt64(1, begin).BindInt64(2, begin + count);
    keys = Column(statement.Execute());
  }
  return BuildRecords(keys);
}

std::vector<std::shared_ptr<model::Record>> CatalogHydrator::RecordsById(
    std::span<const int64_t> ids) {
  std::unordered_map<int64_t, int64_t> key_of;
  for (const auto& [id, key] : RecordKeysBy("record_id", ids)) key_of[id] = key;
  std::vector<int64_t> keys;
  std::vector<int64_t> missing;
  for (int64_t id : ids) {
    auto found = key_of.find(id);
    if (found == key_of.end()) {
      missing.push_back(id);
    } else {
      keys.push_back(found->second);
    }
  }
  if (!missing.empty()) throw UnknownIds("record", missing);
  return BuildRecords(keys);
}

void CatalogHydrator::ForEachRecordBatch(
    const std::function<void(std::vector<std::shared_ptr<model::Record>>)>& batch) {
  const int64_t total = RecordCount();
  const int64_t size = std::max<int64_t>(1, batching_.record_batch);
  for (int64_t begin = 0; begin < total; begin += std::min(size, total - begin)) {
    batch(RecordsInReadOrder(begin, std::min(size, total - begin)));
  }
}

std::vector<std::shared_ptr<model::Task>> CatalogHydrator::Tasks(const TaskFilter& filter,
                                                                 int64_t after_task_id,
                                                                 int64_t limit) {
  HydrateGraph graph(connection_, *requested_, *parents_only_);
  return TasksIn(connection_, graph, filter, after_task_id, limit);
}

void CatalogHydrator::ForEachTaskBatch(
    const TaskFilter& filter,
    const std::function<void(std::vector<std::shared_ptr<model::Task>>)>& batch) {
  TaskBatches batches(requested_, parents_only_, filter, batching_);
  while (true) {
    std::vector<std::shared_ptr<model::Task>> tasks = batches.Next(connection_);
    if (tasks.empty()) return;
    batch(std::move(tasks));
  }
}

TaskBatches::TaskBatches(std::shared_ptr<const ValueResolver> requested,
                         std::shared_ptr<const ValueResolver> parents_only, TaskFilter filter,
                         HydrateBatching batching)
    : requested_(std::move(requested)),
      parents_only_(std::move(parents_only)),
      filter_(std::move(filter)),
      batching_(batching) {}

TaskBatches::~TaskBatches() = default;

std::vector<std::shared_ptr<model::Task>> TaskBatches::Next() {
  const size_t size = static_cast<size_t>(std::max<int64_t>(1, batching_.task_batch));
  const size_t count = std::min(size, built_.size() - next_);
  // Moved out: the round gives each task up, so no reference count is touched twice.
  std::vector<std::shared_ptr<model::Task>> out(
      std::make_move_iterator(built_.begin() + next_),
      std::make_move_iterator(built_.begin() + next_ + count));
  next_ += count;
  if (next_ == built_.size()) {
    built_.clear();
    next_ = 0;
  }
  return out;
}

std::vector<std::shared_ptr<model::Task>> TaskBatches::Next(Connection& connection) {
  if (built()) return Next();
  if (last_round_) return {};
  // A round's from_tasks closure is rebuilt with it; records stay while the budget allows.
  if (graph_ && !graph_->built_parents_only_records() &&
      graph_->record_count() <= batching_.task_record_cache) {
    graph_->ForgetTasks();
    graph_->Rebind(connection);
  } else {
    graph_ = std::make_unique<HydrateGraph>(connection, *requested_, *parents_only_);
  }
  // Whole batches per round, so that a batch never mixes two graphs.
  const int64_t size = std::max<int64_t>(1, batching_.task_batch);
  // A round of whole batches: one batch when the batch alone reaches task_round (no overflow for
  // any batch size; LIMIT bounds what is built by what the catalog holds).
  const int64_t round =
      size >= batching_.task_round ? size : (batching_.task_round + size - 1) / size * size;
  try {
    built_ = TasksIn(connection, *graph_, filter_, after_, round);
  } catch (...) {
    graph_.reset();  // possibly half built
    throw;
  }
  if (static_cast<int64_t>(built_.size()) < round) {
    last_round_ = true;
    graph_.reset();
  }
  if (!built_.empty()) after_ = *built_.back()->id();
  return Next();
}

std::unique_ptr<model::Dataset> CatalogHydrator::ReadDataset() {
  // One pass over everything: the row cache would only hold a second copy.
  HydrateGraph graph(connection_, *requested_, *parents_only_);
  model::Dataset& dataset = graph.dataset();
  {
    Result r = connection_.Query(
        "SELECT alias, dataset_id, version FROM dataset_parents ORDER BY position",
        "dataset_parents");
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        dataset.AddParent(model::ParentRelease{std::string(chunk->Varchar(0).Get(row)),
                                               std::string(chunk->Varchar(1).Get(row)),
                                               std::string(chunk->Varchar(2).Get(row))});
      }
    }
  }
  dataset.set_id_base(ReadHighWaterMarks(connection_));
  graph.LoadDatasetAnnotations();
  const std::vector<int64_t> records =
      Column(connection_.Query("SELECT record_key FROM records ORDER BY read_order", "records"));
  graph.LoadRecords(records);
  for (int64_t key : records) dataset.AddRecord(graph.record(key));
  const std::vector<int64_t> tasks =
      Column(connection_.Query("SELECT task_key FROM tasks ORDER BY task_id", "tasks"));
  graph.LoadTasks(tasks);
  for (int64_t key : tasks) dataset.AddTask(graph.task(key));
  graph.LoadRegistered();
  for (const auto& annotation : graph.registered()) dataset.RegisterAnnotation(annotation);
  return graph.TakeDataset();
}

}  // namespace timef::catalog
