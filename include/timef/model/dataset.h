// The dataset being built or read: its identity, parents, records, tasks, registered annotations
// and dataset-level annotations. Card fields (name, license, …) live in the manifest module's Card
// and are joined by the writer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "timef/model/annotation.h"
#include "timef/model/ids.h"
#include "timef/model/parent.h"
#include "timef/model/record.h"
#include "timef/model/schema.h"
#include "timef/model/task.h"

namespace timef::model {

// Ownership, lifetime, threading and errors: the model objects' contract (annotation.h,
// Annotatable).
class Dataset final : public Annotatable {
 public:
  // ValidationError for an id or version that breaks §2.1.
  Dataset(std::string dataset_id, std::string version);

  const std::string& dataset_id() const { return dataset_id_; }
  const std::string& version() const { return version_; }
  std::string Ref() const { return dataset_id_ + "@" + version_; }

  const std::vector<ParentRelease>& parents() const { return parents_; }
  // ValidationError for a bad alias, id or version, a repeated alias, or this release.
  void AddParent(ParentRelease parent);

  // Records and tasks in caller (write) order.
  const std::vector<std::shared_ptr<Record>>& records() const { return records_; }
  void AddRecord(std::shared_ptr<Record> record);
  std::shared_ptr<Record> AddRecord();
  const std::vector<std::shared_ptr<Task>>& tasks() const { return tasks_; }
  void AddTask(std::shared_ptr<Task> task);
  std::shared_ptr<Task> AddTask(TaskType type);

  // Annotations that tasks reference and no object carries (static), in position order.
  const std::vector<std::shared_ptr<Annotation>>& registered_annotations() const {
    return registered_annotations_;
  }
  void RegisterAnnotation(std::shared_ptr<Annotation> annotation);
  std::shared_ptr<Annotation> RegisterAnnotation(std::shared_ptr<const AnnotationContent> content);

  // High-water marks of the version this one edits (all 0 for a new dataset); new objects get
  // IDs above them (§4).
  const IdHighWater& id_base() const { return id_base_; }
  void set_id_base(IdHighWater base) { id_base_ = base; }

  // Gives every object without an ID the next ID of its kind in write order (§4), keeping
  // explicit IDs. A record, signal or task read from another dataset (read_from_dataset() is not
  // this dataset_id) and not imported is a new object here (§4 "Other dataset"): its ID is
  // replaced by a new one and it is marked as read from this dataset. Throws ValidationError
  // (before changing anything) on a duplicate ID. Returns the new high-water marks.
  IdHighWater AssignIds();
  // max(id_base, every ID held), per kind: what the catalog stores in control_metadata.
  IdHighWater HighWater() const;

  // Checks every invariant of docs/format.md §14 that the model can check (see validate.h). Throws
  // ValidationError naming the object and the field. Returns the schema it derived on the way
  // (DeriveSchema), so a writer validates and derives once.
  Schema Validate() const;

  // "dataset org/name@1.2.3".
  std::string Describe() const override;
  bool allows_time_spans() const override { return false; }

 private:
  std::string dataset_id_;
  std::string version_;
  std::vector<ParentRelease> parents_;
  std::vector<std::shared_ptr<Record>> records_;
  std::vector<std::shared_ptr<Task>> tasks_;
  std::vector<std::shared_ptr<Annotation>> registered_annotations_;
  IdHighWater id_base_;
};

}  // namespace timef::model
