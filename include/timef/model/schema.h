// The schema a writer derives from the model (docs/format.md §5.3): one spec per spec_type, one
// annotation descriptor per key, the task types present. The writer maps it to the manifest's
// Schema; both speak the vocabulary of timef/vocabulary.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/model/annotation.h"
#include "timef/model/spec.h"
#include "timef/model/task.h"
#include "timef/vocabulary.h"

namespace timef::model {

class Dataset;

using ::timef::AnnotationType;
using ::timef::AnnotationValueType;
using ::timef::ParseAnnotationType;
using ::timef::ParseAnnotationValueType;

// The value type of an annotation of `kind`; nullopt for a marker, which has none.
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
