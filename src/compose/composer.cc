#include <algorithm>
#include <functional>
#include <set>
#include <unordered_set>

#include "compose/parent_owned.h"
#include "compose/task_records.h"
#include "timef/compose.h"
#include "timef/error.h"
#include "writer/provenance.h"

namespace timef {
namespace fs = std::filesystem;

struct Composer::Parent {
  Reader* reader = nullptr;
  std::set<std::int64_t> record_ids;  // parent IDs imported under this alias
  std::set<std::int64_t> task_ids;
  // Imported records and tasks by parent ID, for tasks to reference.
  std::map<std::int64_t, std::shared_ptr<model::Record>> records;
  std::map<std::int64_t, std::shared_ptr<model::Task>> tasks;
};

// One imported object with its parent-owned state at import.
struct Composer::Imported {
  std::shared_ptr<model::Record> record;
  std::shared_ptr<model::Task> task;
  compose::ParentOwned owned;
};

namespace {

void MarkInherited(model::Annotatable& object, const std::string& alias) {
  for (const auto& a : object.annotations()) a->set_inherited_from(alias);
}

void MarkSource(model::Source& source, const std::string& alias) {
  MarkInherited(source, alias);
  for (const auto& signal : source.signals()) MarkInherited(*signal, alias);
  for (const auto& child : source.children()) MarkSource(*child, alias);
}

// Every occurrence attached to `record` and below it.
void CollectAnnotations(const model::Record& record,
                        std::unordered_set<const model::Annotation*>& out) {
  for (const auto& a : record.annotations()) out.insert(a.get());
  std::vector<const model::Source*> pending;
  for (const auto& s : record.sources()) pending.push_back(s.get());
  while (!pending.empty()) {
    const model::Source* source = pending.back();
    pending.pop_back();
    for (const auto& a : source->annotations()) out.insert(a.get());
    for (const auto& signal : source->signals()) {
      for (const auto& a : signal->annotations()) out.insert(a.get());
    }
    for (const auto& c : source->children()) pending.push_back(c.get());
  }
}

// While alive, the imported records and signals of one alias look as the parent stores them:
// their parent IDs, and no overlay annotations. The parent's reader then adopts them as task
// inputs (TaskQuery::input_records), so that imported tasks reference the child's copies.
class ParentViewScope {
 public:
  explicit ParentViewScope(const std::vector<std::shared_ptr<model::Record>>& records) {
    for (const auto& r : records) Hide(*r);
  }
  ~ParentViewScope() {
    for (auto it = restores_.rbegin(); it != restores_.rend(); ++it) (*it)();
  }
  ParentViewScope(const ParentViewScope&) = delete;
  ParentViewScope& operator=(const ParentViewScope&) = delete;

