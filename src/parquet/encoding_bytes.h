// Byte-level building blocks shared by the encodings: little-endian loads and stores, ULEB128 and
// zigzag varints, and a bounds-checked read cursor.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "parquet/encoding_error.h"

namespace timef::parquet {

template <typename T>
inline T ByteSwapIfBigEndian(T v) {
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(v);
    U r = 0;
    for (size_t i = 0; i < sizeof(T); ++i) r = static_cast<U>((r << 8) | ((u >> (8 * i)) & 0xFF));
    return static_cast<T>(r);
  } else {
    return v;
  }
}

// `bytes` viewed as values of T (the caller guarantees alignment and whole values).
template <typename T>
inline std::span<const T> As(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
}

// Reads an integer stored little-endian at `p` (no alignment needed).
template <typename T>
inline T LoadLE(const std::byte* p) {
  static_assert(std::is_integral_v<T>);
  T v;
  std::memcpy(&v, p, sizeof(T));
  return ByteSwapIfBigEndian(v);
}

template <typename T>
inline void AppendLE(std::vector<std::byte>& out, T v) {
  static_assert(std::is_integral_v<T>);
  v = ByteSwapIfBigEndian(v);
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &v, sizeof(T));
}

inline void AppendUleb128(std::vector<std::byte>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::byte>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::byte>(v));
}

inline uint64_t ZigZagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t ZigZagDecode(uint64_t v) { return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1)); }

inline void AppendZigZag(std::vector<std::byte>& out, int64_t v) {
  AppendUleb128(out, ZigZagEncode(v));
}

// Appends raw bytes.
inline void AppendBytes(std::vector<std::byte>& out, std::span<const std::byte> bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

[[noreturn]] inline void ThrowDecodeError(std::string_view context, std::string_view problem) {
  std::string message(context);
  message += ": ";
  message += problem;
  throw DecodeError(message);
}

// Sequential reader over encoded bytes; every read is bounds-checked and throws DecodeError whose
// text starts with `context` (the encoding's name).
class ByteCursor {
 public:
  ByteCursor() = default;
  ByteCursor(std::span<const std::byte> data, std::string_view context)
      : data_(data), context_(context) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  std::span<const std::byte> data() const { return data_; }
  const std::byte* current() const { return data_.data() + pos_; }
  std::string_view context() const { return context_; }

  std::span<const std::byte> Take(size_t n) {
    if (n > remaining()) Truncated(n);
    auto out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  void Skip(size_t n) {
    if (n > remaining()) Truncated(n);
    pos_ += n;
  }
  uint8_t ReadByte() {
    if (pos_ >= data_.size()) Truncated(1);
    return static_cast<uint8_t>(data_[pos_++]);
  }
  template <typename T>
  T ReadLE() {
    if (sizeof(T) > remaining()) Truncated(sizeof(T));
    T v = LoadLE<T>(data_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }
  // ULEB128 of at most `max_bits` significant bits (and at most 10 bytes).
  uint64_t ReadUleb128(int max_bits = 64) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (pos_ >= data_.size()) ThrowDecodeError(context_, "truncated varint");
      const uint64_t byte = static_cast<uint8_t>(data_[pos_++]);
      const uint64_t payload = byte & 0x7F;
      if (shift >= 64 || (shift > 0 && (payload >> (64 - shift)) != 0)) {
        ThrowDecodeError(context_, "varint overflows 64 bits");
      }
      v |= payload << shift;
      if ((byte & 0x80) == 0) break;
    }
    if (max_bits < 64 && (v >> max_bits) != 0) {
      ThrowDecodeError(context_, "varint " + std::to_string(v) + " exceeds " +
                                     std::to_string(max_bits) + " bits");
    }
    return v;
  }
  int64_t ReadZigZag() { return ZigZagDecode(ReadUleb128()); }

 private:
  [[noreturn]] void Truncated(size_t wanted) const {
    ThrowDecodeError(context_, "truncated: needs " + std::to_string(wanted) + " bytes at offset " +
                                   std::to_string(pos_) + ", " + std::to_string(remaining()) +
                                   " left");
  }

  std::span<const std::byte> data_;
  size_t pos_ = 0;
  std::string_view context_;
};

}  // namespace timef::parquet
