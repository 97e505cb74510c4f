#include "importers/wfdb_header.h"

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "core/text.h"
#include "timef/error.h"

namespace timef::importers {

void ReduceFraction(__int128& num, __int128& den) {
  __int128 a = num;
  __int128 b = den;
  while (b != 0) {
    const __int128 t = a % b;
    a = b;
    b = t;
  }
  if (a > 1) {
    num /= a;
    den /= a;
  }
}
namespace {

constexpr int64_t kMaxWfdbSignals = 1'000'000;

// code, samples per unit, bytes per unit, bits, invalid value.
constexpr std::array<WfdbFormat, 9> kFormats{{
    {16, 1, 2, 16, -32768},
    {24, 1, 3, 24, -8388608},
    {32, 1, 4, 32, std::numeric_limits<int32_t>::min()},
    {61, 1, 2, 16, -32768},
    {80, 1, 1, 8, -128},
    {160, 1, 2, 16, -32768},
    {212, 2, 3, 12, -2048},
    {310, 3, 4, 10, -512},
    {311, 3, 4, 10, -512},
}};

[[noreturn]] void FailHeader(const std::filesystem::path& path, const std::string& where,
                             const std::string& problem) {
  throw FormatError(ErrorSite{.file = path, .where = where}, problem);
}

bool IsFieldSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view TrimSpace(std::string_view text) {
  while (!text.empty() && IsFieldSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsFieldSpace(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && IsFieldSpace(line[at])) ++at;
    size_t end = at;
    while (end < line.size() && !IsFieldSpace(line[end])) ++end;
    if (end > at) out.push_back(line.substr(at, end - at));
    at = end;
  }
  return out;
}

std::optional<int64_t> ParseIntField(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> ParseFloatField(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// A decimal number "[+]digits[.digits][(e|E)[+|-]digits]" as an exact reduced fraction num/den
// (> 0 not required); nullopt when it is not one or does not fit int64.
std::optional<std::pair<int64_t, int64_t>> ParseExactDecimal(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  __int128 num = 0;
  __int128 den = 1;
  const __int128 limit = static_cast<__int128>(1) << 100;
  size_t at = 0;
  bool digits = false;
  bool dot = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '.' && !dot) {
      dot = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    digits = true;
    num = num * 10 + (c - '0');
    if (dot) den *= 10;
    if (num > limit || den > limit) return std::nullopt;
  }
  if (!digits) return std::nullopt;
  if (at < text.size()) {
    if (text[at] != 'e' && text[at] != 'E') return std::nullopt;
    const std::optional<int64_t> exponent = ParseIntField(text.substr(at + 1));
    if (!exponent || *exponent > 30 || *exponent < -30) return std::nullopt;
    for (int64_t i = 0; i < std::abs(*exponent); ++i) {
      if (*exponent > 0) {
        num *= 10;
      } else {
        den *= 10;
      }
      if (num > limit || den > limit) return std::nullopt;
    }
  }
  ReduceFraction(num, den);
  if (num > std::numeric_limits<int64_t>::max() || den > std::numeric_limits<int64_t>::max()) {
    return std::nullopt;
  }
  return std::make_pair(static_cast<int64_t>(num), static_cast<int64_t>(den));
}

// "H:M:S[.ffffff]" (one or two digits each, H < 24) as µs after midnight.
std::optional<int64_t> ParseBaseTime(std::string_view text) {
  std::array<int64_t, 3> parts{};
  int64_t micros = 0;
  size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    size_t end = at;
    while (end < text.size() && end - at < 3 && text[end] >= '0' && text[end] <= '9') ++end;
    if (end == at || end - at > 2) return std::nullopt;
    parts[i] = std::stoll(std::string(text.substr(at, end - at)));
    at = end;
    if (i < 2) {
      if (at >= text.size() || text[at] != ':') return std::nullopt;
      ++at;
    }
  }
  if (at < text.size()) {
    if (text[at] != '.') return std::nullopt;
    ++at;
    int64_t scale = 100000;
    if (at == text.size()) return std::nullopt;
    for (; at < text.size(); ++at) {
      if (text[at] < '0' || text[at] > '9' || scale == 0) return std::nullopt;
      micros += (text[at] - '0') * scale;
      scale /= 10;
    }
  }
  if (parts[0] > 23 || parts[1] > 59 || parts[2] > 59) return std::nullopt;
  return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1'000'000 + micros;
}

// "D/M/YYYY" as the Unix day number.
std::optional<int64_t> ParseBaseDate(std::string_view text) {
  std::array<int64_t, 3> parts{};
  size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    size_t end = at;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    const size_t width = end - at;
    if (width == 0 || (i < 2 && width > 2) || (i == 2 && width != 4)) return std::nullopt;
    parts[i] = std::stoll(std::string(text.substr(at, width)));
    at = end;
    if (i < 2) {
      if (at >= text.size() || text[at] != '/') return std::nullopt;
      ++at;
    }
  }
  if (at != text.size()) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year(static_cast<int>(parts[2])),
                                        std::chrono::month(static_cast<unsigned>(parts[1])),
                                        std::chrono::day(static_cast<unsigned>(parts[0]))};
  if (!ymd.ok()) return std::nullopt;
  return std::chrono::sys_days(ymd).time_since_epoch().count();
}

