// BYTE_STREAM_SPLIT: for N values of K bytes, K streams of N bytes; stream k holds byte k of every
// value. The encoded size is exactly K * N, so N is the data size over K.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "parquet/encoding_decoder.h"

namespace timef::parquet {

// T is float, double, int32_t or int64_t. Throws DecodeError if the data size is not a multiple
// of sizeof(T).
template <typename T>
class ByteStreamSplitDecoder final : public ValueDecoder<T> {
 public:
  explicit ByteStreamSplitDecoder(std::span<const std::byte> data);
  void Decode(std::span<T> out) override;
  void Skip(size_t count) override;
  // The streams interleave, so this is the byte count of the values read (sizeof(T) each).
  size_t bytes_consumed() const override { return next_ * sizeof(T); }
  size_t values_left() const { return count_ - next_; }

 private:
  std::span<const std::byte> data_;
  size_t count_;
  size_t next_ = 0;
};

extern template class ByteStreamSplitDecoder<float>;
extern template class ByteStreamSplitDecoder<double>;
extern template class ByteStreamSplitDecoder<int32_t>;
extern template class ByteStreamSplitDecoder<int64_t>;

// FIXED_LEN_BYTE_ARRAY of `width` bytes (> 0).
class ByteStreamSplitFixedLenDecoder final : public FixedLenDecoder {
 public:
  ByteStreamSplitFixedLenDecoder(std::span<const std::byte> data, size_t width);
  void Decode(std::span<std::byte> out) override;
  void Skip(size_t count) override;
  size_t bytes_consumed() const override { return next_ * width(); }

 private:
  std::span<const std::byte> data_;
  size_t count_;
  size_t next_ = 0;
};

template <typename T>
void AppendByteStreamSplit(std::span<const T> values, std::vector<std::byte>& out);
extern template void AppendByteStreamSplit(std::span<const float>, std::vector<std::byte>&);
extern template void AppendByteStreamSplit(std::span<const double>, std::vector<std::byte>&);
extern template void AppendByteStreamSplit(std::span<const int32_t>, std::vector<std::byte>&);
extern template void AppendByteStreamSplit(std::span<const int64_t>, std::vector<std::byte>&);

// REQUIRES: values.size() is a multiple of width (> 0).
void AppendByteStreamSplitFixedLen(std::span<const std::byte> values, size_t width,
                                   std::vector<std::byte>& out);

}  // namespace timef::parquet
