// LSB-first bit packing, the order of the RLE/bit-packed hybrid, DELTA_BINARY_PACKED miniblocks
// and PLAIN booleans: value i occupies bits [i*w, (i+1)*w) of the stream, bit 0 being the least
// significant bit of byte 0.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace timef::parquet {

// Bits needed to store `max_value` (0 for 0).
inline int BitWidth(uint64_t max_value) { return static_cast<int>(std::bit_width(max_value)); }

// Writes values [first, first + out.size()) of the `bit_width`-bit stream starting at packed[0]
// into `out`. Throws DecodeError if bit_width exceeds the output type's width or `packed` is too
// short for the requested values. Works a word at a time on groups of 32 and 8 values.
void UnpackBits(std::span<const std::byte> packed, int bit_width, size_t first,
                std::span<uint8_t> out);
void UnpackBits(std::span<const std::byte> packed, int bit_width, size_t first,
                std::span<int16_t> out);
void UnpackBits(std::span<const std::byte> packed, int bit_width, size_t first,
                std::span<uint32_t> out);
void UnpackBits(std::span<const std::byte> packed, int bit_width, size_t first,
                std::span<uint64_t> out);

// Appends ceil(values.size() * bit_width / 8) bytes packing `values` (only their low `bit_width`
// bits are kept; the final byte is zero-padded).
void PackBits(std::span<const uint32_t> values, int bit_width, std::vector<std::byte>& out);
void PackBits(std::span<const uint64_t> values, int bit_width, std::vector<std::byte>& out);

}  // namespace timef::parquet