struct HeaderLine {
  int number;
  std::string_view text;
};

std::string HeaderLineField(const HeaderLine& line, std::string_view field) {
  return "line " + std::to_string(line.number) + ", " + std::string(field);
}

int64_t RequireInt(const std::filesystem::path& path, const HeaderLine& line,
                   std::string_view field, std::string_view text) {
  auto value = ParseIntField(text);
  if (!value) {
    FailHeader(path, HeaderLineField(line, field),
               "not an integer: '" + core::PrintableForMessage(text) + "'");
  }
  return *value;
}

void ParseRecordLine(const std::filesystem::path& path, const HeaderLine& line, WfdbHeader& h) {
  const std::vector<std::string_view> t = SplitFields(line.text);
  // t is never empty: blank lines were skipped.
  std::string_view name = t[0];
  if (name.find('/') != std::string_view::npos) {
    FailHeader(
        path, HeaderLineField(line, "record name"),
        "'" + core::PrintableForMessage(name) +
            "' is a multi-segment record (NAME/SEGMENTS); timef imports single-segment records "
            "only: import each segment's own record");
  }
  h.record_name = std::string(name);
  if (t.size() < 2) FailHeader(path, HeaderLineField(line, "number of signals"), "missing");
  if (t.size() > 6) {
    FailHeader(path, HeaderLineField(line, "record line"),
               "has " + std::to_string(t.size()) +
                   " fields; at most 6 (name, signals, frequency, samples, base time, base date)");
  }
  h.n_signals = RequireInt(path, line, "number of signals", t[1]);
  if (h.n_signals < 0 || h.n_signals > kMaxWfdbSignals) {
    FailHeader(
        path, HeaderLineField(line, "number of signals"),
        "must be 0 … " + std::to_string(kMaxWfdbSignals) + ", got " + std::to_string(h.n_signals));
  }
  if (t.size() >= 3) {
    std::string_view freq = t[2];
    const size_t slash = freq.find('/');
    if (slash != std::string_view::npos) {
      h.counter_text = std::string(freq.substr(slash + 1));
      freq = freq.substr(0, slash);
    }
    h.frequency_text = std::string(freq);
    auto exact = ParseExactDecimal(freq);
    if (!exact) {
      FailHeader(path, HeaderLineField(line, "sampling frequency"),
                 "not a decimal number: '" + core::PrintableForMessage(freq) + "'");
    }
    if (exact->first <= 0) {
      FailHeader(path, HeaderLineField(line, "sampling frequency"),
                 "must be above 0, got '" + std::string(freq) + "'");
    }
    h.freq_num = exact->first;
    h.freq_den = exact->second;
  }
  if (t.size() >= 4) {
    const int64_t n = RequireInt(path, line, "number of samples", t[3]);
    if (n < 0)
      FailHeader(path, HeaderLineField(line, "number of samples"),
                 "is negative: " + std::string(t[3]));
    if (n > 0) h.n_frames = n;
  }
  if (t.size() >= 5) {
    h.base_time_text = std::string(t[4]);
    h.base_time_us = ParseBaseTime(t[4]);
    if (!h.base_time_us) {
      FailHeader(path, HeaderLineField(line, "base time"),
                 "not a time of day HH:MM:SS[.ffffff]: '" + core::PrintableForMessage(t[4]) + "'");
    }
  }
  if (t.size() >= 6) {
    h.base_date_text = std::string(t[5]);
    const std::optional<int64_t> day = ParseBaseDate(t[5]);
    if (!day) {
      FailHeader(path, HeaderLineField(line, "base date"),
                 "not a date DD/MM/YYYY: '" + core::PrintableForMessage(t[5]) + "'");
    }
    h.start_unix_us = *day * 86'400'000'000 + *h.base_time_us;
  }
}

