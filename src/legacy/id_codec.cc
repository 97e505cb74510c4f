#include "legacy/id_codec.h"

#include <optional>

#include "timef/error.h"

namespace timef::legacy {

namespace {

constexpr char kHex[] = "0123456789abcdef";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// "UUID", "VARCHAR" or "BLOB" of one DuckDB type text; FormatError otherwise.
IdStorage StorageOf(std::string_view type, std::string_view column, const std::string& file) {
  if (type == "VARCHAR") return IdStorage::kString;
  if (type == "UUID") return IdStorage::kUuid16;
  std::string problem = "ID column has type " + std::string(type);
  if (type == "BLOB") {
    problem += " (FIXED_LEN_BYTE_ARRAY(16) without the UUID logical type is not supported)";
  }
  throw FormatError(ErrorSite{.file = file, .where = std::string(column)}, problem);
}

// The type of field `field` inside a DuckDB STRUCT type text (top-level fields only); "" when the
// struct has no such field.
std::string StructFieldType(std::string_view type, std::string_view field) {
  if (type.substr(0, 7) != "STRUCT(") return {};
  auto member_type = [&](std::string_view member) -> std::optional<std::string> {
    while (!member.empty() && member.front() == ' ') member.remove_prefix(1);
    const std::size_t space = member.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    std::string_view name = member.substr(0, space);
    if (name.size() >= 2 && name.front() == '"') name = name.substr(1, name.size() - 2);
    if (name != field) return std::nullopt;
    return std::string(member.substr(space + 1));
  };
  int depth = 0;
  std::size_t start = 7;
  for (std::size_t i = 7; i < type.size(); ++i) {
    const char c = type[i];
    if (c == '(') {
      ++depth;
    } else if (c == ')' && depth > 0) {
      --depth;
    } else if ((c == ',' && depth == 0) || c == ')') {
      if (auto found = member_type(type.substr(start, i - start))) return *found;
      if (c == ')') break;
      start = i + 1;
    }
  }
  return {};
}

std::string ElementType(std::string_view type) {
  if (type.size() > 2 && type.substr(type.size() - 2) == "[]") {
    return std::string(type.substr(0, type.size() - 2));
  }
  return {};
}

}  // namespace

bool IsCanonicalUuid(std::string_view text) {
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? text[i] != '-' : HexValue(text[i]) < 0) return false;
  }
  return true;
}

std::string DecodeUuid16(std::span<const std::byte, 16> bytes) {
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    const auto b = static_cast<unsigned>(bytes[i]);
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::array<std::byte, 16> EncodeUuid16(std::string_view text, std::string_view column) {
  if (!IsCanonicalUuid(text)) {
    throw ValidationError(
        ErrorSite{.object = std::string(column)},
        "not a canonical lowercase UUID in a 16-byte ID column: \"" + std::string(text) + "\"");
  }
  std::array<std::byte, 16> out{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size(); i += (text[i] == '-') ? 1 : 2) {
    if (text[i] == '-') continue;
    out[n++] = static_cast<std::byte>(HexValue(text[i]) * 16 + HexValue(text[i + 1]));
  }
  return out;
}

std::map<std::string, IdStorage> IdStoragesFromSchema(
    const std::vector<catalog::ParquetColumnType>& columns, const std::string& file) {
  auto type_of = [&](std::string_view name) -> std::string {
    for (const auto& c : columns) {
      if (c.name == name) return c.type;
    }
    throw FormatError(ErrorSite{.file = file, .where = std::string(name)},
                      "records part lacks the column");
  };
  std::map<std::string, IdStorage> out;
  out["record_id"] = StorageOf(type_of("record_id"), "record_id", file);
  out["subject_id"] = StorageOf(ElementType(type_of("subject_ids")), "subject_ids.element", file);
  const std::string ts = ElementType(type_of("time_series"));
  out["time_series_id"] =
      StorageOf(StructFieldType(ts, "time_series_id"), "time_series.element.time_series_id", file);
  out["source_id"] =
      StorageOf(StructFieldType(ts, "source_id"), "time_series.element.source_id", file);
  out["task_id"] = StorageOf(ElementType(type_of("task_ids")), "task_ids.element", file);
  out["annotation_id"] =
      StorageOf(ElementType(type_of("annotation_ids")), "annotation_ids.element", file);
  return out;
}

}  // namespace timef::legacy
