// Tasks (docs/format.md §5.3, §6.3–§6.4): one class for the eight task types, with the common frame
// (inputs, targets, prompt, split, input modalities, scope, annotation references, rationale,
// from_tasks, annotations, metadata) and the per-type config columns of the `tasks` table.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/json.h"
#include "timef/model/annotation.h"
#include "timef/model/import_marker.h"
#include "timef/model/span.h"
#include "timef/model/task_target.h"
#include "timef/model/text.h"
#include "timef/vocabulary.h"

namespace timef::model {

class Record;

using ::timef::ParseTaskType;
using ::timef::TaskType;
using ::timef::ToString;

enum class Split { kTrain, kValidation, kTest };

// Declared in sorted name order, so sorting enumerators sorts names.
enum class InputModality { kAudio, kImage, kNoInput, kText, kTimeSeries };

enum class LocalizationMode { kSparse, kExhaustive };

const std::string& ToString(Split split);
const std::string& ToString(InputModality modality);
const std::string& ToString(LocalizationMode mode);
std::optional<Split> ParseSplit(std::string_view text);
std::optional<InputModality> ParseInputModality(std::string_view text);
std::optional<LocalizationMode> ParseLocalizationMode(std::string_view text);

// Ownership, lifetime, threading and errors: the model objects' contract (annotation.h,
// Annotatable).
class Task final : public Annotatable {
 public:
  explicit Task(TaskType type) : type_(type) {}

  TaskType type() const { return type_; }
  // Public ID (> 0), or nullopt until assigned.
  std::optional<int64_t> id() const { return id_; }
  void set_id(std::optional<int64_t> id);

  // Input records, in order.
  const std::vector<std::shared_ptr<Record>>& inputs() const { return inputs_; }
  void set_inputs(std::vector<std::shared_ptr<Record>> inputs);
  void AddInput(std::shared_ptr<Record> record);

  // nullopt = no inline answer (the answer is given by target_annotations); an empty vector = an
  // explicit empty answer `()`.
  const std::optional<std::vector<TaskTarget>>& targets() const { return targets_; }
  bool has_inline_targets() const { return targets_.has_value(); }
  // Checks each span target's shape (ValidationError naming the task and "targets[i]").
  void set_targets(std::optional<std::vector<TaskTarget>> targets);
  // Makes the targets present if they were absent.
  void AddTarget(TaskTarget target);

  // Absent (nullopt) differs from empty.
  const std::optional<Text>& prompt() const { return prompt_; }
  void set_prompt(std::optional<Text> prompt) { prompt_ = std::move(prompt); }
  const std::optional<Text>& rationale() const { return rationale_; }
  void set_rationale(std::optional<Text> rationale) { rationale_ = std::move(rationale); }
  const std::optional<Split>& split() const { return split_; }
  void set_split(std::optional<Split> split) { split_ = split; }

  // Declared input modalities (sorted, distinct), or nullopt to derive them.
  const std::optional<std::vector<InputModality>>& declared_input_modalities() const {
    return declared_input_modalities_;
  }
  // Sorts and de-duplicates; an empty list raises ValidationError.
  void set_input_modalities(std::optional<std::vector<InputModality>> modalities);
  // The declared modalities, else the derived ones: the modalities of the input records'
  // signals, plus text when there is a prompt; no_input and text when there are no inputs; text
  // when the inputs hold no signal (their annotations and metadata are read as text).
  std::vector<InputModality> InputModalities() const;

  // nullopt = no scope. Time scopes may name signals (empty = the whole input record); step
  // scopes name exactly one signal.
  const std::optional<ScopedSpan>& scope() const { return scope_; }
  void set_scope(std::optional<ScopedSpan> scope);

  // Ordered references to occurrences (attached to an object of the dataset) or registered
  // annotations.
  const std::vector<std::shared_ptr<Annotation>>& input_annotations() const {
    return input_annotations_;
  }
  void set_input_annotations(std::vector<std::shared_ptr<Annotation>> refs);
  void AddInputAnnotation(std::shared_ptr<Annotation> ref);
  const std::vector<std::shared_ptr<Annotation>>& target_annotations() const {
    return target_annotations_;
  }
  void set_target_annotations(std::vector<std::shared_ptr<Annotation>> refs);
  void AddTargetAnnotation(std::shared_ptr<Annotation> ref);

  // The tasks this one derives from, in order.
  const std::vector<std::shared_ptr<Task>>& from_tasks() const { return from_tasks_; }
  void set_from_tasks(std::vector<std::shared_ptr<Task>> tasks);
  void AddFromTask(std::shared_ptr<Task> task);

  // An object; the empty object until set.
  const Json& metadata() const { return metadata_.is_null() ? EmptyJsonObject() : metadata_; }
  void set_metadata(Json metadata);
  const std::optional<ImportMarker>& import_marker() const { return import_marker_; }
  void set_import_marker(std::optional<ImportMarker> marker);
  // The dataset_id of the release this object was read from (set by the reader); nullopt for an
  // object built in memory. Written into another dataset without an import, the object is new
  // there and gets a new ID (docs/format.md §4).
  const std::optional<std::string>& read_from_dataset() const { return read_from_dataset_; }
  void set_read_from_dataset(std::optional<std::string> dataset_id) {
    read_from_dataset_ = std::move(dataset_id);
  }

  // ---- per-type config: each setter raises ValidationError on a task of another type ----
  // classification: opaque vocabulary name.
  const std::optional<std::string>& target_schema() const { return target_schema_; }
  void set_target_schema(std::optional<std::string> schema);
  // scalar_prediction: canonical unit (aliases are canonicalized) and the target's name.
  const std::optional<std::string>& unit() const { return unit_; }
  void set_unit(std::optional<std::string_view> unit);
  const std::optional<std::string>& target_name() const { return target_name_; }
  void set_target_name(std::optional<std::string> name);
  // temporal_localization.
  const std::optional<LocalizationMode>& mode() const { return mode_; }
  void set_mode(std::optional<LocalizationMode> mode);
  // ts_correspondence: the records the answer is chosen from, in order.
  const std::vector<std::shared_ptr<Record>>& candidate_records() const {
    return candidate_records_;
  }
  void set_candidate_records(std::vector<std::shared_ptr<Record>> records);
  void AddCandidateRecord(std::shared_ptr<Record> record);

  // "task 7", or "task without id".
  std::string Describe() const override;
  bool allows_time_spans() const override { return false; }

 private:
  void RequireType(TaskType type, const char* field) const;

  TaskType type_;
  std::optional<int64_t> id_;
  std::vector<std::shared_ptr<Record>> inputs_;
  std::optional<std::vector<TaskTarget>> targets_;
  std::optional<Text> prompt_;
  std::optional<Text> rationale_;
  std::optional<Split> split_;
  std::optional<std::vector<InputModality>> declared_input_modalities_;
  std::optional<ScopedSpan> scope_;
  std::vector<std::shared_ptr<Annotation>> input_annotations_;
  std::vector<std::shared_ptr<Annotation>> target_annotations_;
  std::vector<std::shared_ptr<Task>> from_tasks_;
  Json metadata_;  // null until set (no allocation): metadata() is then the empty object
  std::optional<ImportMarker> import_marker_;
  std::optional<std::string> read_from_dataset_;
  std::optional<std::string> target_schema_;
  std::optional<std::string> unit_;
  std::optional<std::string> target_name_;
  std::optional<LocalizationMode> mode_;
  std::vector<std::shared_ptr<Record>> candidate_records_;
};

}  // namespace timef::model