WfdbSignal ParseSignalLine(const std::filesystem::path& path, const HeaderLine& line, int index,
                           const std::string& record_name) {
  const std::vector<std::string_view> t = SplitFields(line.text);
  WfdbSignal s;
  s.index = index;
  s.line = line.number;
  s.file_name = std::string(t[0]);
  if (t.size() < 2)
    FailHeader(path, HeaderLineField(line, "format"),
               "missing (signal " + std::to_string(index) + ")");
  // format[xspf][:skew][+offset]
  std::string_view spec = t[1];
  size_t end = 0;
  while (end < spec.size() && spec[end] >= '0' && spec[end] <= '9') ++end;
  s.format_code = static_cast<int>(
      RequireInt(path, line, "format", spec.substr(0, end).empty() ? spec : spec.substr(0, end)));
  spec.remove_prefix(end);
  auto take_number = [&](char sep, std::string_view field) -> std::optional<int64_t> {
    if (spec.empty() || spec.front() != sep) return std::nullopt;
    spec.remove_prefix(1);
    size_t n = 0;
    while (n < spec.size() && ((spec[n] >= '0' && spec[n] <= '9') || (n == 0 && spec[n] == '-'))) {
      ++n;
    }
    const int64_t value = RequireInt(path, line, field, spec.substr(0, n));
    spec.remove_prefix(n);
    return value;
  };
  if (auto spf = take_number('x', "samples per frame")) {
    if (*spf < 1 || *spf > 1'000'000) {
      FailHeader(path, HeaderLineField(line, "samples per frame"),
                 "must be 1 … 1000000, got " + std::to_string(*spf));
    }
    s.samples_per_frame = *spf;
  }
  if (auto skew = take_number(':', "skew")) {
    if (*skew != 0) {
      FailHeader(path, HeaderLineField(line, "skew"),
                 "signal " + std::to_string(index) + " has a skew of " + std::to_string(*skew) +
                     " samples, which timef does not import (deskew the record first)");
    }
  }
  if (auto offset = take_number('+', "byte offset")) {
    if (*offset < 0) FailHeader(path, HeaderLineField(line, "byte offset"), "is negative");
    s.byte_offset = *offset;
  }
  if (!spec.empty()) {
    FailHeader(path, HeaderLineField(line, "format"),
               "unexpected '" + core::PrintableForMessage(spec) + "' in '" +
                   core::PrintableForMessage(t[1]) + "' (FORMAT[xSAMPLES][:SKEW][+OFFSET])");
  }
  s.format = FindWfdbFormat(s.format_code);
  if (s.format == nullptr) {
    FailHeader(path, HeaderLineField(line, "format"),
               "signal " + std::to_string(index) + " has format " + std::to_string(s.format_code) +
                   ", which timef does not read (formats read: " + WfdbFormatList() + ")");
  }
  if (t.size() >= 3) {
    // gain[(baseline)][/units]
    std::string_view g = t[2];
    const size_t slash = g.find('/');
    if (slash != std::string_view::npos) {
      s.units = std::string(g.substr(slash + 1));
      if (s.units->empty()) FailHeader(path, HeaderLineField(line, "units"), "empty after '/'");
      g = g.substr(0, slash);
    }
    const size_t paren = g.find('(');
    if (paren != std::string_view::npos) {
      if (g.back() != ')') {
        FailHeader(path, HeaderLineField(line, "baseline"),
                   "'(' without a closing ')' in '" + core::PrintableForMessage(t[2]) + "'");
      }
      s.baseline = RequireInt(path, line, "baseline", g.substr(paren + 1, g.size() - paren - 2));
      s.baseline_given = true;
      g = g.substr(0, paren);
    }
    s.gain_text = std::string(g);
    const std::optional<double> gain = ParseFloatField(g);
    if (!gain) {
      FailHeader(path, HeaderLineField(line, "ADC gain"),
                 "not a number: '" + core::PrintableForMessage(g) + "'");
    }
    if (*gain < 0)
      FailHeader(path, HeaderLineField(line, "ADC gain"), "is negative: " + std::string(g));
    s.adc_gain = *gain;
    if (*gain > 0) s.gain = *gain;
  }
  if (t.size() >= 4) s.adc_resolution = RequireInt(path, line, "ADC resolution", t[3]);
  if (s.adc_resolution < 0 || s.adc_resolution > 64) {
    FailHeader(path, HeaderLineField(line, "ADC resolution"),
               "must be 0 … 64 bits, got " + std::to_string(s.adc_resolution));
  }
  if (t.size() >= 5) s.adc_zero = RequireInt(path, line, "ADC zero", t[4]);
  if (!s.baseline_given) s.baseline = s.adc_zero;
  if (t.size() >= 6) s.initial_value = RequireInt(path, line, "initial value", t[5]);
  if (t.size() >= 7) s.checksum = RequireInt(path, line, "checksum", t[6]);
  if (t.size() >= 8) s.block_size = RequireInt(path, line, "block size", t[7]);
  if (t.size() >= 9) {
    const size_t at = static_cast<size_t>(t[8].data() - line.text.data());
    s.description = std::string(TrimSpace(line.text.substr(at)));
    s.description_given = true;
  } else {
    s.description = "record " + record_name + ", signal " + std::to_string(index);
  }
  return s;
}

}  // namespace

