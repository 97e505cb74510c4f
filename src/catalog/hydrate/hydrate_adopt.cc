// HydrateGraph::AdoptRecords: records the caller already holds (read earlier from this release)
// take the place of the records a task read would build, so task inputs are the caller's objects
// (docs/format.md §11.5, read_tasks(inputs=records)). Their storage keys are found again from the
// catalog and matched to the caller's sources, signals and annotations in the order hydration
// built them.
#include <map>
#include <string>
#include <unordered_map>

#include "catalog/duckdb/duckdb_result.h"
#include "catalog/hydrate/hydrate_graph.h"
#include "catalog/hydrate/lookup.h"
#include "timef/error.h"

namespace timef::catalog {
namespace {

[[noreturn]] void Changed(const model::Record& record, const std::string& what) {
  throw ValidationError({.object = record.Describe(), .where = "input_records"},
                        "does not match the stored record (" + what +
                            "); pass records as this release's reader returned them");
}

}  // namespace

void HydrateGraph::AdoptRecords(const std::vector<std::shared_ptr<model::Record>>& records) {
  std::vector<int64_t> ids;
  std::unordered_map<int64_t, std::shared_ptr<model::Record>> by_id;
  for (const auto& record : records) {
    if (!record->id()) {
      throw ValidationError({.object = record->Describe(), .where = "input_records"},
                            "a record without an ID was not read from a release");
    }
    auto [it, inserted] = by_id.emplace(*record->id(), record);
    if (!inserted && it->second != record) {
      throw ValidationError({.object = record->Describe(), .where = "input_records"},
                            "two different Record objects have this ID");
    }
    if (inserted && !adopted_.contains(*record->id())) ids.push_back(*record->id());
  }
  if (ids.empty()) return;

  // record_id → record_key.
  std::map<int64_t, std::shared_ptr<model::Record>> by_key;
  {
    RowStream r =
        Run("SELECT q.k, r.record_key FROM {keys} q LEFT JOIN records r ON r.record_id = q.k", ids,
            "records");
    std::vector<int64_t> missing;
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        const int64_t id = chunk->Int64(0).Get(row);
        if (auto key = chunk->Int64(1).Optional(row)) {
          by_key[*key] = by_id.at(id);
        } else {
          missing.push_back(id);
        }
      }
    }
    if (!missing.empty()) {
      throw UnknownIds("record", missing);
    }
  }
  std::vector<int64_t> record_keys;
  for (const auto& [key, record] : by_key) {
    if (records_.contains(key)) {
      throw ValidationError({.object = record->Describe(), .where = "input_records"},
                            "this read already built the record");
    }
    record_keys.push_back(key);
  }
  std::vector<int64_t> object_keys = record_keys;
  std::unordered_map<int64_t, model::Annotatable*> objects;
  std::unordered_map<int64_t, std::shared_ptr<model::Source>> sources;
  std::unordered_map<int64_t, std::shared_ptr<model::Signal>> signals;
  for (const auto& [key, record] : by_key) objects[key] = record.get();

  // Sources: hydration adds siblings in (name, source_key) order, so the i-th stored sibling is
  // the i-th child of its parent (or root source of its record).
  {
    RowStream r =
        Run("SELECT s.source_key, s.record_key, s.parent_source_key, s.name FROM sources s "
            "JOIN {keys} q ON s.record_key = q.k ORDER BY s.name, s.source_key",
            record_keys, "sources");
    struct Row {
      int64_t key, record_key;
      std::optional<int64_t> parent;
      std::string name;
    };
    std::vector<Row> rows;
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        rows.push_back({chunk->Int64(0).Get(row), chunk->Int64(1).Get(row),
                        chunk->Int64(2).Optional(row), std::string(chunk->Varchar(3).Get(row))});
      }
    }
    // Parents first: resolve rows whose parent is known until none is left.
    std::map<std::pair<int64_t, int64_t>, size_t> next_child;  // (record, parent or -1) → index
    std::vector<bool> done(rows.size(), false);
    for (size_t resolved = 0, pass = 0; resolved < rows.size(); ++pass) {
      if (pass > rows.size()) Changed(*by_key.begin()->second, "source tree");
      for (size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        if (done[i] || (row.parent && !sources.contains(*row.parent))) continue;
        const model::Record& record = *by_key.at(row.record_key);
        const auto& siblings = row.parent ? sources.at(*row.parent)->children() : record.sources();
        size_t& index = next_child[{row.record_key, row.parent.value_or(-1)}];
        if (index >= siblings.size() || siblings[index]->name() != row.name) {
          Changed(record, "source '" + row.name + "'");
        }
        sources[row.key] = siblings[index++];
        objects[row.key] = sources[row.key].get();
        object_keys.push_back(row.key);
        done[i] = true;
        ++resolved;
      }
    }
    for (const auto& [key, record] : by_key) {
      if (next_child[{key, -1}] != record->sources().size()) Changed(*record, "root sources");
    }
  }
  // Signals by ID.
  {
    std::unordered_map<int64_t, std::shared_ptr<model::Signal>> signal_by_id;
    for (const auto& [key, record] : by_key) {
      for (auto& signal : record->Signals()) {
        if (signal->id()) signal_by_id[*signal->id()] = signal;
      }
    }
    RowStream r =
        Run("SELECT s.signal_key, s.signal_id FROM signals s JOIN sources so "
            "ON so.source_key = s.source_key JOIN {keys} q ON so.record_key = q.k",
            record_keys, "signals");
    size_t count = 0;
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row, ++count) {
        auto it = signal_by_id.find(chunk->Int64(1).Get(row));
        if (it == signal_by_id.end()) {
          Changed(*by_key.begin()->second,
                  "signal " + std::to_string(chunk->Int64(1).Get(row)) + " is missing");
        }
        signals[chunk->Int64(0).Get(row)] = it->second;
        objects[chunk->Int64(0).Get(row)] = it->second.get();
        object_keys.push_back(chunk->Int64(0).Get(row));
      }
    }
    if (count != signal_by_id.size()) Changed(*by_key.begin()->second, "signal count");
  }
  // Occurrences: hydration adds an object's annotations in occurrence_key order.
  std::unordered_map<int64_t, std::shared_ptr<model::Annotation>> occurrences;
  std::unordered_map<int64_t, std::shared_ptr<const model::AnnotationContent>> contents;
  {
    RowStream r =
        Run("SELECT o.occurrence_key, o.object_key, o.content_key FROM annotation_occurrences o "
            "JOIN {keys} q ON o.object_key = q.k ORDER BY o.occurrence_key",
            object_keys, "annotation_occurrences");
    std::unordered_map<int64_t, size_t> next;
    while (std::optional<Chunk> chunk = r.Next()) {
      for (idx_t row = 0; row < chunk->size(); ++row) {
        const int64_t object = chunk->Int64(1).Get(row);
        const auto& annotations = objects.at(object)->annotations();
        size_t& index = next[object];
        if (index >= annotations.size()) {
          Changed(*by_key.begin()->second, objects.at(object)->Describe() + " annotations");
        }
        const auto& annotation = annotations[index++];
        occurrences[chunk->Int64(0).Get(row)] = annotation;
        contents[chunk->Int64(2).Get(row)] = annotation->content();
      }
    }
    for (const auto& [key, object] : objects) {
      if (next[key] != object->annotations().size()) {
        Changed(*by_key.begin()->second, object->Describe() + " annotations");
      }
    }
  }
  for (const auto& [key, record] : by_key) {
    records_[key] = record;
    adopted_.insert(*record->id());
  }
  for (auto& [key, object] : objects) objects_[key] = object;
  for (auto& [key, source] : sources) sources_[key] = std::move(source);
  for (auto& [key, signal] : signals) signals_[key] = std::move(signal);
  for (auto& [key, occurrence] : occurrences) occurrences_[key] = std::move(occurrence);
  for (auto& [key, content] : contents) contents_.emplace(key, std::move(content));
}

}  // namespace timef::catalog
