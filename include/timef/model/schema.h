// The schema a writer derives from the model (FORMAT.md §5.3): one spec per spec_type, one
// annotation descriptor per key, the task types present. The writer maps it to the manifest's
// Schema (the enums convert with static_cast).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/model/annotation.h"
#include "timef/model/spec.h"
#include "timef/model/task.h"

namespace timef::model {

class Dataset;

enum class AnnotationType { kStatic, kPoint, kInterval };
// Same order as the manifest module's AnnotationValueType; a marker has no value type.
enum class AnnotationValueType { kBool, kInt, kFloat, kStr, kList };

std::string_view ToString(AnnotationType type);
std::string_view ToString(AnnotationValueType type);
AnnotationType AnnotationTypeOf(const AnnotationSpan& span);
std::optional<AnnotationValueType> ValueTypeOf(ValueKind kind);

struct AnnotationDescriptor {
  std::string key;
  AnnotationType annotation_type = AnnotationType::kStatic;
  std::optional<AnnotationValueType> value_type;
  std::optional<std::string> unit;
  std::optional<std::string> description;

  bool operator==(const AnnotationDescriptor&) const = default;
};

struct DerivedSchema {
  std::vector<Spec> time_series_specs;            // sorted by spec_type
  std::vector<AnnotationDescriptor> annotations;  // sorted by key
  std::vector<TaskType> tasks;                    // sorted by name

  bool operator==(const DerivedSchema&) const = default;
};

// Derives the schema from every signal, annotation (occurrences and registered) and task.
// ValidationError for two specs of one spec_type that differ, or a key whose uses disagree on
// span type, value type, unit or description (a missing unit/description yields to a present one).
DerivedSchema DeriveSchema(const Dataset& dataset);

}  // namespace timef::model
