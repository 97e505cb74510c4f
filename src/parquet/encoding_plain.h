// PLAIN: values back to back, little-endian; booleans bit-packed LSB first; BYTE_ARRAY as a 4-byte
// little-endian length and the bytes; FIXED_LEN_BYTE_ARRAY (and INT96, 12 bytes) as raw bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "parquet/encoding_decoder.h"

namespace timef::parquet {

// T is int32_t, int64_t, float or double.
template <typename T>
class PlainDecoder final : public ValueDecoder<T> {
 public:
  explicit PlainDecoder(std::span<const std::byte> data) : data_(data) {}
  void Decode(std::span<T> out) override;
  void Skip(size_t count) override;
  size_t bytes_consumed() const override { return pos_; }
  size_t values_left() const { return (data_.size() - pos_) / sizeof(T); }

 private:
  std::span<const std::byte> data_;
  size_t pos_ = 0;
};

extern template class PlainDecoder<int32_t>;
extern template class PlainDecoder<int64_t>;
extern template class PlainDecoder<float>;
extern template class PlainDecoder<double>;

// BOOLEAN: one bit per value, LSB first; decodes to 0/1 bytes.
class PlainBooleanDecoder final : public ValueDecoder<uint8_t> {
 public:
  explicit PlainBooleanDecoder(std::span<const std::byte> data) : data_(data) {}
  void Decode(std::span<uint8_t> out) override;
  void Skip(size_t count) override;
  size_t bytes_consumed() const override { return (bit_pos_ + 7) / 8; }

 private:
  std::span<const std::byte> data_;
  size_t bit_pos_ = 0;
};

class PlainByteArrayDecoder final : public ByteArrayDecoder {
 public:
  explicit PlainByteArrayDecoder(std::span<const std::byte> data) : data_(data) {}
  void Decode(size_t count, ByteArrays& out) override;
  void Skip(size_t count) override;
  size_t bytes_consumed() const override { return pos_; }

 private:
  // Validates the next `count` values and returns the bytes their contents take.
  size_t Scan(size_t count) const;

  std::span<const std::byte> data_;
  size_t pos_ = 0;
};

// FIXED_LEN_BYTE_ARRAY of `width` bytes (INT96: width 12). Throws DecodeError for width 0.
class PlainFixedLenDecoder final : public FixedLenDecoder {
 public:
  PlainFixedLenDecoder(std::span<const std::byte> data, size_t width);
  void Decode(std::span<std::byte> out) override;
  void Skip(size_t count) override;
  size_t bytes_consumed() const override { return pos_; }

 private:
  std::span<const std::byte> data_;
  size_t pos_ = 0;
};

// Encoders append to `out`.
template <typename T>
void AppendPlain(std::span<const T> values, std::vector<std::byte>& out);
extern template void AppendPlain(std::span<const int32_t>, std::vector<std::byte>&);
extern template void AppendPlain(std::span<const int64_t>, std::vector<std::byte>&);
extern template void AppendPlain(std::span<const float>, std::vector<std::byte>&);
extern template void AppendPlain(std::span<const double>, std::vector<std::byte>&);

// Values are 0 or 1 (any non-zero byte counts as 1).
void AppendPlainBooleans(std::span<const uint8_t> values, std::vector<std::byte>& out);
void AppendPlainByteArrays(ByteArraysView values, std::vector<std::byte>& out);
// REQUIRES: values.size() is a multiple of width.
void AppendPlainFixedLen(std::span<const std::byte> values, size_t width,
                         std::vector<std::byte>& out);

// The PLAIN byte size of byte arrays (4 + length each), e.g. for page-size accounting.
inline size_t PlainByteArraysSize(ByteArraysView values) {
  return 4 * values.size() + values.total_bytes();
}

}  // namespace timef::parquet
