// One column of the file writer: stages the rows of the open row group (writer_stage.h) and, on
// flush, encodes them as a column chunk: an optional dictionary page, then data pages that each
// hold whole rows only, with their statistics and page index. The file writer compresses the
// pages (writer_page.h) and StoreChunk writes them and completes the chunk's metadata.
//
// A page is closed before a row that would push its estimated uncompressed size past the target,
// unless it is still empty. The estimate is an upper bound of the real size for PLAIN,
// BYTE_STREAM_SPLIT, RLE and dictionary pages: values at their encoded width, levels, dictionary
// indices and RLE booleans with a run-by-run bound of the RLE/bit-packed hybrid, the length
// prefixes and bit-width byte. The delta encodings are costed at their PLAIN width (lengths and
// prefixes at 4 bytes each), which they rarely exceed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/compression.h"
#include "parquet/encoding_rle.h"
#include "parquet/file_io.h"
#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "parquet/writer_options.h"
#include "parquet/writer_page.h"
#include "parquet/writer_stage.h"
#include "parquet/writer_statistics.h"

namespace timef::parquet {

struct WrittenChunk {
  ColumnChunk chunk;
  // Absent when the column has no defined order, or (floats) some page holds only NaN, which a
  // TYPE_ORDER column index cannot describe.
  std::optional<ColumnIndex> column_index;
  OffsetIndex offset_index;
};

// A column chunk encoded but not yet stored. `metadata` lacks what only storing tells: the pages'
// offsets and stored sizes (meta_data's offsets and totals, offset_index's page locations).
struct EncodedChunk {
  WrittenChunk metadata;
  std::vector<PendingPage> pages;  // the dictionary page first when there is one
  bool has_dictionary_page = false;
  std::vector<std::int64_t> first_rows;  // first row of each data page
};

// Writes the compressed pages of `encoded` in order through `sink` and returns its completed
// metadata and page index; `encoded` is left without pages.
WrittenChunk StoreChunk(EncodedChunk& encoded, PageSink& sink);

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(const ColumnDescriptor& column, const ColumnWriteOptions& column_options,
                    const WriterOptions& options);

  void Append(const ColumnView& batch) { stage_.Append(batch); }
  std::int64_t num_rows() const { return stage_.num_rows(); }
  const ColumnDescriptor& column() const { return stage_.column(); }

  // Encodes the staged rows as one column chunk of a file compressed with `codec` and clears the
  // stage.
  EncodedChunk Encode(CompressionCodec codec);

 private:
  struct Extent;  // the rows, slots, values and levels of one page
  struct Cursor {
    std::int64_t row = 0;
    std::int64_t slot = 0;
    std::int64_t value = 0;
  };

  Extent NextPage(Cursor& cursor) const;
  void EncodeLevels(const Extent& page);
  void EncodeValues(const Extent& page, std::vector<std::byte>& out);
  ValueBounds PageBounds(const Extent& page) const;

  ColumnStage stage_;
  StatsKind stats_kind_;
  bool utf8_;
  std::size_t width_;
  std::int16_t max_definition_;
  std::int16_t max_repetition_;
  std::int64_t target_bits_;
  DataPageVersion page_version_;
  std::size_t truncate_bytes_;
  std::string output_name_;

  int index_bit_width_ = 0;  // of the dictionary indices, fixed per chunk
  RleBitPackedEncoder repetition_encoder_{1};
  RleBitPackedEncoder definition_encoder_;
  std::vector<std::byte> repetition_;  // encoded levels of the current page
  std::vector<std::byte> definition_;
  std::vector<std::byte> body_;
  std::vector<std::byte> values_;
  std::vector<std::byte> dictionary_page_;
  std::vector<std::int64_t> scratch_offsets_;
};

}  // namespace timef::parquet
