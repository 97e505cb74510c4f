// DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "parquet/encoding_decoder.h"

namespace timef::parquet {

// The stream header: <block size> <miniblocks per block> <total values> <first value, zigzag>.
struct DeltaHeader {
  uint64_t block_size = 0;
  uint64_t miniblocks = 0;
  uint64_t values_per_miniblock = 0;
  uint64_t total_values = 0;
  int64_t first_value = 0;
  size_t header_bytes = 0;
};
// Accepts any block size that is a positive multiple of 128 up to 2^32 and any miniblock count
// that leaves a multiple of 32 values per miniblock.
DeltaHeader ReadDeltaHeader(std::span<const std::byte> data);

// Bytes of the DELTA_BINARY_PACKED stream at the start of `data` (header, and every block its
// value count needs, with miniblock padding), found by walking the block headers without
// unpacking. Used to find what follows the stream (byte data, suffix lengths).
size_t DeltaBinaryPackedSize(std::span<const std::byte> data);

// T is int32_t or int64_t. Arithmetic wraps in the unsigned type of T, so deltas that overflowed
// when encoding come back exactly. INT32 streams may use miniblock widths up to 64 (wider deltas
// wrap to the same 32-bit values); widths above 64 throw. Widths of miniblocks that the value
// count does not reach are ignored, as the spec requires, and the final miniblock may lack its
// padding.
template <typename T>
class DeltaBinaryPackedDecoder final : public ValueDecoder<T> {
 public:
  explicit DeltaBinaryPackedDecoder(std::span<const std::byte> data);
  void Decode(std::span<T> out) override;
  void Skip(size_t count) override;
  // Bytes through the last miniblock read so far (the whole stream once every value was read).
  size_t bytes_consumed() const override { return consumed_; }
  uint64_t total_values() const { return header_.total_values; }
  uint64_t values_left() const { return header_.total_values - emitted_; }

 private:
  using U = std::make_unsigned_t<T>;
  void StartBlock();
  // Unpacks the next (up to) 32 deltas, min_delta added, into dst; returns how many.
  size_t UnpackNext(U* dst);
  void CheckAvailable(size_t count) const;

  std::span<const std::byte> data_;
  DeltaHeader header_;
  uint64_t emitted_ = 0;      // values handed out (including the first value)
  uint64_t deltas_left_ = 0;  // deltas not yet unpacked into buffer_
  U last_ = 0;
  U min_delta_ = 0;
  size_t pos_ = 0;  // next block header
  size_t consumed_ = 0;
  std::span<const std::byte> widths_;  // of the current block
  uint64_t miniblock_ = 0;             // current miniblock in the block
  uint64_t miniblock_used_ = 0;        // values unpacked from it
  size_t miniblock_offset_ = 0;        // where its data starts
  uint64_t block_miniblocks_ = 0;      // miniblocks of this block that hold values
  U buffer_[32];                       // min_delta + unpacked delta
  size_t buffered_ = 0;
  size_t buffer_pos_ = 0;
};

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;

// Lengths as DELTA_BINARY_PACKED (INT32), then all bytes back to back.
class DeltaLengthByteArrayDecoder final : public ByteArrayDecoder {
 public:
  explicit DeltaLengthByteArrayDecoder(std::span<const std::byte> data);
  void Decode(size_t count, ByteArrays& out) override;
  void Skip(size_t count) override;
  size_t bytes_consumed() const override { return bytes_pos_; }
  // The next out.size() values as views into the input.
  void NextValues(std::span<std::span<const std::byte>> out);

 private:
  std::span<const std::byte> data_;
  DeltaBinaryPackedDecoder<int32_t> lengths_;
  size_t bytes_pos_;  // next value's first byte
};

// Prefix lengths (DELTA_BINARY_PACKED), then the suffixes (DELTA_LENGTH_BYTE_ARRAY). Each value is
// the previous value's first `prefix` bytes followed by its suffix. Since a tiny input can expand
// to huge values, the total decoded bytes are capped (DecodeError beyond `max_output_bytes`).
class DeltaByteArrayDecoder final : public ByteArrayDecoder {
 public:
  static constexpr size_t kDefaultMaxOutputBytes = size_t{1} << 30;
  explicit DeltaByteArrayDecoder(std::span<const std::byte> data,
                                 size_t max_output_bytes = kDefaultMaxOutputBytes);
  void Decode(size_t count, ByteArrays& out) override;
  void Skip(size_t count) override;
  size_t bytes_consumed() const override;

 private:
  void Run(size_t count, ByteArrays* out);

  DeltaBinaryPackedDecoder<int32_t> prefixes_;
  size_t suffix_start_;
  DeltaLengthByteArrayDecoder suffixes_;
  std::vector<std::byte> last_;
  size_t output_bytes_ = 0;
  size_t max_output_bytes_;
};

// DELTA_BYTE_ARRAY for FIXED_LEN_BYTE_ARRAY: every value must have exactly `width` bytes.
class DeltaByteArrayFixedLenDecoder final : public FixedLenDecoder {
 public:
  DeltaByteArrayFixedLenDecoder(std::span<const std::byte> data, size_t width);
  void Decode(std::span<std::byte> out) override;
  void Skip(size_t count) override { values_.Skip(count); }
  size_t bytes_consumed() const override { return values_.bytes_consumed(); }

 private:
  DeltaByteArrayDecoder values_;
  ByteArrays scratch_;
};

// Encoders (block size 128, 4 miniblocks of 32), appending to `out`.
template <typename T>
void AppendDeltaBinaryPacked(std::span<const T> values, std::vector<std::byte>& out);
extern template void AppendDeltaBinaryPacked(std::span<const int32_t>, std::vector<std::byte>&);
extern template void AppendDeltaBinaryPacked(std::span<const int64_t>, std::vector<std::byte>&);

void AppendDeltaLengthByteArray(ByteArraysView values, std::vector<std::byte>& out);
void AppendDeltaByteArray(ByteArraysView values, std::vector<std::byte>& out);

}  // namespace timef::parquet
