#include "manifest/enum_table.h"
#include "timef/manifest.h"

namespace timef {
namespace manifest_internal {

#define TIMEF_ENUM_TABLE(Type, ...)                              \
  template <>                                                    \
  std::span<const EnumEntry<Type>> EnumTable<Type>() {           \
    static constexpr EnumEntry<Type> kEntries[] = {__VA_ARGS__}; \
    return kEntries;                                             \
  }

TIMEF_ENUM_TABLE(License, {License::kMit, "MIT"}, {License::kApache2_0, "Apache-2.0"},
                 {License::kBsd2Clause, "BSD-2-Clause"}, {License::kBsd3Clause, "BSD-3-Clause"},
                 {License::kGpl3_0, "GPL-3.0"}, {License::kLgpl3_0, "LGPL-3.0"},
                 {License::kMpl2_0, "MPL-2.0"}, {License::kCc0_1_0, "CC0-1.0"},
                 {License::kCcBy4_0, "CC-BY-4.0"}, {License::kCcBySa4_0, "CC-BY-SA-4.0"},
                 {License::kCcByNc4_0, "CC-BY-NC-4.0"}, {License::kCcByNcSa4_0, "CC-BY-NC-SA-4.0"},
                 {License::kOdcBy1_0, "ODC-By-1.0"}, {License::kOdbl1_0, "ODbL-1.0"},
                 {License::kPhysioNetCredentialedHealthData1_5_0,
                  "PhysioNet-Credentialed-Health-Data-1.5.0"},
                 {License::kOther, "other"})

TIMEF_ENUM_TABLE(Domain, {Domain::kHealth, "health"}, {Domain::kCardiology, "cardiology"},
                 {Domain::kRespiratory, "respiratory"}, {Domain::kSleep, "sleep"},
                 {Domain::kActivity, "activity"}, {Domain::kMotion, "motion"},
                 {Domain::kEconomics, "economics"}, {Domain::kFinance, "finance"},
                 {Domain::kEnvironment, "environment"}, {Domain::kEnergy, "energy"},
                 {Domain::kTransport, "transport"}, {Domain::kObservability, "observability"},
                 {Domain::kAudio, "audio"}, {Domain::kGeneral, "general"})

TIMEF_ENUM_TABLE(Access, {Access::kOpen, "open"}, {Access::kCredentialed, "credentialed"},
                 {Access::kRestricted, "restricted"})

TIMEF_ENUM_TABLE(ValueEncoding, {ValueEncoding::kDictionary, "dictionary"},
                 {ValueEncoding::kByteStreamSplit, "byte_stream_split"},
                 {ValueEncoding::kPlain, "plain"})

TIMEF_ENUM_TABLE(ValueEncodingChoice, {ValueEncodingChoice::kAuto, "auto"},
                 {ValueEncodingChoice::kDictionary, "dictionary"},
                 {ValueEncodingChoice::kByteStreamSplit, "byte_stream_split"},
                 {ValueEncodingChoice::kPlain, "plain"})

TIMEF_ENUM_TABLE(ValuesBackend, {ValuesBackend::kParquet, "parquet"},
                 {ValuesBackend::kZarr, "zarr"})

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

#undef TIMEF_ENUM_TABLE

}  // namespace manifest_internal

using manifest_internal::EnumFromName;
using manifest_internal::EnumName;

std::string_view ToString(License value) { return EnumName(value); }
std::string_view ToString(Domain value) { return EnumName(value); }
std::string_view ToString(Access value) { return EnumName(value); }
std::string_view ToString(ValueEncoding value) { return EnumName(value); }
std::string_view ToString(ValueEncodingChoice value) { return EnumName(value); }
std::string_view ToString(ValuesBackend value) { return EnumName(value); }
std::string_view ToString(DType value) { return EnumName(value); }
std::string_view ToString(Modality value) { return EnumName(value); }
std::string_view ToString(AnnotationType value) { return EnumName(value); }
std::string_view ToString(AnnotationValueType value) { return EnumName(value); }
std::string_view ToString(TaskType value) { return EnumName(value); }

std::optional<License> ParseLicense(std::string_view t) { return EnumFromName<License>(t); }
std::optional<Domain> ParseDomain(std::string_view t) { return EnumFromName<Domain>(t); }
std::optional<Access> ParseAccess(std::string_view t) { return EnumFromName<Access>(t); }
std::optional<ValueEncoding> ParseValueEncoding(std::string_view t) {
  return EnumFromName<ValueEncoding>(t);
}
std::optional<ValueEncodingChoice> ParseValueEncodingChoice(std::string_view t) {
  return EnumFromName<ValueEncodingChoice>(t);
}
std::optional<ValuesBackend> ParseValuesBackend(std::string_view t) {
  return EnumFromName<ValuesBackend>(t);
}
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
