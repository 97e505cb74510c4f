// Page compression codecs: UNCOMPRESSED, SNAPPY, GZIP, ZSTD and LZ4_RAW.
//
// Decompression writes into a caller buffer whose size is the page header's
// uncompressed_page_size; it never writes or allocates more, and a stream that yields any other
// number of bytes, or is corrupt, throws DecodeError. Callers check the declared size with
// CheckDecompressedSize before allocating that buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "parquet/metadata.h"

namespace timef::parquet {

// The largest uncompressed page this engine accepts (1 GiB).
inline constexpr std::uint64_t kMaxUncompressedPageSize = std::uint64_t{1} << 30;

// True for the codecs Compress and Decompress implement.
bool IsSupportedCodec(CompressionCodec codec);

// Appends `input` compressed with `codec` to `out`. `level` applies to ZSTD (0 = library default,
// negative levels allowed) and GZIP (0 = zlib default, else 1..9); SNAPPY and LZ4_RAW ignore it.
// The output is deterministic for a given codec, level and library version. Throws
// timef::ValidationError for an unsupported codec or level.
void Compress(CompressionCodec codec, std::span<const std::byte> input, int level,
              std::vector<std::byte>& out);

// The most bytes Compress can append for `input_size` bytes of input with `codec` (the codec
// library's own bound). Throws timef::ValidationError for an unsupported codec.
std::uint64_t MaxCompressedSize(CompressionCodec codec, std::uint64_t input_size);

// Throws DecodeError when a page of `compressed_size` bytes cannot plausibly decompress to
// `uncompressed_size` bytes with `codec`: negative sizes, more than kMaxUncompressedPageSize, or
// more than the codec's maximum expansion ratio allows (so a lying header cannot make the reader
// allocate much more than the file holds).
void CheckDecompressedSize(CompressionCodec codec, std::int64_t compressed_size,
                           std::int64_t uncompressed_size);

// Decompresses `input` into exactly `output.size()` bytes. Throws DecodeError for an unsupported
// codec, corrupt input, or a stream that decompresses to a different size.
void Decompress(CompressionCodec codec, std::span<const std::byte> input,
                std::span<std::byte> output);

// Reusable codec state (a zstd context costs megabytes at high levels), for a writer or reader
// that handles many pages. Not thread-safe; use one per thread.
class Compressor {
 public:
  // Throws timef::ValidationError for an unsupported codec or level (see Compress).
  Compressor(CompressionCodec codec, int level);
  ~Compressor();
  Compressor(Compressor&&) noexcept;
  Compressor& operator=(Compressor&&) noexcept;

  CompressionCodec codec() const { return codec_; }
  void Compress(std::span<const std::byte> input, std::vector<std::byte>& out);

 private:
  struct State;
  CompressionCodec codec_;
  int level_;
  std::unique_ptr<State> state_;
};

class Decompressor {
 public:
  Decompressor();
  ~Decompressor();
  Decompressor(Decompressor&&) noexcept;
  Decompressor& operator=(Decompressor&&) noexcept;

  // As the free function Decompress.
  void Decompress(CompressionCodec codec, std::span<const std::byte> input,
                  std::span<std::byte> output);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace timef::parquet
