#include "parquet/file_writer.h"

#include <limits>
#include <stdexcept>

#include "parquet/writer_column.h"

namespace timef::parquet {

namespace {

constexpr std::string_view kMagic = "PAR1";

void WriteText(OutputStream& out, std::string_view text) {
  out.Write(std::as_bytes(std::span<const char>(text.data(), text.size())));
}

// Runs `fn`, which must leave the writer as it was when it throws a ValidationError (a rejected
// batch); anything else marks the writer broken.
template <typename Fn>
void Recoverable(bool& failed, Fn&& fn) {
  try {
    std::forward<Fn>(fn)();
  } catch (const ValidationError&) {
    throw;
  } catch (...) {
    failed = true;
    throw;
  }
}

// Runs `fn`, which writes to the stream: any exception leaves a partial file behind and marks the
// writer broken.
template <typename Fn>
void Writing(bool& failed, Fn&& fn) {
  try {
    std::forward<Fn>(fn)();
  } catch (...) {
    failed = true;
    throw;
  }
}

}  // namespace

FileWriter::FileWriter(OutputStream& out, std::vector<ColumnDescriptor> schema,
                       WriterOptions options)
    : out_(out),
      schema_(std::move(schema)),
      options_((ValidateWriterSetup(schema_, options), std::move(options))),
      compressors_(options_.compression, options_.compression_level, options_.compression_threads),
      key_values_(options_.key_value_metadata) {
  columns_.reserve(schema_.size());
  for (std::size_t i = 0; i < schema_.size(); ++i) {
    const ColumnWriteOptions column_options =
        options_.columns.empty() ? ColumnWriteOptions{} : options_.columns[i];
    columns_.push_back(std::make_unique<ColumnChunkWriter>(schema_[i], column_options, options_));
  }
  Writing(failed_, [&] { WriteText(out_, kMagic); });
}

FileWriter::~FileWriter() = default;

void FileWriter::CheckUsable() const {
  if (metadata_) throw std::logic_error("parquet writer: already closed");
  if (failed_) throw std::logic_error("parquet writer: unusable after an earlier failure");
}

void FileWriter::WriteColumn(std::size_t column, const ColumnView& batch) {
  CheckUsable();
  if (column >= columns_.size()) {
    throw WriterError(options_.name, "#" + std::to_string(column),
                      "no such column; the schema has " + std::to_string(columns_.size()));
  }
  Recoverable(failed_, [&] { columns_[column]->Append(batch); });
}

std::int64_t FileWriter::pending_rows(std::size_t column) const {
  return columns_.at(column)->num_rows();
}

void FileWriter::FlushRowGroup() {
  CheckUsable();
  const std::int64_t rows = columns_.front()->num_rows();
  bool any = false;
  for (const auto& column : columns_) {
    any = any || column->num_rows() > 0;
    if (column->num_rows() != rows) {
      throw WriterError(options_.name, column->column().name,
                        "has " + std::to_string(column->num_rows()) + " rows in the row group, " +
                            columns_.front()->column().name + " has " + std::to_string(rows));
    }
  }
  if (!any) return;
  Writing(failed_, [&] {
    RowGroup group;
    group.num_rows = rows;
    group.file_offset = static_cast<std::int64_t>(out_.position());
    std::int64_t compressed = 0;
    auto& column_indexes = column_indexes_.emplace_back();
    auto& offset_indexes = offset_indexes_.emplace_back();
    for (auto& column : columns_) {
      WrittenChunk written = column->Flush(out_, compressors_);
      group.total_byte_size += written.chunk.meta_data->total_uncompressed_size;
      compressed += written.chunk.meta_data->total_compressed_size;
      group.columns.push_back(std::move(written.chunk));
      column_indexes.push_back(std::move(written.column_index));
      offset_indexes.push_back(std::move(written.offset_index));
    }
    group.total_compressed_size = compressed;
    if (row_groups_.size() <= static_cast<std::size_t>(std::numeric_limits<std::int16_t>::max())) {
      group.ordinal = static_cast<std::int16_t>(row_groups_.size());
    }
    row_groups_.push_back(std::move(group));
    num_rows_ += rows;
  });
}

void FileWriter::AddKeyValue(std::string key, std::optional<std::string> value) {
  CheckUsable();
  key_values_.push_back({std::move(key), std::move(value)});
}

void FileWriter::WritePageIndex() {
  std::vector<std::byte> buffer;
  for (std::size_t g = 0; g < row_groups_.size(); ++g) {
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const auto& index = column_indexes_[g][c];
      if (!index) continue;
      buffer.clear();
      WriteThrift(*index, buffer);
      ColumnChunk& chunk = row_groups_[g].columns[c];
      chunk.column_index_offset = static_cast<std::int64_t>(out_.position());
      chunk.column_index_length = static_cast<std::int32_t>(buffer.size());
      out_.Write(buffer);
    }
  }
  for (std::size_t g = 0; g < row_groups_.size(); ++g) {
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      buffer.clear();
      WriteThrift(offset_indexes_[g][c], buffer);
      ColumnChunk& chunk = row_groups_[g].columns[c];
      chunk.offset_index_offset = static_cast<std::int64_t>(out_.position());
      chunk.offset_index_length = static_cast<std::int32_t>(buffer.size());
      out_.Write(buffer);
    }
  }
}

const FileMetaData& FileWriter::Close() {
  if (metadata_) return *metadata_;
  CheckUsable();
  FlushRowGroup();
  Writing(failed_, [&] {
    WritePageIndex();
    FileMetaData metadata;
    metadata.version = 2;
    metadata.schema = BuildSchemaElements(schema_);
    metadata.num_rows = num_rows_;
    metadata.row_groups = std::move(row_groups_);
    if (!key_values_.empty()) metadata.key_value_metadata = key_values_;
    metadata.created_by = options_.created_by;
    metadata.column_orders.emplace(schema_.size(),
                                   ColumnOrder{ColumnOrder::Kind::kTypeDefinedOrder});
    std::vector<std::byte> footer;
    WriteThrift(metadata, footer);
    const auto length = static_cast<std::uint32_t>(footer.size());
    for (int i = 0; i < 4; ++i)
      footer.push_back(static_cast<std::byte>((length >> (8 * i)) & 0xFF));
    out_.Write(footer);
    WriteText(out_, kMagic);
    out_.Flush();
    column_indexes_.clear();
    offset_indexes_.clear();
    metadata_ = std::move(metadata);
  });
  return *metadata_;
}

}  // namespace timef::parquet
