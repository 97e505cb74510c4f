#include "parquet/encoding_rle.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "parquet/encoding_bitpack.h"
#include "parquet/encoding_bytes.h"
#include "parquet/encoding_dictionary.h"

namespace timef::parquet {
namespace {

constexpr std::string_view kHybrid = "RLE/bit-packed hybrid";
constexpr uint64_t kMaxRunLength = (uint64_t{1} << 31) - 1;
// A pending bit-packed run is written once it holds this many values, which bounds the memory
// the encoder keeps and the size of a run header.
constexpr size_t kMaxLiteralValues = 4096;

uint32_t MaxValueOfWidth(int w) { return w >= 32 ? ~uint32_t{0} : (uint32_t{1} << w) - 1; }

void CheckEncoderWidth(int bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    throw std::invalid_argument("RLE/bit-packed encoder: bit width " + std::to_string(bit_width) +
                                " is not in 0..32");
  }
}

[[noreturn]] void ThrowValueTooWide(uint32_t value, int bit_width) {
  throw std::invalid_argument("RLE/bit-packed encoder: value " + std::to_string(value) +
                              " does not fit in " + std::to_string(bit_width) + " bits");
}

// An RLE run of `count` copies of `value` (split at the longest run a header holds): header, then
// the value in ceil(bit_width / 8) little-endian bytes.
void AppendRleRuns(std::vector<std::byte>& out, uint32_t value, uint64_t count, int bit_width) {
  const size_t value_bytes = (static_cast<size_t>(bit_width) + 7) / 8;
  while (count > 0) {
    const uint64_t run = std::min(count, kMaxRunLength);
    AppendUleb128(out, run << 1);
    for (size_t i = 0; i < value_bytes; ++i) {
      out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xFF));
    }
    count -= run;
  }
}

[[noreturn]] void ThrowValueTooLarge(uint64_t value, uint32_t max_value) {
  ThrowDecodeError(kHybrid, "value " + std::to_string(value) + " exceeds the maximum " +
                                std::to_string(max_value));
}

}  // namespace

LengthPrefixed ReadLengthPrefix(std::span<const std::byte> data) {
  if (data.size() < 4) {
    ThrowDecodeError(kHybrid,
                     "length prefix needs 4 bytes, " + std::to_string(data.size()) + " present");
  }
  const uint32_t length = LoadLE<uint32_t>(data.data());
  if (length > data.size() - 4) {
    ThrowDecodeError(kHybrid, "length prefix " + std::to_string(length) + " exceeds the " +
                                  std::to_string(data.size() - 4) + " bytes that follow");
  }
  return {data.subspan(4, length), size_t{4} + length};
}

RleBitPackedDecoder::RleBitPackedDecoder(std::span<const std::byte> data, int bit_width)
    : data_(data), bit_width_(bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    ThrowDecodeError(kHybrid, "bit width " + std::to_string(bit_width) + " is not in 0..32");
  }
}

RleBitPackedDecoder RleBitPackedDecoder::ForDictionaryIndices(std::span<const std::byte> data) {
  if (data.empty()) ThrowDecodeError("dictionary indices", "missing the bit width byte");
  const int bit_width = static_cast<uint8_t>(data[0]);
  if (bit_width > 32) {
    ThrowDecodeError("dictionary indices",
                     "bit width " + std::to_string(bit_width) + " exceeds 32");
  }
  RleBitPackedDecoder decoder(data, bit_width);
  decoder.pos_ = 1;
  return decoder;
}

