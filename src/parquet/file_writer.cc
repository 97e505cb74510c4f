#include "parquet/file_writer.h"

#include <limits>
#include <stdexcept>
#include <utility>

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

std::vector<PendingPage*> PagesOf(std::vector<EncodedChunk>& chunks) {
  std::vector<PendingPage*> pages;
  for (EncodedChunk& chunk : chunks) {
    for (PendingPage& page : chunk.pages) pages.push_back(&page);
  }
  return pages;
}

}  // namespace

RowGroupWriter::RowGroupWriter(std::vector<ColumnDescriptor> schema, WriterOptions options)
    : schema_(std::move(schema)), options_(std::move(options)) {
  columns_.reserve(schema_.size());
  for (std::size_t i = 0; i < schema_.size(); ++i) {
    const ColumnWriteOptions column_options =
        options_.columns.empty() ? ColumnWriteOptions{} : options_.columns[i];
    columns_.push_back(std::make_unique<ColumnChunkWriter>(schema_[i], column_options, options_));
  }
}

RowGroupWriter::~RowGroupWriter() = default;

void RowGroupWriter::CheckUsable() const {
  if (failed_) throw std::logic_error("parquet writer: unusable after an earlier failure");
  if (!encoded_.empty()) throw std::logic_error("parquet writer: the row group is encoded");
}

void RowGroupWriter::WriteColumn(std::size_t column, const ColumnView& batch) {
  CheckUsable();
  if (column >= columns_.size()) {
    throw WriterError(options_.name, "#" + std::to_string(column),
                      "no such column; the schema has " + std::to_string(columns_.size()));
  }
  Recoverable(failed_, [&] { columns_[column]->Append(batch); });
}

std::int64_t RowGroupWriter::pending_rows(std::size_t column) const {
  return columns_.at(column)->num_rows();
}

void RowGroupWriter::Encode() {
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
  std::vector<EncodedChunk> chunks;
  chunks.reserve(columns_.size());
  Writing(failed_, [&] {
    for (auto& column : columns_) chunks.push_back(column->Encode(options_.compression));
  });
  encoded_ = std::move(chunks);
  encoded_rows_ = rows;
}

FileWriter::FileWriter(OutputStream& out, std::vector<ColumnDescriptor> schema,
                       WriterOptions options)
    : out_(out),
      schema_(std::move(schema)),
      options_((ValidateWriterSetup(schema_, options), std::move(options))),
      compressors_(options_.compression, options_.compression_level, options_.compression_threads),
      open_(std::make_unique<RowGroupWriter>(schema_, options_)),
      key_values_(options_.key_value_metadata) {
  Writing(failed_, [&] { WriteText(out_, kMagic); });
  stored_bytes_at_most_ = static_cast<std::int64_t>(out_.position());
}

FileWriter::~FileWriter() = default;

void FileWriter::CheckUsable() const {
  if (metadata_) throw std::logic_error("parquet writer: already closed");
  if (failed_) throw std::logic_error("parquet writer: unusable after an earlier failure");
}

void FileWriter::WriteColumn(std::size_t column, const ColumnView& batch) {
  CheckUsable();
  Recoverable(failed_, [&] { open_->WriteColumn(column, batch); });
}

std::int64_t FileWriter::pending_rows(std::size_t column) const {
  return open_->pending_rows(column);
}

void FileWriter::FlushRowGroup() {
  CheckUsable();
  Recoverable(failed_, [&] { open_->Encode(); });
  if (open_->encoded_rows_ == 0) return;
  StoreEncoded(std::exchange(open_->encoded_, {}), std::exchange(open_->encoded_rows_, 0));
}

void FileWriter::WriteRowGroup(RowGroupWriter& group) {
  CheckUsable();
  if (group.schema_.size() != schema_.size()) {
    throw WriterError(options_.name, "",
                      "a row group of " + std::to_string(group.schema_.size()) +
                          " columns for a schema of " + std::to_string(schema_.size()));
  }
  for (std::size_t c = 0; c < schema_.size(); ++c) {
    if (open_->pending_rows(c) != 0) {
      throw WriterError(options_.name, schema_[c].name,
                        "has rows of an open row group; flush it before writing another");
    }
  }
  if (group.encoded_rows_ == 0) return;
  StoreEncoded(std::exchange(group.encoded_, {}), std::exchange(group.encoded_rows_, 0));
}

void FileWriter::StoreEncoded(std::vector<EncodedChunk> chunks, std::int64_t rows) {
  // The previous row group was compressed while this one was staged and encoded.
  FinishStoring();
  ++num_row_groups_;
  num_rows_ += rows;
  if (options_.compression_threads <= 1) {
    Writing(failed_, [&] {
      compressors_.CompressAll(PagesOf(chunks), options_.name);
      StoreRowGroup(chunks, rows);
    });
    stored_bytes_at_most_ = static_cast<std::int64_t>(out_.position());
    return;
  }
  std::int64_t at_most = static_cast<std::int64_t>(out_.position());
  for (const EncodedChunk& chunk : chunks) {
    for (const PendingPage& page : chunk.pages) at_most += compressors_.StoredBytesAtMost(page);
  }
  stored_bytes_at_most_ = at_most;
  in_flight_ = std::make_unique<InFlight>(std::move(chunks), options_.name);
  storing_ = std::jthread([this, rows, flight = in_flight_.get()] {
    try {
      // The last compressor is left to the caller, who helps once it waits (FinishStoring).
      compressors_.Run(flight->job, 0, compressors_.threads() - 1);
      flight->job.Wait();
      StoreRowGroup(flight->chunks, rows);
    } catch (...) {
      store_failure_ = std::current_exception();
    }
  });
}

FileWriter::InFlight::InFlight(std::vector<EncodedChunk> encoded, const std::string& output_name)
    : chunks(std::move(encoded)), pages(PagesOf(chunks)), job(pages, output_name) {}

void FileWriter::StoreRowGroup(std::vector<EncodedChunk>& chunks, std::int64_t rows) {
  RowGroup group;
  group.num_rows = rows;
  group.file_offset = static_cast<std::int64_t>(out_.position());
  std::int64_t compressed = 0;
  auto& column_indexes = column_indexes_.emplace_back();
  auto& offset_indexes = offset_indexes_.emplace_back();
  PageSink sink(out_);
  for (EncodedChunk& chunk : chunks) {
    WrittenChunk written = StoreChunk(chunk, sink);
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
}

void FileWriter::FinishStoring() {
  if (!storing_.joinable()) return;
  in_flight_->job.Work(compressors_.compressor(compressors_.threads() - 1));
  storing_.join();
  in_flight_.reset();
  stored_bytes_at_most_ = static_cast<std::int64_t>(out_.position());
  if (store_failure_) {
    failed_ = true;
    std::rethrow_exception(std::exchange(store_failure_, nullptr));
  }
}

std::int64_t FileWriter::StoredBytes() {
  if (failed_) throw std::logic_error("parquet writer: unusable after an earlier failure");
  FinishStoring();
  return static_cast<std::int64_t>(out_.position());
}

void FileWriter::AddKeyValue(std::string key, std::optional<std::string> value) {
  CheckUsable();
  key_values_.push_back({std::move(key), std::move(value)});
}

void FileWriter::WritePageIndex() {
  std::vector<std::byte> buffer;
  for (std::size_t g = 0; g < row_groups_.size(); ++g) {
    for (std::size_t c = 0; c < schema_.size(); ++c) {
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
    for (std::size_t c = 0; c < schema_.size(); ++c) {
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
  FinishStoring();
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
