// The object graph one hydration call builds: objects by storage key, so that every reference
// inside the call resolves to the same object.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "catalog/duckdb/duckdb_database.h"
#include "catalog/hydrate/hydrate.h"
#include "catalog/hydrate/value_resolver.h"
#include "catalog/rows/row_cache.h"
#include "timef/model.h"

namespace timef::catalog {

class HydrateGraph {
 public:
  // `requested` resolves what the call asks for, `parents_only` what only from_tasks parents reach
  // (see CatalogHydrator); both must outlive the graph. With a `cache` (which must outlive the
  // graph too), the dataset row and the record queries (records, sources, signals,
  // signal_chunks, annotation occurrences) are answered from it where their whole results fit.
  HydrateGraph(Connection& connection, const ValueResolver& requested,
               const ValueResolver& parents_only, CatalogRowCache* cache = nullptr);

  // Builds the records of `record_keys` (keys already built are skipped) with everything under
  // them and their annotations, resolved by `requested`.
  void LoadRecords(const std::vector<int64_t>& record_keys) {
    LoadRecords(record_keys, requested_);
  }
  // Uses the caller's `records` (read earlier from this release, unchanged) in place of building
  // them: later references to them, their sources, signals and annotations resolve to these
  // objects, and no resolver is asked for them. ValidationError when one does not match what is
  // stored, NotFoundError for an unknown ID.
  void AdoptRecords(const std::vector<std::shared_ptr<model::Record>>& records);
  // Builds the tasks of `task_keys` plus every task they reach through from_tasks or annotation
  // references, the records those tasks reference, registered and dataset annotations.
  // `key_relation`, when given, is a SELECT of exactly `task_keys` as column k: when nothing has
  // been built yet and the keys' closure is the set itself, each task query joins it instead of a
  // bound list of the keys.
  void LoadTasks(const std::vector<int64_t>& task_keys, std::string_view key_relation = {});
  // Drops the tasks built so far (and their occurrences), keeping records, registered and dataset
  // annotations: the next LoadTasks builds its tasks afresh and reuses the records.
  void ForgetTasks();
  // Runs later queries on `connection` (of the same catalog). The graph's objects hold no DuckDB
  // handle, so a graph kept across leases (TaskBatches) is rebound to each lease's connection.
  void Rebind(Connection& connection) { connection_ = &connection; }
  int64_t record_count() const { return static_cast<int64_t>(records_.size()); }
  // True once a LoadTasks built records with the `parents_only` resolver (only from_tasks parents
  // reference them) and it differs from `requested`: such records must not be reused for a later
  // batch's requested tasks.
  bool built_parents_only_records() const { return built_parents_only_records_; }
  // Attaches the dataset's own annotations to dataset() (once).
  void LoadDatasetAnnotations();
  // Builds the registered annotations (once).
  void LoadRegistered();

  model::Dataset& dataset() { return *dataset_; }
  std::unique_ptr<model::Dataset> TakeDataset() { return std::move(dataset_); }
  int64_t dataset_key() const { return dataset_key_; }
  const std::shared_ptr<model::Record>& record(int64_t key) const { return records_.at(key); }
  const std::shared_ptr<model::Task>& task(int64_t key) const { return tasks_.at(key); }
  // Registered annotations in position order (after LoadTasks).
  const std::vector<std::shared_ptr<model::Annotation>>& registered() const { return registered_; }

 private:
  // `sql` with {keys} bound to `keys` (see KeyedQuery), always as SQL. `every_key`, when given, is
  // a SELECT of exactly `keys` as column k, joined in place of the bound list (cheaper for a long
  // list: binding 200,000 keys was a third of reading every task, issue 14).
  RowStream Run(std::string_view sql, const std::vector<int64_t>& keys, std::string_view what,
                std::string_view every_key = {});
  // A record query: from the cache when there is one and the result fits; with `every_key` (as
  // above) always as SQL, its result streamed (no other statement may run until it is read).
  RowStream Run(KeyedQuery query, const std::vector<int64_t>& keys,
                std::string_view every_key = {});
  // Each Load* below hands what it meets in files to `values`.
  void LoadRecords(const std::vector<int64_t>& record_keys, const ValueResolver& values);
  // `every_key`: as for Run.
  void LoadOccurrences(const std::vector<int64_t>& object_keys, const ValueResolver& values,
                       std::string_view every_key = {});
  // Reads the chunk rows of `signal_keys` in one query and calls values.Values per signal.
  void LoadValues(const std::vector<int64_t>& signal_keys, const ValueResolver& values);
  std::shared_ptr<const model::AnnotationContent> Content(const class Chunk& chunk, size_t row,
                                                          int first_column,
                                                          const ValueResolver& values);
  std::shared_ptr<model::Signal> Signal(int64_t key) const;
  std::shared_ptr<model::Record> Record(int64_t key) const;

  Connection* connection_;  // never null
  CatalogRowCache* cache_;
  const ValueResolver& requested_;
  const ValueResolver& parents_only_;
  std::unique_ptr<model::Dataset> dataset_;
  int64_t dataset_key_ = 1;
  bool dataset_annotations_loaded_ = false;
  bool registered_loaded_ = false;
  bool built_parents_only_records_ = false;
  std::unordered_set<int64_t> adopted_;  // record IDs
  std::unordered_map<int64_t, std::shared_ptr<model::Record>> records_;
  std::unordered_map<int64_t, std::shared_ptr<model::Source>> sources_;
  std::unordered_map<int64_t, std::shared_ptr<model::Signal>> signals_;
  std::unordered_map<int64_t, std::shared_ptr<model::Task>> tasks_;
  // Records, sources and signals by key (tasks are found in tasks_).
  std::unordered_map<int64_t, model::Annotatable*> objects_;
  std::unordered_map<int64_t, std::shared_ptr<const model::TimeAxis>> axes_;
  std::map<std::string, std::shared_ptr<const model::Spec>> specs_;
  std::unordered_map<int64_t, std::shared_ptr<const model::AnnotationContent>> contents_;
  std::unordered_map<int64_t, std::shared_ptr<model::Annotation>> occurrences_;
  std::vector<int64_t> task_occurrences_;  // keys of occurrences_ carried by tasks
  std::vector<std::shared_ptr<model::Annotation>> registered_;
};

}  // namespace timef::catalog
