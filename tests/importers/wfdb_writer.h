// A WFDB record writer for the tests, written from PhysioNet's format documentation (header(5),
// signal(5), annot(5)) and independent of src/importers/: headers, signal files in every format
// timef reads (interleaved, several samples per frame, byte offsets) and MIT annotation files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace timef::wfdb_writer {

struct Signal {
  std::string file;  // signal file name; consecutive signals with one name share the file
  int format = 16;
  int samples_per_frame = 1;
  int byte_offset = 0;              // a preamble of this many 0xAB bytes (written once per file)
  std::string gain = "200";         // as written ("" leaves gain and everything after out)
  std::optional<int64_t> baseline;  // "(baseline)" after the gain
  std::string units = "mV";         // "" leaves "/units" out
  int adc_resolution = 12;
  int adc_zero = 0;
  std::optional<int64_t> checksum;  // default: the true 16-bit checksum
  std::string description;          // "" leaves it out
  std::vector<int32_t> samples;     // digital samples, samples_per_frame per frame
};

struct Record {
  std::string name = "rec";
  std::string frequency = "250";    // as written ("" leaves it and what follows out)
  std::optional<int64_t> n_frames;  // default: the frames the signals hold
  std::string base_time;            // "" leaves it (and the date) out
  std::string base_date;
  std::vector<std::string> comments;
  std::vector<Signal> signals;
};

// The packed bytes of `samples` in `format` (signal(5)); a partial last unit is written only as
// far as its samples need.
std::string Pack(int format, const std::vector<int32_t>& samples);
// Σ samples as a 16-bit two's-complement number.
int64_t Checksum(const std::vector<int32_t>& samples);
// The header text of `record`.
std::string HeaderText(const Record& record);
// Writes `<dir>/<name>.hea` and the signal files; returns the header's path.
std::filesystem::path Write(const std::filesystem::path& dir, const Record& record);

struct Annotation {
  int64_t sample = 0;
  int code = 1;
  int subtype = 0;
  int chan = 0;
  int num = 0;
  std::string aux;  // "" for none
};

// MIT-format bytes of `annotations` (in time order): SKIP for intervals above 1023, NUM and CHN
// when they change, SUB when non-zero, AUX when present, then the end word.
std::string EncodeAnnotations(const std::vector<Annotation>& annotations);

void WriteFile(const std::filesystem::path& path, const std::string& bytes);

}  // namespace timef::wfdb_writer
