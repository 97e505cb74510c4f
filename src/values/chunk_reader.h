// Reads chunks of signal values back from Parquet shards (docs/format.md §7.6–§7.7), written by
// timef or by any Parquet writer: checks the `values` leaf against the spec's dtype, then decodes
// only the page(s) holding the chunk's row through the OffsetIndex (the whole column chunk when the
// file has no page index, kept for the next chunks of the same row group). Shards are opened on
// first use and kept open (their footers parsed once); the decoded dictionaries of every shard
// share one cache of a fixed byte budget, so random reads that come back to a row group decode only
// their data pages. Not thread-safe: one ChunkReader per thread; several may share one dictionary
// cache (it locks itself), which is how a reader's decode lanes run in parallel
// (docs/architecture.md "Decode lanes"). With a decode budget (docs/format.md §7.7), every shard's
// decompressed pages are charged to it, and a page it cannot take is a FormatError naming the
// shard; between reads each shard keeps at most its parked pages and one small buffer, so many open
// shards cannot pile up large pages.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/locators.h"
#include "parquet/dictionary_cache.h"
#include "parquet/file_io.h"
#include "parquet/file_reader.h"
#include "parquet/open_files.h"
#include "timef/model.h"

namespace timef::values {

// A chunk's locator (core/locators.h: Parquet `major` = row group, `minor` = row; Zarr `major` =
// first step on axis 0, no `minor`) resolved to the file to read: the shard, or for a Zarr chunk
// (docs/format.md §8.6) the array directory (absolute or relative to the working directory). The
// locator's value_path names the chunk in messages; its payload_source is the storing release.
struct ChunkRef {
  std::filesystem::path file;
  ChunkLocator locator;

  bool zarr() const { return !locator.minor.has_value(); }
};

struct ChunkReaderStats {
  std::uint64_t files_opened = 0;
  std::uint64_t chunks_read = 0;
  parquet::ReaderStats pages;  // summed over every open shard
  parquet::DictionaryCacheStats dictionaries;
};

class ChunkReader {
 public:
  static constexpr std::size_t kDefaultDictionaryCacheBytes = std::size_t{64} << 20;

  explicit ChunkReader(std::size_t dictionary_cache_bytes = kDefaultDictionaryCacheBytes);
  // Shares `dictionaries` (not null) and `budget` (null: none) with the other readers given them,
  // and opens shards through `opener` (local files memory-mapped by default; a reader's
  // FileSources for a remote release).
  explicit ChunkReader(std::shared_ptr<parquet::DictionaryCache> dictionaries,
                       std::shared_ptr<parquet::DecodeBudget> budget = nullptr,
                       std::shared_ptr<const parquet::FileOpener> opener = nullptr);
  ~ChunkReader();
  ChunkReader(const ChunkReader&) = delete;
  ChunkReader& operator=(const ChunkReader&) = delete;

  // The chunk's n_values timesteps as an array of `spec`'s dtype (enum: codes into the spec's
  // categories, mapped from the stored labels by string). FormatError naming the file, row group
  // and signal context for: a leaf of the wrong physical type/width/signedness, a row group or row
  // that does not exist, a list length ≠ n_values, a null in a non-nullable spec, an enum label
  // outside the categories, a missing or 2-level `values` column; FileError when the file cannot
  // be opened.
  model::ValueArray Read(const ChunkRef& chunk, const model::Spec& spec);

  // Read's values into a caller's buffer, with Read's errors: `out` is a span of spec.dtype's
  // storage type holding the chunk's n_values scalars and `validity` is empty or n_values bytes
  // (the caller checked both: model::CheckValueBuffers). Fills `validity` when given and returns
  // the chunk's null steps (their slots hold 0). Decodes into the reader's kept scratch and copies
  // out: once the shard is open and its dictionary cached, nothing is allocated.
  std::int64_t ReadInto(const ChunkRef& chunk, const model::Spec& spec, model::ScalarSpan out,
                        std::span<std::uint8_t> validity);

  // The byte range Read(chunk, ...) will read the chunk's pages from (parquet::FileReader::
  // RowsByteRange), for a RandomAccessFile::Prefetch before a batch: std::nullopt for a Zarr
  // chunk, a shard without a page index, and a chunk Read would refuse (no `values` column, a row
  // group or row that does not exist: Read raises that). Opens the shard as Read does (and raises
  // what opening it raises).
  std::optional<parquet::ByteRange> PageRange(const ChunkRef& chunk);

  // The dictionaries figures are the shared cache's (the same for every reader sharing it).
  ChunkReaderStats stats() const;
  // Drops every open shard and cached dictionary (e.g. after fork()).
  void Clear();

 private:
  struct OpenShard;
  // Finds, checks and decodes the chunk's row into scratch_, then returns convert(scratch_, fail).
  template <class Convert>
  auto ReadRow(const ChunkRef& chunk, const model::Spec& spec, Convert convert);
  std::shared_ptr<parquet::DictionaryCache> dictionaries_;
  // Decoded rows before they become a ValueArray; kept between reads up to this size.
  static constexpr std::size_t kKeepScratchBytes = std::size_t{2} << 20;
  parquet::ColumnData scratch_;
  // A shard without a page index (another writer's, e.g. a legacy directory read in place):
  // finding one row means decoding every page before it, so the values column of the last row
  // group read is decoded whole and kept (one per reader, up to kKeepWholeGroupBytes), and the
  // rows of consecutive chunks are sliced from it.
  static constexpr std::size_t kKeepWholeGroupBytes = std::size_t{64} << 20;
  struct WholeGroup {
    std::filesystem::path file;
    int row_group = -1;
    parquet::ColumnData data;
  };
  WholeGroup whole_;
  parquet::OpenFiles<OpenShard> shards_;
  std::uint64_t chunks_read_ = 0;
};

// Concatenates arrays of dtype `dtype` in order (validity materialized when any part has nulls).
// No parts gives an empty array of that dtype.
model::ValueArray ConcatValues(model::DType dtype, std::span<const model::ValueArray> parts);

}  // namespace timef::values
