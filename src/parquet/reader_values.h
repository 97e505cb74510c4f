// The values section of a data page: the column chunk's dictionary, and a decoder that dispatches
// on (physical type, encoding) once per page and then decodes batches straight into the caller's
// buffers. The concrete decoders live in a variant, so a page costs no heap allocation and a batch
// one dispatch, never one virtual call per value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "parquet/encoding_byte_stream_split.h"
#include "parquet/encoding_decoder.h"
#include "parquet/encoding_delta.h"
#include "parquet/encoding_dictionary.h"
#include "parquet/encoding_plain.h"
#include "parquet/encoding_rle.h"
#include "parquet/metadata.h"

namespace timef::parquet {

// The decoded dictionary page of one column chunk.
class Dictionary {
 public:
  // Decodes a PLAIN dictionary page body of `num_values` entries, replacing any previous
  // contents. Throws DecodeError for BOOLEAN (which has no dictionary encoding) or a page too
  // short for its entries.
  void Load(Type type, std::int32_t type_length, std::span<const std::byte> page,
            std::size_t num_values);
  void Reset() { loaded_ = false; }
  bool loaded() const { return loaded_; }
  std::size_t size() const { return size_; }
  // Heap bytes held (what a DictionaryCache budgets).
  std::size_t bytes() const {
    return sizeof(Dictionary) + int32_.capacity() * 4 + int64_.capacity() * 8 +
           float_.capacity() * 4 + double_.capacity() * 8 + fixed_.capacity() +
           bytes_.offsets.capacity() * 8 + bytes_.bytes.capacity();
  }

 private:
  friend class ValuesDecoder;
  bool loaded_ = false;
  std::size_t size_ = 0;
  std::vector<std::int32_t> int32_;
  std::vector<std::int64_t> int64_;
  std::vector<float> float_;
  std::vector<double> double_;
  std::vector<std::byte> fixed_;  // INT96 and FIXED_LEN_BYTE_ARRAY entries back to back
  ByteArrays bytes_;
};

class ValuesDecoder {
 public:
  // Prepares to decode `data`, the values of one page, for a column of `type`. Throws
  // DecodeError when the encoding is unknown or does not fit the type, or is a dictionary
  // encoding while `dictionary` is not loaded. The decoder proper is built on the first use, so
  // a page without non-null values may have an empty or odd values section. `dictionary` must
  // stay alive and unchanged while this decoder is used.
  void Reset(Type type, std::int32_t type_length, Encoding encoding,
             std::span<const std::byte> data, const Dictionary& dictionary);

  void Skip(std::size_t count);
  // Fixed-width types: writes `count` values of SlotWidth bytes each to `out` (BOOLEAN: 0/1
  // bytes; INT32, INT64, FLOAT, DOUBLE: little-endian; INT96, FIXED_LEN_BYTE_ARRAY: raw).
  void DecodeFixed(std::byte* out, std::size_t count);
  // BYTE_ARRAY: appends `count` values.
  void DecodeByteArrays(std::size_t count, ByteArrays& out);

 private:
  void Build();

  using Variant = std::variant<
      std::monostate, PlainDecoder<std::int32_t>, PlainDecoder<std::int64_t>, PlainDecoder<float>,
      PlainDecoder<double>, PlainBooleanDecoder, RleBooleanDecoder, DictionaryDecoder<std::int32_t>,
      DictionaryDecoder<std::int64_t>, DictionaryDecoder<float>, DictionaryDecoder<double>,
      DeltaBinaryPackedDecoder<std::int32_t>, DeltaBinaryPackedDecoder<std::int64_t>,
      ByteStreamSplitDecoder<float>, ByteStreamSplitDecoder<double>,
      ByteStreamSplitDecoder<std::int32_t>, ByteStreamSplitDecoder<std::int64_t>,
      PlainByteArrayDecoder, ByteArrayDictionaryDecoder, DeltaLengthByteArrayDecoder,
      DeltaByteArrayDecoder, PlainFixedLenDecoder, FixedLenDictionaryDecoder,
      DeltaByteArrayFixedLenDecoder, ByteStreamSplitFixedLenDecoder>;

  Type type_ = Type::kInt32;
  std::size_t width_ = 0;  // fixed-length width (INT96: 12)
  Encoding encoding_ = Encoding::kPlain;
  std::span<const std::byte> data_;
  const Dictionary* dictionary_ = nullptr;
  Variant decoder_;
};

}  // namespace timef::parquet
