// Reading Parquet files: the footer, the schema as ColumnDescriptors, and the values of one column
// chunk, whole or only the rows [first, last) of a row group. With a page index, a row-range read
// fetches and decodes only the pages holding those rows (and the chunk's dictionary page when
// they need it); without one, it scans the chunk and skips the pages before the range.
//
// Every defect of the file raises timef::FormatError naming the file, row group, column and byte
// offset; a column name the file lacks raises timef::NotFoundError; arguments outside the file's
// row groups, columns or rows raise timef::ValidationError.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/decode_budget.h"
#include "parquet/dictionary_cache.h"
#include "parquet/file_io.h"
#include "parquet/metadata.h"
#include "parquet/reader_column.h"
#include "parquet/schema.h"

namespace timef::parquet {

struct ReaderOptions {
  // ReadRows decodes only the pages the OffsetIndex names when a chunk has one.
  bool use_page_index = true;
  // Check the CRC of every page that is decoded, when its header carries one.
  bool verify_crc = true;
  // Where decoded dictionaries are kept across reads (shared by the readers given it, which may
  // run on different threads: the cache locks itself); null keeps only the last chunk's
  // dictionary. A reader drops its entries when it is destroyed.
  std::shared_ptr<DictionaryCache> dictionary_cache;
  // Where decompressed page buffers are charged (shared by the readers given it, on any thread);
  // null charges nothing (each page is still capped at kMaxUncompressedPageSize). A page the
  // budget cannot take is a FormatError naming the file, row group, column and page offset.
  std::shared_ptr<DecodeBudget> decode_budget;
};

// Not thread-safe (reads reuse scratch buffers and cache the last dictionary): use one reader
// per thread; readers over the same RandomAccessFile may run concurrently.
class FileReader {
 public:
  // Reads and checks the footer ("PAR1" at both ends, metadata length within the file), the
  // schema (see schema.h for the shapes accepted) and every row group's column chunk list.
  // `path` names the file in messages; empty means file->path().
  static FileReader Open(std::shared_ptr<RandomAccessFile> file, std::filesystem::path path = {},
                         ReaderOptions options = {});
  // Opens `path` memory-mapped.
  static FileReader OpenFile(const std::filesystem::path& path, ReaderOptions options = {});

  FileReader(FileReader&&) noexcept;
  FileReader& operator=(FileReader&&) noexcept;
  ~FileReader();

  const std::filesystem::path& path() const;
  const FileMetaData& metadata() const;
  // One descriptor per leaf column, in the order of each row group's column chunks.
  const std::vector<ColumnDescriptor>& columns() const;
  std::int64_t num_rows() const;
  int num_row_groups() const;
  std::int64_t row_group_num_rows(int row_group) const;
  const ColumnChunk& column_chunk(int row_group, int column) const;

  // Projection: the index of the column whose top-level name is `name` (NotFoundError naming
  // the column and the file if there is none), and the indices of several in the given order.
  int ColumnIndex(std::string_view name) const;
  std::vector<int> ColumnIndices(std::span<const std::string> names) const;

  // All rows of a column chunk. `out` is cleared first and keeps its capacity.
  void ReadColumnChunk(int row_group, int column, ColumnData& out);
  // Rows [first_row, last_row) of a row group's column chunk.
  void ReadRows(int row_group, int column, std::int64_t first_row, std::int64_t last_row,
                ColumnData& out);

  // The byte range ReadRows(row_group, column, first_row, last_row) reads its data pages from: the
  // pages the OffsetIndex names for those rows (a caller may hand it to RandomAccessFile::Prefetch
  // first). std::nullopt when it reads no pages through the index (no rows, use_page_index off, a
  // chunk without an OffsetIndex). Arguments are checked as ReadRows checks them; the OffsetIndex
  // is loaded as ReadRows loads it. A dictionary page is not included (it is read once and cached).
  std::optional<ByteRange> RowsByteRange(int row_group, int column, std::int64_t first_row,
                                         std::int64_t last_row);

  // The chunk's validated OffsetIndex, read on first use and cached; nullptr when the chunk has
  // none.
  const OffsetIndex* offset_index(int row_group, int column);

  const ReaderStats& stats() const;
  void ResetStats();

 private:
  struct Impl;
  explicit FileReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace timef::parquet
