// Decoding the rows [first, last) of one column chunk into a ColumnData: walks the pages (all of
// them in order, or only those the OffsetIndex names), turns definition levels into validity and
// repetition levels into list offsets, and decodes values straight into the output buffers.
//
// Levels (per ColumnDescriptor): with d_list = (list nullable ? 1 : 0), a list row with
// definition level < d_list is a null list, == d_list an empty list, d_list + 1 with nullable
// elements a null element, and the maximum a present element. Repetition level 0 starts a row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/dictionary_cache.h"
#include "parquet/errors.h"
#include "parquet/file_io.h"
#include "parquet/metadata.h"
#include "parquet/reader_levels.h"
#include "parquet/reader_page.h"
#include "parquet/reader_page_index.h"
#include "parquet/reader_values.h"
#include "parquet/schema.h"

namespace timef::parquet {

// The most levels (values including nulls) a data page may declare. Decoding allocates output as
// levels are decoded, and run-length encoding can declare billions in a few bytes, so this bounds
// what one page can make the reader allocate (about 512 MiB of 8-byte values) while staying far
// above what writers put in a page.
inline constexpr std::int64_t kMaxPageValues = std::int64_t{1} << 26;

// Counters a test or a higher layer can assert on instead of timing.
struct ReaderStats {
  std::uint64_t data_pages_decoded = 0;        // data pages whose levels or values were decoded
  std::uint64_t data_pages_skipped = 0;        // passed over by a scan without decoding values
  std::uint64_t dictionary_pages_decoded = 0;  // dictionary pages decoded (not served from cache)
  std::uint64_t data_pages_resumed = 0;        // reads that went on decoding the page a read left
  std::uint64_t offset_indexes_loaded = 0;     // OffsetIndex structures read and parsed
  std::uint64_t bytes_decompressed = 0;        // output bytes of decompression
  std::uint64_t io_reads = 0;                  // reads the reader issued to its file
  std::uint64_t io_bytes = 0;                  // bytes those reads covered
};

// Adds `more` to `sum`, field by field (readers over many files report one total).
inline void AddStats(ReaderStats& sum, const ReaderStats& more) {
  sum.data_pages_decoded += more.data_pages_decoded;
  sum.data_pages_skipped += more.data_pages_skipped;
  sum.dictionary_pages_decoded += more.dictionary_pages_decoded;
  sum.data_pages_resumed += more.data_pages_resumed;
  sum.offset_indexes_loaded += more.offset_indexes_loaded;
  sum.bytes_decompressed += more.bytes_decompressed;
  sum.io_reads += more.io_reads;
  sum.io_bytes += more.io_bytes;
}

// The bytes [offset, offset + length) of `file`: a view when the file is in memory (mmap), else
// read into `scratch` (grown, never shrunk). Counts the access in `stats`. A range outside the
// file is a FormatError located by `context`, raised before anything is allocated.
std::span<const std::byte> ReadFileRange(const RandomAccessFile& file, std::uint64_t offset,
                                         std::uint64_t length, std::vector<std::byte>& scratch,
                                         ReaderStats& stats, const ErrorContext& context);

// What the chunk decoder needs to know about one column chunk.
struct ChunkInfo {
  const ColumnDescriptor* column = nullptr;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  std::int64_t num_rows = 0;    // of the row group
  std::int64_t num_values = 0;  // ColumnMetaData.num_values (levels in the chunk)
  ChunkRange range;             // the chunk's pages in the file
  std::pair<std::int64_t, std::int64_t> key{-1, -1};  // (row group, column), for caching
  ErrorContext context;                               // file, row group and column
};

// Reusable decoding state (scratch buffers, decoders, the last chunk's dictionary). Not
// thread-safe: use one per thread. With a `cache`, the dictionaries it decodes are kept there under
// (file_id, row group, column) and a chunk whose dictionary the cache holds reads no dictionary
// page; `cache` must outlive this reader.
class ColumnChunkReader {
 public:
  static constexpr std::size_t kParkedPages = 32;
  static constexpr std::size_t kMaxParkedPageBytes = std::size_t{256} << 10;

