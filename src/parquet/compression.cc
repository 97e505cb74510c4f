#include "parquet/compression.h"

#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <climits>
#include <cstring>
#include <limits>
#include <string>

#include "parquet/errors.h"
#include "timef/error.h"

namespace timef::parquet {
namespace {

const char* AsChars(std::span<const std::byte> bytes) {
  return reinterpret_cast<const char*>(bytes.data());
}
char* AsChars(std::span<std::byte> bytes) { return reinterpret_cast<char*>(bytes.data()); }

[[noreturn]] void Corrupt(CompressionCodec codec, const std::string& problem) {
  throw DecodeError(ToString(codec) + " page: " + problem);
}

[[noreturn]] void SizeMismatch(CompressionCodec codec, std::uint64_t actual,
                               std::uint64_t declared) {
  Corrupt(codec, "decompresses to " + std::to_string(actual) +
                     " bytes, but the page header declares " + std::to_string(declared));
}

[[noreturn]] void TooLarge(CompressionCodec codec, std::uint64_t declared) {
  Corrupt(codec, "decompresses to more than the " + std::to_string(declared) +
                     " bytes the page header declares");
}

// Upper bounds on output bytes per input byte, from each format's densest construct: a zstd RLE
// block (4 bytes → 128 KiB, 32768:1), a deflate run (1032:1), an LZ4 match length (≈255:1), a
// snappy 3-byte copy of 64 bytes (≈21:1). Each gets headroom; the point is only to refuse absurd
// declarations, not to be tight.
std::uint64_t MaxExpansion(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kZstd:
      return 65536;
    case CompressionCodec::kGzip:
      return 1100;
    case CompressionCodec::kLz4Raw:
      return 300;
    case CompressionCodec::kSnappy:
      return 32;
    default:
      return 1;
  }
}

// Slack for headers, trailers and tiny inputs.
constexpr std::uint64_t kExpansionSlack = 1024;

int GzipLevel(int level) {
  if (level == 0) return Z_DEFAULT_COMPRESSION;
  if (level < 1 || level > 9) {
    throw ValidationError("gzip compression level " + std::to_string(level) +
                          " is outside 1..9 (or 0 for the default)");
  }
  return level;
}

void CheckZstdLevel(int level) {
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    throw ValidationError("zstd compression level " + std::to_string(level) + " is outside " +
                          std::to_string(ZSTD_minCLevel()) + ".." +
                          std::to_string(ZSTD_maxCLevel()));
  }
}

void CompressGzip(std::span<const std::byte> input, int level, std::vector<std::byte>& out) {
  if (input.size() > UINT_MAX) throw ValidationError("gzip input larger than 4 GiB");
  z_stream stream{};
  // windowBits 15 + 16 selects the gzip wrapper (RFC 1952) that Parquet's GZIP codec means.
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("zlib deflateInit2 failed");
  }
  const std::size_t start = out.size();
  out.resize(start + deflateBound(&stream, static_cast<uLong>(input.size())));
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data() + start);
  stream.avail_out = static_cast<uInt>(out.size() - start);
  const int rc = deflate(&stream, Z_FINISH);
  const std::size_t written = stream.total_out;
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib deflate failed");
  out.resize(start + written);
}

void DecompressGzip(std::span<const std::byte> input, std::span<std::byte> output) {
  constexpr auto codec = CompressionCodec::kGzip;
  if (input.size() > UINT_MAX || output.size() > UINT_MAX) Corrupt(codec, "page larger than 4 GiB");
  z_stream stream{};
  // 15 + 32: accept the gzip wrapper and, leniently, a zlib one.
  if (inflateInit2(&stream, 15 + 32) != Z_OK) throw std::runtime_error("zlib inflateInit2 failed");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  // zlib rejects a null output pointer even with no room to write.
  Bytef no_room = 0;
  stream.next_out = output.empty() ? &no_room : reinterpret_cast<Bytef*>(output.data());
  stream.avail_out = static_cast<uInt>(output.size());
  std::string problem;
  for (;;) {
    const int rc = inflate(&stream, Z_NO_FLUSH);
    if (rc == Z_OK) continue;  // progress was made
    if (rc == Z_STREAM_END) {
      if (stream.avail_in == 0) break;
      // Concatenated gzip members form one stream (RFC 1952 §2.2).
      if (stream.avail_in >= 2 && stream.next_in[0] == 0x1f && stream.next_in[1] == 0x8b) {
        inflateReset(&stream);
        continue;
      }
      problem = std::to_string(stream.avail_in) + " bytes follow the end of the gzip stream";
    } else if (rc == Z_BUF_ERROR && stream.avail_out == 0) {
      inflateEnd(&stream);
      TooLarge(codec, output.size());
    } else if (rc == Z_BUF_ERROR) {
      problem = "truncated gzip stream";
    } else {
      problem = std::string("corrupt gzip stream: ") + (stream.msg ? stream.msg : "inflate failed");
    }
    break;
  }
  const std::uint64_t produced = output.size() - stream.avail_out;
  inflateEnd(&stream);
  if (!problem.empty()) Corrupt(codec, problem);
  if (produced != output.size()) SizeMismatch(codec, produced, output.size());
}

