// Builds model objects from an open catalog (FORMAT.md §6, §13): records with their sources,
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
#include <vector>

#include "catalog/duckdb_database.h"
#include "catalog/model_writer.h"
#include "timef/model.h"

namespace timef::catalog {

struct HydrateOptions {
  // Lazy offsets of an irregular axis. Without it, loading the offsets raises Error (there is no
  // payload reader yet).
  std::function<std::shared_ptr<const model::TimeOffsets>(const OffsetsLocator&)> offsets;
  int64_t record_batch = 1000;
  int64_t task_batch = 5000;
};

struct TaskFilter {
  std::vector<int64_t> inputs;  // tasks with any of these input record IDs; empty = any
  std::optional<model::Split> split;
  std::optional<model::TaskType> type;
};

class CatalogHydrator {
 public:
  explicit CatalogHydrator(Connection connection, HydrateOptions options = {});

  int64_t RecordCount();
  // Records at read_order [begin, begin + count).
  std::vector<std::shared_ptr<model::Record>> RecordsInReadOrder(int64_t begin, int64_t count);
  // Records by ID in caller order. NotFoundError listing every unknown ID before building anything.
  std::vector<std::shared_ptr<model::Record>> RecordsById(std::span<const int64_t> ids);
  // Calls `batch` with every record in read order, options.record_batch at a time.
  void ForEachRecordBatch(
      const std::function<void(std::vector<std::shared_ptr<model::Record>>)>& batch);

  // Tasks matching `filter` with task_id > after_task_id, by task_id, at most `limit`. Records
  // and tasks they reference are built in the same graph (referenced tasks are not returned).
  std::vector<std::shared_ptr<model::Task>> Tasks(const TaskFilter& filter, int64_t after_task_id,
                                                  int64_t limit);
  void ForEachTaskBatch(
      const TaskFilter& filter,
      const std::function<void(std::vector<std::shared_ptr<model::Task>>)>& batch);

  // The whole dataset as one graph: parents, id_base = stored high-water marks, dataset
  // annotations, records in read order, tasks by task_id, registered annotations.
  std::unique_ptr<model::Dataset> ReadDataset();

 private:
  Connection connection_;
  HydrateOptions options_;
};

}  // namespace timef::catalog
