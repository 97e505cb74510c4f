#include "parquet/crc32.h"

#include <libdeflate.h>

namespace timef::parquet {

// libdeflate's CRC-32 is the gzip/zlib one (same polynomial, same continuation rule), computed
// with carry-less multiplication where the CPU has it: every page read and written pays for it.
std::uint32_t Crc32(std::span<const std::byte> data, std::uint32_t crc) {
  return libdeflate_crc32(crc, data.data(), data.size());
}

}  // namespace timef::parquet
