// Builds model objects from an open catalog (docs/format.md §6, §13): records with their sources,
// signals, axes and annotations, and tasks with their targets, references, from_tasks and
// annotations. Each call runs a fixed handful of set-based queries for its whole batch and returns
// one consistent object graph: a record used by two tasks is one object, signals on one axis share
// one axis object, one content on many occurrences stays one content. Separate calls build separate
// objects.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/hydrate/value_resolver.h"
#include "catalog/rows/row_cache.h"
#include "timef/model.h"

namespace timef::catalog {

// Batch sizes of a hydrator (plain numbers; what is read from files is the ValueResolver's).
struct HydrateBatching {
  int64_t record_batch = 1000;
  int64_t task_batch = 5000;
  // ForEachTaskBatch keeps the records (with their sources, signals and annotations) it built for
  // one batch and reuses them for later batches, so a record input to tasks of many batches is
  // built once; when more than this many records are held, the next batch starts from an empty
  // graph. 0 = a separate graph per batch.
  int64_t task_record_cache = 20000;
  // TaskBatches builds this many tasks per round (rounded up to whole batches) and hands them out
  // a batch at a time: each round costs a fixed twenty-odd queries, which dominated 5,000-task
  // batches (issue 14). 0 = one batch per round.
  int64_t task_round = 0;
};

struct TaskFilter {
  // Tasks with any of these input record IDs; nullopt = any, empty = none.
  std::optional<std::vector<int64_t>> inputs;
  std::optional<model::Split> split;
  std::optional<model::TaskType> type;
  std::optional<std::vector<int64_t>> ids;  // only these task IDs; nullopt = any, empty = none
  // Tasks whose input_modalities include every one of these; empty = no constraint.
  std::vector<model::InputModality> required_modalities;
  // Tasks whose input_modalities are all among these; empty = no constraint.
  std::vector<model::InputModality> supported_modalities;
  // Records the caller holds, used as the tasks' record objects instead of building them (see
  // HydrateGraph::AdoptRecords). Does not filter: set `inputs` for that.
  std::vector<std::shared_ptr<model::Record>> adopt;
};

class HydrateGraph;

// Values, offsets and packed text are handed to a ValueResolver: `requested` for what the call
// asks for and what it references, `parents_only` for what a task read builds only because a
// requested task derives from it (the from_tasks parents, their annotations and the records only
// they reference: docs/format.md §11.5, a read's load plan does not reach them). The hydrator
// shares ownership of both. One hydrator is used by one thread at a time.
class CatalogHydrator {
 public:
  CatalogHydrator(Connection connection, std::shared_ptr<const ValueResolver> requested,
                  std::shared_ptr<const ValueResolver> parents_only, HydrateBatching batching = {});
  // One resolver for everything.
  CatalogHydrator(Connection connection, std::shared_ptr<const ValueResolver> resolver,
                  HydrateBatching batching = {});

  int64_t RecordCount();
  // Records at read_order [begin, begin + count).
  std::vector<std::shared_ptr<model::Record>> RecordsInReadOrder(int64_t begin, int64_t count);
  // Records by ID in caller order. NotFoundError listing every unknown ID before building anything.
  // With a row cache (UseRowCache), the lookup and the record queries are answered from memory
  // once the cache holds their whole results.
  std::vector<std::shared_ptr<model::Record>> RecordsById(std::span<const int64_t> ids);
  // The row cache RecordsById and RecordsInReadOrder use (shared; null = none). Task reads and
  // ReadDataset do not: they build each record once per call.
  void UseRowCache(std::shared_ptr<CatalogRowCache> cache) { cache_ = std::move(cache); }
  // Calls `batch` with every record in read order, batching.record_batch at a time.
  void ForEachRecordBatch(
      const std::function<void(std::vector<std::shared_ptr<model::Record>>)>& batch);

  // Tasks matching `filter` with task_id > after_task_id, by task_id, at most `limit`. Records
  // and tasks they reference are built in the same graph (referenced tasks are not returned).
  std::vector<std::shared_ptr<model::Task>> Tasks(const TaskFilter& filter, int64_t after_task_id,
                                                  int64_t limit);
  // Batches of Tasks(filter, …, batching.task_batch) in task_id order, through TaskBatches.
  void ForEachTaskBatch(
      const TaskFilter& filter,
      const std::function<void(std::vector<std::shared_ptr<model::Task>>)>& batch);

  // The whole dataset as one graph: parents, id_base = stored high-water marks, dataset
  // annotations, records in read order, tasks by task_id, registered annotations.
  std::unique_ptr<model::Dataset> ReadDataset();

 private:
  // (value, record_key) of the records whose `column` (record_id or read_order) holds one of
  // `values`, in column order; through the row cache when there is one.
  std::vector<std::pair<int64_t, int64_t>> RecordKeysBy(std::string_view column,
                                                        std::span<const int64_t> values);
  // The records of `keys` built in one graph, in that order.
  std::vector<std::shared_ptr<model::Record>> BuildRecords(const std::vector<int64_t>& keys);

  Connection connection_;
  std::shared_ptr<const ValueResolver> requested_;
  std::shared_ptr<const ValueResolver> parents_only_;
  HydrateBatching batching_;
  std::shared_ptr<CatalogRowCache> cache_;
};

// The tasks matching a filter in task_id order, a batch per Next(). Between calls it holds no
// DuckDB handle: each call runs on the connection it is given (the caller's lease of the catalog),
// so a fork or Close() between batches cannot invalidate it. The records one batch built (with
// their sources, signals and annotations), the dataset annotations and the registered annotations
// are reused by later rounds while at most batching.task_record_cache records are held and no
// record was built for from_tasks parents alone; tasks are built per round of
// batching.task_round tasks (whole batches: one batch is always one graph) and held until handed
// out. Shares ownership of both resolvers. One thread at a time.
class TaskBatches {
 public:
  TaskBatches(std::shared_ptr<const ValueResolver> requested,
              std::shared_ptr<const ValueResolver> parents_only, TaskFilter filter,
              HydrateBatching batching = {});
  ~TaskBatches();
  TaskBatches(const TaskBatches&) = delete;
  TaskBatches& operator=(const TaskBatches&) = delete;

  // At most batching.task_batch tasks; empty once every match was returned. After an exception
  // the next call starts from an empty graph at the same position.
  std::vector<std::shared_ptr<model::Task>> Next(Connection& connection);
  // True when the next batch is already built: Next() gives it without a query.
  bool built() const { return next_ < built_.size(); }
  std::vector<std::shared_ptr<model::Task>> Next();  // only when built()
  // True once every match was returned.
  bool done() const { return last_round_ && !built(); }

 private:
  std::shared_ptr<const ValueResolver> requested_;
  std::shared_ptr<const ValueResolver> parents_only_;
  TaskFilter filter_;
  HydrateBatching batching_;
  std::unique_ptr<HydrateGraph> graph_;
  int64_t after_ = 0;  // task_id of the last task built
  bool last_round_ = false;
  std::vector<std::shared_ptr<model::Task>> built_;  // the round, handed out from next_
  size_t next_ = 0;
};

}  // namespace timef::catalog
