#include "core/enum_table.h"
#include "timef/manifest.h"

// The tables are specializations of timef::core::EnumTable, so they stand in namespace timef.
namespace timef {

TIMEF_ENUM_TABLE(manifest::License, {manifest::License::kMit, "MIT"},
                 {manifest::License::kApache2_0, "Apache-2.0"},
                 {manifest::License::kBsd2Clause, "BSD-2-Clause"},
                 {manifest::License::kBsd3Clause, "BSD-3-Clause"},
                 {manifest::License::kGpl3_0, "GPL-3.0"}, {manifest::License::kLgpl3_0, "LGPL-3.0"},
                 {manifest::License::kMpl2_0, "MPL-2.0"}, {manifest::License::kCc0_1_0, "CC0-1.0"},
                 {manifest::License::kCcBy4_0, "CC-BY-4.0"},
                 {manifest::License::kCcBySa4_0, "CC-BY-SA-4.0"},
                 {manifest::License::kCcByNc4_0, "CC-BY-NC-4.0"},
                 {manifest::License::kCcByNcSa4_0, "CC-BY-NC-SA-4.0"},
                 {manifest::License::kOdcBy1_0, "ODC-By-1.0"},
                 {manifest::License::kOdbl1_0, "ODbL-1.0"},
                 {manifest::License::kPhysioNetCredentialedHealthData1_5_0,
                  "PhysioNet-Credentialed-Health-Data-1.5.0"},
                 {manifest::License::kOther, "other"})

TIMEF_ENUM_TABLE(manifest::Domain, {manifest::Domain::kHealth, "health"},
                 {manifest::Domain::kCardiology, "cardiology"},
                 {manifest::Domain::kRespiratory, "respiratory"},
                 {manifest::Domain::kSleep, "sleep"}, {manifest::Domain::kActivity, "activity"},
                 {manifest::Domain::kMotion, "motion"}, {manifest::Domain::kEconomics, "economics"},
                 {manifest::Domain::kFinance, "finance"},
                 {manifest::Domain::kEnvironment, "environment"},
                 {manifest::Domain::kEnergy, "energy"}, {manifest::Domain::kTransport, "transport"},
                 {manifest::Domain::kObservability, "observability"},
                 {manifest::Domain::kAudio, "audio"}, {manifest::Domain::kGeneral, "general"})

TIMEF_ENUM_TABLE(manifest::Access, {manifest::Access::kOpen, "open"},
                 {manifest::Access::kCredentialed, "credentialed"},
                 {manifest::Access::kRestricted, "restricted"})

TIMEF_ENUM_TABLE(manifest::ValueEncoding, {manifest::ValueEncoding::kDictionary, "dictionary"},
                 {manifest::ValueEncoding::kByteStreamSplit, "byte_stream_split"},
                 {manifest::ValueEncoding::kPlain, "plain"})

TIMEF_ENUM_TABLE(manifest::ValueEncodingChoice, {manifest::ValueEncodingChoice::kAuto, "auto"},
                 {manifest::ValueEncodingChoice::kDictionary, "dictionary"},
                 {manifest::ValueEncodingChoice::kByteStreamSplit, "byte_stream_split"},
                 {manifest::ValueEncodingChoice::kPlain, "plain"})

TIMEF_ENUM_TABLE(manifest::ValuesBackend, {manifest::ValuesBackend::kParquet, "parquet"},
                 {manifest::ValuesBackend::kZarr, "zarr"})

}  // namespace timef

namespace timef::manifest {

using core::EnumFromName;
using core::EnumNameString;

const std::string& ToString(License value) { return EnumNameString(value); }
const std::string& ToString(Domain value) { return EnumNameString(value); }
const std::string& ToString(Access value) { return EnumNameString(value); }
const std::string& ToString(ValueEncoding value) { return EnumNameString(value); }
const std::string& ToString(ValueEncodingChoice value) { return EnumNameString(value); }
const std::string& ToString(ValuesBackend value) { return EnumNameString(value); }

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

}  // namespace timef::manifest
