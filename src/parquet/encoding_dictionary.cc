#include "parquet/encoding_dictionary.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "parquet/encoding_bytes.h"
#include "parquet/encoding_plain.h"

namespace timef::parquet {
namespace encoding_internal {

uint64_t HashWord(uint64_t x) {
  // A 64-bit finalizer: every input bit affects the low bits the table probes with.
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t HashBytes(std::span<const std::byte> bytes) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (bytes.size() * 0x100000001b3ULL);
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    h = std::rotl(h ^ LoadLE<uint64_t>(bytes.data() + i), 29) * 0xbf58476d1ce4e5b9ULL;
  }
  if (i < bytes.size()) {
    uint8_t tail[8] = {};
    std::memcpy(tail, bytes.data() + i, bytes.size() - i);
    uint64_t word;
    std::memcpy(&word, tail, 8);
    h = std::rotl(h ^ word, 29) * 0xbf58476d1ce4e5b9ULL;
  }
  return HashWord(h);
}

void HashIndex::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(std::max<size_t>(16, old.size() * 2), Slot{});
  const size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.entry_plus_one == 0) continue;
    size_t i = static_cast<size_t>(slot.hash) & mask;
    while (slots_[i].entry_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

void HashIndex::Clear() {
  slots_.clear();
  count_ = 0;
}

}  // namespace encoding_internal

namespace {

constexpr std::string_view kDictionary = "dictionary";

uint32_t NextEntry(size_t size) {
  if (size >= std::numeric_limits<uint32_t>::max() - 1) {
    throw std::length_error("dictionary: more than 2^32 - 2 entries");
  }
  return static_cast<uint32_t>(size);
}

uint32_t MaxIndex(size_t dictionary_size) {
  if (dictionary_size == 0) ThrowDecodeError(kDictionary, "index into an empty dictionary");
  return static_cast<uint32_t>(
      std::min<size_t>(dictionary_size - 1, std::numeric_limits<uint32_t>::max()));
}

// Indices are decoded in chunks of this many into a stack buffer, then gathered.
constexpr size_t kIndexChunk = 1024;

}  // namespace