  // With a `budget` (which must outlive this reader), decompressed pages, parked or not, are
  // charged to it, and a page it cannot take is a FormatError; after each Read, a decompression
  // buffer larger than kMaxParkedPageBytes is freed, so what a reader keeps between reads is
  // bounded by the parked pages.
  ColumnChunkReader(const RandomAccessFile& file, ReaderStats& stats, bool verify_crc,
                    DictionaryCache* cache = nullptr, std::uint64_t file_id = 0,
                    DecodeBudget* budget = nullptr)
      : file_(file),
        stats_(stats),
        verify_crc_(verify_crc),
        file_in_memory_(file.View(0, 0).has_value()),
        cache_(cache),
        file_id_(file_id),
        decompressor_(budget) {}

  // Rows [first, last) of the chunk into `out` (cleared first). With `index` (validated), only
  // the pages holding those rows, and the dictionary page when they need it, are read and
  // decoded; without, the chunk is read and scanned from its start, skipping pages before the
  // range as cheaply as their headers allow. REQUIRES: 0 <= first <= last <= info.num_rows.
  //
  // A list chunk read through its index that stops inside a data page keeps the page (its
  // decompressed bytes and its decoders where they stopped) among at most kParkedPages parked
  // pages, least recently parked out first: a later Read of the same chunk from exactly the next
  // row goes on from there (no second decompression, CRC check or level walk over the rows
  // before; `ReaderStats::data_pages_resumed` counts these). So reading rows one after another,
  // even of up to kParkedPages chunks interleaved (the leads of a record, stored lead by lead),
  // decodes each page once. Pages larger than kMaxParkedPageBytes are not kept.
  void Read(const ChunkInfo& info, const OffsetIndex* index, std::int64_t first, std::int64_t last,
            ColumnData& out);

 private:
  struct PageResult {
    std::int64_t rows_started = 0;  // levels with repetition level 0 that were looked at
    bool complete = false;          // every level of the page was looked at
  };
  // Where DecodeList is in the current list page: levels still in the level decoders, the
  // decoded but unread part [pos, len) of rep_batch_/def_batch_, the row of the last level
  // taken and the rows started so far. A stop leaves pos at the level that starts the first
  // row not taken.
  struct ListState {
    std::size_t levels_left = 0;
    std::size_t pos = 0;
    std::size_t len = 0;
    std::int64_t row = -1;
    std::int64_t rows_started = 0;
    bool started = false;  // the page's first batch of levels was decoded
  };
  // A list page a read stopped in (see Read), with everything needed to go on decoding it.
  struct ParkedPage {
    bool used = false;
    std::pair<std::int64_t, std::int64_t> key{-1, -1};
    std::size_t page = 0;       // its OffsetIndex entry
    std::int64_t next_row = 0;  // the first row it has not handed out
    std::uint64_t parked_at = 0;
    bool owns_content = false;  // `content` holds the decompressed page the decoders read
    BudgetedBuffer content;     // charged to the decompressor's budget
    std::shared_ptr<const Dictionary> dictionary;
    ValuesDecoder values;
    LevelDecoder repetition;
    LevelDecoder definition;
    ListState list;
    std::vector<std::int16_t> rep_batch;
    std::vector<std::int16_t> def_batch;
  };
  // The parked page of the chunk being read that stopped right before row `first`, or null.
  ParkedPage* FindParked(std::int64_t first);
  // Parks the page just decoded (index entry `page`, stopped before `next_row`) when its bytes
  // stay valid: decompressed into our buffer, or viewed in a file that is in memory.
  void Park(std::size_t page, std::int64_t next_row);
  // Makes `parked` the current page again (its decoders, content and dictionary) and frees it.
  void Unpark(ParkedPage& parked);

