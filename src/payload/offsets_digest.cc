#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "core/checksum.h"
#include "payload/payload_writer.h"

namespace timef::payload {

std::string OffsetsDigest(std::span<const std::int64_t> offsets) {
  Sha256 hash;
  if constexpr (std::endian::native == std::endian::little) {
    hash.Update(std::as_bytes(offsets));
  } else {
    for (const std::int64_t value : offsets) {
      std::array<std::byte, 8> bytes;
      auto bits = static_cast<std::uint64_t>(value);
      for (std::byte& b : bytes) {
        b = static_cast<std::byte>(bits & 0xff);
        bits >>= 8;
      }
      hash.Update(bytes);
    }
  }
  return hash.Finish();
}

}  // namespace timef::payload