template <typename T>
void DictionaryBuilder<T>::Grow() {
  std::vector<Slot> old = std::move(slots_);
  const size_t size = std::max<size_t>(64, 2 * old.size());
  slots_.assign(size, Slot{});
  shift_ = 64 - std::countr_zero(size);
  const size_t mask = size - 1;
  for (const Slot& slot : old) {
    if (slot.entry_plus_one == 0) continue;
    size_t i = static_cast<size_t>((slot.bits * 0x9e3779b97f4a7c15ULL) >> shift_);
    while (slots_[i].entry_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

template <typename T>
inline uint32_t DictionaryBuilder<T>::Find(Bits bits) {
  if (2 * (entries_.size() + 1) > slots_.size()) Grow();
  const size_t mask = slots_.size() - 1;
  // The high bits of the product: every bit of the key reaches them.
  for (size_t i = static_cast<size_t>((bits * 0x9e3779b97f4a7c15ULL) >> shift_);;
       i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.entry_plus_one == 0) {
      const uint32_t next = NextEntry(entries_.size());
      slot = {bits, next + 1};
      entries_.push_back(std::bit_cast<T>(bits));
      return next;
    }
    if (slot.bits == bits) return slot.entry_plus_one - 1;
  }
}

template <typename T>
uint32_t DictionaryBuilder<T>::Put(T value) {
  return Find(std::bit_cast<Bits>(value));
}

template <typename T>
void DictionaryBuilder<T>::Put(std::span<const T> values, std::vector<uint32_t>& indices) {
  const size_t at = indices.size();
  indices.resize(at + values.size());
  uint32_t* out = indices.data() + at;
  // A run of one value (a flat stretch of a signal) costs one lookup.
  Bits last = 0;
  uint32_t last_index = 0;
  bool have_last = false;
  for (const T v : values) {
    const Bits bits = std::bit_cast<Bits>(v);
    if (!have_last || bits != last) {
      last = bits;
      last_index = Find(bits);
      have_last = true;
    }
    *out++ = last_index;
  }
}

template <typename T>
void DictionaryBuilder<T>::AppendDictionaryPage(std::vector<std::byte>& out) const {
  AppendPlain(std::span<const T>(entries_), out);
}

template <typename T>
void DictionaryBuilder<T>::Clear() {
  entries_.clear();
  slots_.clear();
  shift_ = 64;
}

template class DictionaryBuilder<int32_t>;
template class DictionaryBuilder<int64_t>;
template class DictionaryBuilder<float>;
template class DictionaryBuilder<double>;

uint32_t ByteArrayDictionaryBuilder::Put(std::span<const std::byte> value) {
  const uint32_t next = NextEntry(entries_.size());
  const uint32_t entry =
      index_.FindOrInsert(encoding_internal::HashBytes(value), next, [&](uint32_t e) {
        const auto existing = entries_[e];
        return existing.size() == value.size() &&
               (value.empty() || std::memcmp(existing.data(), value.data(), value.size()) == 0);
      });
  if (entry == next) entries_.Append(value);
  return entry;
}

void ByteArrayDictionaryBuilder::Put(ByteArraysView values, std::vector<uint32_t>& indices) {
  indices.reserve(indices.size() + values.size());
  for (size_t i = 0; i < values.size(); ++i) indices.push_back(Put(values[i]));
}

void ByteArrayDictionaryBuilder::AppendDictionaryPage(std::vector<std::byte>& out) const {
  AppendPlainByteArrays(entries_.view(), out);
}

void ByteArrayDictionaryBuilder::Clear() {
  entries_.Clear();
  index_.Clear();
}

FixedLenDictionaryBuilder::FixedLenDictionaryBuilder(size_t width) : width_(width) {
  if (width == 0) throw std::invalid_argument("dictionary: fixed-length width 0");
}

void FixedLenDictionaryBuilder::Put(std::span<const std::byte> values,
                                    std::vector<uint32_t>& indices) {
  if (values.size() % width_ != 0) {
    throw std::invalid_argument("dictionary: fixed-length values do not fill whole values");
  }
  const size_t n = values.size() / width_;
  indices.reserve(indices.size() + n);
  for (size_t i = 0; i < n; ++i) {
    const auto value = values.subspan(i * width_, width_);
    const uint32_t next = NextEntry(size());
    const uint32_t entry =
        index_.FindOrInsert(encoding_internal::HashBytes(value), next, [&](uint32_t e) {
          return std::memcmp(entries_.data() + e * width_, value.data(), width_) == 0;
        });
    if (entry == next) AppendBytes(entries_, value);
    indices.push_back(entry);
  }
}

void FixedLenDictionaryBuilder::AppendDictionaryPage(std::vector<std::byte>& out) const {
  AppendBytes(out, entries_);
}

void FixedLenDictionaryBuilder::Clear() {
  entries_.clear();
  index_.Clear();
}

template <typename T>
void DecodeDictionaryPage(std::span<const std::byte> page, size_t num_values, std::vector<T>& out) {
  if (num_values > page.size() / sizeof(T)) {
    ThrowDecodeError(kDictionary, "page of " + std::to_string(page.size()) + " bytes cannot hold " +
                                      std::to_string(num_values) + " values of " +
                                      std::to_string(sizeof(T)) + " bytes");
  }
  out.resize(num_values);
  PlainDecoder<T>(page).Decode(out);
}

template void DecodeDictionaryPage(std::span<const std::byte>, size_t, std::vector<int32_t>&);
template void DecodeDictionaryPage(std::span<const std::byte>, size_t, std::vector<int64_t>&);
template void DecodeDictionaryPage(std::span<const std::byte>, size_t, std::vector<float>&);
template void DecodeDictionaryPage(std::span<const std::byte>, size_t, std::vector<double>&);

void DecodeDictionaryPage(std::span<const std::byte> page, size_t num_values, ByteArrays& out) {
  if (num_values > page.size() / 4) {
    ThrowDecodeError(kDictionary, "page of " + std::to_string(page.size()) + " bytes cannot hold " +
                                      std::to_string(num_values) + " byte arrays");
  }
  out.Clear();
  out.offsets.reserve(num_values + 1);
  PlainByteArrayDecoder(page).Decode(num_values, out);
}

void DecodeDictionaryPage(std::span<const std::byte> page, size_t num_values, size_t width,
                          std::vector<std::byte>& out) {
  if (width == 0) ThrowDecodeError(kDictionary, "fixed-length width 0");
  if (num_values > page.size() / width) {
    ThrowDecodeError(kDictionary, "page of " + std::to_string(page.size()) + " bytes cannot hold " +
                                      std::to_string(num_values) + " values of " +
                                      std::to_string(width) + " bytes");
  }
  out.resize(num_values * width);
  PlainFixedLenDecoder(page, width).Decode(out);
}

template <typename T>
DictionaryDecoder<T>::DictionaryDecoder(std::span<const T> dictionary,
                                        std::span<const std::byte> data)
    : dictionary_(dictionary), indices_(RleBitPackedDecoder::ForDictionaryIndices(data)) {}

namespace {

// After the indices, the gather is most of a dictionary decode. The baseline x86-64 build cannot
// use the AVX2 / AVX-512 gather instructions, so those versions are compiled for their targets and
// picked per call by the CPU's features. Indices were checked against the dictionary size, which a
// page's int32 size keeps below 2^31, so they fit the instructions' signed 32-bit lanes.
void Gather32Scalar(const uint32_t* dict, const uint32_t* index, uint32_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = dict[index[i]];
}
void Gather64Scalar(const uint64_t* dict, const uint32_t* index, uint64_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = dict[index[i]];
}
uint32_t Largest32Scalar(const uint32_t* values, size_t n) {
  uint32_t largest = 0;
  for (size_t i = 0; i < n; ++i) largest = std::max(largest, values[i]);
  return largest;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define TIMEF_X86_GATHER 1
__attribute__((target("avx512f"))) void Gather32Avx512(const uint32_t* dict, const uint32_t* index,
                                                       uint32_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i at = _mm512_loadu_si512(index + i);
    _mm512_storeu_si512(dst + i,
                        _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xFFFF, at, dict, 4));
  }
  Gather32Scalar(dict, index + i, dst + i, n - i);
}

__attribute__((target("avx2"))) void Gather32Avx2(const uint32_t* dict, const uint32_t* index,
                                                  uint32_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(index + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_i32gather_epi32(reinterpret_cast<const int*>(dict), at, 4));
  }
  Gather32Scalar(dict, index + i, dst + i, n - i);
}

__attribute__((target("avx512f"))) uint32_t Largest32Avx512(const uint32_t* values, size_t n) {
  __m512i largest = _mm512_setzero_si512();
  size_t i = 0;
  // The zero-masked forms: GCC 12's _mm512_max_epu32 and _mm512_reduce_max_epu32 start from an
  // undefined vector and warn (-Wmaybe-uninitialized) in its header.
  for (; i + 16 <= n; i += 16) {
    largest = _mm512_maskz_max_epu32(0xFFFF, largest, _mm512_loadu_si512(values + i));
  }
  alignas(64) uint32_t lanes[16];
  _mm512_store_si512(lanes, largest);
  return std::max(Largest32Scalar(lanes, 16), Largest32Scalar(values + i, n - i));
}

__attribute__((target("avx2"))) uint32_t Largest32Avx2(const uint32_t* values, size_t n) {
  __m256i largest = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    largest =
        _mm256_max_epu32(largest, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i)));
  }
  alignas(32) uint32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), largest);
  return std::max(Largest32Scalar(lanes, 8), Largest32Scalar(values + i, n - i));
}

