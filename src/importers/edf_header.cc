#include "importers/edf_header.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/text.h"
#include "timef/error.h"

namespace timef::importers {
namespace {

constexpr int64_t kFixedBytes = 256;
constexpr int64_t kMaxSignals = 100000;  // 4-digit field: at most 9999; a bound for the arithmetic

[[noreturn]] void Fail(const std::filesystem::path& path, const std::string& where,
                       const std::string& problem) {
  throw FormatError(ErrorSite{.file = path, .where = where}, problem);
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// Reads the header's fields in order, each checked to be printable US-ASCII.
class FieldCursor {
 public:
  FieldCursor(const std::filesystem::path& path, std::string_view bytes)
      : path_(path), bytes_(bytes) {}

  std::string_view Take(int64_t width, const std::string& field) {
    if (at_ + width > static_cast<int64_t>(bytes_.size())) {
      Fail(path_, field, "the header ends before this field (file too short)");
    }
    std::string_view raw = bytes_.substr(static_cast<size_t>(at_), static_cast<size_t>(width));
    at_ += width;
    for (char c : raw) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte < 0x20 || byte > 0x7e) {
        Fail(path_, field,
             "holds a byte that is not printable US-ASCII (" +
                 core::PrintableForMessage(std::string(1, c)) + "), as EDF requires: '" +
                 core::PrintableForMessage(raw) + "'");
      }
    }
    return raw;
  }
  void Skip(int64_t width) { at_ += width; }

