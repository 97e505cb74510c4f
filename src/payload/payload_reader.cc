// PayloadReader: locates a file-global row in its row group, decodes that row of the needed
// column(s) through the page index, and hands the values to payload_checks.
#include "payload/payload_reader.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "parquet/file_reader.h"
#include "payload/payload_checks.h"
#include "payload/payload_schema.h"
#include "timef/error.h"

namespace timef::payload {
namespace {

std::string_view SlotBytes(const parquet::ColumnData& data, std::int64_t slot) {
  const auto begin = static_cast<std::size_t>(data.byte_offsets[static_cast<std::size_t>(slot)]);
  const auto end = static_cast<std::size_t>(data.byte_offsets[static_cast<std::size_t>(slot) + 1]);
  return {reinterpret_cast<const char*>(data.values.data()) + begin, end - begin};
}

bool SlotPresent(const parquet::ColumnData& data, std::int64_t slot) {
  return data.validity.empty() || data.validity[static_cast<std::size_t>(slot)] != 0;
}

bool ListPresent(const parquet::ColumnData& data) {
  return data.list_validity.empty() || data.list_validity[0] != 0;
}

ErrorSite SiteOf(const std::string& name, const std::filesystem::path& file, std::string where) {
  return ErrorSite{name.empty() ? file : std::filesystem::path(name), "", std::move(where)};
}

}  // namespace

struct PayloadReader::OpenFile {
  explicit OpenFile(parquet::FileReader opened) : reader(std::move(opened)) {
    row_group_starts.push_back(0);
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      row_group_starts.push_back(row_group_starts.back() + reader.row_group_num_rows(g));
    }
  }

  // The file's column called `name` with the expected shape; -1 when the file has none.
  int Find(std::string_view name, bool is_list, parquet::Type type, const ErrorSite& site) const {
    const auto& columns = reader.columns();
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name != name) continue;
      if (columns[i].is_list != is_list || columns[i].physical_type != type) {
        throw FormatError(site, "column `" + std::string(name) + "` is not " +
                                    (is_list ? "a list of " : "") + parquet::ToString(type));
      }
      return static_cast<int>(i);
    }
    return -1;
  }

  // (row group, row within it) of the file-global `row`, or a FormatError at `site`.
  std::pair<int, std::int64_t> Locate(std::int64_t row, const ErrorSite& site) const {
    if (row < 0 || row >= row_group_starts.back()) {
      throw FormatError(site, "row " + std::to_string(row) + " is beyond the file's " +
                                  std::to_string(row_group_starts.back()) + " rows");
    }
    const auto next = std::upper_bound(row_group_starts.begin(), row_group_starts.end(), row);
    const auto group = static_cast<int>(next - row_group_starts.begin()) - 1;
    return {group, row - row_group_starts[static_cast<std::size_t>(group)]};
  }

  void ReadRow(int column, std::pair<int, std::int64_t> at, parquet::ColumnData& out) {
    reader.ReadRows(at.first, column, at.second, at.second + 1, out);
  }

  // Decodes row `ref.locator.row` of both text columns and returns the kind whose column is
  // non-null (that column's row is left in `text` or `list`).
  TextKind ReadTextRow(const TextRef& ref) {
    const ErrorSite site = SiteOf(ref.locator.file, ref.file, TextSubject(ref));
    const int text_column = Find(kTextColumn, false, parquet::Type::kByteArray, site);
    const int list_column = Find(kTextListColumn, true, parquet::Type::kByteArray, site);
    if (text_column < 0 && list_column < 0) {
      throw FormatError(site, "neither a `text` nor a `text_list` column");
    }
    const auto at = Locate(ref.locator.row, site);
    bool has_text = false;
    bool has_list = false;
    if (text_column >= 0) {
      ReadRow(text_column, at, text);
      has_text = SlotPresent(text, 0);
    }
    if (list_column >= 0) {
      ReadRow(list_column, at, list);
      has_list = ListPresent(list);
    }
    const std::string row = "row " + std::to_string(ref.locator.row) + ": ";
    if (has_text && has_list) throw FormatError(site, row + "both `text` and `text_list` are set");
    if (!has_text && !has_list)
      throw FormatError(site, row + "both `text` and `text_list` are null");
    return has_text ? TextKind::kText : TextKind::kTextList;
  }

  parquet::FileReader reader;
  std::vector<std::int64_t> row_group_starts;  // num_row_groups + 1 prefix sums
  parquet::ColumnData text;
  parquet::ColumnData list;
};

