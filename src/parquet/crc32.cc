#include "parquet/crc32.h"

#include <zlib.h>

#include <algorithm>
#include <climits>

namespace timef::parquet {

std::uint32_t Crc32(std::span<const std::byte> data, std::uint32_t crc) {
  uLong state = crc;
  // zlib takes a uInt length; feed spans beyond 4 GiB in pieces.
  while (!data.empty()) {
    const std::size_t n = std::min<std::size_t>(data.size(), UINT_MAX);
    state = crc32(state, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(n));
    data = data.subspan(n);
  }
  return static_cast<std::uint32_t>(state);
}

}  // namespace timef::parquet