__attribute__((target("avx512f"))) void Gather64Avx512(const uint64_t* dict, const uint32_t* index,
                                                       uint64_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(index + i));
    _mm512_storeu_si512(dst + i,
                        _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), 0xFF, at, dict, 8));
  }
  Gather64Scalar(dict, index + i, dst + i, n - i);
}
#endif

}  // namespace

namespace encoding_internal {

bool GatherPathAvailable(GatherPath path) {
  switch (path) {
    case GatherPath::kBest:
    case GatherPath::kScalar:
      return true;
#ifdef TIMEF_X86_GATHER
    case GatherPath::kAvx2:
      return __builtin_cpu_supports("avx2");
    case GatherPath::kAvx512:
      return __builtin_cpu_supports("avx512f");
#else
    case GatherPath::kAvx2:
    case GatherPath::kAvx512:
      return false;
#endif
  }
  return false;
}

#ifdef TIMEF_X86_GATHER
namespace {

// kBest as the widest path this CPU has (AVX-512, then AVX2, then scalar); others as given.
GatherPath Resolve(GatherPath path) {
  if (path != GatherPath::kBest) return path;
  return GatherPathAvailable(GatherPath::kAvx512) ? GatherPath::kAvx512
         : GatherPathAvailable(GatherPath::kAvx2) ? GatherPath::kAvx2
                                                  : GatherPath::kScalar;
}

}  // namespace
#endif

void Gather32(const uint32_t* dict, const uint32_t* index, uint32_t* dst, size_t n,
              GatherPath path) {
#ifdef TIMEF_X86_GATHER
  path = Resolve(path);
  if (path == GatherPath::kAvx512) return Gather32Avx512(dict, index, dst, n);
  if (path == GatherPath::kAvx2) return Gather32Avx2(dict, index, dst, n);
#endif
  Gather32Scalar(dict, index, dst, n);
}

uint32_t Largest32(const uint32_t* values, size_t n, GatherPath path) {
#ifdef TIMEF_X86_GATHER
  path = Resolve(path);
  if (path == GatherPath::kAvx512) return Largest32Avx512(values, n);
  if (path == GatherPath::kAvx2) return Largest32Avx2(values, n);
#endif
  return Largest32Scalar(values, n);
}

void Gather64(const uint64_t* dict, const uint32_t* index, uint64_t* dst, size_t n,
              GatherPath path) {
#ifdef TIMEF_X86_GATHER
  if (Resolve(path) == GatherPath::kAvx512) return Gather64Avx512(dict, index, dst, n);
#endif
  Gather64Scalar(dict, index, dst, n);
}

}  // namespace encoding_internal

