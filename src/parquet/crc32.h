// CRC-32 as Parquet page headers use it: the standard (zlib/gzip) CRC-32, polynomial 0x04C11DB7
// reflected, over the page bytes as stored after the header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace timef::parquet {

// The CRC-32 of `data`. Pass a previous result as `crc` to continue over a further piece:
// Crc32(b, Crc32(a)) == Crc32(a + b).
std::uint32_t Crc32(std::span<const std::byte> data, std::uint32_t crc = 0);

// PageHeader.crc is a Thrift i32 holding the CRC's bit pattern.
inline std::int32_t CrcToThrift(std::uint32_t crc) { return static_cast<std::int32_t>(crc); }
inline std::uint32_t CrcFromThrift(std::int32_t crc) { return static_cast<std::uint32_t>(crc); }

}  // namespace timef::parquet
