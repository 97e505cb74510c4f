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

// A fresh directory per test, below $TIMEF_TEST_OUT when set, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    const char* out = std::getenv("TIMEF_TEST_OUT");
    const std::filesystem::path base =
        out != nullptr ? std::filesystem::path(out) : std::filesystem::temp_directory_path();
    std::filesystem::create_directories(base);
    std::string pattern = (base / "parquet-format-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace timef::parquet::testing