PayloadReader::PayloadReader(std::shared_ptr<const parquet::FileOpener> opener)
    : files_(std::move(opener)) {}
PayloadReader::~PayloadReader() = default;

// `name` is not needed: the engine's messages name the path actually opened.
PayloadReader::OpenFile& PayloadReader::File(const std::filesystem::path& file,
                                             [[maybe_unused]] const std::string& name) {
  return files_.Get(file);
}

std::string PayloadReader::ReadText(const TextRef& ref) {
  OpenFile& file = File(ref.file, ref.locator.file);
  CheckTextKind(ref, TextKind::kText, file.ReadTextRow(ref));
  const std::string_view text = SlotBytes(file.text, 0);
  CheckTextLength(ref, TextKind::kText, static_cast<std::int64_t>(text.size()));
  CheckStoredUtf8(ref, text, "text");
  ++values_read_;
  return std::string(text);
}

std::vector<std::string> PayloadReader::ReadTextList(const TextRef& ref) {
  OpenFile& file = File(ref.file, ref.locator.file);
  CheckTextKind(ref, TextKind::kTextList, file.ReadTextRow(ref));
  const parquet::ColumnData& list = file.list;
  const std::int64_t begin = list.list_offsets[0];
  const std::int64_t end = list.list_offsets[1];
  CheckTextLength(ref, TextKind::kTextList, end - begin);
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(end - begin));
  for (std::int64_t slot = begin; slot < end; ++slot) {
    const std::string what = "text_list[" + std::to_string(slot - begin) + "]";
    if (!SlotPresent(list, slot)) {
      throw FormatError(SiteOf(ref.locator.file, ref.file, TextSubject(ref)),
                        "row " + std::to_string(ref.locator.row) + ": " + what + " is null");
    }
    const std::string_view element = SlotBytes(list, slot);
    CheckStoredUtf8(ref, element, what);
    out.emplace_back(element);
  }
  ++values_read_;
  return out;
}

std::vector<std::int64_t> PayloadReader::ReadOffsets(const OffsetsRef& ref) {
  OpenFile& file = File(ref.file, ref.locator.path);
  const ErrorSite site = SiteOf(ref.locator.path, ref.file, ref.axis);
  const int column = file.Find(kOffsetsColumn, true, parquet::Type::kInt64, site);
  if (column < 0) throw FormatError(site, "no `offsets_us` column");
  const auto at = file.Locate(ref.locator.row, site);
  parquet::ColumnData& data = file.list;
  file.ReadRow(column, at, data);
  const std::string row = "row " + std::to_string(ref.locator.row) + ": ";
  if (!ListPresent(data)) throw FormatError(site, row + "`offsets_us` is null");
  const std::int64_t begin = data.list_offsets[0];
  const std::int64_t end = data.list_offsets[1];
  std::vector<std::int64_t> out(static_cast<std::size_t>(end - begin));
  for (std::int64_t slot = begin; slot < end; ++slot) {
    if (!SlotPresent(data, slot)) {
      throw FormatError(site, row + "offset " + std::to_string(slot - begin) + " is null");
    }
  }
  if (!out.empty()) {
    std::memcpy(out.data(), data.values.data() + begin * sizeof(std::int64_t),
                out.size() * sizeof(std::int64_t));
  }
  CheckOffsets(ref, out);
  ++values_read_;
  return out;
}

PayloadReaderStats PayloadReader::stats() const {
  return PayloadReaderStats{
      .files_opened = files_.files_opened(), .values_read = values_read_, .pages = files_.pages()};
}

void PayloadReader::Clear() { files_.Clear(); }

}  // namespace timef::payload
