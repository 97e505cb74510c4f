// The RLE/bit-packed hybrid (levels, dictionary indices, RLE booleans) and the deprecated
// MSB-first BIT_PACKED level encoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "parquet/encoding_decoder.h"

namespace timef::parquet {

// Splits a 4-byte little-endian length prefix off `data` (data page v1 levels, RLE booleans).
struct LengthPrefixed {
  std::span<const std::byte> body;  // the `length` bytes after the prefix
  size_t total_size = 0;            // 4 + length: where the next section starts
};
LengthPrefixed ReadLengthPrefix(std::span<const std::byte> data);

// Decodes a run stream of the hybrid encoding with a fixed bit width (0..32), in any number of
// calls. The last bit-packed run may stop short of its declared group count as long as the values
// asked for are present. Throws DecodeError on malformed runs or when the stream ends first.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  RleBitPackedDecoder(std::span<const std::byte> data, int bit_width);

  // Dictionary-index data: one byte holding the bit width (<= 32), then the runs to the end of
  // `data`.
  static RleBitPackedDecoder ForDictionaryIndices(std::span<const std::byte> data);

  int bit_width() const { return bit_width_; }

  // Decodes the next out.size() values.
  void Decode(std::span<uint32_t> out);
  // Same, and throws if a value exceeds `max_value`; used for dictionary indices
  // (max = dictionary size - 1), levels (max = max level) and booleans (max = 1).
  void Decode(std::span<uint32_t> out, uint32_t max_value);
  void Decode(std::span<int16_t> out, int16_t max_value);
  void Decode(std::span<uint8_t> out, uint8_t max_value);
  void Skip(size_t count);

  // Bytes read so far: through the end of the run that produced the last value.
  size_t bytes_consumed() const { return pos_; }

 private:
  template <typename T>
  void DecodeImpl(T* out, size_t n, uint32_t max_value);
  void NextRun();

  std::span<const std::byte> data_;
  size_t pos_ = 0;
  int bit_width_ = 0;
  bool rle_ = false;
  uint32_t rle_value_ = 0;
  size_t run_left_ = 0;                // values left in the current run
  std::span<const std::byte> packed_;  // current bit-packed run
  size_t packed_next_ = 0;             // index of its next value
};

// Encodes values of a fixed bit width (0..32). Runs of 8 or more equal values become RLE runs;
// the rest is bit-packed in groups of 8, with a run's leading values topping up a partly filled
// group first so that no padding is needed before the end.
class RleBitPackedEncoder {
 public:
  explicit RleBitPackedEncoder(int bit_width);

  // REQUIRES: value < 2^bit_width (std::invalid_argument otherwise).
  void Put(uint32_t value) {
    if (value == run_value_ && run_length_ > 0) {
      ++run_length_;
      return;
    }
    PutNewValue(value);
  }
  void PutRepeated(uint32_t value, size_t count);
  void Put(std::span<const uint32_t> values);
  void Put(std::span<const int16_t> values);
  void Put(std::span<const uint8_t> values);

  // Upper bound of the size Finish would append now.
  size_t EstimatedSize() const;
  // Appends the encoded runs (no length prefix) to `out` and resets the encoder.
  void Finish(std::vector<std::byte>& out);
  // Appends a 4-byte little-endian length, then the runs, and resets the encoder.
  void FinishWithLengthPrefix(std::vector<std::byte>& out);

 private:
  void PutNewValue(uint32_t value);
  void EndRun();
  void FlushLiterals(bool final);
  void WriteRle(uint32_t value, uint64_t count);

  int bit_width_;
  uint32_t max_value_ = 0;
  std::vector<std::byte> runs_;     // finished runs
  std::vector<uint32_t> literals_;  // values of the pending bit-packed run
  uint32_t run_value_ = 0;          // the trailing run of equal values not yet placed
  uint64_t run_length_ = 0;
};

// The whole stream at once: appends exactly what RleBitPackedEncoder(bit_width), Put(values),
// Finish(out) append, without copying the values that end up bit-packed (they are packed from
// `values` in place). Throws std::invalid_argument like Put when a value does not fit.
void AppendRleBitPacked(std::span<const uint32_t> values, int bit_width,
                        std::vector<std::byte>& out);

// Encodes dictionary indices as a data page's values: bit-width byte, then the hybrid runs. The
// bit width is that of dictionary_size - 1 (0 for a one-entry dictionary).
void AppendDictionaryIndices(std::span<const uint32_t> indices, uint32_t dictionary_size,
                             std::vector<std::byte>& out);

// Booleans with the RLE encoding: 4-byte length prefix, then hybrid runs of width 1 (the layout in
// both data page versions).
void AppendRleBooleans(std::span<const uint8_t> values, std::vector<std::byte>& out);

// Booleans with the RLE encoding (length prefix, then width-1 runs).
class RleBooleanDecoder final : public ValueDecoder<uint8_t> {
 public:
  explicit RleBooleanDecoder(std::span<const std::byte> data);
  void Decode(std::span<uint8_t> out) override { runs_.Decode(out, 1); }
  void Skip(size_t count) override { runs_.Skip(count); }
  size_t bytes_consumed() const override { return 4 + runs_.bytes_consumed(); }

 private:
  RleBitPackedDecoder runs_;
};

// Deprecated BIT_PACKED levels: out.size() values of `bit_width` (0..16) bits packed MSB-first.
// Throws if a value exceeds max_level or the data is short. Returns the bytes consumed,
// ceil(out.size() * bit_width / 8).
size_t DecodeLegacyBitPacked(std::span<const std::byte> data, int bit_width, std::span<int16_t> out,
                             int16_t max_level);
void AppendLegacyBitPacked(std::span<const int16_t> values, int bit_width,
                           std::vector<std::byte>& out);

}  // namespace timef::parquet