const WfdbFormat* FindWfdbFormat(int code) {
  for (const WfdbFormat& f : kFormats) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

std::string WfdbFormatList() {
  std::string out;
  for (const WfdbFormat& f : kFormats) {
    if (!out.empty()) out += ", ";
    out += std::to_string(f.code);
  }
  return out;
}

namespace {

inline int32_t SignExtendBits(uint32_t value, int bits) {
  const uint32_t shift = 32 - static_cast<uint32_t>(bits);
  return static_cast<int32_t>(value << shift) >> shift;
}

}  // namespace

void DecodeWfdbUnits(const WfdbFormat& format, const unsigned char* b, int64_t n_units,
                     int32_t* out) {
  switch (format.code) {
    case 16:
      for (int64_t i = 0; i < n_units; ++i, b += 2) {
        out[i] = static_cast<int16_t>(static_cast<uint16_t>(b[0] | (b[1] << 8)));
      }
      return;
    case 61:
      for (int64_t i = 0; i < n_units; ++i, b += 2) {
        out[i] = static_cast<int16_t>(static_cast<uint16_t>(b[1] | (b[0] << 8)));
      }
      return;
    case 160:
      for (int64_t i = 0; i < n_units; ++i, b += 2) {
        out[i] = static_cast<int32_t>(b[0] | (b[1] << 8)) - 32768;
      }
      return;
    case 80:
      for (int64_t i = 0; i < n_units; ++i, ++b) out[i] = static_cast<int32_t>(b[0]) - 128;
      return;
    case 24:
      for (int64_t i = 0; i < n_units; ++i, b += 3) {
        out[i] = SignExtendBits(static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
                                    (static_cast<uint32_t>(b[2]) << 16),
                                24);
      }
      return;
    case 32:
      for (int64_t i = 0; i < n_units; ++i, b += 4) {
        out[i] = static_cast<int32_t>(
            static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
            (static_cast<uint32_t>(b[2]) << 16) | (static_cast<uint32_t>(b[3]) << 24));
      }
      return;
    case 212:
      for (int64_t i = 0; i < n_units; ++i, b += 3, out += 2) {
        out[0] = SignExtendBits(
            static_cast<uint32_t>(b[0]) | ((static_cast<uint32_t>(b[1]) & 0x0f) << 8), 12);
        out[1] = SignExtendBits(
            static_cast<uint32_t>(b[2]) | ((static_cast<uint32_t>(b[1]) & 0xf0) << 4), 12);
      }
      return;
    case 310:
      for (int64_t i = 0; i < n_units; ++i, b += 4, out += 3) {
        const uint32_t w0 = static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8);
        const uint32_t w1 = static_cast<uint32_t>(b[2]) | (static_cast<uint32_t>(b[3]) << 8);
        out[0] = SignExtendBits((w0 >> 1) & 0x3ff, 10);
        out[1] = SignExtendBits((w1 >> 1) & 0x3ff, 10);
        out[2] = SignExtendBits(((w0 >> 11) & 0x1f) | (((w1 >> 11) & 0x1f) << 5), 10);
      }
      return;
    case 311:
      for (int64_t i = 0; i < n_units; ++i, b += 4, out += 3) {
        const uint32_t w = static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
                           (static_cast<uint32_t>(b[2]) << 16) |
                           (static_cast<uint32_t>(b[3]) << 24);
        out[0] = SignExtendBits(w & 0x3ff, 10);
        out[1] = SignExtendBits((w >> 10) & 0x3ff, 10);
        out[2] = SignExtendBits((w >> 20) & 0x3ff, 10);
      }
      return;
    default:
      throw std::logic_error("DecodeWfdbUnits: format " + std::to_string(format.code));
  }
}

