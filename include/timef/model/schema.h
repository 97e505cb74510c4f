// The schema of a release (docs/format.md §5.3): one spec per spec_type, one annotation descriptor
// per key, the task types present. DeriveSchema() derives it from the model; the manifest stores
// this same type (manifest::Schema is a using-declaration of it), and the catalog audit checks the
// catalog against it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/model/spec.h"
#include "timef/vocabulary.h"

namespace timef::model {

class Dataset;

using ::timef::AnnotationType;
using ::timef::AnnotationValueType;
using ::timef::ParseAnnotationType;
using ::timef::ParseAnnotationValueType;
using ::timef::TaskType;

// An annotations entry of the schema. Plain data.
struct AnnotationDescriptor {
  std::string key;
  AnnotationType annotation_type = AnnotationType::kStatic;
  std::optional<AnnotationValueType> value_type;
  std::optional<std::string> unit;
  std::optional<std::string> description;

  bool operator==(const AnnotationDescriptor&) const = default;
};

// Plain data. Serialized by the manifest as {"time_series_specs": [...], "annotations": [...],
// "tasks": [{"task_type": T}]}; each list is sorted by its key field and unique by it.
struct Schema {
  std::vector<Spec> time_series_specs;            // sorted by spec_type
  std::vector<AnnotationDescriptor> annotations;  // sorted by key
  std::vector<TaskType> tasks;                    // sorted by name

  bool operator==(const Schema&) const = default;
};

// Derives the schema from every signal, annotation (occurrences and registered) and task.
// ValidationError for two specs of one spec_type that differ, or a key whose uses disagree on
// span type, value type, unit or description (a missing unit/description yields to a present one).
Schema DeriveSchema(const Dataset& dataset);

}  // namespace timef::model