void RleBitPackedDecoder::NextRun() {
  if (pos_ >= data_.size()) ThrowDecodeError(kHybrid, "data ends before the requested values");
  ByteCursor cursor(data_.subspan(pos_), kHybrid);
  // Runs hold at most 2^31 - 1 values, so a header never needs more than 32 bits.
  const uint64_t header = cursor.ReadUleb128(32);
  if (header & 1) {
    const uint64_t groups = header >> 1;
    uint64_t values = groups * 8;
    uint64_t bytes = groups * static_cast<uint64_t>(bit_width_);
    const size_t available = cursor.remaining();
    if (bytes > available) {
      // A final run cut short: only the whole values present are usable.
      values = available * 8 / static_cast<uint64_t>(bit_width_);
      bytes = available;
    }
    packed_ = cursor.Take(static_cast<size_t>(bytes));
    packed_next_ = 0;
    run_left_ = static_cast<size_t>(values);
    rle_ = false;
  } else {
    const size_t value_bytes = (static_cast<size_t>(bit_width_) + 7) / 8;
    const auto raw = cursor.Take(value_bytes);
    uint32_t value = 0;
    for (size_t i = 0; i < value_bytes; ++i) {
      value |= static_cast<uint32_t>(static_cast<uint8_t>(raw[i])) << (8 * i);
    }
    if (value > MaxValueOfWidth(bit_width_)) {
      ThrowDecodeError(kHybrid, "RLE run value " + std::to_string(value) + " does not fit in " +
                                    std::to_string(bit_width_) + " bits");
    }
    rle_ = true;
    rle_value_ = value;
    run_left_ = static_cast<size_t>(header >> 1);
  }
  pos_ += cursor.position();
}

template <typename T>
void RleBitPackedDecoder::DecodeImpl(T* out, size_t n, uint32_t max_value) {
  using U = std::make_unsigned_t<T>;
  const bool check = max_value < MaxValueOfWidth(bit_width_);
  while (n > 0) {
    if (run_left_ == 0) {
      NextRun();
      continue;
    }
    const size_t take = std::min(n, run_left_);
    if (rle_) {
      if (rle_value_ > max_value) ThrowValueTooLarge(rle_value_, max_value);
      std::fill_n(out, take, static_cast<T>(rle_value_));
    } else {
      UnpackBits(packed_, bit_width_, packed_next_, std::span<T>(out, take));
      if (check) {
        U largest = 0;
        if constexpr (std::is_same_v<U, uint32_t>) {
          largest = encoding_internal::Largest32(reinterpret_cast<const uint32_t*>(out), take);
        } else {
          for (size_t i = 0; i < take; ++i) largest = std::max(largest, static_cast<U>(out[i]));
        }
        if (largest > max_value) ThrowValueTooLarge(largest, max_value);
      }
      packed_next_ += take;
    }
    out += take;
    n -= take;
    run_left_ -= take;
  }
}

void RleBitPackedDecoder::Decode(std::span<uint32_t> out) {
  DecodeImpl(out.data(), out.size(), ~uint32_t{0});
}

void RleBitPackedDecoder::Decode(std::span<uint32_t> out, uint32_t max_value) {
  DecodeImpl(out.data(), out.size(), max_value);
}

void RleBitPackedDecoder::Decode(std::span<int16_t> out, int16_t max_value) {
  if (max_value < 0) throw std::invalid_argument("negative maximum level");
  if (bit_width_ > 16) {
    ThrowDecodeError(kHybrid,
                     "bit width " + std::to_string(bit_width_) + " is too wide for levels");
  }
  DecodeImpl(out.data(), out.size(), static_cast<uint32_t>(max_value));
}

void RleBitPackedDecoder::Decode(std::span<uint8_t> out, uint8_t max_value) {
  if (bit_width_ > 8) {
    ThrowDecodeError(kHybrid, "bit width " + std::to_string(bit_width_) + " is too wide here");
  }
  DecodeImpl(out.data(), out.size(), max_value);
}

void RleBitPackedDecoder::Skip(size_t count) {
  while (count > 0) {
    if (run_left_ == 0) {
      NextRun();
      continue;
    }
    const size_t take = std::min(count, run_left_);
    if (!rle_) packed_next_ += take;
    count -= take;
    run_left_ -= take;
  }
}

RleBitPackedEncoder::RleBitPackedEncoder(int bit_width) : bit_width_(bit_width) {
  CheckEncoderWidth(bit_width);
  max_value_ = MaxValueOfWidth(bit_width);
}

void RleBitPackedEncoder::PutNewValue(uint32_t value) {
  if (value > max_value_) ThrowValueTooWide(value, bit_width_);
  EndRun();
  run_value_ = value;
  run_length_ = 1;
}

void RleBitPackedEncoder::PutRepeated(uint32_t value, size_t count) {
  if (count == 0) return;
  if (run_length_ > 0 && value == run_value_) {
    run_length_ += count;
  } else {
    PutNewValue(value);
    run_length_ = count;
  }
}

