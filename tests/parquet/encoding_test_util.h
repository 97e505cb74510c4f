// Shared helpers of the encoding tests: deterministic value generators, byte literals, bit-exact
// comparison and a bounded mutation driver for malformed-input tests.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "parquet/encoding_decoder.h"
#include "parquet/encoding_error.h"

namespace timef::parquet::testing {

inline constexpr size_t kSizes[] = {0, 1, 7, 8, 9, 127, 128, 129, 1000, 100000};

inline std::vector<std::byte> Bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

inline std::vector<std::byte> BytesOf(std::string_view s) {
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  return out;
}

enum class Distribution { kConstant, kSmallRange, kFullRange, kExtremes, kSorted };
inline constexpr Distribution kDistributions[] = {
    Distribution::kConstant, Distribution::kSmallRange, Distribution::kFullRange,
    Distribution::kExtremes, Distribution::kSorted};

inline const char* Name(Distribution d) {
  switch (d) {
    case Distribution::kConstant:
      return "constant";
    case Distribution::kSmallRange:
      return "small-range";
    case Distribution::kFullRange:
      return "full-range";
    case Distribution::kExtremes:
      return "extremes";
    case Distribution::kSorted:
      return "sorted";
  }
  return "?";
}

// Integers of type T following `d`; kExtremes mixes min, max, 0 and -1 so deltas overflow.
template <typename T>
std::vector<T> MakeIntegers(size_t n, Distribution d, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> out(n);
  using L = std::numeric_limits<T>;
  const T constant = static_cast<T>(rng());
  T acc = static_cast<T>(rng() % 1000);
  for (size_t i = 0; i < n; ++i) {
    switch (d) {
      case Distribution::kConstant:
        out[i] = constant;
        break;
      case Distribution::kSmallRange:
        out[i] = static_cast<T>(static_cast<int64_t>(rng() % 17) - 8);
        break;
      case Distribution::kFullRange:
        out[i] = static_cast<T>(rng());
        break;
      case Distribution::kExtremes: {
        const T choices[] = {L::min(), L::max(), T{0}, static_cast<T>(-1), L::min(), L::max()};
        out[i] = choices[rng() % 6];
        break;
      }
      case Distribution::kSorted:
        acc = static_cast<T>(acc + static_cast<T>(rng() % 50));
        out[i] = acc;
        break;
    }
  }
  return out;
}

// Floats including NaNs with several payloads and signs, infinities, zeros of both signs,
// subnormals and ordinary values.
template <typename F>
std::vector<F> MakeFloats(size_t n, uint64_t seed) {
  using Bits = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  std::mt19937_64 rng(seed);
  std::vector<F> out(n);
  const Bits exponent_all = std::bit_cast<Bits>(std::numeric_limits<F>::infinity());
  const Bits sign = Bits{1} << (8 * sizeof(F) - 1);
  for (size_t i = 0; i < n; ++i) {
    switch (rng() % 10) {
      case 0:
        out[i] = std::bit_cast<F>(static_cast<Bits>(exponent_all | 1 | (rng() & 0xFF)));
        break;
      case 1:
        out[i] = std::bit_cast<F>(static_cast<Bits>(sign | exponent_all | (Bits{1} << 3)));
        break;
      case 2:
        out[i] = std::numeric_limits<F>::infinity();
        break;
      case 3:
        out[i] = -std::numeric_limits<F>::infinity();
        break;
      case 4:
        out[i] = F{0};
        break;
      case 5:
        out[i] = -F{0};
        break;
      case 6:
        out[i] = std::numeric_limits<F>::denorm_min();
        break;
      case 7:
        out[i] = static_cast<F>(static_cast<int>(rng() % 7));
        break;
      default:
        out[i] = std::bit_cast<F>(static_cast<Bits>(rng()));
        break;
    }
  }
  return out;
}

// Bit-exact equality for any trivially copyable values; reports the first difference.
template <typename T>
::testing::AssertionResult SameBits(std::span<const T> expected, std::span<const T> actual) {
  if (expected.size() != actual.size()) {
    return ::testing::AssertionFailure()
           << "size " << actual.size() << " != expected " << expected.size();
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0) {
      return ::testing::AssertionFailure() << "first difference at index " << i;
    }
  }
  return ::testing::AssertionSuccess();
}
template <typename T>
::testing::AssertionResult SameBits(const std::vector<T>& expected, const std::vector<T>& actual) {
  return SameBits(std::span<const T>(expected), std::span<const T>(actual));
}

inline ::testing::AssertionResult SameArrays(const ByteArrays& expected, const ByteArrays& actual) {
  if (expected.size() != actual.size()) {
    return ::testing::AssertionFailure()
           << "size " << actual.size() << " != expected " << expected.size();
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected.str(i) != actual.str(i)) {
      return ::testing::AssertionFailure() << "first difference at index " << i;
    }
  }
  return ::testing::AssertionSuccess();
}

// Random strings: empty ones, repeated ones (shared prefixes), long ones and arbitrary bytes.
inline ByteArrays MakeStrings(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  ByteArrays out;
  std::string previous;
  for (size_t i = 0; i < n; ++i) {
    std::string s;
    switch (rng() % 6) {
      case 0:
        break;
      case 1:
        s = previous;
        break;
      case 2:
        s = previous.substr(0, previous.size() / 2) + std::to_string(rng() % 1000);
        break;
      case 3:
        s.assign(static_cast<size_t>(rng() % 3000), static_cast<char>('a' + rng() % 26));
        break;
      default:
        s.resize(static_cast<size_t>(rng() % 40));
        for (char& c : s) c = static_cast<char>(rng());
    }
    out.Append(s);
    previous = s;
  }
  return out;
}

// Feeds `iterations` mutations of `valid` (bit flips, byte overwrites, truncation, insertion,
// extension; fixed seed) to `decode`, which must either succeed or throw DecodeError. Any other
// exception fails the test; a crash or hang would fail it under the sanitizers.
inline void FuzzMutations(std::span<const std::byte> valid, int iterations, uint64_t seed,
                          const std::function<void(std::span<const std::byte>)>& decode) {
  std::mt19937_64 rng(seed);
  int rejected = 0;
  for (int it = 0; it < iterations; ++it) {
    std::vector<std::byte> data(valid.begin(), valid.end());
    const int mutations = 1 + static_cast<int>(rng() % 4);
    for (int m = 0; m < mutations; ++m) {
      switch (rng() % 6) {
        case 0:
          if (!data.empty()) data[rng() % data.size()] ^= static_cast<std::byte>(1u << (rng() % 8));
          break;
        case 1:
          if (!data.empty()) data[rng() % data.size()] = static_cast<std::byte>(rng());
          break;
        case 2:
          if (!data.empty()) data.resize(rng() % data.size());
          break;
        case 3:
          data.insert(data.begin() + static_cast<std::ptrdiff_t>(rng() % (data.size() + 1)),
                      static_cast<std::byte>(rng()));
          break;
        case 4:
          if (!data.empty()) data[rng() % data.size()] = std::byte{0xFF};
          break;
        default:
          for (int k = 0; k < 3; ++k) data.push_back(static_cast<std::byte>(rng()));
      }
    }
    try {
      decode(data);
    } catch (const DecodeError&) {
      ++rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "mutation " << it << " threw a non-DecodeError: " << e.what();
      return;
    }
  }
  // Mutations must be caught at least sometimes; otherwise the driver tested nothing.
  EXPECT_GT(rejected, 0);
}

}  // namespace timef::parquet::testing