  std::span<const std::byte> ReadBytes(std::uint64_t offset, std::uint64_t length,
                                       std::vector<std::byte>& scratch);
  // The page's uncompressed content (see PageDecompressor::Content), counted in the stats.
  std::span<const std::byte> Content(const RawPage& page);
  void ScanChunk(std::int64_t first, std::int64_t last, ColumnData& out);
  void ReadIndexedPages(const OffsetIndex& index, std::int64_t first, std::int64_t last,
                        ParkedPage* resume, ColumnData& out);
  // A page decoded to its end must start the rows the OffsetIndex gives it.
  void CheckPageRows(std::uint64_t offset, const PageResult& result, std::int64_t page_rows) const;
  void LoadDictionaryPage(const RawPage& page);
  // True when the chunk's dictionary is at hand (decoded earlier, or found in the cache).
  bool HaveDictionary();
  void EnsureDictionaryBefore(std::uint64_t first_data_page);
  std::int64_t CountPageRows(const RawPage& page, bool must_start_row);
  // Sets up levels_ and values_ for a data page; returns its level count.
  std::size_t StartDataPage(const RawPage& page, bool with_values);
  PageResult DecodeDataPage(const RawPage& page, std::int64_t rows_before, std::int64_t first,
                            std::int64_t last, bool must_start_row, ColumnData& out);
  void DecodeFlat(std::size_t num_levels, std::int64_t rows_before, std::int64_t first,
                  std::int64_t last, ColumnData& out);
  // Rows [first, last) of the list page list_ is in, from where list_ stands.
  PageResult DecodeList(std::int64_t first, std::int64_t last, bool must_start_row,
                        ColumnData& out);
  // DecodeList's loop over levels [j, m) of the batch for a list and elements that are both
  // required; returns where it stopped (m when it took the whole batch).
  std::size_t DecodeRequiredLists(const std::int16_t* rep, const std::int16_t* def, std::size_t j,
                                  std::size_t m, std::int64_t first, std::int64_t last,
                                  std::size_t& skip, std::size_t& present, bool& stop,
                                  ColumnData& out);
  // Decodes `present` values into the `slots` new slots at the end of `out`, whose validity
  // (when the slots can be null) is `validity`; null slots get zeros or empty byte arrays.
  void AppendSlots(std::size_t slots, std::size_t present, const std::uint8_t* validity,
                   ColumnData& out);
  ErrorContext PageContext(const RawPage& page) const;

  const RandomAccessFile& file_;
  ReaderStats& stats_;
  bool verify_crc_;
  bool file_in_memory_;  // views of its bytes stay valid while the file is open

  const ChunkInfo* info_ = nullptr;
  std::int32_t width_ = 0;  // slot width (0 for BYTE_ARRAY)
  std::int64_t slots_ = 0;  // slots in the output so far
  DictionaryCache* cache_;
  std::uint64_t file_id_;
  PageDecompressor decompressor_;
  // The dictionary of the chunk dictionary_key_ names; null until decoded or found in the cache.
  std::shared_ptr<const Dictionary> dictionary_;
  std::pair<std::int64_t, std::int64_t> dictionary_key_{-1, -1};
  ValuesDecoder values_;
  LevelDecoder repetition_;
  LevelDecoder definition_;
  ListState list_;
  // Whether the current page's decoders read only bytes that outlive the next page read: its
  // content is in decompressor_'s buffer, or the file is in memory.
  bool page_parkable_ = false;
  bool page_owned_ = false;          // the current page's content is decompressor_'s buffer
  std::size_t page_bytes_size_ = 0;  // and its size
  std::vector<ParkedPage> parked_;
  std::uint64_t parks_ = 0;
  std::vector<std::int16_t> rep_batch_;
  std::vector<std::int16_t> def_batch_;
  std::vector<std::uint8_t> valid_batch_;
  ByteArrays byte_scratch_;
  std::vector<std::byte> page_bytes_;
  std::vector<std::byte> dictionary_bytes_;
};

}  // namespace timef::parquet
