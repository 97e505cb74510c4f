// CSV/TSV files as Records (docs/importing.md, "CSV and TSV"). The file is read once when it is
// opened: the header, every cell checked (a number or empty in each signal column, a time in the
// time column, the same number of fields in every row) and the times kept (8 bytes a row) to
// choose the axis. Each signal's values are read again, column by column, by a piece loader when
// the writer asks for them, so a file larger than memory is written in bounded memory.
#include "importers/csv_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <set>
#include <system_error>
#include <tuple>
#include <type_traits>

#include "core/checksum.h"
#include "core/enum_table.h"
#include "timef/error.h"
#include "timef/units.h"

TIMEF_ENUM_TABLE(timef::CsvTimeUnit, {timef::CsvTimeUnit::kAuto, "auto"},
                 {timef::CsvTimeUnit::kSeconds, "s"}, {timef::CsvTimeUnit::kMilliseconds, "ms"},
                 {timef::CsvTimeUnit::kIso8601, "iso"})

namespace timef {

const std::string& ToString(CsvTimeUnit unit) { return core::EnumNameString(unit); }

std::optional<CsvTimeUnit> ParseCsvTimeUnit(std::string_view name) {
  return core::EnumFromName<CsvTimeUnit>(name);
}

}  // namespace timef

// The helpers live in their own namespace: the importers are a unity build, and other readers have
// helpers of the same names.
namespace timef::importers::csv_impl {
namespace {

// Rows per piece handed to the writer.
constexpr int64_t kPieceRows = 65536;

// Lines of a text file, read with getline (RAII). Blank lines (only spaces, tabs and a CR) are
// skipped; the CR of a CRLF ending and a UTF-8 byte order mark on line 1 are dropped.
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& path) : path_(path) {
    file_ = std::fopen(path.c_str(), "rbe");
    if (file_ == nullptr) {
      const std::error_code code(errno, std::generic_category());
      throw FileError(ErrorSite{.file = path}, "cannot open: " + code.message(), code);
    }
  }
  ~LineReader() {
    std::free(buffer_);
    std::fclose(file_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next non-blank line, or false at the end of the file.
  bool Next(std::string_view& line) {
    while (true) {
      errno = 0;
      const ssize_t n = ::getline(&buffer_, &capacity_, file_);
      if (n < 0) {
        if (std::ferror(file_)) {
          const std::error_code code(errno, std::generic_category());
          throw FileError(ErrorSite{.file = path_}, "read failed: " + code.message(), code);
        }
        return false;
      }
      ++line_number_;
      std::string_view text(buffer_, static_cast<size_t>(n));
      if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
      if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
      if (line_number_ == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
      if (text.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      line = text;
      return true;
    }
  }
  int64_t line_number() const { return line_number_; }

 private:
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  char* buffer_ = nullptr;
  size_t capacity_ = 0;
  int64_t line_number_ = 0;
};

int64_t FileSize(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const std::error_code code(errno, std::generic_category());
    throw FileError(ErrorSite{.file = path}, "cannot stat: " + code.message(), code);
  }
  return st.st_size;
}

std::string_view Trim(std::string_view text, char delimiter) {
  auto blank = [delimiter](char c) { return (c == ' ' || c == '\t') && c != delimiter; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

// Splits one line into trimmed fields. A field may be quoted ("a,b", "say ""hi"""); a quoted
// field's text is kept in `scratch`. FormatError for an unterminated quote or text after one.
class RowSplitter {
 public:
  RowSplitter(const std::filesystem::path& path, char delimiter)
      : path_(path), delimiter_(delimiter) {}

  const std::vector<std::string_view>& Split(std::string_view line, int64_t line_number) {
    fields_.clear();
    scratch_.clear();
    size_t at = 0;
    while (true) {
      size_t end = line.find(delimiter_, at);
      std::string_view field =
          Trim(line.substr(at, end == std::string_view::npos ? line.npos : end - at), delimiter_);
      if (!field.empty() && field.front() == '"') {
        // A quoted field: up to the closing quote, "" inside is one quote.
        const size_t open = line.find('"', at);
        std::string text;
        size_t i = open + 1;
        bool closed = false;
        for (; i < line.size(); ++i) {
          if (line[i] == '"') {
            if (i + 1 < line.size() && line[i + 1] == '"') {
              text += '"';
              ++i;
            } else {
              closed = true;
              ++i;
              break;
            }
          } else {
            text += line[i];
          }
        }
        if (!closed) {
          throw FormatError(ErrorSite{.file = path_, .where = Where(line_number)},
                            "field " + std::to_string(fields_.size() + 1) +
                                " opens a quote that the line does not close (a quoted field "
                                "cannot span lines)");
        }
        end = line.find(delimiter_, i);
        if (!Trim(line.substr(i, end == std::string_view::npos ? line.npos : end - i), delimiter_)
                 .empty()) {
          throw FormatError(
              ErrorSite{.file = path_, .where = Where(line_number)},
              "field " + std::to_string(fields_.size() + 1) + " has text after its closing quote");
        }
        scratch_.push_back(std::move(text));
        field = scratch_.back();
      }
      fields_.push_back(field);
      if (end == std::string_view::npos) break;
      at = end + 1;
    }
    return fields_;
  }

  static std::string Where(int64_t line_number) { return "line " + std::to_string(line_number); }

 private:
  std::filesystem::path path_;
  char delimiter_;
  std::vector<std::string_view> fields_;
  std::deque<std::string> scratch_;
};

std::optional<double> ParseDouble(std::string_view text) {
  if (text.size() > 1 && text.front() == '+' && text[1] != '-') text.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The float32 of a decimal when it is that float's shortest representation's value (nothing of
// the decimal is lost), else nullopt.
std::optional<float> ExactFloat32(std::string_view text, double as_double) {
  if (text.size() > 1 && text.front() == '+' && text[1] != '-') text.remove_prefix(1);
  float value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (std::isnan(value) || std::isinf(value)) return value;
  char shortest[64];
  const auto printed = std::to_chars(shortest, shortest + sizeof shortest, value);
  double back = 0;
  std::from_chars(shortest, printed.ptr, back);
  if (back != as_double) return std::nullopt;
  return value;
}

// A decimal number of seconds (scale 6) or milliseconds (scale 3), with an optional fraction and
// exponent, as µs rounded to the nearest (half away from zero). Exact: no binary floating point.
std::optional<int64_t> ParseDecimalUs(std::string_view text, int scale) {
  bool negative = false;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::string digits;
  int64_t exponent = 0;
  bool any = false;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, any = true) digits += text[i];
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, any = true) {
      digits += text[i];
      --exponent;
    }
  }
  if (!any) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && text[i] == '+') ++i;
    int64_t e = 0;
    const auto [end, ec] = std::from_chars(text.data() + i, text.data() + text.size(), e);
    if (ec != std::errc() || end != text.data() + text.size() || e > 1000 || e < -1000) {
      return std::nullopt;
    }
    exponent += e;
    i = text.size();
  }
  if (i != text.size()) return std::nullopt;
  const size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? "0" : digits.substr(first);
  exponent += scale;
  bool round_up = false;
  if (exponent < 0) {
    const size_t drop = static_cast<size_t>(-exponent);
    if (drop > digits.size()) {
      digits = "0";
    } else {
      round_up = digits[digits.size() - drop] >= '5';
      digits.resize(digits.size() - drop);
      if (digits.empty()) digits = "0";
    }
    exponent = 0;
  }
  if (static_cast<int64_t>(digits.size()) + exponent > 18) return std::nullopt;  // past int64
  digits.append(static_cast<size_t>(exponent), '0');
  int64_t value = std::stoll(digits) + (round_up ? 1 : 0);
  return negative ? -value : value;
}

bool ReadDigits(std::string_view text, size_t& at, size_t count, int64_t& out) {
  out = 0;
  for (size_t k = 0; k < count; ++k, ++at) {
    if (at >= text.size() || text[at] < '0' || text[at] > '9') return false;
    out = out * 10 + (text[at] - '0');
  }
  return true;
}

// ISO-8601 `YYYY-MM-DD[T| ]hh:mm:ss[.fraction][Z|±hh:mm|±hhmm|±hh]` or `YYYY-MM-DD` (midnight) as
// µs since the Unix epoch (no zone: UTC). A fraction finer than 1 µs is rounded to the nearest µs.
std::optional<int64_t> ParseIsoUs(std::string_view text) {
  size_t at = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!ReadDigits(text, at, 4, year) || at >= text.size() || text[at++] != '-' ||
      !ReadDigits(text, at, 2, month) || at >= text.size() || text[at++] != '-' ||
      !ReadDigits(text, at, 2, day)) {
    return std::nullopt;
  }
  const bool date_only = at == text.size();  // midnight UTC
  if (!date_only) {
    if (text[at] != 'T' && text[at] != ' ') return std::nullopt;
    ++at;
    if (!ReadDigits(text, at, 2, hour) || at >= text.size() || text[at++] != ':' ||
        !ReadDigits(text, at, 2, minute) || at >= text.size() || text[at++] != ':' ||
        !ReadDigits(text, at, 2, second)) {
      return std::nullopt;
    }
  }
  const std::chrono::year_month_day date{std::chrono::year(static_cast<int>(year)),
                                         std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour > 23 || minute > 59 || second > 59) return std::nullopt;
  int64_t micros = 0;
  if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
    ++at;
    const size_t begin = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    if (at == begin) return std::nullopt;
    std::string fraction(text.substr(begin, at - begin));
    const bool round_up = fraction.size() > 6 && fraction[6] >= '5';
    fraction.resize(6, '0');
    micros = std::stoll(fraction) + (round_up ? 1 : 0);
  }
  int64_t zone_minutes = 0;
  if (at < text.size() && text[at] == 'Z') {
    ++at;
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const bool minus = text[at++] == '-';
    int64_t zh = 0, zm = 0;
    if (!ReadDigits(text, at, 2, zh)) return std::nullopt;
    if (at < text.size() && text[at] == ':') ++at;
    if (at < text.size() && !ReadDigits(text, at, 2, zm)) return std::nullopt;
    if (zh > 23 || zm > 59) return std::nullopt;
    zone_minutes = (minus ? -1 : 1) * (zh * 60 + zm);
  }
  if (at != text.size()) return std::nullopt;
  const int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  const int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - zone_minutes * 60;
  return seconds * 1'000'000 + micros;
}

