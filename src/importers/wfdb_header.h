// WFDB records (PhysioNet's header(5), signal(5) and annot(5)): the header file parsed and
// validated, the sample formats' packing, and MIT-format annotation files (private to
// src/importers/).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace timef::importers {

// One sample format of signal(5): `unit_samples` samples packed in `unit_bytes` bytes.
struct WfdbFormat {
  int code = 0;
  int unit_samples = 1;
  int unit_bytes = 2;
  int bits = 16;        // bits of one sample (two's complement after decoding)
  int32_t invalid = 0;  // the format's invalid-sample value (its most negative value)
};

// The formats read: 16, 61, 80, 160, 212, 24, 32, 310, 311; nullptr for any other code.
// Divides a fraction num / den (den > 0) by the greatest common divisor of its terms.
void ReduceFraction(__int128& num, __int128& den);

const WfdbFormat* FindWfdbFormat(int code);
// "16, 24, 32, 61, 80, 160, 212, 310, 311".
std::string WfdbFormatList();

// Decodes `n_units` whole packing units from `bytes` into `out` (n_units × unit_samples values).
void DecodeWfdbUnits(const WfdbFormat& format, const unsigned char* bytes, int64_t n_units,
                     int32_t* out);
// Bytes holding `n_samples` consecutive samples of a stream that starts on a unit boundary: at
// least `min` (the last unit written only as far as its last sample needs), at most `max` (the last
// unit whole).
struct WfdbByteRange {
  int64_t min = 0;
  int64_t max = 0;
};
WfdbByteRange WfdbBytesOf(const WfdbFormat& format, int64_t n_samples);

struct WfdbSignal {
  int index = 0;          // signal number, from 0
  int line = 0;           // line of the header, from 1
  std::string file_name;  // as written
  int format_code = 0;
  const WfdbFormat* format = nullptr;
  int64_t samples_per_frame = 1;
  int64_t byte_offset = 0;
  std::string gain_text;  // the ADC gain as written ("" when left out)
  double adc_gain = 0;    // as written; 0 when left out
  double gain = 200;      // used: adc_gain, or 200 (DEFGAIN) when it is 0 or left out
  int64_t baseline = 0;   // as written, else the ADC zero
  bool baseline_given = false;
  std::optional<std::string> units;  // as written
  int64_t adc_resolution = 0;        // as written (0 when left out)
  int64_t adc_zero = 0;
  std::optional<int64_t> initial_value;
  std::optional<int64_t> checksum;
  int64_t block_size = 0;
  std::string description;  // trimmed; "record NAME, signal N" when left out
  bool description_given = false;
};

struct WfdbHeader {
  std::filesystem::path path;
  std::string record_name;
  int64_t n_signals = 0;
  std::string frequency_text;  // as written ("" when left out: 250)
  // Frames per second: freq_num / freq_den (reduced), > 0.
  int64_t freq_num = 250;
  int64_t freq_den = 1;
  std::string counter_text;         // "counter frequency(base)" as written, or ""
  std::optional<int64_t> n_frames;  // nullopt when left out or 0 (unspecified)
  std::string base_time_text;
  std::string base_date_text;
  std::optional<int64_t> base_time_us;   // µs after midnight
  std::optional<int64_t> start_unix_us;  // base date + base time, when the date is given
  std::vector<WfdbSignal> signals;
  std::vector<std::string> comments;  // comment lines without '#', trimmed, in order
};

// Parses a header file's text. FormatError naming `path` and the line and field for: text that is
// not UTF-8, a missing or non-numeric field, a multi-segment record ("name/N"), a sampling
// frequency ≤ 0, a negative count, fewer or more signal lines than the record line says, a format
// not read here, a non-zero skew, signals of one file that are not consecutive or disagree on the
// format or byte offset, a base time or date that does not exist.
WfdbHeader ParseWfdbHeader(const std::filesystem::path& path, std::string_view text);

// One annotation of an MIT-format annotation file.
struct WfdbAnnotation {
  int64_t sample = 0;  // time in frames from the record's start
  int code = 0;        // 1 … 49
  int subtype = 0;
  int chan = 0;
  int num = 0;
  std::optional<std::string> aux;  // trailing NULs removed; UTF-8
};

// A code's mnemonic and meaning (ecgcodes.h).
struct WfdbCode {
  std::string mnemonic;
  std::string description;
};

struct WfdbAnnotations {
  std::vector<WfdbAnnotation> annotations;
  // Codes the file defined for itself (modification labels: a NOTE at sample 0 whose aux is
  // "## CODE MNEMONIC DESCRIPTION"); those NOTEs are not in `annotations`.
  std::map<int, WfdbCode> defined;
};

// The mnemonic and meaning of a standard code (1 … 41), or nullopt for an unassigned one.
std::optional<WfdbCode> StandardWfdbCode(int code);

// Parses an MIT-format annotation file (annot(5)): 16-bit little-endian words, the 6 high bits a
// code and the 10 low bits a time difference; SKIP (59) with a 32-bit interval, NUM (60), SUB
// (61), CHN (62) and AUX (63) pseudo-codes; a zero word ends the file. FormatError naming `path`
// and the byte offset for: an odd length, a file that ends inside an annotation or without the
// end word, non-zero bytes after it, a code that is neither standard nor defined by the file
// (0, 15, 17, 42 … 58), SUB or AUX before any annotation, an interval that makes time negative or
// overflow, aux text that is not UTF-8.
WfdbAnnotations ParseMitAnnotations(const std::filesystem::path& path, std::string_view bytes);

}  // namespace timef::importers