void RleBitPackedEncoder::Put(std::span<const uint32_t> values) {
  for (uint32_t v : values) Put(v);
}

void RleBitPackedEncoder::Put(std::span<const int16_t> values) {
  for (int16_t v : values) {
    if (v < 0) throw std::invalid_argument("RLE/bit-packed encoder: negative value");
    Put(static_cast<uint32_t>(v));
  }
}

void RleBitPackedEncoder::Put(std::span<const uint8_t> values) {
  for (uint8_t v : values) Put(static_cast<uint32_t>(v));
}

void RleBitPackedEncoder::EndRun() {
  if (run_length_ == 0) return;
  uint64_t n = run_length_;
  run_length_ = 0;
  // Bit-packed runs hold whole groups of 8, so the run first completes a partial group.
  const size_t partial = literals_.size() % 8;
  if (partial != 0) {
    const size_t fill = static_cast<size_t>(std::min<uint64_t>(n, 8 - partial));
    literals_.insert(literals_.end(), fill, run_value_);
    n -= fill;
  }
  if (n >= 8) {
    FlushLiterals(false);
    WriteRle(run_value_, n);
  } else {
    literals_.insert(literals_.end(), static_cast<size_t>(n), run_value_);
    if (literals_.size() >= kMaxLiteralValues) FlushLiterals(false);
  }
}

void RleBitPackedEncoder::FlushLiterals(bool final) {
  const size_t count = final ? literals_.size() : literals_.size() / 8 * 8;
  if (count == 0) return;
  const size_t groups = (count + 7) / 8;
  AppendUleb128(runs_, (uint64_t{groups} << 1) | 1);
  const size_t at = runs_.size();
  PackBits(std::span<const uint32_t>(literals_.data(), count), bit_width_, runs_);
  // Pad the last group (only ever the stream's final group) to whole groups of 8 values.
  runs_.resize(at + groups * static_cast<size_t>(bit_width_), std::byte{0});
  literals_.erase(literals_.begin(), literals_.begin() + static_cast<std::ptrdiff_t>(count));
}

void RleBitPackedEncoder::WriteRle(uint32_t value, uint64_t count) {
  AppendRleRuns(runs_, value, count, bit_width_);
}

size_t RleBitPackedEncoder::EstimatedSize() const {
  const uint64_t trailing_literals = std::min<uint64_t>(run_length_, 15);
  const uint64_t literal_values = literals_.size() + trailing_literals;
  size_t size = runs_.size() + 5 + static_cast<size_t>((literal_values + 7) / 8) * bit_width_;
  if (run_length_ >= 8) size += 5 + (static_cast<size_t>(bit_width_) + 7) / 8;
  return size;
}

void RleBitPackedEncoder::Finish(std::vector<std::byte>& out) {
  EndRun();
  FlushLiterals(true);
  AppendBytes(out, runs_);
  runs_.clear();
}

void RleBitPackedEncoder::FinishWithLengthPrefix(std::vector<std::byte>& out) {
  const size_t at = out.size();
  out.resize(at + 4);
  Finish(out);
  const uint32_t length = static_cast<uint32_t>(out.size() - at - 4);
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<std::byte>((length >> (8 * i)) & 0xFF);
}

void AppendRleBitPacked(std::span<const uint32_t> values, int bit_width,
                        std::vector<std::byte>& out) {
  CheckEncoderWidth(bit_width);
  const uint32_t max_value = MaxValueOfWidth(bit_width);
  const size_t n = values.size();
  // The streaming encoder's decisions, run by run: its pending literals are always the values
  // [literal_begin, i) of the input, so they are packed from `values` where they are.
  size_t literal_begin = 0;
  auto flush = [&](size_t end, bool final) {
    const size_t count = final ? end - literal_begin : (end - literal_begin) / 8 * 8;
    if (count == 0) return;
    const size_t groups = (count + 7) / 8;
    AppendUleb128(out, (uint64_t{groups} << 1) | 1);
    const size_t at = out.size();
    PackBits(values.subspan(literal_begin, count), bit_width, out);
    out.resize(at + groups * static_cast<size_t>(bit_width), std::byte{0});
    literal_begin += count;
  };
  size_t i = 0;
  while (i < n) {
    const uint32_t value = values[i];
    if (value > max_value) ThrowValueTooWide(value, bit_width);
    size_t j = i + 1;
    while (j < n && values[j] == value) ++j;
    // A run tops up a partly filled group of 8 first; what is left becomes an RLE run when it
    // is 8 or longer, else it joins the literals.
    const size_t partial = (i - literal_begin) % 8;
    const size_t fill = partial != 0 ? std::min(j - i, 8 - partial) : 0;
    const uint64_t rest = j - i - fill;
    if (rest >= 8) {
      flush(i + fill, false);
      AppendRleRuns(out, value, rest, bit_width);
      literal_begin = j;
    } else if (j - literal_begin >= kMaxLiteralValues) {
      flush(j, false);
    }
    i = j;
  }
  flush(n, true);
}