void CompressSnappy(std::span<const std::byte> input, std::vector<std::byte>& out) {
  const std::size_t start = out.size();
  out.resize(start + snappy::MaxCompressedLength(input.size()));
  std::size_t written = 0;
  snappy::RawCompress(AsChars(input), input.size(), reinterpret_cast<char*>(out.data() + start),
                      &written);
  out.resize(start + written);
}

void DecompressSnappy(std::span<const std::byte> input, std::span<std::byte> output) {
  constexpr auto codec = CompressionCodec::kSnappy;
  std::size_t length = 0;
  if (!snappy::GetUncompressedLength(AsChars(input), input.size(), &length)) {
    Corrupt(codec, "corrupt snappy length header");
  }
  if (length != output.size()) SizeMismatch(codec, length, output.size());
  if (!snappy::RawUncompress(AsChars(input), input.size(), AsChars(output))) {
    Corrupt(codec, "corrupt snappy stream");
  }
}

void CompressLz4(std::span<const std::byte> input, std::vector<std::byte>& out) {
  if (input.size() > LZ4_MAX_INPUT_SIZE) throw ValidationError("LZ4 input larger than ~2 GiB");
  const int n = static_cast<int>(input.size());
  const std::size_t start = out.size();
  out.resize(start + LZ4_compressBound(n));
  const int written = LZ4_compress_default(
      AsChars(input), reinterpret_cast<char*>(out.data() + start), n, LZ4_compressBound(n));
  if (written <= 0 && n > 0) throw std::runtime_error("LZ4 compression failed");
  out.resize(start + static_cast<std::size_t>(written));
}

void DecompressLz4(std::span<const std::byte> input, std::span<std::byte> output) {
  constexpr auto codec = CompressionCodec::kLz4Raw;
  if (input.size() > INT_MAX || output.size() > INT_MAX) Corrupt(codec, "page larger than 2 GiB");
  const int produced =
      LZ4_decompress_safe(AsChars(input), AsChars(output), static_cast<int>(input.size()),
                          static_cast<int>(output.size()));
  // A negative result covers both corrupt input and output that would overflow the buffer.
  if (produced < 0) Corrupt(codec, "corrupt LZ4 block or larger than declared");
  if (static_cast<std::size_t>(produced) != output.size()) {
    SizeMismatch(codec, static_cast<std::uint64_t>(produced), output.size());
  }
}

}  // namespace

bool IsSupportedCodec(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kUncompressed:
    case CompressionCodec::kSnappy:
    case CompressionCodec::kGzip:
    case CompressionCodec::kZstd:
    case CompressionCodec::kLz4Raw:
      return true;
    default:
      return false;
  }
}

std::uint64_t MaxCompressedSize(CompressionCodec codec, std::uint64_t input_size) {
  switch (codec) {
    case CompressionCodec::kUncompressed:
      return input_size;
    case CompressionCodec::kSnappy:
      return snappy::MaxCompressedLength(input_size);
    case CompressionCodec::kGzip:
      // zlib's bound is for its own 6-byte wrapper; the gzip one takes 18.
      return compressBound(static_cast<uLong>(input_size)) + 12;
    case CompressionCodec::kZstd:
      return ZSTD_compressBound(input_size);
    case CompressionCodec::kLz4Raw:
      return input_size > LZ4_MAX_INPUT_SIZE
                 ? input_size + input_size / 255 + 16
                 : static_cast<std::uint64_t>(LZ4_compressBound(static_cast<int>(input_size)));
    default:
      throw ValidationError("compression codec " + ToString(codec) + " is not supported");
  }
}

void CheckDecompressedSize(CompressionCodec codec, std::int64_t compressed_size,
                           std::int64_t uncompressed_size) {
  if (compressed_size < 0 || uncompressed_size < 0) {
    throw DecodeError("negative page size (compressed " + std::to_string(compressed_size) +
                      ", uncompressed " + std::to_string(uncompressed_size) + ")");
  }
  const auto compressed = static_cast<std::uint64_t>(compressed_size);
  const auto uncompressed = static_cast<std::uint64_t>(uncompressed_size);
  if (uncompressed > kMaxUncompressedPageSize) {
    throw DecodeError("uncompressed page size " + std::to_string(uncompressed) +
                      " exceeds the limit of " + std::to_string(kMaxUncompressedPageSize));
  }
  if (codec == CompressionCodec::kUncompressed) {
    if (compressed != uncompressed) {
      throw DecodeError("uncompressed page with compressed size " + std::to_string(compressed) +
                        " != uncompressed size " + std::to_string(uncompressed));
    }
    return;
  }
  if (uncompressed > compressed * MaxExpansion(codec) + kExpansionSlack) {
    throw DecodeError(ToString(codec) + " page of " + std::to_string(compressed) +
                      " bytes cannot decompress to the declared " + std::to_string(uncompressed) +
                      " bytes");
  }
}

