#include "parquet/encoding_byte_stream_split.h"

#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "parquet/encoding_bytes.h"

namespace timef::parquet {
namespace {

constexpr std::string_view kSplit = "BYTE_STREAM_SPLIT";

size_t ValueCount(std::span<const std::byte> data, size_t width) {
  if (width == 0) ThrowDecodeError(kSplit, "value width 0");
  if (data.size() % width != 0) {
    ThrowDecodeError(kSplit, std::to_string(data.size()) + " bytes are not a whole number of " +
                                 std::to_string(width) + "-byte values");
  }
  return data.size() / width;
}

void CheckLeft(size_t count, size_t left) {
  if (count > left) {
    ThrowDecodeError(
        kSplit, std::to_string(count) + " values requested, " + std::to_string(left) + " left");
  }
}

// Values [first, first + n) of K streams of `stride` bytes into n values of K bytes. Reading K
// streams forward and writing one output forward keeps every access sequential.
template <size_t K>
void Gather(const std::byte* src, size_t stride, size_t first, size_t n, std::byte* dst) {
  using Word = std::conditional_t<K == 4, uint32_t, uint64_t>;
  const uint8_t* streams[K];
  for (size_t k = 0; k < K; ++k) {
    streams[k] = reinterpret_cast<const uint8_t*>(src) + k * stride + first;
  }
  // Assembling each value as a word from its K bytes (stream k is byte k of the little-endian
  // value, so the word is already the native value) lets the compiler vectorize the loop.
  if constexpr (K == 8) {
    // Two 32-bit halves vectorize better than one 64-bit word.
    for (size_t i = 0; i < n; ++i) {
      uint32_t lo = 0;
      uint32_t hi = 0;
      for (size_t k = 0; k < 4; ++k) {
        lo |= static_cast<uint32_t>(streams[k][i]) << (8 * k);
        hi |= static_cast<uint32_t>(streams[k + 4][i]) << (8 * k);
      }
      const Word v = (static_cast<Word>(hi) << 32) | lo;
      std::memcpy(dst + i * K, &v, K);
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      Word v = 0;
      for (size_t k = 0; k < K; ++k) v |= static_cast<Word>(streams[k][i]) << (8 * k);
      std::memcpy(dst + i * K, &v, K);
    }
  }
}

void GatherAny(const std::byte* src, size_t stride, size_t first, size_t n, size_t width,
               std::byte* dst) {
  for (size_t k = 0; k < width; ++k) {
    const std::byte* stream = src + k * stride + first;
    for (size_t i = 0; i < n; ++i) dst[i * width + k] = stream[i];
  }
}

template <size_t K>
void Scatter(const std::byte* src, size_t n, std::byte* dst) {
  std::byte* streams[K];
  for (size_t k = 0; k < K; ++k) streams[k] = dst + k * n;
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < K; ++k) streams[k][i] = src[i * K + k];
  }
}

}  // namespace

template <typename T>
ByteStreamSplitDecoder<T>::ByteStreamSplitDecoder(std::span<const std::byte> data)
    : data_(data), count_(ValueCount(data, sizeof(T))) {}

template <typename T>
void ByteStreamSplitDecoder<T>::Decode(std::span<T> out) {
  CheckLeft(out.size(), count_ - next_);
  auto* dst = reinterpret_cast<std::byte*>(out.data());
  Gather<sizeof(T)>(data_.data(), count_, next_, out.size(), dst);
  next_ += out.size();
}

template <typename T>
void ByteStreamSplitDecoder<T>::Skip(size_t count) {
  CheckLeft(count, count_ - next_);
  next_ += count;
}

template class ByteStreamSplitDecoder<float>;
template class ByteStreamSplitDecoder<double>;
template class ByteStreamSplitDecoder<int32_t>;
template class ByteStreamSplitDecoder<int64_t>;

ByteStreamSplitFixedLenDecoder::ByteStreamSplitFixedLenDecoder(std::span<const std::byte> data,
                                                               size_t width)
    : FixedLenDecoder(width), data_(data), count_(ValueCount(data, width)) {}

void ByteStreamSplitFixedLenDecoder::Decode(std::span<std::byte> out) {
  if (out.size() % width() != 0) {
    throw std::invalid_argument("BYTE_STREAM_SPLIT: output size is not a multiple of the width");
  }
  const size_t n = out.size() / width();
  CheckLeft(n, count_ - next_);
  GatherAny(data_.data(), count_, next_, n, width(), out.data());
  next_ += n;
}

void ByteStreamSplitFixedLenDecoder::Skip(size_t count) {
  CheckLeft(count, count_ - next_);
  next_ += count;
}

template <typename T>
void AppendByteStreamSplit(std::span<const T> values, std::vector<std::byte>& out) {
  const size_t at = out.size();
  out.resize(at + values.size() * sizeof(T));
  if constexpr (std::endian::native == std::endian::big) {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    std::vector<U> little(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      little[i] = ByteSwapIfBigEndian(std::bit_cast<U>(values[i]));
    }
    Scatter<sizeof(T)>(reinterpret_cast<const std::byte*>(little.data()), values.size(),
                       out.data() + at);
  } else {
    Scatter<sizeof(T)>(reinterpret_cast<const std::byte*>(values.data()), values.size(),
                       out.data() + at);
  }
}

template void AppendByteStreamSplit(std::span<const float>, std::vector<std::byte>&);
template void AppendByteStreamSplit(std::span<const double>, std::vector<std::byte>&);
template void AppendByteStreamSplit(std::span<const int32_t>, std::vector<std::byte>&);
template void AppendByteStreamSplit(std::span<const int64_t>, std::vector<std::byte>&);

void AppendByteStreamSplitFixedLen(std::span<const std::byte> values, size_t width,
                                   std::vector<std::byte>& out) {
  if (width == 0 || values.size() % width != 0) {
    throw std::invalid_argument("BYTE_STREAM_SPLIT: values do not fill whole values");
  }
  const size_t n = values.size() / width;
  const size_t at = out.size();
  out.resize(at + values.size());
  std::byte* dst = out.data() + at;
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < width; ++k) dst[k * n + i] = values[i * width + k];
  }
}

}  // namespace timef::parquet
