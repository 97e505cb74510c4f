// Dictionary encoding. Writer side: builders that assign each distinct value an index in first-seen
// order, report the PLAIN size of the dictionary page (so the writer can fall back when it grows
// past a limit) and write that page. Floats are keyed by bit pattern: 0.0 and -0.0, and NaNs with
// different payloads, are distinct entries. Data pages carry the indices (see
// AppendDictionaryIndices in encoding_rle.h). Reader side: dictionary page decoding and decoders
// that map indices (PLAIN_DICTIONARY or RLE_DICTIONARY data) through the dictionary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "parquet/encoding_decoder.h"
#include "parquet/encoding_rle.h"

namespace timef::parquet {

namespace encoding_internal {

// Open-addressing table from (hash, equality predicate) to entry numbers; entries live with the
// caller.
class HashIndex {
 public:
  // Returns the entry equal to the probe, or records `new_entry` for it and returns new_entry.
  template <typename Equal>
  uint32_t FindOrInsert(uint64_t hash, uint32_t new_entry, const Equal& equal) {
    if (2 * (count_ + 1) > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = static_cast<size_t>(hash) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.entry_plus_one == 0) {
        slot = {hash, new_entry + 1};
        ++count_;
        return new_entry;
      }
      if (slot.hash == hash && equal(slot.entry_plus_one - 1)) return slot.entry_plus_one - 1;
    }
  }
  void Clear();

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t entry_plus_one = 0;  // 0: empty
  };
  void Grow();

  std::vector<Slot> slots_;
  size_t count_ = 0;
};

uint64_t HashWord(uint64_t word);
uint64_t HashBytes(std::span<const std::byte> bytes);

// dst[i] = dict[index[i]], i < n, with each index < 2^31 and within dict: the gather of a
// dictionary decode. kBest picks the widest instructions this CPU has; the others are exposed so
// that a test compares each path the CPU can run against the scalar one.
enum class GatherPath { kBest, kScalar, kAvx2, kAvx512 };
// False when this build or CPU cannot run `path`.
bool GatherPathAvailable(GatherPath path);
void Gather32(const uint32_t* dict, const uint32_t* index, uint32_t* dst, size_t n,
              GatherPath path = GatherPath::kBest);
void Gather64(const uint64_t* dict, const uint32_t* index, uint64_t* dst, size_t n,
              GatherPath path = GatherPath::kBest);
// The largest of values[0 .. n) (0 when n is 0), unsigned: the bounds check of decoded dictionary
// indices (RleBitPackedDecoder), on the same paths as the gather (the baseline build has no
// unsigned 32-bit max instruction, so its vectorized loop costs more than the gather).
uint32_t Largest32(const uint32_t* values, size_t n, GatherPath path = GatherPath::kBest);

}  // namespace encoding_internal

// T is int32_t, int64_t, float or double. The table keeps each value's bit pattern beside its
// entry number (open addressing, linear probing, at most half full), so a lookup touches one slot
// and never the entries; the slot comes from one multiplication (Fibonacci hashing). A value puts
// is what the writer spends most of a dictionary-encoded column's time on.
template <typename T>
class DictionaryBuilder {
 public:
  // Appends the index of each value to `indices`, adding unseen values to the dictionary.
  void Put(std::span<const T> values, std::vector<uint32_t>& indices);
  uint32_t Put(T value);

  size_t size() const { return entries_.size(); }
  std::span<const T> entries() const { return entries_; }
  // Size of the PLAIN dictionary page body.
  size_t dictionary_bytes() const { return entries_.size() * sizeof(T); }
  void AppendDictionaryPage(std::vector<std::byte>& out) const;
  void Clear();

 private:
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  struct Slot {
    Bits bits = 0;
    uint32_t entry_plus_one = 0;  // 0: empty
  };
  uint32_t Find(Bits bits);
  void Grow();

  std::vector<T> entries_;
  std::vector<Slot> slots_;
  int shift_ = 64;  // 64 - log2(slots_.size())
};

extern template class DictionaryBuilder<int32_t>;
extern template class DictionaryBuilder<int64_t>;
extern template class DictionaryBuilder<float>;
extern template class DictionaryBuilder<double>;

