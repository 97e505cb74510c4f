#include "parquet/encoding_delta.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "parquet/encoding_bitpack.h"
#include "parquet/encoding_bytes.h"

namespace timef::parquet {
namespace {

constexpr std::string_view kDelta = "DELTA_BINARY_PACKED";
constexpr std::string_view kDeltaLength = "DELTA_LENGTH_BYTE_ARRAY";
constexpr std::string_view kDeltaByteArray = "DELTA_BYTE_ARRAY";
constexpr uint64_t kMaxBlockSize = uint64_t{1} << 32;
constexpr size_t kChunk = 1024;

uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

void CheckWidth(uint8_t width) {
  if (width > 64) {
    ThrowDecodeError(kDelta, "miniblock bit width " + std::to_string(width) + " exceeds 64");
  }
}

}  // namespace

DeltaHeader ReadDeltaHeader(std::span<const std::byte> data) {
  ByteCursor cursor(data, kDelta);
  DeltaHeader h;
  h.block_size = cursor.ReadUleb128();
  h.miniblocks = cursor.ReadUleb128();
  h.total_values = cursor.ReadUleb128();
  h.first_value = cursor.ReadZigZag();
  if (h.block_size == 0 || h.block_size % 128 != 0 || h.block_size > kMaxBlockSize) {
    ThrowDecodeError(kDelta, "block size " + std::to_string(h.block_size) +
                                 " is not a positive multiple of 128 up to 2^32");
  }
  if (h.miniblocks == 0 || h.block_size % h.miniblocks != 0 ||
      (h.block_size / h.miniblocks) % 32 != 0) {
    ThrowDecodeError(kDelta, std::to_string(h.miniblocks) + " miniblocks in a block of " +
                                 std::to_string(h.block_size) +
                                 " values do not hold a multiple of 32 values each");
  }
  h.values_per_miniblock = h.block_size / h.miniblocks;
  h.header_bytes = cursor.position();
  return h;
}

size_t DeltaBinaryPackedSize(std::span<const std::byte> data) {
  const DeltaHeader h = ReadDeltaHeader(data);
  size_t pos = h.header_bytes;
  uint64_t deltas = h.total_values > 0 ? h.total_values - 1 : 0;
  // Each block costs at least one byte, so this loop ends within data.size() iterations.
  while (deltas > 0) {
    ByteCursor cursor(data.subspan(pos), kDelta);
    cursor.ReadZigZag();
    const auto widths = cursor.Take(static_cast<size_t>(h.miniblocks));
    pos += cursor.position();
    const uint64_t in_block = std::min(deltas, h.block_size);
    const uint64_t used = CeilDiv(in_block, h.values_per_miniblock);
    for (uint64_t m = 0; m < used; ++m) {
      const uint8_t width = static_cast<uint8_t>(widths[m]);
      CheckWidth(width);
      const uint64_t bytes = h.values_per_miniblock * width / 8;
      const size_t left = data.size() - pos;
      if (bytes > left) {
        // Only the stream's final miniblock may lack its padding.
        const uint64_t values = in_block - m * h.values_per_miniblock;
        if (m + 1 == used && in_block == deltas && CeilDiv(values * width, 8) <= left) {
          return data.size();
        }
        ThrowDecodeError(kDelta, "miniblock of " + std::to_string(bytes) + " bytes at offset " +
                                     std::to_string(pos) + " exceeds the " + std::to_string(left) +
                                     " bytes left");
      }
      pos += static_cast<size_t>(bytes);
    }
    deltas -= in_block;
  }
  return pos;
}

template <typename T>
DeltaBinaryPackedDecoder<T>::DeltaBinaryPackedDecoder(std::span<const std::byte> data)
    : data_(data), header_(ReadDeltaHeader(data)) {
  deltas_left_ = header_.total_values > 0 ? header_.total_values - 1 : 0;
  last_ = static_cast<U>(header_.first_value);
  pos_ = consumed_ = header_.header_bytes;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::CheckAvailable(size_t count) const {
  if (count > values_left()) {
    ThrowDecodeError(kDelta, std::to_string(count) + " values requested, " +
                                 std::to_string(values_left()) + " left");
  }
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::StartBlock() {
  ByteCursor cursor(data_.subspan(pos_), kDelta);
  min_delta_ = static_cast<U>(cursor.ReadZigZag());
  widths_ = cursor.Take(static_cast<size_t>(header_.miniblocks));
  const uint64_t in_block = std::min(deltas_left_, header_.block_size);
  block_miniblocks_ = CeilDiv(in_block, header_.values_per_miniblock);
  // Widths of miniblocks past the last value may hold anything.
  for (uint64_t m = 0; m < block_miniblocks_; ++m) CheckWidth(static_cast<uint8_t>(widths_[m]));
  miniblock_ = 0;
  miniblock_used_ = 0;
  miniblock_offset_ = pos_ + cursor.position();
  consumed_ = miniblock_offset_;
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::UnpackNext(U* dst) {
  if (miniblock_ == block_miniblocks_) StartBlock();
  const int width = static_cast<uint8_t>(widths_[miniblock_]);
  const size_t chunk = static_cast<size_t>(std::min<uint64_t>(32, deltas_left_));
  const size_t full = 4 * static_cast<size_t>(width);  // bytes of 32 values
  const size_t offset = miniblock_offset_ + static_cast<size_t>(miniblock_used_ / 32) * full;
  const size_t left = offset <= data_.size() ? data_.size() - offset : 0;
  const size_t need = chunk == 32 ? full : (chunk * static_cast<size_t>(width) + 7) / 8;
  if (need > left) {
    ThrowDecodeError(kDelta, "miniblock data at offset " + std::to_string(offset) + " needs " +
                                 std::to_string(need) + " bytes, " + std::to_string(left) +
                                 " left");
  }
  const auto packed = data_.subspan(offset, std::min(left, full));
  if constexpr (sizeof(U) == 4) {
    if (width > 32) {
      uint64_t wide[32];
      UnpackBits(packed, width, 0, std::span<uint64_t>(wide, chunk));
      for (size_t k = 0; k < chunk; ++k) dst[k] = static_cast<U>(wide[k]);
    } else {
      UnpackBits(packed, width, 0, std::span<uint32_t>(dst, chunk));
    }
  } else {
    UnpackBits(packed, width, 0, std::span<uint64_t>(dst, chunk));
  }
  const U min_delta = min_delta_;
  for (size_t k = 0; k < chunk; ++k) dst[k] += min_delta;
  deltas_left_ -= chunk;
  miniblock_used_ += 32;
  const size_t miniblock_bytes =
      static_cast<size_t>(header_.values_per_miniblock) * static_cast<size_t>(width) / 8;
  consumed_ = std::min(data_.size(), miniblock_offset_ + miniblock_bytes);
  if (miniblock_used_ >= header_.values_per_miniblock) {
    miniblock_offset_ += miniblock_bytes;
    ++miniblock_;
    miniblock_used_ = 0;
    if (miniblock_ == block_miniblocks_) pos_ = miniblock_offset_;
  }
  return chunk;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::Decode(std::span<T> out) {
  CheckAvailable(out.size());
  const size_t n = out.size();
  size_t i = 0;
  if (n > 0 && emitted_ == 0) {
    out[0] = static_cast<T>(last_);
    i = 1;
    emitted_ = 1;
  }
  U* raw = reinterpret_cast<U*>(out.data());  // T and its unsigned twin may alias
  while (i < n) {
    if (buffer_pos_ == buffered_) {
      if (n - i >= 32) {
        // Whole chunks go straight to the output and are summed in place.
        const size_t chunk = UnpackNext(raw + i);
        U last = last_;
        for (size_t k = 0; k < chunk; ++k) {
          last += raw[i + k];
          raw[i + k] = last;
        }
        last_ = last;
        i += chunk;
        emitted_ += chunk;
        continue;
      }
      buffered_ = UnpackNext(buffer_);
      buffer_pos_ = 0;
    }
    const size_t take = std::min(n - i, buffered_ - buffer_pos_);
    U last = last_;
    const U* src = buffer_ + buffer_pos_;
    T* dst = out.data() + i;
    for (size_t k = 0; k < take; ++k) {
      last += src[k];
      dst[k] = static_cast<T>(last);
    }
    last_ = last;
    buffer_pos_ += take;
    i += take;
    emitted_ += take;
  }
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::Skip(size_t count) {
  CheckAvailable(count);
  T scratch[256];
  while (count > 0) {
    const size_t n = std::min<size_t>(count, 256);
    Decode(std::span<T>(scratch, n));
    count -= n;
  }
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

DeltaLengthByteArrayDecoder::DeltaLengthByteArrayDecoder(std::span<const std::byte> data)
    : data_(data), lengths_(data), bytes_pos_(DeltaBinaryPackedSize(data)) {}

void DeltaLengthByteArrayDecoder::NextValues(std::span<std::span<const std::byte>> out) {
  int32_t lengths[kChunk];
  for (size_t done = 0; done < out.size();) {
    const size_t n = std::min(kChunk, out.size() - done);
    lengths_.Decode(std::span<int32_t>(lengths, n));
    for (size_t k = 0; k < n; ++k) {
      const int32_t length = lengths[k];
      if (length < 0) ThrowDecodeError(kDeltaLength, "negative length " + std::to_string(length));
      if (static_cast<size_t>(length) > data_.size() - bytes_pos_) {
        ThrowDecodeError(kDeltaLength, "length " + std::to_string(length) + " exceeds the " +
                                           std::to_string(data_.size() - bytes_pos_) +
                                           " bytes left");
      }
      out[done + k] = data_.subspan(bytes_pos_, static_cast<size_t>(length));
      bytes_pos_ += static_cast<size_t>(length);
    }
    done += n;
  }
}

void DeltaLengthByteArrayDecoder::Decode(size_t count, ByteArrays& out) {
  if (out.offsets.empty()) out.offsets.push_back(static_cast<int64_t>(out.bytes.size()));
  int32_t lengths[kChunk];
  while (count > 0) {
    const size_t n = std::min(kChunk, count);
    lengths_.Decode(std::span<int32_t>(lengths, n));
    // Validate the chunk first, then copy its bytes (contiguous in the input) at once.
    size_t end = bytes_pos_;
    for (size_t k = 0; k < n; ++k) {
      const int32_t length = lengths[k];
      if (length < 0) ThrowDecodeError(kDeltaLength, "negative length " + std::to_string(length));
      if (static_cast<size_t>(length) > data_.size() - end) {
        ThrowDecodeError(kDeltaLength, "length " + std::to_string(length) + " exceeds the " +
                                           std::to_string(data_.size() - end) + " bytes left");
      }
      end += static_cast<size_t>(length);
    }
    const size_t first_offset = out.offsets.size();
    int64_t offset = static_cast<int64_t>(out.bytes.size());
    out.offsets.resize(first_offset + n);
    for (size_t k = 0; k < n; ++k) {
      offset += lengths[k];
      out.offsets[first_offset + k] = offset;
    }
    out.bytes.insert(out.bytes.end(), data_.begin() + static_cast<std::ptrdiff_t>(bytes_pos_),
                     data_.begin() + static_cast<std::ptrdiff_t>(end));
    bytes_pos_ = end;
    count -= n;
  }
}

void DeltaLengthByteArrayDecoder::Skip(size_t count) {
  std::span<const std::byte> views[256];
  while (count > 0) {
    const size_t n = std::min<size_t>(count, 256);
    NextValues(std::span<std::span<const std::byte>>(views, n));
    count -= n;
  }
}

DeltaByteArrayDecoder::DeltaByteArrayDecoder(std::span<const std::byte> data,
                                             size_t max_output_bytes)
    : prefixes_(data),
      suffix_start_(DeltaBinaryPackedSize(data)),
      suffixes_(data.subspan(suffix_start_)),
      max_output_bytes_(max_output_bytes) {}

size_t DeltaByteArrayDecoder::bytes_consumed() const {
  return suffix_start_ + suffixes_.bytes_consumed();
}

void DeltaByteArrayDecoder::Run(size_t count, ByteArrays* out) {
  constexpr size_t kRun = 256;
  int32_t prefixes[kRun];
  std::span<const std::byte> suffixes[kRun];
  size_t lengths[kRun];
  if (out != nullptr && out->offsets.empty()) {
    out->offsets.push_back(static_cast<int64_t>(out->bytes.size()));
  }
  while (count > 0) {
    const size_t n = std::min(kRun, count);
    prefixes_.Decode(std::span<int32_t>(prefixes, n));
    suffixes_.NextValues(std::span<std::span<const std::byte>>(suffixes, n));
    // Validate the whole chunk before touching `out`, so a bad value leaves it unchanged.
    size_t previous = last_.size();
    size_t total = 0;
    for (size_t k = 0; k < n; ++k) {
      const int32_t prefix = prefixes[k];
      if (prefix < 0 || static_cast<size_t>(prefix) > previous) {
        ThrowDecodeError(kDeltaByteArray, "prefix length " + std::to_string(prefix) +
                                              " is outside the previous value's " +
                                              std::to_string(previous) + " bytes");
      }
      lengths[k] = static_cast<size_t>(prefix) + suffixes[k].size();
      if (lengths[k] > max_output_bytes_ - output_bytes_ - total) {
        ThrowDecodeError(kDeltaByteArray, "decoded values exceed the limit of " +
                                              std::to_string(max_output_bytes_) + " bytes");
      }
      total += lengths[k];
      previous = lengths[k];
    }
    output_bytes_ += total;
    if (out != nullptr) {
      // Each value is built in place from the one before it (the first from last_).
      const size_t first_offset = out->offsets.size();
      size_t at = out->bytes.size();
      out->offsets.resize(first_offset + n);
      out->bytes.resize(at + total);
      std::byte* bytes = out->bytes.data();
      const std::byte* prev = last_.data();
      for (size_t k = 0; k < n; ++k) {
        const size_t prefix = static_cast<size_t>(prefixes[k]);
        if (prefix > 0) std::memmove(bytes + at, prev, prefix);
        if (!suffixes[k].empty()) {
          std::memcpy(bytes + at + prefix, suffixes[k].data(), suffixes[k].size());
        }
        prev = bytes + at;
        at += lengths[k];
        out->offsets[first_offset + k] = static_cast<int64_t>(at);
      }
      last_.assign(prev, prev + lengths[n - 1]);
    } else {
      for (size_t k = 0; k < n; ++k) {
        last_.resize(static_cast<size_t>(prefixes[k]));
        last_.insert(last_.end(), suffixes[k].begin(), suffixes[k].end());
      }
    }
    count -= n;
  }
}

void DeltaByteArrayDecoder::Decode(size_t count, ByteArrays& out) { Run(count, &out); }

void DeltaByteArrayDecoder::Skip(size_t count) { Run(count, nullptr); }

DeltaByteArrayFixedLenDecoder::DeltaByteArrayFixedLenDecoder(std::span<const std::byte> data,
                                                             size_t width)
    : FixedLenDecoder(width), values_(data) {
  if (width == 0) ThrowDecodeError(kDeltaByteArray, "fixed-length width 0");
}

void DeltaByteArrayFixedLenDecoder::Decode(std::span<std::byte> out) {
  if (out.size() % width() != 0) {
    throw std::invalid_argument("DELTA_BYTE_ARRAY: output size is not a multiple of the width");
  }
  const size_t count = out.size() / width();
  scratch_.Clear();
  values_.Decode(count, scratch_);
  for (size_t i = 0; i < count; ++i) {
    if (scratch_[i].size() != width()) {
      ThrowDecodeError(kDeltaByteArray, "value of " + std::to_string(scratch_[i].size()) +
                                            " bytes in a column of width " +
                                            std::to_string(width()));
    }
  }
  if (!out.empty()) std::memcpy(out.data(), scratch_.bytes.data(), out.size());
}

template <typename T>
void AppendDeltaBinaryPacked(std::span<const T> values, std::vector<std::byte>& out) {
  using U = std::make_unsigned_t<T>;
  constexpr size_t kBlock = 128;
  constexpr size_t kMiniblocks = 4;
  constexpr size_t kPerMiniblock = kBlock / kMiniblocks;
  const size_t n = values.size();
  AppendUleb128(out, kBlock);
  AppendUleb128(out, kMiniblocks);
  AppendUleb128(out, n);
  AppendZigZag(out, n > 0 ? static_cast<int64_t>(values[0]) : 0);
  if (n <= 1) return;
  U prev = static_cast<U>(values[0]);
  U deltas[kBlock];
  std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> packed[kPerMiniblock];
  for (size_t start = 1; start < n; start += kBlock) {
    const size_t count = std::min(kBlock, n - start);
    // Deltas wrap in the unsigned type; their signed reading gives the frame of reference.
    T min_delta = std::numeric_limits<T>::max();
    for (size_t i = 0; i < count; ++i) {
      const U v = static_cast<U>(values[start + i]);
      deltas[i] = static_cast<U>(v - prev);
      prev = v;
      min_delta = std::min(min_delta, static_cast<T>(deltas[i]));
    }
    AppendZigZag(out, static_cast<int64_t>(min_delta));
    const U min_bits = static_cast<U>(min_delta);
    for (size_t i = 0; i < count; ++i) deltas[i] = static_cast<U>(deltas[i] - min_bits);
    const size_t used = (count + kPerMiniblock - 1) / kPerMiniblock;
    int widths[kMiniblocks] = {};
    for (size_t m = 0; m < used; ++m) {
      U all = 0;
      const size_t end = std::min(count, (m + 1) * kPerMiniblock);
      for (size_t i = m * kPerMiniblock; i < end; ++i) all |= deltas[i];
      widths[m] = BitWidth(all);
    }
    for (size_t m = 0; m < kMiniblocks; ++m) out.push_back(static_cast<std::byte>(widths[m]));
    for (size_t m = 0; m < used; ++m) {
      const size_t begin = m * kPerMiniblock;
      const size_t end = std::min(count, begin + kPerMiniblock);
      // The last miniblock is padded with zeros to its full 32 values.
      for (size_t i = 0; i < kPerMiniblock; ++i) {
        packed[i] = begin + i < end ? deltas[begin + i] : 0;
      }
      PackBits(std::span(packed, kPerMiniblock), widths[m], out);
    }
  }
}

template void AppendDeltaBinaryPacked(std::span<const int32_t>, std::vector<std::byte>&);
template void AppendDeltaBinaryPacked(std::span<const int64_t>, std::vector<std::byte>&);

namespace {

int32_t CheckedLength(size_t length) {
  if (length > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw std::invalid_argument("byte array longer than 2^31 - 1 bytes");
  }
  return static_cast<int32_t>(length);
}

}  // namespace

void AppendDeltaLengthByteArray(ByteArraysView values, std::vector<std::byte>& out) {
  std::vector<int32_t> lengths(values.size());
  for (size_t i = 0; i < values.size(); ++i) lengths[i] = CheckedLength(values[i].size());
  AppendDeltaBinaryPacked(std::span<const int32_t>(lengths), out);
  if (values.size() > 0) {
    AppendBytes(out, std::span<const std::byte>(values.bytes + values.offsets.front(),
                                                values.total_bytes()));
  }
}

void AppendDeltaByteArray(ByteArraysView values, std::vector<std::byte>& out) {
  std::vector<int32_t> prefixes(values.size());
  std::vector<int32_t> suffix_lengths(values.size());
  std::span<const std::byte> previous;
  for (size_t i = 0; i < values.size(); ++i) {
    const auto value = values[i];
    const size_t limit = std::min(previous.size(), value.size());
    size_t prefix = 0;
    while (prefix < limit && previous[prefix] == value[prefix]) ++prefix;
    prefixes[i] = CheckedLength(prefix);
    suffix_lengths[i] = CheckedLength(value.size() - prefix);
    previous = value;
  }
  AppendDeltaBinaryPacked(std::span<const int32_t>(prefixes), out);
  AppendDeltaBinaryPacked(std::span<const int32_t>(suffix_lengths), out);
  for (size_t i = 0; i < values.size(); ++i) {
    AppendBytes(out, values[i].subspan(static_cast<size_t>(prefixes[i])));
  }
}

}  // namespace timef::parquet
