#include "timef/model/task.h"

#include <algorithm>
#include <set>

#include "core/enum_table.h"
#include "model/checks.h"
#include "timef/model/record.h"
#include "timef/units.h"

namespace timef {

TIMEF_ENUM_TABLE(model::Split, {model::Split::kTrain, "train"},
                 {model::Split::kValidation, "validation"}, {model::Split::kTest, "test"})

TIMEF_ENUM_TABLE(model::InputModality, {model::InputModality::kAudio, "audio"},
                 {model::InputModality::kImage, "image"},
                 {model::InputModality::kNoInput, "no_input"},
                 {model::InputModality::kText, "text"},
                 {model::InputModality::kTimeSeries, "time_series"})
TIMEF_ENUM_TABLE(model::LocalizationMode, {model::LocalizationMode::kSparse, "sparse"},
                 {model::LocalizationMode::kExhaustive, "exhaustive"})

}  // namespace timef

namespace timef::model {
namespace {

// The shape rules a span has on its own: interval order, step indices ≥ 0, exactly one signal on
// a step span, no null signal.
void CheckSpanShape(const ScopedSpan& span, const std::string& object, const std::string& where) {
  if (span.end() && span.start() > *span.end()) {
    internal::Fail(
        object, where,
        "interval start " + std::to_string(span.start()) + " > end " + std::to_string(*span.end()));
  }
  for (const auto& signal : span.signals) {
    if (!signal) internal::Fail(object, where + ".signals", "a scoped signal must not be null");
  }
  if (span.is_step()) {
    if (span.start() < 0) {
      internal::Fail(object, where, "step indices are ≥ 0, got " + std::to_string(span.start()));
    }
    if (span.signals.size() != 1) {
      internal::Fail(
          object, where + ".signals",
          "a step span names exactly one signal, got " + std::to_string(span.signals.size()));
    }
  }
}

}  // namespace

const std::string& ToString(Split split) { return core::EnumNameString(split); }
const std::string& ToString(InputModality modality) { return core::EnumNameString(modality); }
const std::string& ToString(LocalizationMode mode) { return core::EnumNameString(mode); }
std::optional<Split> ParseSplit(std::string_view text) { return core::EnumFromName<Split>(text); }
std::optional<InputModality> ParseInputModality(std::string_view text) {
  return core::EnumFromName<InputModality>(text);
}
std::optional<LocalizationMode> ParseLocalizationMode(std::string_view text) {
  return core::EnumFromName<LocalizationMode>(text);
}

void Task::set_id(std::optional<int64_t> id) {
  if (id && *id <= 0) {
    internal::Fail(Describe(), "task_id", "a public ID is > 0, got " + std::to_string(*id));
  }
  id_ = id;
}

void Task::set_inputs(std::vector<std::shared_ptr<Record>> inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) {
      internal::Fail(Describe(), "inputs[" + std::to_string(i) + "]", "an input must not be null");
    }
  }
  inputs_ = std::move(inputs);
}

void Task::AddInput(std::shared_ptr<Record> record) {
  if (!record) {
    internal::Fail(Describe(), "inputs[" + std::to_string(inputs_.size()) + "]",
                   "an input must not be null");
  }
  inputs_.push_back(std::move(record));
}

void Task::set_targets(std::optional<std::vector<TaskTarget>> targets) {
  if (targets) {
    for (size_t i = 0; i < targets->size(); ++i) {
      const TaskTarget& target = (*targets)[i];
      if (target.kind() >= TargetKind::kTimePoint) {
        CheckSpanShape(target.span(), Describe(), "targets[" + std::to_string(i) + "]");
      }
    }
  }
  targets_ = std::move(targets);
}

void Task::AddTarget(TaskTarget target) {
  const size_t index = targets_ ? targets_->size() : 0;
  if (target.kind() >= TargetKind::kTimePoint) {
    CheckSpanShape(target.span(), Describe(), "targets[" + std::to_string(index) + "]");
  }
  if (!targets_) targets_.emplace();
  targets_->push_back(std::move(target));
}

void Task::set_input_modalities(std::optional<std::vector<InputModality>> modalities) {
  if (modalities) {
    if (modalities->empty()) {
      internal::Fail(Describe(), "input_modalities", "the input modalities must not be empty");
    }
    for (InputModality modality : *modalities) {
      if (ParseInputModality(ToString(modality)) != modality) {
        internal::Fail(Describe(), "input_modalities", "unknown input modality");
      }
    }
    std::sort(modalities->begin(), modalities->end());
    modalities->erase(std::unique(modalities->begin(), modalities->end()), modalities->end());
  }
  declared_input_modalities_ = std::move(modalities);
}

std::vector<InputModality> Task::InputModalities() const {
  if (declared_input_modalities_) return *declared_input_modalities_;
  std::set<InputModality> derived;
  if (prompt_) derived.insert(InputModality::kText);
  if (inputs_.empty()) {
    derived.insert(InputModality::kNoInput);
    derived.insert(InputModality::kText);
  }
  bool any_signal = false;
  for (const auto& record : inputs_) {
    for (const auto& signal : record->Signals()) {
      any_signal = true;
      switch (signal->spec()->modality) {
        case Modality::kText:
          derived.insert(InputModality::kText);
          break;
        case Modality::kTimeSeries:
          derived.insert(InputModality::kTimeSeries);
          break;
        case Modality::kImage:
          derived.insert(InputModality::kImage);
          break;
        case Modality::kAudio:
          derived.insert(InputModality::kAudio);
          break;
      }
    }
  }
  if (!inputs_.empty() && !any_signal) derived.insert(InputModality::kText);
  return {derived.begin(), derived.end()};
}