void AppendDictionaryIndices(std::span<const uint32_t> indices, uint32_t dictionary_size,
                             std::vector<std::byte>& out) {
  const int bit_width = BitWidth(dictionary_size > 0 ? dictionary_size - 1 : 0);
  out.push_back(static_cast<std::byte>(bit_width));
  AppendRleBitPacked(indices, bit_width, out);
}

void AppendRleBooleans(std::span<const uint8_t> values, std::vector<std::byte>& out) {
  RleBitPackedEncoder encoder(1);
  encoder.Put(values);
  encoder.FinishWithLengthPrefix(out);
}

RleBooleanDecoder::RleBooleanDecoder(std::span<const std::byte> data)
    : runs_(ReadLengthPrefix(data).body, 1) {}

size_t DecodeLegacyBitPacked(std::span<const std::byte> data, int bit_width, std::span<int16_t> out,
                             int16_t max_level) {
  constexpr std::string_view kContext = "BIT_PACKED levels";
  if (bit_width < 0 || bit_width > 16) {
    ThrowDecodeError(kContext, "bit width " + std::to_string(bit_width) + " is not in 0..16");
  }
  if (max_level < 0) throw std::invalid_argument("negative maximum level");
  const size_t n = out.size();
  if (bit_width > 0 && n > data.size() * 8 / static_cast<size_t>(bit_width)) {
    ThrowDecodeError(kContext, std::to_string(n) + " values need more than the " +
                                   std::to_string(data.size()) + " bytes present");
  }
  const size_t bytes = (n * static_cast<size_t>(bit_width) + 7) / 8;
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  const uint32_t mask = (uint32_t{1} << bit_width) - 1;
  for (size_t i = 0; i < n; ++i) {
    // Most significant bit first: a 24-bit big-endian window covers any value of <= 16 bits.
    const size_t bit = i * static_cast<size_t>(bit_width);
    const size_t byte = bit / 8;
    uint32_t window = 0;
    for (size_t k = 0; k < 3; ++k) {
      window = (window << 8) | (byte + k < bytes ? p[byte + k] : 0u);
    }
    const uint32_t value = (window >> (24 - (bit % 8) - bit_width)) & mask;
    if (value > static_cast<uint32_t>(max_level)) {
      ThrowDecodeError(kContext, "level " + std::to_string(value) + " exceeds the maximum " +
                                     std::to_string(max_level));
    }
    out[i] = static_cast<int16_t>(value);
  }
  return bytes;
}

void AppendLegacyBitPacked(std::span<const int16_t> values, int bit_width,
                           std::vector<std::byte>& out) {
  if (bit_width < 0 || bit_width > 16) {
    throw std::invalid_argument("BIT_PACKED: bit width is not in 0..16");
  }
  uint32_t acc = 0;
  int bits = 0;
  const uint32_t mask = (uint32_t{1} << bit_width) - 1;
  for (int16_t v : values) {
    acc = (acc << bit_width) | (static_cast<uint32_t>(static_cast<uint16_t>(v)) & mask);
    bits += bit_width;
    while (bits >= 8) {
      out.push_back(static_cast<std::byte>((acc >> (bits - 8)) & 0xFF));
      bits -= 8;
    }
  }
  if (bits > 0) out.push_back(static_cast<std::byte>((acc << (8 - bits)) & 0xFF));
}

}  // namespace timef::parquet