WfdbByteRange WfdbBytesOf(const WfdbFormat& format, int64_t n_samples) {
  const int64_t full = n_samples / format.unit_samples;
  const int64_t rest = n_samples % format.unit_samples;
  WfdbByteRange range;
  range.max = (full + (rest > 0 ? 1 : 0)) * format.unit_bytes;
  int64_t partial = 0;
  if (rest > 0) {
    switch (format.code) {
      case 212:
        partial = 2;  // the first sample's byte and the shared nibble byte
        break;
      case 310:
        partial = rest == 1 ? 2 : 4;  // the second sample is in the second byte pair
        break;
      case 311:
        partial = rest == 1 ? 2 : 3;  // bits 0-9, then 10-19
        break;
      default:
        partial = format.unit_bytes;
    }
  }
  range.min = full * format.unit_bytes + partial;
  return range;
}

WfdbHeader ParseWfdbHeader(const std::filesystem::path& path, std::string_view text) {
  if (const size_t bad = core::FindInvalidUtf8(text); bad != std::string_view::npos) {
    FailHeader(path, "byte " + std::to_string(bad), "the header is not UTF-8 text");
  }
  if (text.find('\0') != std::string_view::npos) {
    FailHeader(path, "byte " + std::to_string(text.find('\0')), "the header holds a NUL byte");
  }
  WfdbHeader h;
  h.path = path;
  std::vector<HeaderLine> lines;
  int number = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    std::string_view raw = text.substr(at, end - at);
    at = end + 1;
    const std::string_view trimmed = TrimSpace(raw);
    if (trimmed.empty()) continue;
    if (trimmed.front() == '#') {
      h.comments.emplace_back(TrimSpace(trimmed.substr(1)));
      continue;
    }
    lines.push_back({number, raw});
  }
  if (lines.empty()) FailHeader(path, "record line", "the header has no record line (empty file?)");
  ParseRecordLine(path, lines[0], h);
  const int64_t signal_lines = static_cast<int64_t>(lines.size()) - 1;
  if (signal_lines != h.n_signals) {
    const HeaderLine& where =
        signal_lines > h.n_signals ? lines[static_cast<size_t>(h.n_signals + 1)] : lines.back();
    FailHeader(path, HeaderLineField(where, "signal lines"),
               "the record line says " + std::to_string(h.n_signals) + " signals, the header has " +
                   std::to_string(signal_lines) + " signal lines");
  }
  std::set<std::string> closed_files;  // files whose run of consecutive signals has ended
  for (int64_t i = 0; i < h.n_signals; ++i) {
    const HeaderLine& line = lines[static_cast<size_t>(i + 1)];
    WfdbSignal s = ParseSignalLine(path, line, static_cast<int>(i), h.record_name);
    if (!h.signals.empty()) {
      const WfdbSignal& prev = h.signals.back();
      if (prev.file_name == s.file_name) {
        if (prev.format_code != s.format_code || prev.byte_offset != s.byte_offset) {
          FailHeader(path, HeaderLineField(line, "format"),
                     "signals " + std::to_string(prev.index) + " and " + std::to_string(s.index) +
                         " share '" + s.file_name +
                         "' but not its format and byte offset, as signals of one file must");
        }
      } else {
        closed_files.insert(prev.file_name);
        if (closed_files.count(s.file_name) != 0) {
          FailHeader(path, HeaderLineField(line, "file name"),
                     "the signals of '" + s.file_name +
                         "' are not on consecutive lines, as signals sharing a file must be");
        }
      }
    }
    if (s.file_name == "-") {
      FailHeader(path, HeaderLineField(line, "file name"),
                 "'-' (standard input) cannot be imported");
    }
    h.signals.push_back(std::move(s));
  }
  return h;
}

