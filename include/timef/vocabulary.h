// The schema vocabulary (docs/format.md §5.3): the enumerations that the model, the manifest, the
// catalog and the CLI all speak. Each is declared here once; `timef::model` and
// `timef::manifest` re-export them with using-declarations (the same types, not copies).
//
// Each enumerator serializes by the exact string docs/format.md gives; ToString() and Parse*()
// read one name table (src/core/vocabulary.cc). ToString() returns a reference to an immutable
// std::string that lives for the whole program, so `std::string s = ToString(x)` and
// `"dtype " + ToString(x)` work and a std::string_view of it never dangles. Plain values and free
// functions: safe to use from any thread, nothing throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace timef {

// A spec's element type.
enum class DType {
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kUint8,
  kUint16,
  kUint32,
  kFloat32,
  kFloat64,
  kStr,
  kEnum,
};

// A spec's modality; `no_input` exists only among a task's input modalities (model::InputModality)
// and is no Modality.
enum class Modality { kText, kTimeSeries, kImage, kAudio };

// The span of an annotation key's uses: the whole object, a time point or a time interval.
enum class AnnotationType { kStatic, kPoint, kInterval };

// The value type of an annotation key; a marker (no value) has none.
enum class AnnotationValueType { kBool, kInt, kFloat, kStr, kList };

enum class TaskType {
  kClassification,
  kAnswer,
  kScalarPrediction,
  kTemporalLocalization,
  kForecasting,
  kTsEditing,
  kTsGeneration,
  kTsCorrespondence,
};

// "?" for a value that is no declared enumerator.
const std::string& ToString(DType value);
const std::string& ToString(Modality value);
const std::string& ToString(AnnotationType value);
const std::string& ToString(AnnotationValueType value);
const std::string& ToString(TaskType value);

// Each returns nullopt for a string that is not exactly one of the documented names.
std::optional<DType> ParseDType(std::string_view text);
std::optional<Modality> ParseModality(std::string_view text);
std::optional<AnnotationType> ParseAnnotationType(std::string_view text);
std::optional<AnnotationValueType> ParseAnnotationValueType(std::string_view text);
std::optional<TaskType> ParseTaskType(std::string_view text);

}  // namespace timef
