// The common shape of every value decoder, and the caller-owned buffers byte arrays decode into.
// A decoder is built over one page's encoded values (a span the caller keeps alive) and hands out
// values in as many Decode/Skip calls as the caller likes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace timef::parquet {

// Fixed-width values: T is uint8_t (BOOLEAN, 0 or 1), int32_t, int64_t, float or double.
template <typename T>
class ValueDecoder {
 public:
  virtual ~ValueDecoder() = default;
  // Writes the next out.size() values; throws DecodeError if fewer remain or the data is bad.
  virtual void Decode(std::span<T> out) = 0;
  virtual void Skip(size_t count) = 0;
  // Bytes of the encoded input read so far.
  virtual size_t bytes_consumed() const = 0;
};

// Read-only view of byte arrays: value i is bytes[offsets[i], offsets[i+1]). Offsets are
// ascending and need not start at 0, so a slice shares the buffer.
struct ByteArraysView {
  std::span<const int64_t> offsets;
  const std::byte* bytes = nullptr;

  size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  std::span<const std::byte> operator[](size_t i) const {
    return {bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
  ByteArraysView Slice(size_t begin, size_t end) const {
    return {offsets.subspan(begin, end - begin + 1), bytes};
  }
  size_t total_bytes() const {
    return offsets.empty() ? 0 : static_cast<size_t>(offsets.back() - offsets.front());
  }
};

// Caller-owned, reusable output for byte arrays: decoders append values; offsets always holds
// size() + 1 entries starting at 0. Clear() keeps the capacity.
struct ByteArrays {
  std::vector<int64_t> offsets = {0};
  std::vector<std::byte> bytes;

  size_t size() const { return offsets.size() - 1; }
  std::span<const std::byte> operator[](size_t i) const {
    return {bytes.data() + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
  std::string_view str(size_t i) const {
    auto v = (*this)[i];
    return {reinterpret_cast<const char*>(v.data()), v.size()};
  }
  void Clear() {
    offsets.assign(1, 0);
    bytes.clear();
  }
  void Append(std::span<const std::byte> value) {
    const size_t at = bytes.size();
    bytes.resize(at + value.size());
    if (!value.empty()) std::memcpy(bytes.data() + at, value.data(), value.size());
    offsets.push_back(static_cast<int64_t>(bytes.size()));
  }
  void Append(std::string_view value) {
    Append(
        std::span<const std::byte>(reinterpret_cast<const std::byte*>(value.data()), value.size()));
  }
  ByteArraysView view() const { return {offsets, bytes.data()}; }
};

// BYTE_ARRAY values, appended to a ByteArrays.
class ByteArrayDecoder {
 public:
  virtual ~ByteArrayDecoder() = default;
  virtual void Decode(size_t count, ByteArrays& out) = 0;
  virtual void Skip(size_t count) = 0;
  virtual size_t bytes_consumed() const = 0;
};

// FIXED_LEN_BYTE_ARRAY (and INT96, width 12) values, written back to back.
class FixedLenDecoder {
 public:
  explicit FixedLenDecoder(size_t width) : width_(width) {}
  virtual ~FixedLenDecoder() = default;
  size_t width() const { return width_; }
  // REQUIRES: out.size() is a multiple of width(); decodes out.size() / width() values.
  virtual void Decode(std::span<std::byte> out) = 0;
  virtual void Skip(size_t count) = 0;
  virtual size_t bytes_consumed() const = 0;

 private:
  size_t width_;
};

}  // namespace timef::parquet
