// Writes a Parquet file to an OutputStream, row group by row group, with the row group boundaries
// chosen by the caller:
//
//   FileWriter writer(out, schema, options);
//   writer.WriteColumn(0, batch_a);  // any number of batches per column and row group
//   writer.WriteColumn(1, batch_b);
//   writer.FlushRowGroup();          // every column must have received the same number of rows
//   ...
//   writer.Close();                  // page index, footer, "PAR1"
//
// A row group may instead be staged and encoded apart, on another thread, in a RowGroupWriter
// (below) and stored with WriteRowGroup: the same bytes as WriteColumn + FlushRowGroup.
//
// Layout: "PAR1", then per row group the column chunks in schema order (each an optional
// dictionary page and data pages holding whole rows), then the ColumnIndex of every chunk, then
// the OffsetIndex of every chunk, then the footer. Every page carries a CRC-32; every chunk has
// statistics and an OffsetIndex, and a ColumnIndex unless writer_column.h says otherwise. The
// output depends only on the input and the options (and the codec library's version).
//
// Threads: with options.compression_threads = 1 everything runs on the calling thread. With more,
// FlushRowGroup encodes the row group on the calling thread and returns while a background thread
// compresses its pages (with compression_threads - 2 helpers) and writes them; the next
// FlushRowGroup, StoredBytes or Close first helps compress what is left of it on the calling
// thread, then waits for it. So compression_threads threads work at a time, one row group at most
// is in flight, and the file is byte-identical for every thread count. Until Close returns, the
// stream belongs to the writer: do not touch `out` (not even position()) in between. The writer
// itself is not thread-safe.
//
// Misuse (a batch that does not fit its column, unequal row counts, ...) throws
// timef::ValidationError naming the column and leaves the writer as it was. A failure while
// writing (the stream's, or a row too large for one page header) leaves a partial file and the
// writer unusable: later calls throw std::logic_error. A failure of the background thread is
// thrown by the next call that waits for it. Close() flushes the stream but does not close it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/compression.h"
#include "parquet/file_io.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "parquet/writer_options.h"
#include "parquet/writer_page.h"

namespace timef::parquet {

class ColumnChunkWriter;
struct EncodedChunk;
struct WrittenChunk;

// One row group staged and encoded apart from any file: the WriteColumn calls a FileWriter takes,
// then Encode(), then FileWriter::WriteRowGroup stores it. An encoded row group does not depend on
// where it lands, so a caller may encode row groups on several threads and store them in order:
// the file is byte-identical to one written with WriteColumn and FlushRowGroup (FileWriter itself
// stages its open row group in one of these).
//
// Ownership: owns copies of the schema and options it was made with, which must be the storing
// FileWriter's (WriteRowGroup checks the column count). Threads: not thread-safe; one thread at a
// time may use it, and it may move between threads. Errors: a batch that does not fit its column
// or unequal row counts throw timef::ValidationError and leave it as it was; any other failure of
// Encode leaves it unusable (std::logic_error afterwards).
class RowGroupWriter {
 public:
  RowGroupWriter(std::vector<ColumnDescriptor> schema, WriterOptions options);
  ~RowGroupWriter();
  RowGroupWriter(const RowGroupWriter&) = delete;
  RowGroupWriter& operator=(const RowGroupWriter&) = delete;

  // Appends the rows of `batch` to column `column`. Not after Encode().
  void WriteColumn(std::size_t column, const ColumnView& batch);
  // Rows column `column` has received.
  std::int64_t pending_rows(std::size_t column) const;
  // Encodes the staged rows into pages (not yet compressed) and leaves the columns empty again;
  // a no-op when no column has rows. Throws ValidationError when the columns' row counts differ.
  void Encode();
  // Rows encoded by Encode() and not yet stored.
  std::int64_t encoded_rows() const { return encoded_rows_; }

 private:
  friend class FileWriter;
  void CheckUsable() const;

