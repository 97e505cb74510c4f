// The Zarr v3 values plane (docs/format.md §8): names, array metadata, the inner blosc codec and
// the CRC-32C of shard indexes, shared by the Zarr writer (zarr_writer.cc) and reader
// (zarr_reader.h). Plain functions and data; nothing here touches the disk.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "timef/json.h"
#include "timef/model.h"

namespace timef::values::zarr {

inline constexpr std::string_view kStoreDir = "time_series.zarr";
inline constexpr std::string_view kStorePrefix = "time_series.zarr/";
inline constexpr std::string_view kValidityGroup = "_validity";
// An absent inner chunk in a shard index: offset and nbytes both 2^64 - 1.
inline constexpr std::uint64_t kAbsent = ~std::uint64_t{0};

// The spec_type's UTF-8 bytes with every byte outside A–Z a–z 0–9 - . _ ~ written %XX (uppercase).
std::string EncodeArrayName(std::string_view spec_type);
// "time_series.zarr/<enc>" and "time_series.zarr/_validity/<enc>".
std::string ValuesArrayPath(std::string_view spec_type);
std::string ValidityArrayPath(std::string_view spec_type);
// The validity array of a values array path ("time_series.zarr/<enc>" → ".../_validity/<enc>").
std::string ValidityPathOf(std::string_view values_array_path);

// The Zarr data_type of a dtype (enum → int32); nullopt for str, which Zarr does not store.
std::optional<std::string> DataTypeName(model::DType dtype);
// Bytes per element of a Zarr data_type name we read; 0 when unknown.
int ItemSize(std::string_view data_type);

// One array's zarr.json, reduced to what a reader needs. Either sharded (outer chunks = shard files
// of `inner_shape` inner chunks, with an index) or plain (one chunk per file); the chunk codecs are
// `bytes`, then optionally `blosc`, then optionally `crc32c` (docs/format.md §8.5).
struct ArrayMeta {
  std::vector<std::int64_t> shape;
  std::string data_type;
  int item_size = 0;
  std::vector<std::int64_t> chunk_shape;  // the chunk grid: a shard, or a plain chunk
  char separator = '/';
  bool sharded = false;
  std::vector<std::int64_t> inner_shape;  // sharded only
  bool index_at_end = true;
  bool index_crc32c = false;
  bool big_endian = false;  // of the chunk `bytes` codec
  bool blosc = false;
  bool chunk_crc32c = false;       // each chunk ends in the CRC-32C of the bytes before it
  std::vector<std::uint8_t> fill;  // one element's little-endian bytes
  std::vector<std::string> dimension_names;  // empty when the array has none

  // Elements in an inner chunk (sharded) or chunk (plain).
  std::int64_t ChunkElements() const;
  // Steps (axis 0) per inner chunk / plain chunk.
  std::int64_t ChunkSteps() const { return sharded ? inner_shape[0] : chunk_shape[0]; }
  // Inner chunks per shard (1 when plain).
  std::int64_t ChunksPerShard() const;
  // The key of grid cell `index` on axis 0 (other axes 0): "c/<index>/0/…".
  std::string ChunkKey(std::int64_t index) const;
};

// Parses an array zarr.json; FormatError naming `file` and the field for anything outside what
// docs/format.md §8.5 lets a reader accept.
ArrayMeta ParseArrayMeta(std::string_view text, const std::filesystem::path& file);

// What the writer puts in an array's zarr.json (docs/format.md §8.3).
struct ArrayLayout {
  std::int64_t total_steps = 0;
  std::vector<std::int64_t> value_shape;
  std::string data_type;
  int item_size = 0;
  std::int64_t chunk_len = 1;
  std::int64_t shard_len = 1;
  int clevel = 9;
  std::vector<std::string> dimension_names;  // written as ["step", *names] when non-empty
};
// chunk_len and shard_len of docs/format.md §8.2 for a step of `bytes_per_step` bytes.
ArrayLayout SizedLayout(std::int64_t bytes_per_step, std::int64_t chunk_max_bytes,
                        std::int64_t shard_target_bytes);
Json ArrayMetaJson(const ArrayLayout& layout);
Json GroupMetaJson();

// Bytes of the index of a shard of `chunks` inner chunks: 16 per chunk, plus 4 with the CRC-32C.
std::uint64_t ShardIndexBytes(std::int64_t chunks, bool crc32c);
// The (offset, nbytes) pairs of a shard index, 2·chunks values, from its ShardIndexBytes() bytes
// (little-endian uint64s, then the CRC-32C when `crc32c`). FormatError naming `file` for a size
// other than ShardIndexBytes() or a CRC mismatch. Offsets are not checked against the shard here.
std::vector<std::uint64_t> DecodeShardIndex(std::span<const std::uint8_t> raw, std::int64_t chunks,
                                            bool crc32c, const std::filesystem::path& file);

// The chunk bytes under a trailing crc32c codec: `stored` without its last 4 bytes, after checking
// them against the CRC-32C of the rest; FormatError naming `file` and `where` otherwise.
std::span<const std::uint8_t> StripChunkCrc32c(std::span<const std::uint8_t> stored,
                                               const std::filesystem::path& file,
                                               const std::string& where);

// CRC-32C (Castagnoli) of `bytes`, through ISA-L's crc32_iscsi.
std::uint32_t Crc32c(std::span<const std::uint8_t> bytes);

// blosc1 compression of `bytes` (elements of `typesize` bytes) with bitshuffle and `cname` (the
// writer uses zstd only, docs/format.md §8.4; tests make other codecs' frames).
std::vector<std::uint8_t> BloscCompress(std::span<const std::uint8_t> bytes, int typesize,
                                        int clevel, const char* cname = "zstd");
// Decompresses one blosc frame (any codec blosc1 knows: zstd, lz4, lz4hc, zlib, blosclz) into
// exactly `out.size()` bytes; FormatError naming `file` and `where` otherwise.
void BloscDecompress(std::span<const std::uint8_t> frame, std::span<std::uint8_t> out,
                     const std::filesystem::path& file, const std::string& where);

}  // namespace timef::values::zarr