std::optional<WfdbCode> StandardWfdbCode(int code) {
  struct Row {
    int code;
    const char* mnemonic;
    const char* description;
  };
  static constexpr Row kCodes[] = {
      {1, "N", "Normal beat"},
      {2, "L", "Left bundle branch block beat"},
      {3, "R", "Right bundle branch block beat"},
      {4, "a", "Aberrated atrial premature beat"},
      {5, "V", "Premature ventricular contraction"},
      {6, "F", "Fusion of ventricular and normal beat"},
      {7, "J", "Nodal (junctional) premature beat"},
      {8, "A", "Atrial premature beat"},
      {9, "S", "Premature or ectopic supraventricular beat"},
      {10, "E", "Ventricular escape beat"},
      {11, "j", "Nodal (junctional) escape beat"},
      {12, "/", "Paced beat"},
      {13, "Q", "Unclassifiable beat"},
      {14, "~", "Change in signal quality"},
      {16, "|", "Isolated QRS-like artifact"},
      {18, "s", "ST segment change"},
      {19, "T", "T-wave change"},
      {20, "*", "Systole"},
      {21, "D", "Diastole"},
      {22, "\"", "Comment annotation"},
      {23, "=", "Measurement annotation"},
      {24, "p", "P-wave peak"},
      {25, "B", "Bundle branch block beat (unspecified)"},
      {26, "^", "Non-conducted pacer spike"},
      {27, "t", "T-wave peak"},
      {28, "+", "Rhythm change"},
      {29, "u", "U-wave peak"},
      {30, "?", "Learning"},
      {31, "!", "Ventricular flutter wave"},
      {32, "[", "Start of ventricular flutter/fibrillation"},
      {33, "]", "End of ventricular flutter/fibrillation"},
      {34, "e", "Atrial escape beat"},
      {35, "n", "Supraventricular escape beat"},
      {36, "@", "Link to external data"},
      {37, "x", "Non-conducted P-wave (blocked APC)"},
      {38, "f", "Fusion of paced and normal beat"},
      {39, "(", "Waveform onset"},
      {40, ")", "Waveform end"},
      {41, "r", "R-on-T premature ventricular contraction"},
  };
  for (const Row& row : kCodes) {
    if (row.code == code) return WfdbCode{row.mnemonic, row.description};
  }
  return std::nullopt;
}

namespace {

constexpr int kAcMax = 49;
constexpr int kSkip = 59;
constexpr int kNum = 60;
constexpr int kSub = 61;
constexpr int kChn = 62;
constexpr int kAux = 63;
constexpr int kNote = 22;

// "## CODE MNEMONIC [DESCRIPTION]": a modification label, or nullopt.
std::optional<std::pair<int, WfdbCode>> ModificationLabel(std::string_view aux) {
  if (aux.substr(0, 3) != "## ") return std::nullopt;
  const std::vector<std::string_view> t = SplitFields(aux.substr(3));
  if (t.size() < 2) return std::nullopt;
  const std::optional<int64_t> code = ParseIntField(t[0]);
  if (!code || *code < 1 || *code > kAcMax) return std::nullopt;
  WfdbCode out{std::string(t[1]), ""};
  if (t.size() >= 3) {
    out.description =
        std::string(TrimSpace(aux.substr(static_cast<size_t>(t[2].data() - aux.data()))));
  }
  return std::make_pair(static_cast<int>(*code), std::move(out));
}

}  // namespace