  std::vector<ColumnDescriptor> schema_;
  WriterOptions options_;
  std::vector<std::unique_ptr<ColumnChunkWriter>> columns_;
  std::vector<EncodedChunk> encoded_;
  std::int64_t encoded_rows_ = 0;
  bool failed_ = false;
};

class FileWriter {
 public:
  // Validates schema and options (timef::ValidationError), then writes the leading magic.
  FileWriter(OutputStream& out, std::vector<ColumnDescriptor> schema, WriterOptions options = {});
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  const std::vector<ColumnDescriptor>& schema() const { return schema_; }
  const WriterOptions& options() const { return options_; }

  // Appends the rows of `batch` to column `column` of the open row group.
  void WriteColumn(std::size_t column, const ColumnView& batch);
  // Rows column `column` has received since the last flush.
  std::int64_t pending_rows(std::size_t column) const;

  // Writes the open row group (in the background with several threads, see above); a no-op when
  // no column has rows. Throws ValidationError when the columns' row counts differ.
  void FlushRowGroup();
  // Writes a row group encoded apart (RowGroupWriter::Encode), as FlushRowGroup writes the open
  // one, and leaves `group` empty; a no-op when it holds no encoded rows. The open row group must
  // be empty. Throws ValidationError when `group` was made for another column count.
  void WriteRowGroup(RowGroupWriter& group);
  // Row groups and rows flushed so far (stored or still in flight).
  std::int64_t num_row_groups() const { return num_row_groups_; }
  std::int64_t num_rows() const { return num_rows_; }

  // Bytes written to the stream with every flushed row group stored: waits for the one in flight.
  std::int64_t StoredBytes();
  // Never less than StoredBytes() and never waits: exact when nothing is in flight, else the
  // stored bytes plus the most the row group in flight can take (codec bounds, headers).
  std::int64_t StoredBytesAtMost() const { return stored_bytes_at_most_; }

  // Adds a key-value pair to the footer (after options.key_value_metadata), until Close.
  void AddKeyValue(std::string key, std::optional<std::string> value);

  // Flushes a pending row group, writes the page index and footer, flushes the stream and returns
  // the footer as written. A second call returns the same footer.
  const FileMetaData& Close();
  bool closed() const { return metadata_.has_value(); }

 private:
  void CheckUsable() const;
  // The row group being compressed and written in the background, and its pages as one batch.
  struct InFlight {
    InFlight(std::vector<EncodedChunk> encoded, const std::string& output_name);
    std::vector<EncodedChunk> chunks;
    std::vector<PendingPage*> pages;
    CompressionJob job;
  };

  // Compresses and writes an encoded row group (in the background with several threads).
  void StoreEncoded(std::vector<EncodedChunk> chunks, std::int64_t rows);
  // Writes and records one encoded row group whose pages are compressed (on the background thread
  // when there is one).
  void StoreRowGroup(std::vector<EncodedChunk>& chunks, std::int64_t rows);
  // Helps compress the row group in flight, waits for it to be written and rethrows its failure
  // (the writer is then unusable).
  void FinishStoring();
  void WritePageIndex();

  OutputStream& out_;
  std::vector<ColumnDescriptor> schema_;
  WriterOptions options_;
  PageCompressors compressors_;
  std::unique_ptr<RowGroupWriter> open_;  // the open row group
  std::vector<RowGroup> row_groups_;
  // Per row group and column, kept until Close writes them before the footer.
  std::vector<std::vector<std::optional<ColumnIndex>>> column_indexes_;
  std::vector<std::vector<OffsetIndex>> offset_indexes_;
  std::vector<KeyValue> key_values_;
  std::int64_t num_rows_ = 0;
  std::int64_t num_row_groups_ = 0;
  std::int64_t stored_bytes_at_most_ = 0;
  bool failed_ = false;
  std::optional<FileMetaData> metadata_;
  std::exception_ptr store_failure_;  // set by the background thread, read after joining it
  std::unique_ptr<InFlight> in_flight_;
  // Last member: destroyed (joined) first, while everything the thread touches still exists.
  std::jthread storing_;
};

}  // namespace timef::parquet
