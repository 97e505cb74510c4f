#include "timef/vocabulary.h"

#include "core/enum_table.h"

namespace timef {

TIMEF_ENUM_TABLE(DType, {DType::kBool, "bool"}, {DType::kInt8, "int8"}, {DType::kInt16, "int16"},
                 {DType::kInt32, "int32"}, {DType::kUint8, "uint8"}, {DType::kUint16, "uint16"},
                 {DType::kUint32, "uint32"}, {DType::kFloat32, "float32"},
                 {DType::kFloat64, "float64"}, {DType::kStr, "str"}, {DType::kEnum, "enum"})

TIMEF_ENUM_TABLE(Modality, {Modality::kText, "text"}, {Modality::kTimeSeries, "time_series"},
                 {Modality::kImage, "image"}, {Modality::kAudio, "audio"})

TIMEF_ENUM_TABLE(AnnotationType, {AnnotationType::kStatic, "static"},
                 {AnnotationType::kPoint, "point"}, {AnnotationType::kInterval, "interval"})

TIMEF_ENUM_TABLE(AnnotationValueType, {AnnotationValueType::kBool, "bool"},
                 {AnnotationValueType::kInt, "int"}, {AnnotationValueType::kFloat, "float"},
                 {AnnotationValueType::kStr, "str"}, {AnnotationValueType::kList, "list"})

TIMEF_ENUM_TABLE(TaskType, {TaskType::kClassification, "classification"},
                 {TaskType::kAnswer, "answer"}, {TaskType::kScalarPrediction, "scalar_prediction"},
                 {TaskType::kTemporalLocalization, "temporal_localization"},
                 {TaskType::kForecasting, "forecasting"}, {TaskType::kTsEditing, "ts_editing"},
                 {TaskType::kTsGeneration, "ts_generation"},
                 {TaskType::kTsCorrespondence, "ts_correspondence"})

using core::EnumFromName;
using core::EnumNameString;

const std::string& ToString(DType value) { return EnumNameString(value); }
const std::string& ToString(Modality value) { return EnumNameString(value); }
const std::string& ToString(AnnotationType value) { return EnumNameString(value); }
const std::string& ToString(AnnotationValueType value) { return EnumNameString(value); }
const std::string& ToString(TaskType value) { return EnumNameString(value); }

std::optional<DType> ParseDType(std::string_view t) { return EnumFromName<DType>(t); }
std::optional<Modality> ParseModality(std::string_view t) { return EnumFromName<Modality>(t); }
std::optional<AnnotationType> ParseAnnotationType(std::string_view t) {
  return EnumFromName<AnnotationType>(t);
}
std::optional<AnnotationValueType> ParseAnnotationValueType(std::string_view t) {
  return EnumFromName<AnnotationValueType>(t);
}
std::optional<TaskType> ParseTaskType(std::string_view t) { return EnumFromName<TaskType>(t); }

}  // namespace timef
