// Whole-dataset validation (Dataset::Validate): the invariants of docs/format.md §14 that hold on
// the model, checked in one pass over records and one over tasks. Each failure throws
// ValidationError naming the object ("record 12", "signal 5 'lead_I'", "task 7", …) and the field.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "timef/model/dataset.h"

namespace timef::model::internal {

class Validator {
 public:
  explicit Validator(const Dataset& dataset) : dataset_(dataset) {}
  // The schema DeriveSchema found while checking (specs and descriptors agree).
  Schema Run();

 private:
  struct RecordInfo {
    std::string name;
    bool has_timeline = false;  // a time span, or a signal on a non-ordinal axis
    // Without a time span: the smallest [start, end) µs holding every non-ordinal signal's
    // samples, each signal's range ending one sample period after its last sample.
    std::optional<std::pair<int64_t, int64_t>> signal_extent;
  };
  // Where an occurrence sits, for its span checks.
  struct SpanContext {
    const Record* record = nullptr;  // null for the dataset, tasks and registered annotations
    const Signal* signal = nullptr;  // set for a signal's annotations
  };

  // validator.cc
  void CheckDataset();
  void CheckImport(const std::optional<ImportMarker>& marker, const char* kind,
                   const std::string& object);
  void CheckAlias(const std::string& alias, const std::string& object, const std::string& where);
  void CheckIdUnique(std::optional<int64_t> id, const char* kind, const std::string& object);
  std::string RecordName(const Record& record, size_t index) const;
  std::string TaskName(const Task& task, size_t index) const;
  std::string SignalName(const Signal& signal, const std::string& record_name) const;
  const std::string& NameOf(const Record* record) const;

  // validate_records.cc
  void IndexRecord(const Record& record, size_t index);
  void IndexSource(const Source& source, const Record& record, const std::string& record_name,
                   const Source* parent, const std::string& where);
  void CheckRecord(const Record& record);
  void CheckSignal(const Signal& signal, const Record& record);
  void CheckOccurrences(const Annotatable& owner, const std::string& owner_name,
                        const SpanContext& context);
  void CheckOccurrence(const Annotation& occurrence, const std::string& owner_name,
                       const std::string& where, const SpanContext& context);
  void CheckContent(const AnnotationContent& content, const std::string& owner_name,
                    const std::string& where);
  void CheckTimeInWindow(const Record& record, int64_t start, std::optional<int64_t> end,
                         const std::string& object, const std::string& where);
  // An annotation span within its record's extent: the time span when set, else signal_extent.
  void CheckSpanInExtent(const Record& record, const Annotation& occurrence, int64_t start,
                         std::optional<int64_t> end, const std::string& object,
                         const std::string& where);

  // validate_tasks.cc
  void IndexTasks();
  void CheckTask(const Task& task, const std::string& name);
  void CheckTaskSpan(const Task& task, const ScopedSpan& span, const std::string& name,
                     const std::string& where, bool is_scope);
  void CheckInputModalities(const Task& task, const std::string& name);
  void CheckAnnotationRefs(const std::vector<std::shared_ptr<Annotation>>& refs,
                           const std::string& name, const char* field);
  void CheckFromTaskCycles();

  const Dataset& dataset_;
  std::unordered_map<const Record*, RecordInfo> records_;
  std::unordered_map<const Source*, std::string> sources_;  // → its record's name
  std::unordered_map<const Signal*, const Record*> signal_record_;
  std::unordered_map<const Signal*, std::string> signal_names_;
  std::unordered_map<const Annotation*, std::string> occurrences_;  // → holder's name
  std::unordered_set<const AnnotationContent*> contents_;
  std::unordered_map<const Task*, std::string> tasks_;
  // kind → id → holder
  std::map<std::string, std::unordered_map<int64_t, std::string>> ids_;
  // kind → (alias, parent id) → holder
  std::map<std::string, std::map<std::pair<std::string, int64_t>, std::string>> imports_;
};

}  // namespace timef::model::internal
