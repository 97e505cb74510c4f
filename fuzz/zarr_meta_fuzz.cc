// libFuzzer target: the Zarr v3 array metadata parser and checker (docs/format.md §8.5) and the
// shard index and inner-chunk decoding the Zarr reader does on a shard file. The input is an
// array zarr.json, optionally followed by a NUL byte and the bytes of one shard (or plain chunk)
// file of that array. Any input either raises a timef::Error or decodes; an accepted zarr.json
// must satisfy the bounds the parser promises before the reader allocates from it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include "timef/error.h"
#include "values/zarr_store.h"

namespace {

namespace zarr = timef::values::zarr;

// Decoded chunks above this are skipped (the parser allows 1 GiB; the fuzzer's RSS limit does not).
constexpr std::int64_t kMaxDecodedBytes = std::int64_t{1} << 22;

void DecodeChunk(const zarr::ArrayMeta& meta, std::span<const std::uint8_t> frame) {
  const std::int64_t bytes = meta.ChunkElements() * meta.item_size;
  if (bytes > kMaxDecodedBytes) return;
  std::vector<std::uint8_t> out(static_cast<std::size_t>(bytes));
  if (meta.chunk_crc32c) frame = zarr::StripChunkCrc32c(frame, "shard", "chunk");
  if (meta.blosc) zarr::BloscDecompress(frame, out, "shard", "chunk");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = all.find('\0');
  const std::string_view text = all.substr(0, nul);
  std::span<const std::uint8_t> shard;
  if (nul != std::string_view::npos) shard = std::span(data + nul + 1, size - nul - 1);
  zarr::ArrayMeta meta;
  try {
    meta = zarr::ParseArrayMeta(text, "zarr.json");
  } catch (const timef::Error&) {
    return 0;
  }
  // The parser's promises (zarr_store.cc): a chunk of at most 1 GiB, at most 2^24 inner chunks.
  const std::int64_t chunk_bytes = meta.ChunkElements() * meta.item_size;
  if (meta.item_size <= 0 || chunk_bytes <= 0 || chunk_bytes > (std::int64_t{1} << 30)) {
    std::abort();
  }
  const std::int64_t per_shard = meta.ChunksPerShard();
  if (per_shard < 1 || per_shard > (std::int64_t{1} << 24)) std::abort();
  if (meta.ChunkSteps() < 1 || meta.fill.size() != static_cast<std::size_t>(meta.item_size)) {
    std::abort();
  }
  (void)meta.ChunkKey(meta.shape[0]);
  try {
    if (!meta.sharded) {
      DecodeChunk(meta, shard);
      return 0;
    }
    const std::uint64_t index_bytes = zarr::ShardIndexBytes(per_shard, meta.index_crc32c);
    if (shard.size() < index_bytes) return 0;
    const std::size_t at = meta.index_at_end ? shard.size() - index_bytes : 0;
    const std::vector<std::uint64_t> index = zarr::DecodeShardIndex(
        shard.subspan(at, index_bytes), per_shard, meta.index_crc32c, "shard");
    if (index.size() != static_cast<std::size_t>(per_shard) * 2) std::abort();
    for (std::size_t i = 0; i + 1 < index.size(); i += 2) {
      const std::uint64_t offset = index[i];
      const std::uint64_t nbytes = index[i + 1];
      if (offset == zarr::kAbsent && nbytes == zarr::kAbsent) continue;
      // What RandomAccessFile::CheckRange refuses in the reader.
      if (offset > shard.size() || nbytes > shard.size() - offset) continue;
      DecodeChunk(meta, shard.subspan(offset, nbytes));
    }
  } catch (const timef::Error&) {
  }
  return 0;
}