class ByteArrayDictionaryBuilder {
 public:
  void Put(ByteArraysView values, std::vector<uint32_t>& indices);
  uint32_t Put(std::span<const std::byte> value);

  size_t size() const { return entries_.size(); }
  ByteArraysView entries() const { return entries_.view(); }
  size_t dictionary_bytes() const { return 4 * entries_.size() + entries_.bytes.size(); }
  void AppendDictionaryPage(std::vector<std::byte>& out) const;
  void Clear();

 private:
  ByteArrays entries_;
  encoding_internal::HashIndex index_;
};

class FixedLenDictionaryBuilder {
 public:
  explicit FixedLenDictionaryBuilder(size_t width);  // width > 0
  // REQUIRES: values.size() is a multiple of width.
  void Put(std::span<const std::byte> values, std::vector<uint32_t>& indices);

  size_t width() const { return width_; }
  size_t size() const { return entries_.size() / width_; }
  std::span<const std::byte> entries() const { return entries_; }
  size_t dictionary_bytes() const { return entries_.size(); }
  void AppendDictionaryPage(std::vector<std::byte>& out) const;
  void Clear();

 private:
  size_t width_;
  std::vector<std::byte> entries_;
  encoding_internal::HashIndex index_;
};

// Dictionary pages (PLAIN). The count comes from the page header; it is checked against the page
// size before anything is allocated. `out` is replaced.
template <typename T>
void DecodeDictionaryPage(std::span<const std::byte> page, size_t num_values, std::vector<T>& out);
extern template void DecodeDictionaryPage(std::span<const std::byte>, size_t,
                                          std::vector<int32_t>&);
extern template void DecodeDictionaryPage(std::span<const std::byte>, size_t,
                                          std::vector<int64_t>&);
extern template void DecodeDictionaryPage(std::span<const std::byte>, size_t, std::vector<float>&);
extern template void DecodeDictionaryPage(std::span<const std::byte>, size_t, std::vector<double>&);
void DecodeDictionaryPage(std::span<const std::byte> page, size_t num_values, ByteArrays& out);
void DecodeDictionaryPage(std::span<const std::byte> page, size_t num_values, size_t width,
                          std::vector<std::byte>& out);

// Data pages of PLAIN_DICTIONARY or RLE_DICTIONARY: `data` is the bit-width byte and the runs. The
// dictionary must outlive the decoder. An index outside the dictionary throws DecodeError.
template <typename T>
class DictionaryDecoder final : public ValueDecoder<T> {
 public:
  DictionaryDecoder(std::span<const T> dictionary, std::span<const std::byte> data);
  void Decode(std::span<T> out) override;
  void Skip(size_t count) override { indices_.Skip(count); }
  size_t bytes_consumed() const override { return indices_.bytes_consumed(); }

 private:
  std::span<const T> dictionary_;
  RleBitPackedDecoder indices_;
};

extern template class DictionaryDecoder<int32_t>;
extern template class DictionaryDecoder<int64_t>;
extern template class DictionaryDecoder<float>;
extern template class DictionaryDecoder<double>;

class ByteArrayDictionaryDecoder final : public ByteArrayDecoder {
 public:
  ByteArrayDictionaryDecoder(ByteArraysView dictionary, std::span<const std::byte> data);
  void Decode(size_t count, ByteArrays& out) override;
  void Skip(size_t count) override { indices_.Skip(count); }
  size_t bytes_consumed() const override { return indices_.bytes_consumed(); }

 private:
  ByteArraysView dictionary_;
  RleBitPackedDecoder indices_;
};

class FixedLenDictionaryDecoder final : public FixedLenDecoder {
 public:
  // dictionary.size() is a multiple of width (> 0).
  FixedLenDictionaryDecoder(std::span<const std::byte> dictionary, size_t width,
                            std::span<const std::byte> data);
  void Decode(std::span<std::byte> out) override;
  void Skip(size_t count) override { indices_.Skip(count); }
  size_t bytes_consumed() const override { return indices_.bytes_consumed(); }

 private:
  std::span<const std::byte> dictionary_;
  RleBitPackedDecoder indices_;
};

}  // namespace timef::parquet