void Task::set_scope(std::optional<ScopedSpan> scope) {
  if (scope) CheckSpanShape(*scope, Describe(), "scope");
  scope_ = std::move(scope);
}

namespace {
void CheckRefs(const std::vector<std::shared_ptr<Annotation>>& refs, const std::string& object,
               const char* field) {
  for (size_t i = 0; i < refs.size(); ++i) {
    if (!refs[i]) {
      internal::Fail(object, std::string(field) + "[" + std::to_string(i) + "]",
                     "an annotation reference must not be null");
    }
  }
}
}  // namespace

void Task::set_input_annotations(std::vector<std::shared_ptr<Annotation>> refs) {
  CheckRefs(refs, Describe(), "input_annotations");
  input_annotations_ = std::move(refs);
}

void Task::AddInputAnnotation(std::shared_ptr<Annotation> ref) {
  std::vector<std::shared_ptr<Annotation>> one{ref};
  CheckRefs(one, Describe(), "input_annotations");
  input_annotations_.push_back(std::move(ref));
}

void Task::set_target_annotations(std::vector<std::shared_ptr<Annotation>> refs) {
  CheckRefs(refs, Describe(), "target_annotations");
  target_annotations_ = std::move(refs);
}

void Task::AddTargetAnnotation(std::shared_ptr<Annotation> ref) {
  std::vector<std::shared_ptr<Annotation>> one{ref};
  CheckRefs(one, Describe(), "target_annotations");
  target_annotations_.push_back(std::move(ref));
}

void Task::set_from_tasks(std::vector<std::shared_ptr<Task>> tasks) {
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (!tasks[i]) {
      internal::Fail(Describe(), "from_tasks[" + std::to_string(i) + "]",
                     "a parent task must not be null");
    }
  }
  from_tasks_ = std::move(tasks);
}

void Task::AddFromTask(std::shared_ptr<Task> task) {
  if (!task) {
    internal::Fail(Describe(), "from_tasks[" + std::to_string(from_tasks_.size()) + "]",
                   "a parent task must not be null");
  }
  from_tasks_.push_back(std::move(task));
}

void Task::set_metadata(Json metadata) {
  internal::CheckMetadata(
      metadata, [this] { return Describe(); }, "metadata");
  metadata_ = std::move(metadata);
}

void Task::set_import_marker(std::optional<ImportMarker> marker) {
  if (marker) marker->Check(Describe(), "import");
  import_marker_ = std::move(marker);
}

void Task::RequireType(TaskType type, const char* field) const {
  if (type_ != type) {
    internal::Fail(Describe(), field,
                   "only " + std::string(ToString(type)) + " tasks have a " + field + " (this is " +
                       std::string(ToString(type_)) + ")");
  }
}

void Task::set_target_schema(std::optional<std::string> schema) {
  if (schema) {
    RequireType(TaskType::kClassification, "target_schema");
    internal::CheckUtf8(
        *schema, [this] { return Describe(); }, "target_schema");
  }
  target_schema_ = std::move(schema);
}

void Task::set_unit(std::optional<std::string_view> unit) {
  if (!unit) {
    unit_.reset();
    return;
  }
  RequireType(TaskType::kScalarPrediction, "unit");
  auto canonical = ParseUnit(*unit);
  if (!canonical) {
    internal::Fail(Describe(), "unit", "unit " + internal::Quoted(*unit) + " does not parse");
  }
  unit_ = std::move(*canonical);
}

void Task::set_target_name(std::optional<std::string> name) {
  if (name) {
    RequireType(TaskType::kScalarPrediction, "target_name");
    internal::CheckUtf8(
        *name, [this] { return Describe(); }, "target_name");
  }
  target_name_ = std::move(name);
}

void Task::set_mode(std::optional<LocalizationMode> mode) {
  if (mode) {
    RequireType(TaskType::kTemporalLocalization, "mode");
    if (ParseLocalizationMode(ToString(*mode)) != *mode) {
      internal::Fail(Describe(), "mode", "unknown localization mode");
    }
  }
  mode_ = mode;
}

void Task::set_candidate_records(std::vector<std::shared_ptr<Record>> records) {
  if (!records.empty()) RequireType(TaskType::kTsCorrespondence, "candidate_records");
  for (size_t i = 0; i < records.size(); ++i) {
    if (!records[i]) {
      internal::Fail(Describe(), "candidate_records[" + std::to_string(i) + "]",
                     "a candidate must not be null");
    }
  }
  candidate_records_ = std::move(records);
}

void Task::AddCandidateRecord(std::shared_ptr<Record> record) {
  RequireType(TaskType::kTsCorrespondence, "candidate_records");
  if (!record) {
    internal::Fail(Describe(),
                   "candidate_records[" + std::to_string(candidate_records_.size()) + "]",
                   "a candidate must not be null");
  }
  candidate_records_.push_back(std::move(record));
}

std::string Task::Describe() const {
  return id_ ? "task " + std::to_string(*id_) : std::string("task without id");
}

}  // namespace timef::model
