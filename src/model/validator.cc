#include "model/validator.h"

#include <algorithm>

#include "model/checks.h"
#include "timef/model/schema.h"

namespace timef::model {

Schema Dataset::Validate() const { return internal::Validator(*this).Run(); }

namespace internal {

Schema Validator::Run() {
  CheckDataset();
  const auto& records = dataset_.records();
  for (size_t i = 0; i < records.size(); ++i) IndexRecord(*records[i], i);
  for (const auto& record : records) CheckRecord(*record);
  const auto& registered = dataset_.registered_annotations();
  for (size_t i = 0; i < registered.size(); ++i) {
    CheckOccurrence(*registered[i], dataset_.Describe(),
                    "registered_annotations[" + std::to_string(i) + "]", SpanContext{});
  }
  IndexTasks();
  for (const auto& task : dataset_.tasks()) CheckTask(*task, tasks_.at(task.get()));
  CheckFromTaskCycles();
  // Conflicting specs per spec_type and conflicting descriptors per annotation key.
  return DeriveSchema(dataset_);
}

void Validator::CheckDataset() { CheckOccurrences(dataset_, dataset_.Describe(), SpanContext{}); }

void Validator::CheckAlias(const std::string& alias, const std::string& object,
                           const std::string& where) {
  const auto& parents = dataset_.parents();
  bool known = std::any_of(parents.begin(), parents.end(),
                           [&](const ParentRelease& parent) { return parent.alias == alias; });
  if (!known) {
    Fail(object, where, "parent alias " + Quoted(alias) + " is not one of the dataset's parents");
  }
}

void Validator::CheckImport(const std::optional<ImportMarker>& marker, const char* kind,
                            const std::string& object) {
  if (!marker) return;
  marker->Check(object, "import");
  CheckAlias(marker->alias, object, "import.alias");
  auto [it, inserted] =
      imports_[kind].emplace(std::make_pair(marker->alias, marker->parent_id), object);
  if (!inserted) {
    Fail(object, "import",
         "(" + marker->alias + ", " + std::to_string(marker->parent_id) +
             ") is already imported as " + it->second + "; a parent object is imported once");
  }
}

void Validator::CheckIdUnique(std::optional<int64_t> id, const char* kind,
                              const std::string& object) {
  if (!id) return;
  if (*id <= 0) Fail(object, std::string(kind) + "_id", "a public ID is > 0");
  auto [it, inserted] = ids_[kind].emplace(*id, object);
  if (!inserted) {
    Fail(object, std::string(kind) + "_id",
         "duplicate " + std::string(kind) + " ID " + std::to_string(*id) + " (also used by " +
             it->second + ")");
  }
}

std::string Validator::RecordName(const Record& record, size_t index) const {
  return record.id() ? record.Describe() : "record at position " + std::to_string(index);
}

std::string Validator::TaskName(const Task& task, size_t index) const {
  return task.id() ? task.Describe() : "task at position " + std::to_string(index);
}

std::string Validator::SignalName(const Signal& signal, const std::string& record_name) const {
  return signal.id() ? signal.Describe() : signal.Describe() + " of " + record_name;
}

const std::string& Validator::NameOf(const Record* record) const {
  return records_.at(record).name;
}

}  // namespace internal
}  // namespace timef::model