// ---- Compressor ----

struct Compressor::State {
  ZSTD_CCtx* zstd = nullptr;
  ~State() { ZSTD_freeCCtx(zstd); }
};

Compressor::Compressor(CompressionCodec codec, int level)
    : codec_(codec), level_(level), state_(std::make_unique<State>()) {
  switch (codec) {
    case CompressionCodec::kZstd:
      CheckZstdLevel(level);
      state_->zstd = ZSTD_createCCtx();
      if (state_->zstd == nullptr) throw std::bad_alloc();
      break;
    case CompressionCodec::kGzip:
      level_ = GzipLevel(level);
      break;
    case CompressionCodec::kUncompressed:
    case CompressionCodec::kSnappy:
    case CompressionCodec::kLz4Raw:
      break;
    default:
      throw ValidationError("compression codec " + ToString(codec) + " is not supported");
  }
}

Compressor::~Compressor() = default;
Compressor::Compressor(Compressor&&) noexcept = default;
Compressor& Compressor::operator=(Compressor&&) noexcept = default;

void Compressor::Compress(std::span<const std::byte> input, std::vector<std::byte>& out) {
  switch (codec_) {
    case CompressionCodec::kUncompressed:
      out.insert(out.end(), input.begin(), input.end());
      return;
    case CompressionCodec::kZstd: {
      const std::size_t start = out.size();
      out.resize(start + ZSTD_compressBound(input.size()));
      const std::size_t written = ZSTD_compressCCtx(
          state_->zstd, out.data() + start, out.size() - start, input.data(), input.size(), level_);
      if (ZSTD_isError(written)) {
        out.resize(start);
        throw std::runtime_error(std::string("zstd compression failed: ") +
                                 ZSTD_getErrorName(written));
      }
      out.resize(start + written);
      return;
    }
    case CompressionCodec::kGzip:
      CompressGzip(input, level_, out);
      return;
    case CompressionCodec::kSnappy:
      CompressSnappy(input, out);
      return;
    case CompressionCodec::kLz4Raw:
      CompressLz4(input, out);
      return;
    default:
      break;
  }
  throw ValidationError("compression codec " + ToString(codec_) + " is not supported");
}

// ---- Decompressor ----

struct Decompressor::State {
  ZSTD_DCtx* zstd = nullptr;
  ~State() { ZSTD_freeDCtx(zstd); }
};

Decompressor::Decompressor() : state_(std::make_unique<State>()) {}
Decompressor::~Decompressor() = default;
Decompressor::Decompressor(Decompressor&&) noexcept = default;
Decompressor& Decompressor::operator=(Decompressor&&) noexcept = default;

void Decompressor::Decompress(CompressionCodec codec, std::span<const std::byte> input,
                              std::span<std::byte> output) {
  // Some writers store an empty section as zero bytes whatever the codec.
  if (input.empty() && output.empty() && IsSupportedCodec(codec)) return;
  switch (codec) {
    case CompressionCodec::kUncompressed:
      if (input.size() != output.size()) SizeMismatch(codec, input.size(), output.size());
      if (!input.empty()) std::memcpy(output.data(), input.data(), input.size());
      return;
    case CompressionCodec::kZstd: {
      if (state_->zstd == nullptr) {
        state_->zstd = ZSTD_createDCtx();
        if (state_->zstd == nullptr) throw std::bad_alloc();
      }
      const std::size_t produced = ZSTD_decompressDCtx(state_->zstd, output.data(), output.size(),
                                                       input.data(), input.size());
      if (ZSTD_isError(produced)) {
        if (ZSTD_getErrorCode(produced) == ZSTD_error_dstSize_tooSmall) {
          TooLarge(codec, output.size());
        }
        Corrupt(codec, std::string("corrupt zstd stream: ") + ZSTD_getErrorName(produced));
      }
      if (produced != output.size()) SizeMismatch(codec, produced, output.size());
      return;
    }
    case CompressionCodec::kGzip:
      DecompressGzip(input, output);
      return;
    case CompressionCodec::kSnappy:
      DecompressSnappy(input, output);
      return;
    case CompressionCodec::kLz4Raw:
      DecompressLz4(input, output);
      return;
    default:
      break;
  }
  throw DecodeError("compression codec " + ToString(codec) + " is not supported");
}

// ---- Free functions ----

void Compress(CompressionCodec codec, std::span<const std::byte> input, int level,
              std::vector<std::byte>& out) {
  Compressor(codec, level).Compress(input, out);
}

void Decompress(CompressionCodec codec, std::span<const std::byte> input,
                std::span<std::byte> output) {
  Decompressor().Decompress(codec, input, output);
}

}  // namespace timef::parquet
