#include <algorithm>
#include <set>

#include "catalog/hydrate/lookup.h"
#include "compose/task_records.h"
#include "timef/compose.h"
#include "timef/error.h"
#include "writer/provenance.h"

namespace timef {

Editor::Editor(Reader& base, std::string version) : base_(base) {
  std::unique_ptr<model::Dataset> read = base.Read();
  dataset_ = std::make_unique<model::Dataset>(read->dataset_id(), std::move(version));
  for (const auto& parent : read->parents()) dataset_->AddParent(parent);
  dataset_->set_id_base(read->id_base());
  for (const auto& a : read->annotations()) dataset_->AddAnnotation(a);
  for (const auto& r : read->records()) dataset_->AddRecord(r);
  for (const auto& t : read->tasks()) dataset_->AddTask(t);
  for (const auto& a : read->registered_annotations()) dataset_->RegisterAnnotation(a);
}

Editor::~Editor() = default;

std::vector<std::int64_t> Editor::RemoveRecords(std::span<const std::int64_t> ids) {
  std::set<std::int64_t> removed(ids.begin(), ids.end());
  std::set<std::int64_t> found;
  for (const auto& r : dataset_->records()) {
    if (r->id() && removed.contains(*r->id())) found.insert(*r->id());
  }
  std::vector<std::int64_t> missing;
  for (std::int64_t id : removed) {
    if (!found.contains(id)) missing.push_back(id);
  }
  if (!missing.empty()) throw catalog::UnknownIds("record", missing);

  auto gone = [&](const std::shared_ptr<model::Record>& r) { return removed.contains(*r->id()); };
  // Tasks that use a removed record, then (until nothing changes) tasks built from removed tasks.
  std::set<const model::Task*> dropped;
  for (const auto& t : dataset_->tasks()) {
    for (const auto& r : compose::RecordsOf(*t)) {
      if (r && r->id() && gone(r)) dropped.insert(t.get());
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& t : dataset_->tasks()) {
      if (dropped.contains(t.get())) continue;
      for (const auto& from : t->from_tasks()) {
        if (std::any_of(dataset_->tasks().begin(), dataset_->tasks().end(), [&](const auto& d) {
              return dropped.contains(d.get()) && d->id() == from->id();
            })) {
          dropped.insert(t.get());
          changed = true;
          break;
        }
      }
    }
  }
  // Rebuild the dataset without them (the model has no removal: objects are added once).
  auto next = std::make_unique<model::Dataset>(dataset_->dataset_id(), dataset_->version());
  for (const auto& parent : dataset_->parents()) next->AddParent(parent);
  next->set_id_base(dataset_->id_base());
  for (const auto& a : dataset_->annotations()) next->AddAnnotation(a);
  for (const auto& r : dataset_->records()) {
    if (!gone(r)) next->AddRecord(r);
  }
  std::vector<std::int64_t> removed_tasks;
  for (const auto& t : dataset_->tasks()) {
    if (dropped.contains(t.get())) {
      removed_tasks.push_back(*t->id());
    } else {
      next->AddTask(t);
    }
  }
  for (const auto& a : dataset_->registered_annotations()) next->RegisterAnnotation(a);
  dataset_ = std::move(next);
  std::sort(removed_tasks.begin(), removed_tasks.end());
  return removed_tasks;
}

WriteResult Editor::Write(const std::filesystem::path& root, const WriteOptions& options) {
  const manifest::Manifest& m = base_.manifest();
  manifest::Card card = m.metadata;
  card.dataset_version = dataset_->version();
  writer::Provenance provenance{.parent_cards = m.parent_cards, .lineage = m.lineage};
  return writer::WriteChildReleaseTo(*dataset_, std::move(card),
                                     root / dataset_->dataset_id() / dataset_->version(), options,
                                     provenance);
}

}  // namespace timef