namespace {

template <typename T>
void Gather(const T* dict, const uint32_t* index, T* dst, size_t n) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  // The values are only moved, never interpreted: copy their bit patterns as unsigned integers
  // (a NaN payload stays as it is).
  if constexpr (sizeof(T) == 4) {
    encoding_internal::Gather32(reinterpret_cast<const uint32_t*>(dict), index,
                                reinterpret_cast<uint32_t*>(dst), n);
  } else {
    encoding_internal::Gather64(reinterpret_cast<const uint64_t*>(dict), index,
                                reinterpret_cast<uint64_t*>(dst), n);
  }
}

}  // namespace

template <typename T>
void DictionaryDecoder<T>::Decode(std::span<T> out) {
  if (out.empty()) return;
  const uint32_t max_index = MaxIndex(dictionary_.size());
  const T* dict = dictionary_.data();
  uint32_t buffer[kIndexChunk];
  for (size_t done = 0; done < out.size();) {
    const size_t n = std::min(kIndexChunk, out.size() - done);
    indices_.Decode(std::span<uint32_t>(buffer, n), max_index);
    Gather(dict, buffer, out.data() + done, n);
    done += n;
  }
}

template class DictionaryDecoder<int32_t>;
template class DictionaryDecoder<int64_t>;
template class DictionaryDecoder<float>;
template class DictionaryDecoder<double>;

ByteArrayDictionaryDecoder::ByteArrayDictionaryDecoder(ByteArraysView dictionary,
                                                       std::span<const std::byte> data)
    : dictionary_(dictionary), indices_(RleBitPackedDecoder::ForDictionaryIndices(data)) {}

void ByteArrayDictionaryDecoder::Decode(size_t count, ByteArrays& out) {
  if (count == 0) return;
  const uint32_t max_index = MaxIndex(dictionary_.size());
  if (out.offsets.empty()) out.offsets.push_back(static_cast<int64_t>(out.bytes.size()));
  const int64_t* offsets = dictionary_.offsets.data();
  uint32_t buffer[kIndexChunk];
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kIndexChunk, count - done);
    indices_.Decode(std::span<uint32_t>(buffer, n), max_index);
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
      total += static_cast<size_t>(offsets[buffer[i] + 1] - offsets[buffer[i]]);
    }
    const size_t first_offset = out.offsets.size();
    size_t at = out.bytes.size();
    out.offsets.resize(first_offset + n);
    out.bytes.resize(at + total);
    for (size_t i = 0; i < n; ++i) {
      const int64_t begin = offsets[buffer[i]];
      const size_t length = static_cast<size_t>(offsets[buffer[i] + 1] - begin);
      if (length > 0) std::memcpy(out.bytes.data() + at, dictionary_.bytes + begin, length);
      at += length;
      out.offsets[first_offset + i] = static_cast<int64_t>(at);
    }
    done += n;
  }
}

FixedLenDictionaryDecoder::FixedLenDictionaryDecoder(std::span<const std::byte> dictionary,
                                                     size_t width, std::span<const std::byte> data)
    : FixedLenDecoder(width),
      dictionary_(dictionary),
      indices_(RleBitPackedDecoder::ForDictionaryIndices(data)) {
  if (width == 0) ThrowDecodeError(kDictionary, "fixed-length width 0");
  if (dictionary.size() % width != 0) {
    throw std::invalid_argument("dictionary: size is not a multiple of the value width");
  }
}

void FixedLenDictionaryDecoder::Decode(std::span<std::byte> out) {
  if (out.size() % width() != 0) {
    throw std::invalid_argument("dictionary: output size is not a multiple of the value width");
  }
  const size_t count = out.size() / width();
  if (count == 0) return;
  const size_t w = width();
  const uint32_t max_index = MaxIndex(dictionary_.size() / w);
  uint32_t buffer[kIndexChunk];
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kIndexChunk, count - done);
    indices_.Decode(std::span<uint32_t>(buffer, n), max_index);
    std::byte* dst = out.data() + done * w;
    for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * w, dictionary_.data() + buffer[i] * w, w);
    done += n;
  }
}

}  // namespace timef::parquet
