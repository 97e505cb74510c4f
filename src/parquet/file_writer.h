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
// Layout: "PAR1", then per row group the column chunks in schema order (each an optional
// dictionary page and data pages holding whole rows), then the ColumnIndex of every chunk, then
// the OffsetIndex of every chunk, then the footer. Every page carries a CRC-32; every chunk has
// statistics and an OffsetIndex, and a ColumnIndex unless writer_column.h says otherwise. The
// output depends only on the input and the options (and the codec library's version).
//
// Misuse (a batch that does not fit its column, unequal row counts, ...) throws
// timef::ValidationError naming the column and leaves the writer as it was. A failure while
// writing (the stream's, or a row too large for one page header) leaves a partial file and the
// writer unusable: later calls throw std::logic_error. Close() flushes the stream but does not
// close it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
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
struct WrittenChunk;

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

  // Writes the open row group; a no-op when no column has rows. Throws ValidationError when the
  // columns' row counts differ.
  void FlushRowGroup();
  std::int64_t num_row_groups() const { return static_cast<std::int64_t>(row_groups_.size()); }
  std::int64_t num_rows() const { return num_rows_; }

  // Adds a key-value pair to the footer (after options.key_value_metadata), until Close.
  void AddKeyValue(std::string key, std::optional<std::string> value);

  // Flushes a pending row group, writes the page index and footer, flushes the stream and returns
  // the footer as written. A second call returns the same footer.
  const FileMetaData& Close();
  bool closed() const { return metadata_.has_value(); }

 private:
  void CheckUsable() const;
  void WritePageIndex();

  OutputStream& out_;
  std::vector<ColumnDescriptor> schema_;
  WriterOptions options_;
  PageCompressors compressors_;
  std::vector<std::unique_ptr<ColumnChunkWriter>> columns_;
  std::vector<RowGroup> row_groups_;
  // Per row group and column, kept until Close writes them before the footer.
  std::vector<std::vector<std::optional<ColumnIndex>>> column_indexes_;
  std::vector<std::vector<OffsetIndex>> offset_indexes_;
  std::vector<KeyValue> key_values_;
  std::int64_t num_rows_ = 0;
  bool failed_ = false;
  std::optional<FileMetaData> metadata_;
};

}  // namespace timef::parquet