 private:
  void HideOverlays(model::Annotatable& object) {
    std::vector<std::shared_ptr<model::Annotation>> all = object.annotations();
    object.ClearAnnotations();
    for (const auto& a : all) {
      if (a->inherited()) object.AddAnnotation(a);
    }
    restores_.push_back([&object, all] {
      object.ClearAnnotations();
      for (const auto& a : all) object.AddAnnotation(a);
    });
  }
  void HideSource(model::Source& source) {
    HideOverlays(source);
    for (const auto& signal : source.signals()) HideOverlays(*signal);
    for (const auto& child : source.children()) HideSource(*child);
  }
  void Hide(model::Record& record) {
    const std::int64_t local = *record.id();
    record.set_id(record.import_marker()->parent_id);
    restores_.push_back([&record, local] { record.set_id(local); });
    for (const auto& signal : record.Signals()) {
      const std::int64_t local_signal = *signal->id();
      signal->set_id(signal->import_marker()->parent_id);
      restores_.push_back([signal, local_signal] { signal->set_id(local_signal); });
    }
    HideOverlays(record);
    for (const auto& source : record.sources()) HideSource(*source);
  }
  std::vector<std::function<void()>> restores_;
};

// Whether every record `task` references is one of `imported` (parent IDs).
bool UsesOnly(const model::Task& task, const std::set<std::int64_t>& imported) {
  for (const auto& r : compose::RecordsOf(task)) {
    if (!r || !r->id() || !imported.contains(*r->id())) return false;
  }
  return true;
}

}  // namespace

Composer::Composer(model::Dataset& child) : child_(child) {}
Composer::~Composer() = default;

void Composer::AddParent(const std::string& alias, Reader& parent) {
  const manifest::Manifest& m = parent.manifest();
  child_.AddParent(model::ParentRelease{alias, m.dataset_id, m.metadata.dataset_version});
  auto entry = std::make_unique<Parent>();
  entry->reader = &parent;
  parents_[alias] = std::move(entry);
}

Composer::Parent& Composer::ParentOf(const std::string& alias) {
  auto it = parents_.find(alias);
  if (it == parents_.end()) {
    throw ValidationError({.object = child_.Describe(), .where = "parents"},
                          "no parent with alias '" + alias + "' (Composer::AddParent)");
  }
  return *it->second;
}

std::vector<std::shared_ptr<model::Record>> Composer::ImportRecords(
    const std::string& alias, std::span<const std::int64_t> parent_ids) {
  Parent& parent = ParentOf(alias);
  std::set<std::int64_t> seen;
  for (std::int64_t id : parent_ids) {
    if (parent.record_ids.contains(id) || !seen.insert(id).second) {
      throw ValidationError({.object = child_.Describe(), .where = "imports"},
                            "record " + std::to_string(id) + " of '" + alias +
                                "' is already imported; a parent object is imported once");
    }
  }
  std::vector<std::shared_ptr<model::Record>> records = parent.reader->GetRecords(parent_ids);
  model::IdHighWater next = child_.HighWater();
  for (const auto& record : records) {
    const std::int64_t parent_id = *record->id();
    record->set_id(++next.max_record_id);
    record->set_import_marker(model::ImportMarker{alias, parent_id});
    for (const auto& signal : record->Signals()) {
      const std::int64_t parent_signal = *signal->id();
      signal->set_id(++next.max_signal_id);
      signal->set_import_marker(model::ImportMarker{alias, parent_signal});
    }
    MarkInherited(*record, alias);
    for (const auto& source : record->sources()) MarkSource(*source, alias);
    child_.AddRecord(record);
    parent.record_ids.insert(parent_id);
    parent.records[parent_id] = record;
    imported_.push_back(std::make_unique<Imported>(
        Imported{.record = record, .task = nullptr, .owned = compose::ParentOwnedOf(*record)}));
  }
  return records;
}

std::vector<std::shared_ptr<model::Task>> Composer::ImportTasks(
    const std::string& alias, std::span<const std::int64_t> parent_task_ids) {
  Parent& parent = ParentOf(alias);
  std::set<std::int64_t> wanted;
  for (std::int64_t id : parent_task_ids) {
    if (parent.task_ids.contains(id) || !wanted.insert(id).second) {
      throw ValidationError({.object = child_.Describe(), .where = "imports"},
                            "task " + std::to_string(id) + " of '" + alias +
                                "' is already imported; a parent object is imported once");
    }
  }
  // Unknown task IDs raise NotFoundError here, before anything is imported.
  for (const auto& task : parent.reader->GetTasks(parent_task_ids)) {
    for (const auto& input : task->inputs()) {
      if (!parent.record_ids.contains(*input->id())) {
        throw ValidationError({.object = task->Describe(), .where = "inputs"},
                              "input record " + std::to_string(*input->id()) + " of '" + alias +
                                  "' is not imported; import the records before their tasks");
      }
    }
    for (const auto& from : task->from_tasks()) {
      if (!parent.task_ids.contains(*from->id()) && !wanted.contains(*from->id())) {
        throw ValidationError({.object = task->Describe(), .where = "from_tasks"},
                              "task " + std::to_string(*from->id()) + " of '" + alias +
                                  "' is not imported; import the tasks a task is built from "
                                  "before it or in the same call");
      }
    }
  }
  std::vector<std::shared_ptr<model::Record>> inputs;
  for (const auto& [id, record] : parent.records) inputs.push_back(record);
  std::vector<std::shared_ptr<model::Task>> read;
  {
    ParentViewScope scope(inputs);
    TaskQuery query;
    query.input_records = inputs;
    read = parent.reader->ReadTasks(query);
  }
  std::map<std::int64_t, std::shared_ptr<model::Task>> by_id;
  for (const auto& task : read) {
    if (wanted.contains(*task->id())) by_id[*task->id()] = task;
  }
  // This read built new objects for the registered annotations that tasks imported by earlier
  // calls reference; those were registered in the child then. The earlier tasks are read again in
  // this graph (their inputs are imported), so their references map the new objects, position by
  // position, to the ones the child holds: a registered annotation is registered once.
  std::unordered_map<const model::Annotation*, std::shared_ptr<model::Annotation>> earlier;
  for (const auto& task : read) {
    auto it = parent.tasks.find(*task->id());
    if (it == parent.tasks.end()) continue;
    const model::Task& held = *it->second;
    for (auto [now, then] : {std::pair{&task->input_annotations(), &held.input_annotations()},
                             std::pair{&task->target_annotations(), &held.target_annotations()}}) {
      for (size_t i = 0; i < now->size() && i < then->size(); ++i) {
        earlier.emplace((*now)[i].get(), (*then)[i]);
      }
    }
  }
  auto held_or = [&earlier](std::vector<std::shared_ptr<model::Annotation>> refs) {
    for (auto& a : refs) {
      if (auto it = earlier.find(a.get()); it != earlier.end()) a = it->second;
    }
    return refs;
  };
  std::unordered_set<const model::Annotation*> attached;
  for (const auto& [id, record] : parent.records) CollectAnnotations(*record, attached);
  for (const auto& r : child_.registered_annotations()) attached.insert(r.get());
  model::IdHighWater next = child_.HighWater();
  std::vector<std::shared_ptr<model::Task>> out;
  for (std::int64_t id : parent_task_ids) {
    const std::shared_ptr<model::Task>& task = by_id.at(id);
    task->set_id(++next.max_task_id);
    task->set_import_marker(model::ImportMarker{alias, id});
    MarkInherited(*task, alias);
    task->set_input_annotations(held_or(task->input_annotations()));
    task->set_target_annotations(held_or(task->target_annotations()));
    for (const auto* refs : {&task->input_annotations(), &task->target_annotations()}) {
      for (const auto& a : *refs) {
        if (attached.insert(a.get()).second) {
          a->set_inherited_from(alias);
          child_.RegisterAnnotation(a);
        }
      }
    }
    child_.AddTask(task);
    parent.task_ids.insert(id);
    parent.tasks[id] = task;
    imported_.push_back(std::make_unique<Imported>(
        Imported{.record = nullptr, .task = task, .owned = compose::ParentOwnedOf(*task)}));
    out.push_back(task);
  }
  // from_tasks point at the child's copies (imported before, or in this call).
  for (const auto& task : out) {
    std::vector<std::shared_ptr<model::Task>> from;
    for (const auto& f : task->from_tasks()) {
      from.push_back(
          f->import_marker() && f->import_marker()->alias == alias ? f : parent.tasks.at(*f->id()));
    }
    task->set_from_tasks(std::move(from));
  }
  return out;
}

std::vector<std::shared_ptr<model::Task>> Composer::ImportTasksOfImportedRecords(
    const std::string& alias) {
  Parent& parent = ParentOf(alias);
  if (parent.records.empty()) return {};
  // A plain ID query: the tasks it builds are only looked at, never imported.
  std::vector<std::int64_t> ids;
  std::map<std::int64_t, std::shared_ptr<model::Task>> candidates;
  TaskQuery query;
  query.inputs = std::vector<std::int64_t>(parent.record_ids.begin(), parent.record_ids.end());
  for (const auto& task : parent.reader->ReadTasks(query)) {
    if (UsesOnly(*task, parent.record_ids) && !parent.task_ids.contains(*task->id())) {
      candidates[*task->id()] = task;
    }
  }
  // A task built from tasks that are neither imported nor candidates is skipped, and with it the
  // tasks built from it: drop until nothing changes.
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (auto it = candidates.begin(); it != candidates.end();) {
      const bool complete = std::all_of(
          it->second->from_tasks().begin(), it->second->from_tasks().end(), [&](const auto& f) {
            return parent.task_ids.contains(*f->id()) || candidates.contains(*f->id());
          });
      if (complete) {
        ++it;
      } else {
        it = candidates.erase(it);
        dropped = true;
      }
    }
  }
  for (const auto& [id, task] : candidates) ids.push_back(id);
  return ImportTasks(alias, ids);
}

