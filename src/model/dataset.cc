#include "timef/model/dataset.h"

#include <algorithm>
#include <unordered_map>

#include "model/checks.h"
#include "timef/ids.h"

namespace timef::model {

Dataset::Dataset(std::string dataset_id, std::string version)
    : dataset_id_(std::move(dataset_id)), version_(std::move(version)) {
  if (!IsValidDatasetId(dataset_id_)) {
    internal::Fail("dataset " + internal::Quoted(dataset_id_), "dataset_id",
                   "a dataset id is org/name (one slash; segments of [A-Za-z0-9._-] not "
                   "starting with '.')");
  }
  if (!Version::TryParse(version_)) {
    internal::Fail("dataset " + dataset_id_, "dataset_version",
                   "version " + internal::Quoted(version_) + " is not x.y.z");
  }
}

void Dataset::AddParent(ParentRelease parent) {
  const std::string where = "parents[" + std::to_string(parents_.size()) + "]";
  if (!IsValidAlias(parent.alias)) {
    internal::Fail(
        Describe(), where + ".alias",
        "parent alias " + internal::Quoted(parent.alias) + " must match ^[a-z][a-z0-9_-]*$");
  }
  if (!IsValidDatasetId(parent.dataset_id)) {
    internal::Fail(Describe(), where + ".dataset_id",
                   "dataset id " + internal::Quoted(parent.dataset_id) + " is not org/name");
  }
  if (!Version::TryParse(parent.version)) {
    internal::Fail(Describe(), where + ".version",
                   "version " + internal::Quoted(parent.version) + " is not x.y.z");
  }
  for (const auto& other : parents_) {
    if (other.alias == parent.alias) {
      internal::Fail(Describe(), where + ".alias",
                     "alias " + internal::Quoted(parent.alias) + " is already used");
    }
  }
  if (parent.dataset_id == dataset_id_ &&
      Version::TryParse(parent.version) == Version::TryParse(version_)) {
    internal::Fail(Describe(), where, "a release cannot be its own parent");
  }
  parents_.push_back(std::move(parent));
}

void Dataset::AddRecord(std::shared_ptr<Record> record) {
  if (!record) {
    internal::Fail(Describe(), "records[" + std::to_string(records_.size()) + "]",
                   "a record must not be null");
  }
  records_.push_back(std::move(record));
}

std::shared_ptr<Record> Dataset::AddRecord() {
  auto record = std::make_shared<Record>();
  AddRecord(record);
  return record;
}

void Dataset::AddTask(std::shared_ptr<Task> task) {
  if (!task) {
    internal::Fail(Describe(), "tasks[" + std::to_string(tasks_.size()) + "]",
                   "a task must not be null");
  }
  tasks_.push_back(std::move(task));
}

std::shared_ptr<Task> Dataset::AddTask(TaskType type) {
  auto task = std::make_shared<Task>(type);
  AddTask(task);
  return task;
}

void Dataset::RegisterAnnotation(std::shared_ptr<Annotation> annotation) {
  const std::string where =
      "registered_annotations[" + std::to_string(registered_annotations_.size()) + "]";
  if (!annotation) internal::Fail(Describe(), where, "an annotation must not be null");
  if (!std::holds_alternative<StaticSpan>(annotation->span())) {
    internal::Fail(Describe(), where + ".span",
                   "registered annotations are static, got a " +
                       std::string(SpanTypeName(annotation->span())) + " span");
  }
  registered_annotations_.push_back(std::move(annotation));
}

std::shared_ptr<Annotation> Dataset::RegisterAnnotation(
    std::shared_ptr<const AnnotationContent> content) {
  auto annotation = std::make_shared<Annotation>(std::move(content));
  RegisterAnnotation(annotation);
  return annotation;
}

namespace {

// Collects the explicit IDs of one kind and rejects a repeat, naming the second holder.
class IdSet {
 public:
  IdSet(const char* kind, const char* field) : kind_(kind), field_(field) {}

  void Add(std::optional<int64_t> id, const std::string& holder) {
    if (!id) return;
    auto [it, inserted] = owners_.emplace(*id, holder);
    if (!inserted) {
      internal::Fail(holder, field_,
                     "duplicate " + std::string(kind_) + " ID " + std::to_string(*id) +
                         " (also used by " + it->second + ")");
    }
    max_ = std::max(max_, *id);
  }
  int64_t max() const { return max_; }

 private:
  const char* kind_;
  const char* field_;
  std::unordered_map<int64_t, std::string> owners_;
  int64_t max_ = 0;
};

}  // namespace

namespace {

// True for an object read from another dataset that is not an import: §4 "Other dataset".
template <class Object>
bool FromOtherDataset(const Object& object, const std::string& dataset_id) {
  return object.read_from_dataset() && *object.read_from_dataset() != dataset_id &&
         !object.import_marker();
}

}  // namespace

IdHighWater Dataset::AssignIds() {
  // An ID an object brings from another dataset is no ID here: it neither collides nor counts.
  auto id_here = [this](const auto& object) -> std::optional<int64_t> {
    return FromOtherDataset(object, dataset_id_) ? std::nullopt : object.id();
  };
  IdSet record_ids("record", "record_id");
  IdSet signal_ids("signal", "signal_id");
  IdSet task_ids("task", "task_id");
  std::vector<std::shared_ptr<Signal>> signals;
  for (const auto& record : records_) {
    record_ids.Add(id_here(*record), record->Describe());
    for (auto& signal : record->Signals()) {
      signal_ids.Add(id_here(*signal), signal->Describe());
      signals.push_back(std::move(signal));
    }
  }
  for (const auto& task : tasks_) task_ids.Add(id_here(*task), task->Describe());

  int64_t next_record = std::max(id_base_.max_record_id, record_ids.max()) + 1;
  int64_t next_signal = std::max(id_base_.max_signal_id, signal_ids.max()) + 1;
  int64_t next_task = std::max(id_base_.max_task_id, task_ids.max()) + 1;
  // Checked: now the IDs change.
  auto assign = [this, &id_here](auto& object, int64_t& next) {
    if (id_here(object)) return;
    object.set_id(next++);
    object.set_read_from_dataset(object.read_from_dataset() ? std::optional(dataset_id_)
                                                            : std::nullopt);
  };
  for (const auto& record : records_) assign(*record, next_record);
  for (const auto& signal : signals) assign(*signal, next_signal);
  for (const auto& task : tasks_) assign(*task, next_task);
  return HighWater();
}

IdHighWater Dataset::HighWater() const {
  IdHighWater marks = id_base_;
  for (const auto& record : records_) {
    marks.max_record_id = std::max(marks.max_record_id, record->id().value_or(0));
    for (const auto& signal : record->Signals()) {
      marks.max_signal_id = std::max(marks.max_signal_id, signal->id().value_or(0));
    }
  }
  for (const auto& task : tasks_) {
    marks.max_task_id = std::max(marks.max_task_id, task->id().value_or(0));
  }
  return marks;
}

std::string Dataset::Describe() const { return "dataset " + Ref(); }

}  // namespace timef::model