 private:
  const std::filesystem::path& path_;
  std::string_view bytes_;
  int64_t at_ = 0;
};

std::optional<int64_t> ParseInteger(std::string_view text) {
  text = Trim(text);
  if (text.empty()) return std::nullopt;
  if (text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> ParseDouble(std::string_view text) {
  text = Trim(text);
  if (text.empty()) return std::nullopt;
  if (text.front() == '+') text.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

int64_t RequireInteger(const std::filesystem::path& path, const std::string& field,
                       std::string_view raw) {
  auto value = ParseInteger(raw);
  if (!value) Fail(path, field, "not an integer: '" + std::string(Trim(raw)) + "'");
  return *value;
}

double RequireDouble(const std::filesystem::path& path, const std::string& field,
                     std::string_view raw) {
  auto value = ParseDouble(raw);
  if (!value) Fail(path, field, "not a finite decimal number: '" + std::string(Trim(raw)) + "'");
  return *value;
}

// "dd.mm.yy" / "hh.mm.ss": three two-digit numbers separated by dots (yy may be "yy" in EDF+
// after 2084, which we do not read: the year is then refused).
std::optional<std::array<int, 3>> ParseTriple(std::string_view text) {
  if (text.size() != 8 || text[2] != '.' || text[5] != '.') return std::nullopt;
  std::array<int, 3> out{};
  for (int i = 0; i < 3; ++i) {
    const char a = text[i * 3];
    const char b = text[i * 3 + 1];
    if (a < '0' || a > '9' || b < '0' || b > '9') return std::nullopt;
    out[i] = (a - '0') * 10 + (b - '0');
  }
  return out;
}

int64_t StartUnixMicros(const std::filesystem::path& path, std::string_view date,
                        std::string_view time) {
  auto d = ParseTriple(date);
  if (!d) Fail(path, "startdate", "not a date dd.mm.yy: '" + std::string(date) + "'");
  auto t = ParseTriple(time);
  if (!t) Fail(path, "starttime", "not a time hh.mm.ss: '" + std::string(time) + "'");
  // EDF: years 85..99 are 1985..1999, 00..84 are 2000..2084.
  const int year = (*d)[2] >= 85 ? 1900 + (*d)[2] : 2000 + (*d)[2];
  const std::chrono::year_month_day ymd{std::chrono::year(year),
                                        std::chrono::month(static_cast<unsigned>((*d)[1])),
                                        std::chrono::day(static_cast<unsigned>((*d)[0]))};
  if (!ymd.ok()) Fail(path, "startdate", "no such date: '" + std::string(date) + "'");
  if ((*t)[0] > 23 || (*t)[1] > 59 || (*t)[2] > 59) {
    Fail(path, "starttime", "no such time of day: '" + std::string(time) + "'");
  }
  const int64_t days = std::chrono::sys_days(ymd).time_since_epoch().count();
  const int64_t seconds = days * 86400 + (*t)[0] * 3600 + (*t)[1] * 60 + (*t)[2];
  return seconds * 1'000'000;
}

// "digits[.digits]" seconds as the fraction num / 10^k, num > 0 unless zero.
bool ParseDuration(std::string_view text, int64_t* num, int64_t* den) {
  if (text.empty()) return false;
  int64_t n = 0;
  int64_t d = 1;
  bool dot = false;
  bool digits = false;
  for (char c : text) {
    if (c == '.' && !dot) {
      dot = true;
      continue;
    }
    if (c < '0' || c > '9') return false;
    digits = true;
    if (n > (std::numeric_limits<int64_t>::max() - 9) / 10) return false;
    n = n * 10 + (c - '0');
    if (dot) {
      if (d > std::numeric_limits<int64_t>::max() / 10) return false;
      d *= 10;
    }
  }
  if (!digits) return false;
  *num = n;
  *den = d;
  return true;
}

std::string ChannelField(std::string_view field, int index) {
  return std::string(field) + "[" + std::to_string(index) + "]";
}

}  // namespace

std::string_view VariantName(EdfVariant variant) {
  switch (variant) {
    case EdfVariant::kEdf:
      return "EDF";
    case EdfVariant::kEdfPlusC:
      return "EDF+C";
    case EdfVariant::kBdf:
      return "BDF";
    case EdfVariant::kBdfPlusC:
      return "BDF+C";
  }
  return "EDF";
}

int64_t EdfHeaderSize(const std::filesystem::path& path, std::string_view first_256) {
  if (static_cast<int64_t>(first_256.size()) < kFixedBytes) {
    Fail(path, "header",
         "the file is " + std::to_string(first_256.size()) +
             " bytes, shorter than the 256-byte fixed header");
  }
  // Version: "0" + 7 spaces (EDF), or 0xFF "BIOSEMI" (BDF).
  if (static_cast<unsigned char>(first_256[0]) == 0xff) {
    if (first_256.substr(1, 7) != "BIOSEMI") {
      Fail(path, "version", "a BDF file starts with 0xFF 'BIOSEMI' (not an EDF or BDF file)");
    }
  } else if (first_256.substr(0, 8) != "0       ") {
    Fail(path, "version",
         "an EDF file starts with '0       ', got '" +
             core::PrintableForMessage(first_256.substr(0, 8)) + "' (not an EDF or BDF file)");
  }
  FieldCursor cursor(path, first_256.substr(252, 4));
  const int64_t signals =
      RequireInteger(path, "number of signals", cursor.Take(4, "number of signals"));
  if (signals < 0 || signals > kMaxSignals) {
    Fail(path, "number of signals", "must be at least 0, got " + std::to_string(signals));
  }
  return kFixedBytes * (signals + 1);
}

EdfHeader ParseEdfHeader(const std::filesystem::path& path, std::string_view bytes,
                         int64_t file_size) {
  EdfHeader header;
  header.path = path;
  header.file_size = file_size;
  const int64_t size = EdfHeaderSize(path, bytes);
  if (static_cast<int64_t>(bytes.size()) < size) {
    Fail(path, "header",
         "the file ends inside the header (" + std::to_string(bytes.size()) + " of " +
             std::to_string(size) + " bytes)");
  }

  const bool bdf = static_cast<unsigned char>(bytes[0]) == 0xff;  // checked by EdfHeaderSize
  FieldCursor cursor(path, bytes);
  cursor.Skip(8);
  header.patient = std::string(Trim(cursor.Take(80, "local patient identification")));
  header.recording = std::string(Trim(cursor.Take(80, "local recording identification")));
  header.start_date = std::string(cursor.Take(8, "startdate"));
  header.start_time = std::string(cursor.Take(8, "starttime"));
  header.header_bytes = RequireInteger(path, "number of bytes in header",
                                       cursor.Take(8, "number of bytes in header"));
  header.reserved = std::string(Trim(cursor.Take(44, "reserved")));
  header.n_records =
      RequireInteger(path, "number of data records", cursor.Take(8, "number of data records"));
  header.record_duration_text = std::string(Trim(cursor.Take(8, "duration of a data record")));
  const int64_t signals =
      RequireInteger(path, "number of signals", cursor.Take(4, "number of signals"));

  if (header.header_bytes != size) {
    Fail(path, "number of bytes in header",
         "is " + std::to_string(header.header_bytes) + ", but " + std::to_string(signals) +
             " signals make a header of 256 × (signals + 1) = " + std::to_string(size) + " bytes");
  }
  const std::string_view reserved = header.reserved;
  const bool edf_plus = reserved.starts_with("EDF+");
  const bool bdf_plus = reserved.starts_with("BDF+");
  if (edf_plus || bdf_plus) {
    if (edf_plus && bdf) Fail(path, "reserved", "a BDF file says 'EDF+'");
    if (bdf_plus && !bdf) Fail(path, "reserved", "an EDF file says 'BDF+'");
    const std::string_view kind = reserved.substr(4, 1);
    if (kind == "D") {
      Fail(path, "reserved",
           std::string(reserved.substr(0, 5)) +
               " (discontinuous) is not imported: its data records have gaps, which a regular "
               "axis cannot hold; convert it to continuous segments first");
    }
    if (kind != "C") {
      Fail(path, "reserved",
           "'" + std::string(reserved.substr(0, 5)) + "' is neither " +
               (bdf ? "BDF+C nor BDF+D" : "EDF+C nor EDF+D"));
    }
    header.variant = bdf ? EdfVariant::kBdfPlusC : EdfVariant::kEdfPlusC;
  } else {
    header.variant = bdf ? EdfVariant::kBdf : EdfVariant::kEdf;
  }
  header.sample_bytes = bdf ? 3 : 2;
  header.start_unix_us = StartUnixMicros(path, header.start_date, header.start_time);

  if (header.n_records < 0) {
    Fail(path, "number of data records",
         header.n_records == -1 ? "is -1 (unknown: the recording was not closed)"
                                : "is negative: " + std::to_string(header.n_records));
  }
  if (!ParseDuration(header.record_duration_text, &header.duration_num, &header.duration_den)) {
    Fail(path, "duration of a data record",
         "not a non-negative decimal number of seconds: '" + header.record_duration_text + "'");
  }

  header.channels.resize(static_cast<size_t>(signals));
  auto each = [&](std::string_view name, int64_t width, auto&& store) {
    for (int i = 0; i < signals; ++i) {
      const std::string field = ChannelField(name, i);
      store(header.channels[static_cast<size_t>(i)], field, cursor.Take(width, field));
    }
  };
  each("label", 16, [&](EdfChannel& c, const std::string&, std::string_view raw) {
    c.label = std::string(Trim(raw));
  });
  each("transducer type", 80, [&](EdfChannel& c, const std::string&, std::string_view raw) {
    c.transducer = std::string(Trim(raw));
  });
  each("physical dimension", 8, [&](EdfChannel& c, const std::string&, std::string_view raw) {
    c.physical_dimension = std::string(Trim(raw));
  });
  each("physical minimum", 8, [&](EdfChannel& c, const std::string& f, std::string_view raw) {
    c.physical_min = RequireDouble(path, f, raw);
  });
  each("physical maximum", 8, [&](EdfChannel& c, const std::string& f, std::string_view raw) {
    c.physical_max = RequireDouble(path, f, raw);
  });
  each("digital minimum", 8, [&](EdfChannel& c, const std::string& f, std::string_view raw) {
    c.digital_min = static_cast<int32_t>(
        std::clamp<int64_t>(RequireInteger(path, f, raw), INT32_MIN, INT32_MAX));
  });
  each("digital maximum", 8, [&](EdfChannel& c, const std::string& f, std::string_view raw) {
    c.digital_max = static_cast<int32_t>(
        std::clamp<int64_t>(RequireInteger(path, f, raw), INT32_MIN, INT32_MAX));
  });
  each("prefiltering", 80, [&](EdfChannel& c, const std::string&, std::string_view raw) {
    c.prefilter = std::string(Trim(raw));
  });
  each("number of samples in each data record", 8,
       [&](EdfChannel& c, const std::string& f, std::string_view raw) {
         c.samples_per_record = RequireInteger(path, f, raw);
       });
  each("reserved", 32, [&](EdfChannel& c, const std::string&, std::string_view raw) {
    c.reserved = std::string(Trim(raw));
  });

  const std::string annotation_label = bdf ? "BDF Annotations" : "EDF Annotations";
  const int64_t dig_lo = bdf ? -8388608 : -32768;
  const int64_t dig_hi = bdf ? 8388607 : 32767;
  bool any_annotations = false;
  bool any_ordinary = false;
  int64_t offset = 0;
  for (EdfChannel& c : header.channels) {
    c.index = static_cast<int>(&c - header.channels.data());
    const int i = c.index;
    c.annotations = header.plus() && c.label == annotation_label;
    any_annotations |= c.annotations;
    any_ordinary |= !c.annotations;
    const std::string spr_field = ChannelField("number of samples in each data record", i);
    if (c.samples_per_record < 1) {
      Fail(path, spr_field,
           "must be at least 1 (a sample rate of zero), got " +
               std::to_string(c.samples_per_record) + " for '" + c.label + "'");
    }
    if (c.samples_per_record > (int64_t{1} << 40)) {
      Fail(path, spr_field, "is implausibly large: " + std::to_string(c.samples_per_record));
    }
    c.offset_in_record = offset;
    offset += c.samples_per_record * header.sample_bytes;
    if (c.annotations) continue;  // its minima and maxima are not used
    if (c.digital_min >= c.digital_max) {
      Fail(path, ChannelField("digital minimum", i),
           "digital minimum " + std::to_string(c.digital_min) + " is not below digital maximum " +
               std::to_string(c.digital_max) + " for '" + c.label + "'");
    }
    if (c.digital_min < dig_lo || c.digital_max > dig_hi) {
      Fail(path, ChannelField(c.digital_min < dig_lo ? "digital minimum" : "digital maximum", i),
           "outside the " + std::string(bdf ? "24" : "16") + "-bit range [" +
               std::to_string(dig_lo) + ", " + std::to_string(dig_hi) + "] for '" + c.label + "'");
    }
    if (c.physical_min == c.physical_max) {
      Fail(path, ChannelField("physical minimum", i),
           "physical minimum equals physical maximum for '" + c.label + "' (no scale)");
    }
  }
  header.record_bytes = offset;
  if (header.plus() && !any_annotations) {
    Fail(path, "label",
         std::string(VariantName(header.variant)) + " needs an '" + annotation_label +
             "' channel; there is none");
  }
  if (!any_ordinary) {
    Fail(path, "number of signals", "the file has no ordinary (non-annotation) channel to import");
  }
  if (header.duration_num == 0) {
    Fail(path, "duration of a data record",
         "is 0 (a sample rate of zero) while the file has ordinary channels");
  }
  // Sizes: header + records × record size must be the file's length.
  const __int128 expected =
      static_cast<__int128>(header.header_bytes) +
      static_cast<__int128>(header.n_records) * static_cast<__int128>(header.record_bytes);
  if (expected != file_size) {
    const std::string records = std::to_string(header.n_records);
    Fail(path, "number of data records",
         records + " data records of " + std::to_string(header.record_bytes) + " bytes after a " +
             std::to_string(header.header_bytes) + "-byte header make " +
             (expected > std::numeric_limits<int64_t>::max()
                  ? std::string("more than 2^63")
                  : std::to_string(static_cast<int64_t>(expected))) +
             " bytes, but the file is " + std::to_string(file_size) +
             (expected > file_size ? " (truncated?)" : " (trailing bytes?)"));
  }
  return header;
}

std::optional<int64_t> ParseSecondsToMicros(std::string_view text, bool sign_required) {
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  } else if (sign_required) {
    return std::nullopt;
  }
  if (text.empty()) return std::nullopt;
  __int128 micros = 0;
  int fraction_digits = -1;  // -1: before the dot
  bool digits = false;
  for (char c : text) {
    if (c == '.' && fraction_digits < 0) {
      fraction_digits = 0;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    digits = true;
    const int digit = c - '0';
    if (fraction_digits < 0) {
      micros = micros * 10 + digit * 1'000'000;
      // keep the value as µs: whole seconds times 10 plus the digit, scaled
      if (micros > (static_cast<__int128>(1) << 62)) return std::nullopt;
      continue;
    }
    ++fraction_digits;
    if (fraction_digits > 6) {
      if (digit != 0) return std::nullopt;  // finer than 1 µs
      continue;
    }
    int64_t scale = 1;
    for (int k = fraction_digits; k < 6; ++k) scale *= 10;
    micros += static_cast<__int128>(digit) * scale;
  }
  if (!digits) return std::nullopt;
  const int64_t value = static_cast<int64_t>(micros);
  return negative ? -value : value;
}

std::vector<Tal> ParseTals(std::string_view bytes, const std::filesystem::path& path,
                           const std::string& where) {
  std::vector<Tal> tals;
  size_t at = 0;
  const size_t n = bytes.size();
  while (true) {
    while (at < n && bytes[at] == '\0') ++at;
    if (at >= n) break;
    const size_t tal_start = at;
    auto fail = [&](const std::string& problem) {
      Fail(path, where, "TAL at byte " + std::to_string(tal_start) + ": " + problem);
    };
    // Onset, up to \x15 (duration follows) or \x14.
    size_t end = at;
    while (end < n && bytes[end] != '\x14' && bytes[end] != '\x15' && bytes[end] != '\0') ++end;
    if (end >= n || bytes[end] == '\0') fail("the onset is not ended by 0x14 or 0x15");
    Tal tal;
    const std::string_view onset = bytes.substr(at, end - at);
    auto onset_us = ParseSecondsToMicros(onset, /*sign_required=*/true);
    if (!onset_us) {
      fail("onset '" + core::PrintableForMessage(onset) +
           "' is not a signed decimal number of seconds with a precision of 1 µs or coarser");
    }
    tal.onset_us = *onset_us;
    at = end;
    if (bytes[at] == '\x15') {
      ++at;
      end = at;
      while (end < n && bytes[end] != '\x14' && bytes[end] != '\0') ++end;
      if (end >= n || bytes[end] != '\x14') fail("the duration is not ended by 0x14");
      const std::string_view duration = bytes.substr(at, end - at);
      auto duration_us = ParseSecondsToMicros(duration, /*sign_required=*/false);
      if (!duration_us || duration.front() == '+' || duration.front() == '-') {
        fail("duration '" + core::PrintableForMessage(duration) +
             "' is not an unsigned decimal number of seconds with a precision of 1 µs or coarser");
      }
      tal.duration_us = *duration_us;
      at = end;
    }
    ++at;  // the 0x14 after onset[/duration]
    // Texts, each ended by 0x14; the TAL ends with 0x00 after one.
    while (true) {
      end = at;
      while (end < n && bytes[end] != '\x14' && bytes[end] != '\0') ++end;
      if (end >= n) fail("the TAL is not ended by 0x00");
      if (bytes[end] == '\0') {
        if (end != at || tal.texts.empty()) fail("an annotation text is not ended by 0x14");
        at = end + 1;
        break;
      }
      const std::string_view text = bytes.substr(at, end - at);
      if (!core::IsValidUtf8(text)) {
        fail("annotation text is not UTF-8: '" + core::PrintableForMessage(text) + "'");
      }
      tal.texts.emplace_back(text);
      at = end + 1;
      if (at < n && bytes[at] == '\0') {
        ++at;
        break;
      }
    }
    tals.push_back(std::move(tal));
  }
  return tals;
}

}  // namespace timef::importers