void Composer::CheckParentOwned() const {
  std::unordered_set<const void*> present;
  for (const auto& r : child_.records()) present.insert(r.get());
  for (const auto& t : child_.tasks()) present.insert(t.get());
  for (const auto& entry : imported_) {
    if (entry->record && present.contains(entry->record.get())) {
      compose::CheckUnchanged(entry->record->Describe(), entry->owned,
                              compose::ParentOwnedOf(*entry->record));
      const auto& marker = entry->record->import_marker();
      if (!marker) {
        throw ValidationError({.object = entry->record->Describe(), .where = "import"},
                              "parent-owned: the import mark was removed");
      }
    }
    if (entry->task && present.contains(entry->task.get())) {
      compose::CheckUnchanged(entry->task->Describe(), entry->owned,
                              compose::ParentOwnedOf(*entry->task));
    }
  }
}

WriteResult Composer::Write(manifest::Card card, const fs::path& root,
                            const WriteOptions& options) {
  CheckParentOwned();
  writer::Provenance provenance;
  for (const auto& [alias, parent] : parents_) {
    const manifest::Manifest& m = parent->reader->manifest();
    provenance.parent_cards[alias] = m.metadata;
    provenance.lineage[m.Ref()] = m.metadata;
    for (const auto& [ref, ancestor] : m.lineage) provenance.lineage[ref] = ancestor;
  }
  return writer::WriteChildReleaseTo(
      child_, std::move(card), root / child_.dataset_id() / child_.version(), options, provenance);
}

}  // namespace timef
