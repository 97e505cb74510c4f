// Helpers shared by the format-layer tests (thrift, metadata, codecs, I/O).
#pragma once

#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "support/scratch_dir.h"

namespace timef::parquet::testing {

inline std::vector<std::byte> Bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

inline std::vector<std::byte> BytesOf(std::string_view text) {
  const auto* p = reinterpret_cast<const std::byte*>(text.data());
  return std::vector<std::byte>(p, p + text.size());
}

inline std::string Hex(std::span<const std::byte> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::byte b : bytes) {
    if (!out.empty()) out += ' ';
    out += kDigits[static_cast<unsigned>(b) >> 4];
    out += kDigits[static_cast<unsigned>(b) & 0xF];
  }
  return out;
}

inline std::vector<std::byte> RandomBytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::byte> out(n);
  for (auto& b : out) b = static_cast<std::byte>(rng() & 0xFF);
  return out;
}

// Text-like data that compresses well but not trivially.
inline std::vector<std::byte> CompressibleBytes(std::mt19937_64& rng, std::size_t n) {
  static constexpr std::string_view kWords[] = {"alpha ",   "beta ",  "gamma ", "delta ",
                                                "epsilon ", "0.125 ", "-42 ",   "\n"};
  std::vector<std::byte> out;
  out.reserve(n);
  while (out.size() < n) {
    const std::string_view word = kWords[rng() % std::size(kWords)];
    for (char c : word) {
      if (out.size() == n) break;
      out.push_back(static_cast<std::byte>(c));
    }
  }
  return out;
}

using ::timef::testing::ScratchDir;

}  // namespace timef::parquet::testing