WfdbAnnotations ParseMitAnnotations(const std::filesystem::path& path, std::string_view bytes) {
  auto at_byte = [](size_t offset) { return "byte " + std::to_string(offset); };
  if (bytes.size() % 2 != 0) {
    FailHeader(path, at_byte(bytes.size() - 1),
               "an MIT annotation file has an even number of bytes, this one " +
                   std::to_string(bytes.size()));
  }
  auto word_at = [&](size_t offset) {
    return static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset])) |
           (static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + 1])) << 8);
  };
  WfdbAnnotations out;
  int64_t time = 0;
  int num = 0;
  int chan = 0;
  bool ended = false;
  size_t pos = 0;
  // Index in out.annotations of the annotation that SUB and AUX modify (the last one read).
  std::optional<size_t> current;
  // The last annotation is complete once the next one starts (or the file ends): a modification
  // label (a NOTE at sample 0 whose aux is "## CODE MNEMONIC ...") then defines its code and is
  // not an annotation itself.
  auto close_current = [&] {
    if (!current) return;
    const WfdbAnnotation& last = out.annotations[*current];
    if (last.code != kNote || last.sample != 0 || !last.aux) return;
    if (auto label = ModificationLabel(*last.aux)) {
      out.defined[label->first] = std::move(label->second);
      out.annotations.pop_back();
      current.reset();
    }
  };
  while (pos + 2 <= bytes.size()) {
    const size_t word_pos = pos;
    const uint32_t word = word_at(pos);
    pos += 2;
    if (word == 0) {
      ended = true;
      break;
    }
    const int code = static_cast<int>(word >> 10);
    const int interval = static_cast<int>(word & 0x3ff);
    switch (code) {
      case kSkip: {
        if (pos + 4 > bytes.size()) {
          FailHeader(path, at_byte(word_pos), "the file ends inside a SKIP's 4-byte interval");
        }
        const uint32_t high = word_at(pos);
        const uint32_t low = word_at(pos + 2);
        pos += 4;
        const int32_t skip = static_cast<int32_t>((high << 16) | low);
        time += skip;
        if (time < 0) {
          FailHeader(
              path, at_byte(word_pos),
              "a SKIP of " + std::to_string(skip) + " puts the time before the record's start");
        }
        continue;
      }
      case kNum:
        num = interval;
        if (current) out.annotations[*current].num = num;
        continue;
      case kChn:
        chan = interval;
        if (current) out.annotations[*current].chan = chan;
        continue;
      case kSub:
      case kAux: {
        if (!current) {
          FailHeader(path, at_byte(word_pos),
                     std::string(code == kSub ? "SUB" : "AUX") + " before any annotation");
        }
        WfdbAnnotation& a = out.annotations[*current];
        if (code == kSub) {
          a.subtype = interval;
          continue;
        }
        const size_t padded = static_cast<size_t>(interval) + (interval % 2);
        if (pos + padded > bytes.size()) {
          FailHeader(path, at_byte(word_pos),
                     "the file ends inside an AUX of " + std::to_string(interval) + " bytes");
        }
        std::string_view text = bytes.substr(pos, static_cast<size_t>(interval));
        pos += padded;
        while (!text.empty() && text.back() == '\0') text.remove_suffix(1);
        if (const size_t bad = core::FindInvalidUtf8(text); bad != std::string_view::npos) {
          FailHeader(path, at_byte(word_pos),
                     "AUX text is not UTF-8: '" + core::PrintableForMessage(text) + "'");
        }
        a.aux = std::string(text);
        continue;
      }
      default:
        break;
    }
    time += interval;
    if (code == 0 || code > kAcMax) {
      FailHeader(path, at_byte(word_pos),
                 "annotation code " + std::to_string(code) + " is not an annotation code (1 … " +
                     std::to_string(kAcMax) + " or a pseudo-code 59 … 63)");
    }
    WfdbAnnotation a;
    a.sample = time;
    a.code = code;
    a.num = num;
    a.chan = chan;
    close_current();
    out.annotations.push_back(std::move(a));
    current = out.annotations.size() - 1;
  }
  close_current();
  if (!ended) {
    FailHeader(path, at_byte(bytes.size()), "the file ends without the end-of-file word (0x0000)");
  }
  for (size_t i = pos; i < bytes.size(); ++i) {
    if (bytes[i] != '\0') {
      FailHeader(path, at_byte(i), "non-zero bytes after the end-of-file word");
    }
  }
  for (const WfdbAnnotation& a : out.annotations) {
    if (!StandardWfdbCode(a.code) && out.defined.count(a.code) == 0) {
      FailHeader(
          path, "annotation at sample " + std::to_string(a.sample),
          "unknown annotation code " + std::to_string(a.code) +
              " (neither a standard code of ecgcodes.h nor defined by the file's modification "
              "labels)");
    }
  }
  return out;
}

}  // namespace timef::importers
