#include "parquet/encoding_bitpack.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <utility>

#include "parquet/encoding_bytes.h"

namespace timef::parquet {
namespace {

template <typename Out>
constexpr int kMaxWidth = std::is_same_v<Out, int16_t> ? 16 : static_cast<int>(8 * sizeof(Out));

constexpr uint64_t MaskOf(int w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return ByteSwapIfBigEndian(v);
}

// Value starting at bit kStart of a group of kGroupBytes bytes (kGroupBytes >= 8). Every load
// stays inside the group, so unpacking a group never reads past the packed data.
template <int W, size_t kGroupBytes, size_t kStart>
inline uint64_t Extract(const uint8_t* in) {
  constexpr size_t kByte = kStart / 8;
  constexpr unsigned kShift = kStart % 8;
  if constexpr (kShift + W <= 64) {
    constexpr size_t kLoad = kByte + 8 <= kGroupBytes ? kByte : kGroupBytes - 8;
    constexpr unsigned kS = static_cast<unsigned>(kStart - kLoad * 8);
    return (Load64(in + kLoad) >> kS) & MaskOf(W);
  } else {
    // Only widths above 56 straddle nine bytes; kShift > 0 here.
    const uint64_t lo = Load64(in + kByte) >> kShift;
    const uint64_t hi = static_cast<uint64_t>(in[kByte + 8]) << (64 - kShift);
    return (lo | hi) & MaskOf(W);
  }
}

template <typename Out, int W, size_t... I>
inline void UnpackWide(const uint8_t* in, Out* out, std::index_sequence<I...>) {
  constexpr size_t kGroupBytes = sizeof...(I) * W / 8;
  ((out[I] = static_cast<Out>(Extract<W, kGroupBytes, I * W>(in))), ...);
}

template <typename Out, int W, size_t... I>
inline void UnpackNarrow(const uint8_t* in, Out* out, std::index_sequence<I...>) {
  constexpr size_t kGroupBytes = sizeof...(I) * W / 8;
  uint64_t word = 0;
  std::memcpy(&word, in, kGroupBytes);
  word = ByteSwapIfBigEndian(word);
  ((out[I] = static_cast<Out>((word >> (I * W)) & MaskOf(W))), ...);
}

// Unpacks N values (N = 8 or 32) of width W from N*W/8 bytes.
template <typename Out, int W, size_t N>
void UnpackGroup(const uint8_t* in, Out* out) {
  if constexpr (W == 0) {
    std::fill_n(out, N, Out{0});
  } else if constexpr (N * W / 8 < 8) {
    UnpackNarrow<Out, W>(in, out, std::make_index_sequence<N>{});
  } else {
    UnpackWide<Out, W>(in, out, std::make_index_sequence<N>{});
  }
}

template <typename Out>
using GroupFn = void (*)(const uint8_t*, Out*);

template <typename Out, size_t N, size_t... W>
constexpr std::array<GroupFn<Out>, sizeof...(W)> MakeTable(std::index_sequence<W...>) {
  return {&UnpackGroup<Out, static_cast<int>(W), N>...};
}

template <typename Out, size_t N>
constexpr auto kGroupTable = MakeTable<Out, N>(std::make_index_sequence<kMaxWidth<Out> + 1>{});

// One value at an arbitrary bit offset; never reads past `size` bytes.
inline uint64_t ExtractSafe(const uint8_t* data, size_t size, uint64_t bit, int w) {
  const size_t byte = static_cast<size_t>(bit >> 3);
  const unsigned shift = static_cast<unsigned>(bit & 7);
  uint8_t tmp[16] = {};
  if (byte < size) std::memcpy(tmp, data + byte, std::min<size_t>(16, size - byte));
  uint64_t v = Load64(tmp) >> shift;
  if (shift != 0) v |= Load64(tmp + 8) << (64 - shift);
  return v & MaskOf(w);
}

template <typename Out>
void UnpackImpl(std::span<const std::byte> packed, int w, size_t first, Out* out, size_t n) {
  if (w < 0 || w > kMaxWidth<Out>) {
    throw DecodeError("bit-packed data: bit width " + std::to_string(w) + " exceeds " +
                      std::to_string(kMaxWidth<Out>));
  }
  if (w == 0) {
    std::fill_n(out, n, Out{0});
    return;
  }
  const size_t size = packed.size();
  // (first + n) * w <= size * 8, without overflow.
  if (first > size * 8 || n > size * 8 - first ||
      (first + n) > (size * 8) / static_cast<size_t>(w)) {
    throw DecodeError("bit-packed data: " + std::to_string(first + n) + " values of " +
                      std::to_string(w) + " bits need more than the " + std::to_string(size) +
                      " bytes present");
  }
  const auto* data = reinterpret_cast<const uint8_t*>(packed.data());
  while (n > 0 && (first & 7) != 0) {
    *out++ = static_cast<Out>(ExtractSafe(data, size, uint64_t{first} * w, w));
    ++first;
    --n;
  }
  // Every multiple of 8 values starts on a byte boundary.
  const uint8_t* p = data + (first / 8) * static_cast<size_t>(w);
  const GroupFn<Out> unpack32 = kGroupTable<Out, 32>[w];
  while (n >= 32) {
    unpack32(p, out);
    p += 4 * static_cast<size_t>(w);
    out += 32;
    n -= 32;
  }
  const GroupFn<Out> unpack8 = kGroupTable<Out, 8>[w];
  while (n >= 8) {
    unpack8(p, out);
    p += w;
    out += 8;
    n -= 8;
  }
  const size_t left = size - static_cast<size_t>(p - data);
  for (size_t i = 0; i < n; ++i) {
    out[i] = static_cast<Out>(ExtractSafe(p, left, uint64_t{i} * w, w));
  }
}

template <typename In>
void PackImpl(std::span<const In> values, int w, std::vector<std::byte>& out) {
  if (w == 0 || values.empty()) return;
  const uint64_t mask = MaskOf(w);
  const size_t at = out.size();
  out.resize(at + (values.size() * static_cast<size_t>(w) + 7) / 8);
  auto* dst = reinterpret_cast<uint8_t*>(out.data() + at);
  unsigned __int128 acc = 0;
  int bits = 0;
  for (In v : values) {
    acc |= static_cast<unsigned __int128>(static_cast<uint64_t>(v) & mask) << bits;
    bits += w;
    while (bits >= 8) {
      *dst++ = static_cast<uint8_t>(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) *dst = static_cast<uint8_t>(acc);
}

}  // namespace

void UnpackBits(std::span<const std::byte> packed, int bit_width, size_t first,
                std::span<uint8_t> out) {
  UnpackImpl(packed, bit_width, first, out.data(), out.size());
}
void UnpackBits(std::span<const std::byte> packed, int bit_width, size_t first,
                std::span<int16_t> out) {
  UnpackImpl(packed, bit_width, first, out.data(), out.size());
}
void UnpackBits(std::span<const std::byte> packed, int bit_width, size_t first,
                std::span<uint32_t> out) {
  UnpackImpl(packed, bit_width, first, out.data(), out.size());
}
void UnpackBits(std::span<const std::byte> packed, int bit_width, size_t first,
                std::span<uint64_t> out) {
  UnpackImpl(packed, bit_width, first, out.data(), out.size());
}

void PackBits(std::span<const uint32_t> values, int bit_width, std::vector<std::byte>& out) {
  if (bit_width > 32) {
    PackImpl(values, bit_width, out);
    return;
  }
  if (bit_width == 0 || values.empty()) return;
  // Fewer than 32 bits wait in the accumulator before a value is added, so 64 bits hold them and
  // the value; whole 32-bit words go out at a time. Same bytes as PackImpl.
  const uint64_t mask = MaskOf(bit_width);
  const size_t at = out.size();
  const size_t bytes = (values.size() * static_cast<size_t>(bit_width) + 7) / 8;
  out.resize(at + bytes + 4);  // room for the last word's store; trimmed below
  auto* dst = reinterpret_cast<uint8_t*>(out.data() + at);
  uint64_t acc = 0;
  int bits = 0;
  for (const uint32_t v : values) {
    acc |= (uint64_t{v} & mask) << bits;
    bits += bit_width;
    if (bits >= 32) {
      const uint32_t word = ByteSwapIfBigEndian(static_cast<uint32_t>(acc));
      std::memcpy(dst, &word, 4);
      dst += 4;
      acc >>= 32;
      bits -= 32;
    }
  }
  const uint32_t word = ByteSwapIfBigEndian(static_cast<uint32_t>(acc));
  std::memcpy(dst, &word, 4);
  out.resize(at + bytes);
}
void PackBits(std::span<const uint64_t> values, int bit_width, std::vector<std::byte>& out) {
  PackImpl(values, bit_width, out);
}

}  // namespace timef::parquet
