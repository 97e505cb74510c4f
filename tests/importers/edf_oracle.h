// EDFlib (Debian libedf-dev) as the independent writer and reader of the importer tests: EDF+/BDF+
// files written through its API, read back through its API, and the plain EDF/BDF layout made
// from them by the EDF specification. Shared by importers_test and the edf_fixture program.
#pragma once

#include <edflib.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace timef::edf_oracle {

namespace fs = std::filesystem;

struct ChannelSpec {
  std::string label;
  int samples_per_record;
  double pmin, pmax;
  int dmin, dmax;
  std::string unit;
  std::string transducer = "AgAgCl electrode";
  std::string prefilter = "HP:0.1Hz LP:75Hz";
};

struct AnnotationSpec {
  int64_t onset_100us;
  int64_t duration_100us;  // < 0: none
  std::string text;
};

struct FileSpec {
  int filetype = EDFLIB_FILETYPE_EDFPLUS;
  std::vector<ChannelSpec> channels;
  int records = 3;
  int record_duration_10us = 100000;  // 1 s
  int subsecond_100ns = 0;
  std::vector<AnnotationSpec> annotations;
  int annotation_channels = 1;  // EDFlib stores one annotation per channel and data record
  uint32_t seed = 1;
};

// EDFlib's reading of a file: header, digital and physical samples, annotations.
struct EdflibRead {
  edf_hdr_struct hdr{};
  std::vector<std::vector<int>> digital;
  std::vector<std::vector<double>> physical;
  std::vector<edf_annotation_struct> annotations;
};

bool IsBdf(int filetype);
// Writes `spec` with EDFlib; returns the digital samples written, per channel.
std::vector<std::vector<int>> WriteWithEdflib(const fs::path& path, const FileSpec& spec);
std::string Trimmed(const char* text);
EdflibRead ReadWithEdflib(const fs::path& path);
// Unix µs of EDFlib's start date, time and subsecond.
int64_t EdflibStartMicros(const edf_hdr_struct& hdr);
// float32 of (digital − dmin) × (pmax − pmin) / (dmax − dmin) + pmin in double.
float PhysicalOf(int digital, const edf_param_struct& p);
std::string ReadBytes(const fs::path& path);
void WriteBytes(const fs::path& path, const std::string& bytes);
// A plain EDF (or BDF) file made from an EDF+ (BDF+) one by the EDF specification's layout: the
// annotation channel's header entries and data-record bytes dropped, the reserved field blank
// (BDF: "24BIT").
std::string WithoutAnnotationChannel(const std::string& in, bool bdf);
// Four channels of different rates, units and ranges.
std::vector<ChannelSpec> MixedChannels();
// An EDF+C file of MixedChannels() with a sub-second start and five annotations.
FileSpec EdfPlusSpec();

}  // namespace timef::edf_oracle
