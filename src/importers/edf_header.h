// The EDF/BDF header (EDF spec "EDF header", EDF+ and BDF+ additions) and the TAL grammar of the
// annotation channels, parsed and validated (private to src/importers/).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace timef::importers {

enum class EdfVariant { kEdf, kEdfPlusC, kBdf, kBdfPlusC };
// "EDF", "EDF+C", "BDF", "BDF+C".
std::string_view VariantName(EdfVariant variant);

struct EdfChannel {
  int index = 0;      // position in the header, from 0
  std::string label;  // trimmed
  std::string transducer;
  std::string physical_dimension;  // as written, trimmed
  std::string prefilter;
  std::string reserved;
  double physical_min = 0;
  double physical_max = 0;
  int32_t digital_min = 0;
  int32_t digital_max = 0;
  int64_t samples_per_record = 0;
  int64_t offset_in_record = 0;  // bytes from the start of a data record
  bool annotations = false;      // an "EDF Annotations" / "BDF Annotations" channel (EDF+/BDF+)
};

struct EdfHeader {
  std::filesystem::path path;
  EdfVariant variant = EdfVariant::kEdf;
  std::string patient;     // trimmed
  std::string recording;   // trimmed
  std::string start_date;  // "dd.mm.yy" as written
  std::string start_time;  // "hh.mm.ss" as written
  std::string reserved;    // trimmed
  int64_t header_bytes = 0;
  int64_t n_records = 0;
  std::string record_duration_text;  // as written, trimmed
  // Duration of a data record: duration_num / duration_den seconds (den a power of ten).
  int64_t duration_num = 0;
  int64_t duration_den = 1;
  // Unix time (µs) of the header's start date and time (whole seconds).
  int64_t start_unix_us = 0;
  std::vector<EdfChannel> channels;
  int64_t sample_bytes = 2;  // 2 (EDF) or 3 (BDF)
  int64_t record_bytes = 0;  // Σ samples_per_record × sample_bytes
  int64_t file_size = 0;

  bool bdf() const { return variant == EdfVariant::kBdf || variant == EdfVariant::kBdfPlusC; }
  bool plus() const { return variant == EdfVariant::kEdfPlusC || variant == EdfVariant::kBdfPlusC; }
};

// Parses the header of the file at `path` (`bytes` are the whole header as read: its first 256
// bytes, then 256 per signal) and checks it against `file_size`. FormatError naming the path and
// the field for every problem: a field that is not printable ASCII or not a number where one is
// expected, a date or time that does not exist, header bytes ≠ 256 × (signals + 1), a record count
// of -1 or below, a data record duration ≤ 0 with ordinary channels, samples per record < 1,
// digital minimum ≥ maximum or outside the 16/24-bit range, physical minimum = maximum, an EDF+D /
// BDF+D file, an EDF+/BDF+ file without an annotation channel, a file length other than
// header + records × record size.
EdfHeader ParseEdfHeader(const std::filesystem::path& path, std::string_view bytes,
                         int64_t file_size);
// How many header bytes ParseEdfHeader needs, from the first 256 (FormatError when they do not
// name a signal count).
int64_t EdfHeaderSize(const std::filesystem::path& path, std::string_view first_256);

// One Time-stamped Annotations List: "+onset[\x15duration]\x14text\x14...\x14\x00".
struct Tal {
  int64_t onset_us = 0;
  std::optional<int64_t> duration_us;
  std::vector<std::string> texts;  // empty strings kept (a time-keeping entry has one)
};

// Every TAL of one data record's annotation channel bytes (trailing \0 padding allowed).
// FormatError naming `path` and `where` for bad syntax, an onset or duration that is not a
// decimal number or has a non-zero digit below 1 µs, or text that is not UTF-8.
std::vector<Tal> ParseTals(std::string_view bytes, const std::filesystem::path& path,
                           const std::string& where);

// A decimal number of seconds ("[+|-]digits[.digits]") as µs; nullopt when it is not one, is
// finer than 1 µs, or does not fit.
std::optional<int64_t> ParseSecondsToMicros(std::string_view text, bool sign_required);

}  // namespace timef::importers
