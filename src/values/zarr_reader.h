// Reads windows of signal values back from a Zarr v3 store (docs/format.md §8.7): the array's
// zarr.json once, then only the shard files covering the window, their index once (CRC-32C
// checked), and only the inner chunks the window needs. Besides what timef writes it reads plain
// arrays whose chunks are `bytes` (+ `blosc`) without sharding, as zarr-python or zarrita write
// them (docs/format.md §8.5). It never lists a directory: every file goes through the caller's
// resolve function, which refuses a file the manifest does not list.
//
// Arrays and shard indexes are opened on first use and kept, with the 16 inner chunks of each
// array decoded last (each at most chunk_max_bytes as timef writes them; zarr.json may declare up
// to 1 GiB). With a decode budget (docs/format.md §7.7), every decoded inner chunk is charged to
// it before it is allocated: kept chunks of any array are dropped to make room, and a chunk that
// still does not fit is a FormatError naming the array's zarr.json. Not thread-safe: one
// ZarrReader per reader (PayloadFiles locks around it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "parquet/decode_budget.h"
#include "parquet/file_io.h"
#include "timef/model.h"

namespace timef::values {

// Maps a store file's path relative to its storing release ("time_series.zarr/<enc>/c/0") to the
// file to open; throws FormatError when the manifest neither lists nor pins it.
using ZarrResolve = std::function<std::filesystem::path(const std::string& relative)>;

struct ZarrReaderStats {
  std::uint64_t files_opened = 0;  // zarr.json and shard (or plain chunk) files
  std::uint64_t chunks_read = 0;   // Read() calls
  std::uint64_t inner_chunks_decoded = 0;
};

class ZarrReader {
 public:
  // `budget`: null charges nothing. Files are opened through `opener` (null: local files).
  explicit ZarrReader(std::shared_ptr<parquet::DecodeBudget> budget = nullptr,
                      std::shared_ptr<const parquet::FileOpener> opener = nullptr);
  ~ZarrReader();
  ZarrReader(const ZarrReader&) = delete;
  ZarrReader& operator=(const ZarrReader&) = delete;

  // Steps [start, start + n) of the array `value_path` as an array of `spec`'s dtype (enum codes,
  // validity from `_validity/<enc>` when the spec is nullable). FormatError naming the file for a
  // data_type or shape that does not match the spec, a window outside the array, a shard index
  // of the wrong size or with a bad CRC-32C, a chunk outside its shard or that does not
  // decompress to its size, an enum code outside the categories; an inner chunk marked absent
  // reads as the fill value; FileError when a file cannot be opened.
  model::ValueArray Read(const std::string& value_path, std::int64_t start, std::int64_t n,
                         const model::Spec& spec, const ZarrResolve& resolve);

  ZarrReaderStats stats() const { return stats_; }
  // Drops every open array and shard.
  void Clear();

 private:
  struct OpenShard;
  struct OpenArray;
  OpenArray& Array(const std::string& value_path, const ZarrResolve& resolve);
  // The bytes of steps [start, start + n) (n × elements-per-step × item size, little endian).
  std::vector<std::uint8_t> ReadBytes(OpenArray& array, std::int64_t start, std::int64_t n,
                                      const ZarrResolve& resolve);
  // Charges `bytes` for a chunk of `array` about to be decoded, dropping kept chunks (oldest of
  // each array first) until the budget takes it; FormatError when nothing is left to drop.
  void Charge(std::uint64_t bytes, const OpenArray& array, const std::string& where);
  bool DropOneKeptChunk();
  void Release(std::uint64_t bytes);

  std::shared_ptr<parquet::DecodeBudget> budget_;
  std::shared_ptr<const parquet::FileOpener> opener_;

  std::map<std::filesystem::path, std::unique_ptr<OpenArray>> arrays_;
  ZarrReaderStats stats_;
};

}  // namespace timef::values