// A positive decimal rate in Hz as a fraction num/den.
std::optional<std::pair<int64_t, int64_t>> ParseRate(std::string_view text) {
  int64_t num = 0, den = 1;
  bool any = false, point = false;
  for (char c : text) {
    if (c == '.' && !point) {
      point = true;
    } else if (c >= '0' && c <= '9') {
      if (num > (std::numeric_limits<int64_t>::max() - 9) / 10 || (point && den >= 1'000'000'000))
        return std::nullopt;
      num = num * 10 + (c - '0');
      if (point) den *= 10;
      any = true;
    } else {
      return std::nullopt;
    }
  }
  if (!any || num == 0) return std::nullopt;
  return std::pair{num, den};
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// "ECG (mV)" / "ECG [mV]" → {"ECG", "mV"}; otherwise {header, nullopt}.
std::pair<std::string, std::optional<std::string>> SplitUnitSuffix(std::string_view header) {
  for (const auto& [open, close] : {std::pair{'(', ')'}, std::pair{'[', ']'}}) {
    if (header.size() >= 2 && header.back() == close) {
      const size_t at = header.rfind(open);
      if (at != std::string_view::npos && at > 0) {
        return {std::string(Trim(header.substr(0, at), ',')),
                std::string(Trim(header.substr(at + 1, header.size() - at - 2), ','))};
      }
    }
  }
  return {std::string(header), std::nullopt};
}

struct Column {
  int index = 0;       // 0-based field position
  std::string header;  // trimmed, as written
  std::string name;    // the signal's name: header without its unit suffix
  std::optional<std::string> unit_text;
};

// What the first pass found, shared by the column loaders.
struct CsvLayout {
  std::filesystem::path path;
  char delimiter = ',';
  int64_t file_size = 0;
  size_t n_fields = 0;
  int64_t n_rows = 0;
  DType dtype = DType::kFloat64;
};

std::string CellWhere(int64_t line, const std::string& header) {
  return "line " + std::to_string(line) + ", column '" + header + "'";
}

// Parses one cell of a signal column: nullopt for an empty cell, else the value (FormatError for
// a cell that is not a number, or that float32 cannot hold exactly).
template <class T>
std::optional<T> ParseCell(std::string_view cell, const CsvLayout& layout, int64_t line,
                           const std::string& header) {
  if (cell.empty()) return std::nullopt;
  const std::optional<double> value = ParseDouble(cell);
  if (!value) {
    throw FormatError(ErrorSite{.file = layout.path, .where = CellWhere(line, header)},
                      "'" + std::string(cell) + "' is not a number (an empty cell is a null)");
  }
  if constexpr (std::is_same_v<T, float>) {
    const std::optional<float> exact = ExactFloat32(cell, *value);
    if (!exact) {
      throw FormatError(ErrorSite{.file = layout.path, .where = CellWhere(line, header)},
                        "'" + std::string(cell) +
                            "' cannot be stored as float32 without loss; import as float64");
    }
    return *exact;
  } else {
    return *value;
  }
}

std::string RaggedMessage(size_t got, size_t want) {
  return "the row has " + std::to_string(got) + " fields, the header " + std::to_string(want);
}

template <class T>
void LoadColumn(const CsvLayout& layout, const Column& column, const model::PieceSink& emit) {
  if (FileSize(layout.path) != layout.file_size) {
    throw FormatError(ErrorSite{.file = layout.path},
                      "the file is " + std::to_string(FileSize(layout.path)) + " bytes now, " +
                          std::to_string(layout.file_size) +
                          " when it was first read: it changed during the import");
  }
  LineReader lines(layout.path);
  RowSplitter splitter(layout.path, layout.delimiter);
  std::string_view line;
  lines.Next(line);  // the header
  std::vector<T> values;
  std::vector<uint8_t> validity;
  bool nulls = false;
  int64_t rows = 0;
  auto flush = [&] {
    if (values.empty()) return;
    emit(model::ValueArray::Of(std::move(values),
                               nulls ? std::move(validity) : std::vector<uint8_t>{}));
    values = {};
    validity = {};
    nulls = false;
  };
  while (lines.Next(line)) {
    const auto& fields = splitter.Split(line, lines.line_number());
    if (fields.size() != layout.n_fields) {
      throw FormatError(
          ErrorSite{.file = layout.path, .where = RowSplitter::Where(lines.line_number())},
          RaggedMessage(fields.size(), layout.n_fields));
    }
    const std::optional<T> value = ParseCell<T>(fields[static_cast<size_t>(column.index)], layout,
                                                lines.line_number(), column.header);
    values.push_back(value.value_or(T{}));
    validity.push_back(value ? 1 : 0);
    nulls = nulls || !value;
    ++rows;
    if (static_cast<int64_t>(values.size()) == kPieceRows) flush();
  }
  flush();
  if (rows != layout.n_rows) {
    throw FormatError(ErrorSite{.file = layout.path},
                      "the file has " + std::to_string(rows) + " data rows now, " +
                          std::to_string(layout.n_rows) +
                          " when it was first read: it changed during the import");
  }
}

bool IsTimeName(const std::string& lowered) {
  return lowered == "time" || lowered == "t" || lowered == "timestamp" || lowered == "datetime";
}

// The time column's base name (lowercase) and the unit its name gives: "time_ms", "Time (ms)",
// "t[s]" → ("time"/"t", ms/s).
std::pair<std::string, CsvTimeUnit> TimeNameAndUnit(const Column& column) {
  std::string base = Lower(column.name);
  std::string unit = column.unit_text ? Lower(*column.unit_text) : "";
  if (!column.unit_text) {
    for (const char* suffix : {"_ms", "_s"}) {
      const std::string_view s(suffix);
      if (base.size() > s.size() && base.ends_with(s)) {
        unit = std::string(s.substr(1));
        base.resize(base.size() - s.size());
        break;
      }
    }
  }
  const CsvTimeUnit parsed = unit == "ms"  ? CsvTimeUnit::kMilliseconds
                             : unit == "s" ? CsvTimeUnit::kSeconds
                                           : CsvTimeUnit::kAuto;
  return {base, parsed};
}

char DelimiterOf(const std::filesystem::path& path, const CsvOptions& options) {
  if (options.delimiter) return *options.delimiter;
  const std::string ext = Lower(path.extension().string());
  if (ext == ".csv") return ',';
  if (ext == ".tsv" || ext == ".tab") return '\t';
  throw ValidationError(ErrorSite{.file = path, .where = "delimiter"},
                        "the extension '" + path.extension().string() +
                            "' is not .csv, .tsv or .tab: give the delimiter (--delimiter)");
}

}  // namespace

std::shared_ptr<model::Record> Read(const std::filesystem::path& path, const ReadOptions& options,
                                    SpecTable& specs, std::set<std::string>* used_units) {
  const CsvOptions& csv = options.csv;
  if (csv.dtype != DType::kFloat64 && csv.dtype != DType::kFloat32) {
    throw ValidationError(
        ErrorSite{.object = "csv import", .where = "dtype"},
        "CSV values are stored as float64 or float32, not " + std::string(ToString(csv.dtype)));
  }
  if (csv.tolerance_us < 0) {
    throw ValidationError(ErrorSite{.object = "csv import", .where = "tolerance_us"},
                          "must be ≥ 0, got " + std::to_string(csv.tolerance_us));
  }
  if (csv.rate_hz && csv.time_column) {
    throw ValidationError(ErrorSite{.object = "csv import", .where = "rate"},
                          "give a time column or a rate, not both");
  }
  auto layout = std::make_shared<CsvLayout>();
  layout->path = path;
  layout->delimiter = DelimiterOf(path, csv);
  layout->dtype = csv.dtype;
  layout->file_size = FileSize(path);

  LineReader lines(path);
  RowSplitter splitter(path, layout->delimiter);
  std::string_view line;
  if (!lines.Next(line)) {
    throw FormatError(ErrorSite{.file = path, .where = "line 1"},
                      "the file is empty: a CSV starts with a header line naming its columns");
  }
  const int64_t header_line = lines.line_number();
  std::vector<Column> columns;
  {
    std::set<std::string> seen;
    for (const std::string_view field : splitter.Split(line, header_line)) {
      Column column;
      column.index = static_cast<int>(columns.size());
      column.header = std::string(field);
      if (column.header.empty()) {
        throw FormatError(ErrorSite{.file = path, .where = RowSplitter::Where(header_line)},
                          "column " + std::to_string(column.index + 1) + " has no name");
      }
      std::tie(column.name, column.unit_text) = SplitUnitSuffix(column.header);
      if (!seen.insert(column.name).second) {
        throw FormatError(ErrorSite{.file = path, .where = RowSplitter::Where(header_line)},
                          "two columns are named '" + column.name + "'");
      }
      columns.push_back(std::move(column));
    }
  }
  layout->n_fields = columns.size();

  // The time column and how its cells read.
  std::optional<size_t> time_index;
  CsvTimeUnit time_unit = csv.time_unit;
  if (csv.time_column) {
    for (const Column& c : columns) {
      if (c.header == *csv.time_column || c.name == *csv.time_column) time_index = c.index;
    }
    if (!time_index) {
      throw ValidationError(ErrorSite{.file = path, .where = "time column"},
                            "no column is named '" + *csv.time_column + "'");
    }
  } else if (!csv.rate_hz) {
    for (const Column& c : columns) {
      if (IsTimeName(TimeNameAndUnit(c).first)) {
        time_index = c.index;
        break;
      }
    }
    if (!time_index) {
      throw ValidationError(ErrorSite{.file = path, .where = RowSplitter::Where(header_line)},
                            "no time column (time, t, timestamp or datetime): name it with "
                            "--time-column or give the rate with --rate");
    }
  }
  if (time_index && time_unit == CsvTimeUnit::kAuto) {
    time_unit = TimeNameAndUnit(columns[*time_index]).second;
  }
  for (const auto& entry : csv.units) {
    const std::string& name = entry.first;
    const bool known = std::any_of(columns.begin(), columns.end(), [&](const Column& c) {
      return (c.header == name || c.name == name) &&
             (!time_index || c.index != static_cast<int>(*time_index));
    });
    if (known && used_units != nullptr) used_units->insert(name);
    if (!known && used_units == nullptr) {
      throw ValidationError(ErrorSite{.file = path, .where = "unit"},
                            "no signal column is named '" + name + "'");
    }
  }
  std::vector<Column> signals;
  for (const Column& c : columns) {
    if (!time_index || c.index != static_cast<int>(*time_index)) signals.push_back(c);
  }
  if (signals.empty()) {
    throw FormatError(ErrorSite{.file = path, .where = RowSplitter::Where(header_line)},
                      "no signal columns besides the time column");
  }

  // First pass: every row checked, the times kept.
  std::vector<int64_t> times;
  int64_t n_rows = 0;
  while (lines.Next(line)) {
    const int64_t line_number = lines.line_number();
    const auto& fields = splitter.Split(line, line_number);
    if (fields.size() != layout->n_fields) {
      throw FormatError(ErrorSite{.file = path, .where = RowSplitter::Where(line_number)},
                        RaggedMessage(fields.size(), layout->n_fields));
    }
    for (const Column& c : signals) {
      const std::string_view cell = fields[static_cast<size_t>(c.index)];
      if (csv.dtype == DType::kFloat32) {
        ParseCell<float>(cell, *layout, line_number, c.header);
      } else {
        ParseCell<double>(cell, *layout, line_number, c.header);
      }
    }
    if (time_index) {
      const Column& c = columns[*time_index];
      const std::string_view cell = fields[*time_index];
      if (time_unit == CsvTimeUnit::kAuto) {
        time_unit = ParseDouble(cell) ? CsvTimeUnit::kSeconds : CsvTimeUnit::kIso8601;
      }
      const std::optional<int64_t> us =
          time_unit == CsvTimeUnit::kIso8601
              ? ParseIsoUs(cell)
              : ParseDecimalUs(cell, time_unit == CsvTimeUnit::kSeconds ? 6 : 3);
      if (!us) {
        throw FormatError(
            ErrorSite{.file = path, .where = CellWhere(line_number, c.header)},
            "'" + std::string(cell) + "' is not a time in " +
                (time_unit == CsvTimeUnit::kIso8601
                     ? std::string("ISO-8601 (YYYY-MM-DDThh:mm:ss[.ffffff][Z|±hh:mm])")
                     : std::string(time_unit == CsvTimeUnit::kSeconds ? "seconds"
                                                                      : "milliseconds")));
      }
      if (!times.empty() && *us < times.back()) {
        throw FormatError(
            ErrorSite{.file = path, .where = CellWhere(line_number, c.header)},
            "time goes back: '" + std::string(cell) + "' is before the previous row's time");
      }
      if (time_unit != CsvTimeUnit::kIso8601 && *us < 0) {
        throw FormatError(ErrorSite{.file = path, .where = CellWhere(line_number, c.header)},
                          "'" + std::string(cell) +
                              "' is a negative time; times are offsets ≥ 0 from the record's "
                              "zero");
      }
      times.push_back(*us);
    }
    ++n_rows;
  }
  if (n_rows == 0) {
    throw FormatError(ErrorSite{.file = path, .where = "line " + std::to_string(header_line + 1)},
                      "the file has a header but no data rows");
  }
  layout->n_rows = n_rows;

  // The axis.
  auto record = std::make_shared<model::Record>();
  std::shared_ptr<const model::TimeAxis> axis;
  std::string axis_kind;
  if (csv.rate_hz) {
    const auto rate = ParseRate(*csv.rate_hz);
    if (!rate || rate->first > rate->second * 1'000'000) {
      throw ValidationError(ErrorSite{.object = "csv import", .where = "rate"},
                            "'" + *csv.rate_hz +
                                "' is not a rate in Hz: a positive decimal of at most 1,000,000 "
                                "(a period of at least 1 µs)");
    }
    axis = model::TimeAxis::RegularFromRate(rate->first, rate->second);
    axis_kind = "regular";
  } else {
    int64_t zero = 0;
    if (time_unit == CsvTimeUnit::kIso8601) {
      zero = times.front();
      record->set_start_time_us(zero);
      for (int64_t& t : times) t -= zero;
    }
    const int64_t first = times.front();
    const int64_t span = times.back() - first;
    const int64_t steps = n_rows - 1;
    bool regular = steps > 0 && span >= steps;  // a period of at least 1 µs
    for (int64_t i = 0; regular && i < n_rows; ++i) {
      const auto on_axis = static_cast<int64_t>(static_cast<__int128>(i) * span / steps);
      const int64_t diff = times[static_cast<size_t>(i)] - first - on_axis;
      regular = diff <= csv.tolerance_us && diff >= -csv.tolerance_us;
    }
    if (regular) {
      axis = model::TimeAxis::Regular(span, steps, 0, first);
      axis_kind = "regular";
    } else {
      axis = model::TimeAxis::Irregular(std::move(times));
      axis_kind = "irregular";
    }
    times = {};
  }

  Json csv_meta = {{"delimiter", std::string(1, layout->delimiter)},
                   {"rows", n_rows},
                   {"axis", axis_kind},
                   {"dtype", std::string(ToString(csv.dtype))}};
  if (time_index) {
    csv_meta["time_column"] = columns[*time_index].header;
    csv_meta["time_unit"] = ToString(time_unit);
  } else {
    csv_meta["rate_hz"] = *csv.rate_hz;
  }
  Json metadata = Json::object();
  metadata["source_file"] = path.string();
  if (options.checksum) metadata["source_sha256"] = FileChecksum(path);
  metadata["csv"] = std::move(csv_meta);
  record->set_metadata(std::move(metadata));

  auto source = record->AddSource(path.filename().string());
  for (const Column& c : signals) {
    Json signal_metadata = Json::object();
    Json column_meta = {{"column", c.index}, {"header", c.header}};
    std::optional<std::string> unit_text = c.unit_text;
    if (auto it = csv.units.find(c.header); it != csv.units.end()) unit_text = it->second;
    if (auto it = csv.units.find(c.name); it != csv.units.end()) unit_text = it->second;
    std::optional<std::string> unit;
    if (unit_text && !unit_text->empty()) {
      column_meta["unit"] = *unit_text;
      unit = ParseUnit(*unit_text);
      if (!unit) {
        const std::string warning = path.string() + ": column '" + c.header + "': unit '" +
                                    *unit_text +
                                    "' is not a known unit; the signal's unit is stored as unknown";
        signal_metadata["unit_warning"] = warning;
        if (options.warn) options.warn(warning);
      }
    }
    const auto found = options.spec_types.find(c.name);
    const std::string spec_type = found != options.spec_types.end()
                                      ? found->second
                                      : std::string(ModalityOfLabel(c.name).spec_type);
    model::Spec spec{.spec_type = spec_type,
                     .name = SpecNameOf(spec_type),
                     .unit = unit,
                     .dtype = csv.dtype,
                     .nullable = true};
    signal_metadata["csv"] = std::move(column_meta);
    auto shared_spec = specs.Intern(std::move(spec), path, "column '" + c.header + "'", c.name);
    auto signal = std::make_shared<model::Signal>(c.name, shared_spec, axis, n_rows);
    signal->set_metadata(std::move(signal_metadata));
    if (csv.dtype == DType::kFloat32) {
      signal->SetPieceLoader(
          [layout, c](const model::PieceSink& emit) { LoadColumn<float>(*layout, c, emit); });
    } else {
      signal->SetPieceLoader(
          [layout, c](const model::PieceSink& emit) { LoadColumn<double>(*layout, c, emit); });
    }
    source->AddSignal(signal);
  }
  return record;
}

}  // namespace timef::importers::csv_impl

namespace timef::importers {

std::shared_ptr<model::Record> ReadCsvFile(const std::filesystem::path& path,
                                           const ReadOptions& options, SpecTable& specs,
                                           std::set<std::string>* used_units) {
  return csv_impl::Read(path, options, specs, used_units);
}

}  // namespace timef::importers

namespace timef {

std::shared_ptr<model::Record> ReadCsv(const std::filesystem::path& path,
                                       const ReadOptions& options) {
  importers::SpecTable specs;
  return importers::ReadCsvFile(path, options, specs);
}

}  // namespace timef
