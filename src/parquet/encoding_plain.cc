#include "parquet/encoding_plain.h"

#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "parquet/encoding_bitpack.h"
#include "parquet/encoding_bytes.h"

namespace timef::parquet {
namespace {

constexpr std::string_view kPlain = "PLAIN";

[[noreturn]] void ThrowShort(size_t count, size_t width, size_t left) {
  ThrowDecodeError(kPlain, std::to_string(count) + " values of " + std::to_string(width) +
                               " bytes need more than the " + std::to_string(left) + " bytes left");
}

// Copies n fixed-width values stored little-endian.
template <typename T>
void CopyLittleEndian(const std::byte* src, size_t n, T* dst) {
  if constexpr (std::endian::native == std::endian::little) {
    if (n > 0) std::memcpy(dst, src, n * sizeof(T));
  } else {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    for (size_t i = 0; i < n; ++i) {
      dst[i] = std::bit_cast<T>(LoadLE<U>(src + i * sizeof(T)));
    }
  }
}

}  // namespace

template <typename T>
void PlainDecoder<T>::Decode(std::span<T> out) {
  const size_t left = data_.size() - pos_;
  if (out.size() > left / sizeof(T)) ThrowShort(out.size(), sizeof(T), left);
  CopyLittleEndian(data_.data() + pos_, out.size(), out.data());
  pos_ += out.size() * sizeof(T);
}

template <typename T>
void PlainDecoder<T>::Skip(size_t count) {
  const size_t left = data_.size() - pos_;
  if (count > left / sizeof(T)) ThrowShort(count, sizeof(T), left);
  pos_ += count * sizeof(T);
}

template class PlainDecoder<int32_t>;
template class PlainDecoder<int64_t>;
template class PlainDecoder<float>;
template class PlainDecoder<double>;

void PlainBooleanDecoder::Decode(std::span<uint8_t> out) {
  if (out.size() > data_.size() * 8 - bit_pos_) {
    ThrowDecodeError(kPlain, std::to_string(out.size()) + " booleans requested, " +
                                 std::to_string(data_.size() * 8 - bit_pos_) + " bits left");
  }
  UnpackBits(data_, 1, bit_pos_, out);
  bit_pos_ += out.size();
}

void PlainBooleanDecoder::Skip(size_t count) {
  if (count > data_.size() * 8 - bit_pos_) {
    ThrowDecodeError(kPlain, std::to_string(count) + " booleans to skip, " +
                                 std::to_string(data_.size() * 8 - bit_pos_) + " bits left");
  }
  bit_pos_ += count;
}

size_t PlainByteArrayDecoder::Scan(size_t count) const {
  size_t pos = pos_;
  size_t total = 0;
  const size_t size = data_.size();
  for (size_t i = 0; i < count; ++i) {
    if (size - pos < 4) {
      ThrowDecodeError(kPlain, "byte array " + std::to_string(i) + " of " + std::to_string(count) +
                                   ": length truncated at offset " + std::to_string(pos));
    }
    const uint32_t length = LoadLE<uint32_t>(data_.data() + pos);
    pos += 4;
    if (length > static_cast<uint32_t>(INT32_MAX)) {
      ThrowDecodeError(kPlain, "negative byte array length " +
                                   std::to_string(static_cast<int32_t>(length)) + " at offset " +
                                   std::to_string(pos - 4));
    }
    if (length > size - pos) {
      ThrowDecodeError(kPlain, "byte array length " + std::to_string(length) + " at offset " +
                                   std::to_string(pos - 4) + " exceeds the " +
                                   std::to_string(size - pos) + " bytes left");
    }
    pos += length;
    total += length;
  }
  return total;
}

void PlainByteArrayDecoder::Decode(size_t count, ByteArrays& out) {
  // Validate first so the output grows once, by sizes the input has proven.
  const size_t total = Scan(count);
  if (out.offsets.empty()) out.offsets.push_back(static_cast<int64_t>(out.bytes.size()));
  const size_t first_offset = out.offsets.size();
  const size_t first_byte = out.bytes.size();
  out.offsets.resize(first_offset + count);
  out.bytes.resize(first_byte + total);
  int64_t* offsets = out.offsets.data() + first_offset;
  std::byte* dst = out.bytes.data() + first_byte;
  int64_t offset = static_cast<int64_t>(first_byte);
  const std::byte* src = data_.data() + pos_;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t length = LoadLE<uint32_t>(src);
    if (length > 0) std::memcpy(dst, src + 4, length);
    src += 4 + length;
    dst += length;
    offset += length;
    offsets[i] = offset;
  }
  pos_ = static_cast<size_t>(src - data_.data());
}

