#include "dataset_text.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iterator>
#include <variant>

namespace timef::cli {
namespace {

template <class T>
std::string ShortestFloat(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  auto result = std::to_chars(std::begin(buffer), std::end(buffer), value);
  std::string text(buffer, result.ptr);
  // "1.0", "-0.0": a float never reads as an integer.
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::optional<int64_t> ParseStep(std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

}  // namespace

int64_t TotalSize(const std::vector<manifest::FilePart>& parts) {
  int64_t total = 0;
  for (const manifest::FilePart& part : parts) total += part.size;
  return total;
}

int64_t OwnBytes(const manifest::Manifest& m) {
  return m.files.control.size + TotalSize(m.files.time_series) + TotalSize(m.files.payloads);
}

std::string FormatBytes(int64_t bytes) {
  std::string digits = std::to_string(bytes);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && digits[i - 1] != '-' && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  if (bytes < 1024) return grouped + " B";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{} B ({:.1f} {})", grouped, value, kUnits[unit]);
}

std::string FormatUnixMicros(std::optional<int64_t> micros) {
  if (!micros) return "-";
  using namespace std::chrono;
  const sys_time<microseconds> time{microseconds(*micros)};
  const auto day = floor<days>(time);
  const year_month_day date{day};
  const hh_mm_ss clock{time - day};
  std::string out =
      fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                  clock.hours().count(), clock.minutes().count(), clock.seconds().count());
  if (clock.subseconds().count() != 0) out += fmt::format(".{:06}", clock.subseconds().count());
  return out + "Z";
}

std::string FormatFloat(double value) { return ShortestFloat(value); }
std::string FormatFloat(float value) { return ShortestFloat(value); }

std::string FormatScalar(const model::ValueArray& values, int64_t index, const model::Spec& spec) {
  const auto i = static_cast<size_t>(index);
  switch (values.dtype()) {
    case model::DType::kBool:
      return values.values<uint8_t>()[i] != 0 ? "true" : "false";
    case model::DType::kFloat32:
      return FormatFloat(values.values<float>()[i]);
    case model::DType::kFloat64:
      return FormatFloat(values.values<double>()[i]);
    case model::DType::kEnum: {
      if (values.holds_enum_labels()) return values.values<std::string>()[i];
      const int32_t code = values.values<int32_t>()[i];
      if (code >= 0 && static_cast<size_t>(code) < spec.categories.size()) {
        return spec.categories[static_cast<size_t>(code)];
      }
      return std::to_string(code);
    }
    default:
      return std::visit(
          [i](const auto& data) -> std::string {
            using T = typename std::decay_t<decltype(data)>::value_type;
            if constexpr (std::is_same_v<T, std::string>) {
              return data[i];
            } else if constexpr (std::is_floating_point_v<T>) {
              return ShortestFloat(data[i]);
            } else {
              return std::to_string(static_cast<int64_t>(data[i]));
            }
          },
          values.data());
  }
}

bool ParseStepWindow(const std::string& text, std::optional<int64_t>& begin,
                     std::optional<int64_t>& end) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos) return false;
  const std::string_view view(text);
  const std::string_view left = view.substr(0, colon);
  const std::string_view right = view.substr(colon + 1);
  begin.reset();
  end.reset();
  if (!left.empty()) {
    begin = ParseStep(left);
    if (!begin) return false;
  }
  if (!right.empty()) {
    end = ParseStep(right);
    if (!end) return false;
  }
  return true;
}

}  // namespace timef::cli
