// TextPayloadWriter: rows are assembled straight into the two columns' buffers (the `text` slot
// null for a list row, the `text_list` list null for a text row) and written as one row group when
// their bytes reach the row-group budget.
#include <cstring>
#include <string>
#include <utility>

#include "core/text.h"
#include "parquet/column_data.h"
#include "payload/file_series.h"
#include "payload/payload_schema.h"
#include "payload/payload_writer.h"
#include "timef/error.h"

namespace timef::payload {
namespace {

// Per string: its bytes plus a 4-byte length, as PLAIN stores it.
constexpr std::int64_t kLengthBytes = 4;

void CheckUtf8(std::string_view text, const std::string& where) {
  const std::size_t bad = core::FindInvalidUtf8(text);
  if (bad == std::string_view::npos) return;
  throw ValidationError(ErrorSite{std::nullopt, "text payload", where},
                        "not valid UTF-8 at byte " + std::to_string(bad));
}

void AppendBytes(parquet::ColumnData& column, std::string_view bytes) {
  const std::size_t at = column.values.size();
  column.values.resize(at + bytes.size());
  if (!bytes.empty()) std::memcpy(column.values.data() + at, bytes.data(), bytes.size());
  column.byte_offsets.push_back(static_cast<std::int64_t>(column.values.size()));
}

}  // namespace

struct TextPayloadWriter::Impl {
  Impl(std::filesystem::path release_dir, PayloadOptions options)
      : series(std::move(release_dir), "text", TextFileSchema(), options, &TextWriterOptions) {
    Reset();
  }

  void Reset() {
    text.Clear();
    text.physical_type = parquet::Type::kByteArray;
    text.byte_offsets.push_back(0);
    list.Clear();
    list.physical_type = parquet::Type::kByteArray;
    list.byte_offsets.push_back(0);
    list.list_offsets.push_back(0);
    buffered_bytes = 0;
  }

  TextLocator Locate(std::int64_t length) const {
    return TextLocator{std::nullopt, series.current_name(), series.current_rows() + text.num_rows,
                       length};
  }

  // Ends the row just appended to both columns.
  void EndRow(std::int64_t bytes) {
    ++text.num_rows;
    ++list.num_rows;
    list.list_offsets.push_back(static_cast<std::int64_t>(list.byte_offsets.size()) - 1);
    buffered_bytes += bytes;
    if (buffered_bytes >= series.options().row_group_target_bytes) Flush();
  }

  void Flush() {
    if (text.num_rows == 0) return;
    const parquet::ColumnView views[] = {text.View(), list.View()};
    series.WriteRowGroup(views);
    Reset();
  }

  PayloadFileSeries series;
  parquet::ColumnData text;
  parquet::ColumnData list;
  std::int64_t buffered_bytes = 0;
};

TextPayloadWriter::TextPayloadWriter(std::filesystem::path release_dir, PayloadOptions options)
    : impl_(std::make_unique<Impl>(std::move(release_dir), options)) {}

TextPayloadWriter::~TextPayloadWriter() = default;

TextLocator TextPayloadWriter::AddText(std::string_view utf8) {
  CheckUtf8(utf8, "text");
  Impl& impl = *impl_;
  const TextLocator location = impl.Locate(static_cast<std::int64_t>(utf8.size()));
  AppendBytes(impl.text, utf8);
  impl.text.validity.push_back(1);
  impl.list.list_validity.push_back(0);
  impl.EndRow(static_cast<std::int64_t>(utf8.size()) + kLengthBytes);
  return location;
}

TextLocator TextPayloadWriter::AddTextList(std::span<const std::string> elements) {
  for (std::size_t i = 0; i < elements.size(); ++i) {
    CheckUtf8(elements[i], "text_list[" + std::to_string(i) + "]");
  }
  Impl& impl = *impl_;
  const TextLocator location = impl.Locate(static_cast<std::int64_t>(elements.size()));
  std::int64_t bytes = 0;
  for (const std::string& element : elements) {
    AppendBytes(impl.list, element);
    bytes += static_cast<std::int64_t>(element.size()) + kLengthBytes;
  }
  AppendBytes(impl.text, {});
  impl.text.validity.push_back(0);
  impl.list.list_validity.push_back(1);
  // An empty list still costs a level in each column.
  impl.EndRow(bytes + kLengthBytes);
  return location;
}

std::vector<PayloadFile> TextPayloadWriter::Finish() {
  impl_->Flush();
  return impl_->series.Finish();
}

}  // namespace timef::payload