void PlainByteArrayDecoder::Skip(size_t count) {
  const size_t total = Scan(count);
  pos_ += 4 * count + total;
}

PlainFixedLenDecoder::PlainFixedLenDecoder(std::span<const std::byte> data, size_t width)
    : FixedLenDecoder(width), data_(data) {
  if (width == 0) ThrowDecodeError(kPlain, "fixed-length byte arrays of width 0");
}

void PlainFixedLenDecoder::Decode(std::span<std::byte> out) {
  if (out.size() % width() != 0) {
    throw std::invalid_argument("PLAIN: output size is not a multiple of the value width");
  }
  const size_t left = data_.size() - pos_;
  if (out.size() > left) ThrowShort(out.size() / width(), width(), left);
  if (!out.empty()) std::memcpy(out.data(), data_.data() + pos_, out.size());
  pos_ += out.size();
}

void PlainFixedLenDecoder::Skip(size_t count) {
  const size_t left = data_.size() - pos_;
  if (count > left / width()) ThrowShort(count, width(), left);
  pos_ += count * width();
}

template <typename T>
void AppendPlain(std::span<const T> values, std::vector<std::byte>& out) {
  const size_t at = out.size();
  out.resize(at + values.size() * sizeof(T));
  std::byte* dst = out.data() + at;
  if constexpr (std::endian::native == std::endian::little) {
    if (!values.empty()) std::memcpy(dst, values.data(), values.size() * sizeof(T));
  } else {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    for (size_t i = 0; i < values.size(); ++i) {
      const U v = ByteSwapIfBigEndian(std::bit_cast<U>(values[i]));
      std::memcpy(dst + i * sizeof(T), &v, sizeof(T));
    }
  }
}

template void AppendPlain(std::span<const int32_t>, std::vector<std::byte>&);
template void AppendPlain(std::span<const int64_t>, std::vector<std::byte>&);
template void AppendPlain(std::span<const float>, std::vector<std::byte>&);
template void AppendPlain(std::span<const double>, std::vector<std::byte>&);

void AppendPlainBooleans(std::span<const uint8_t> values, std::vector<std::byte>& out) {
  const size_t at = out.size();
  out.resize(at + (values.size() + 7) / 8, std::byte{0});
  std::byte* dst = out.data() + at;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] != 0) dst[i / 8] |= static_cast<std::byte>(1u << (i % 8));
  }
}

void AppendPlainByteArrays(ByteArraysView values, std::vector<std::byte>& out) {
  const size_t at = out.size();
  out.resize(at + PlainByteArraysSize(values));
  std::byte* dst = out.data() + at;
  for (size_t i = 0; i < values.size(); ++i) {
    const auto value = values[i];
    if (value.size() > static_cast<size_t>(INT32_MAX)) {
      throw std::invalid_argument("PLAIN: byte array longer than 2^31 - 1 bytes");
    }
    const uint32_t length = ByteSwapIfBigEndian(static_cast<uint32_t>(value.size()));
    std::memcpy(dst, &length, 4);
    if (!value.empty()) std::memcpy(dst + 4, value.data(), value.size());
    dst += 4 + value.size();
  }
}

void AppendPlainFixedLen(std::span<const std::byte> values, size_t width,
                         std::vector<std::byte>& out) {
  if (width == 0 || values.size() % width != 0) {
    throw std::invalid_argument("PLAIN: fixed-length values do not fill whole values");
  }
  AppendBytes(out, values);
}

}  // namespace timef::parquet
