#include "parquet/reader_values.h"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "parquet/encoding_error.h"
#include "parquet/encoding_support.h"

namespace timef::parquet {
namespace {

[[noreturn]] void Unsupported(Encoding encoding, Type type) {
  throw DecodeError("encoding " + ToString(encoding) + " is not valid for " + ToString(type) +
                    " values");
}

}  // namespace

void Dictionary::Load(Type type, std::int32_t type_length, std::span<const std::byte> page,
                      std::size_t num_values) {
  loaded_ = false;
  switch (type) {
    case Type::kBoolean:
      throw DecodeError("a BOOLEAN column cannot have a dictionary page");
    case Type::kInt32:
      DecodeDictionaryPage(page, num_values, int32_);
      break;
    case Type::kInt64:
      DecodeDictionaryPage(page, num_values, int64_);
      break;
    case Type::kFloat:
      DecodeDictionaryPage(page, num_values, float_);
      break;
    case Type::kDouble:
      DecodeDictionaryPage(page, num_values, double_);
      break;
    case Type::kInt96:
      DecodeDictionaryPage(page, num_values, 12, fixed_);
      break;
    case Type::kFixedLenByteArray:
      DecodeDictionaryPage(page, num_values, static_cast<std::size_t>(type_length), fixed_);
      break;
    case Type::kByteArray:
      DecodeDictionaryPage(page, num_values, bytes_);
      break;
    default:
      throw DecodeError("dictionary for unknown physical type " + ToString(type));
  }
  size_ = num_values;
  loaded_ = true;
}

void ValuesDecoder::Reset(Type type, std::int32_t type_length, Encoding encoding,
                          std::span<const std::byte> data, const Dictionary& dictionary) {
  if (!ReaderDecodes(encoding, type)) Unsupported(encoding, type);
  if (IsDictionaryEncoding(encoding) && !dictionary.loaded()) {
    throw DecodeError("data page uses " + ToString(encoding) +
                      " but the column chunk has no dictionary page before it");
  }
  type_ = type;
  width_ = type == Type::kInt96 ? 12 : static_cast<std::size_t>(type_length);
  encoding_ = encoding;
  data_ = data;
  dictionary_ = &dictionary;
  decoder_.emplace<std::monostate>();
}

void ValuesDecoder::Build() {
  const Dictionary& dict = *dictionary_;
  const bool dictionary = IsDictionaryEncoding(encoding_);
  switch (type_) {
    case Type::kBoolean:
      if (encoding_ == Encoding::kRle) {
        decoder_.emplace<RleBooleanDecoder>(data_);
      } else {
        decoder_.emplace<PlainBooleanDecoder>(data_);
      }
      return;
    case Type::kInt32:
      if (dictionary) {
        decoder_.emplace<DictionaryDecoder<std::int32_t>>(dict.int32_, data_);
      } else if (encoding_ == Encoding::kDeltaBinaryPacked) {
        decoder_.emplace<DeltaBinaryPackedDecoder<std::int32_t>>(data_);
      } else if (encoding_ == Encoding::kByteStreamSplit) {
        decoder_.emplace<ByteStreamSplitDecoder<std::int32_t>>(data_);
      } else {
        decoder_.emplace<PlainDecoder<std::int32_t>>(data_);
      }
      return;
    case Type::kInt64:
      if (dictionary) {
        decoder_.emplace<DictionaryDecoder<std::int64_t>>(dict.int64_, data_);
      } else if (encoding_ == Encoding::kDeltaBinaryPacked) {
        decoder_.emplace<DeltaBinaryPackedDecoder<std::int64_t>>(data_);
      } else if (encoding_ == Encoding::kByteStreamSplit) {
        decoder_.emplace<ByteStreamSplitDecoder<std::int64_t>>(data_);
      } else {
        decoder_.emplace<PlainDecoder<std::int64_t>>(data_);
      }
      return;
    case Type::kFloat:
      if (dictionary) {
        decoder_.emplace<DictionaryDecoder<float>>(dict.float_, data_);
      } else if (encoding_ == Encoding::kByteStreamSplit) {
        decoder_.emplace<ByteStreamSplitDecoder<float>>(data_);
      } else {
        decoder_.emplace<PlainDecoder<float>>(data_);
      }
      return;
    case Type::kDouble:
      if (dictionary) {
        decoder_.emplace<DictionaryDecoder<double>>(dict.double_, data_);
      } else if (encoding_ == Encoding::kByteStreamSplit) {
        decoder_.emplace<ByteStreamSplitDecoder<double>>(data_);
      } else {
        decoder_.emplace<PlainDecoder<double>>(data_);
      }
      return;
    case Type::kByteArray:
      if (dictionary) {
        decoder_.emplace<ByteArrayDictionaryDecoder>(dict.bytes_.view(), data_);
      } else if (encoding_ == Encoding::kDeltaLengthByteArray) {
        decoder_.emplace<DeltaLengthByteArrayDecoder>(data_);
      } else if (encoding_ == Encoding::kDeltaByteArray) {
        decoder_.emplace<DeltaByteArrayDecoder>(data_);
      } else {
        decoder_.emplace<PlainByteArrayDecoder>(data_);
      }
      return;
    case Type::kInt96:
    case Type::kFixedLenByteArray:
      if (dictionary) {
        decoder_.emplace<FixedLenDictionaryDecoder>(dict.fixed_, width_, data_);
      } else if (encoding_ == Encoding::kDeltaByteArray) {
        decoder_.emplace<DeltaByteArrayFixedLenDecoder>(data_, width_);
      } else if (encoding_ == Encoding::kByteStreamSplit) {
        decoder_.emplace<ByteStreamSplitFixedLenDecoder>(data_, width_);
      } else {
        decoder_.emplace<PlainFixedLenDecoder>(data_, width_);
      }
      return;
  }
  throw DecodeError("unknown physical type " + ToString(type_));
}

void ValuesDecoder::Skip(std::size_t count) {
  if (count == 0) return;
  if (std::holds_alternative<std::monostate>(decoder_)) Build();
  std::visit(
      [count](auto& d) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(d)>, std::monostate>) d.Skip(count);
      },
      decoder_);
}

void ValuesDecoder::DecodeFixed(std::byte* out, std::size_t count) {
  if (count == 0) return;
  if (std::holds_alternative<std::monostate>(decoder_)) Build();
  std::visit(
      [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_base_of_v<FixedLenDecoder, D>) {
          d.Decode(std::span<std::byte>(out, count * width_));
        } else if constexpr (std::is_base_of_v<ValueDecoder<std::uint8_t>, D>) {
          d.Decode(std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(out), count));
        } else if constexpr (std::is_base_of_v<ValueDecoder<std::int32_t>, D>) {
          d.Decode(std::span<std::int32_t>(reinterpret_cast<std::int32_t*>(out), count));
        } else if constexpr (std::is_base_of_v<ValueDecoder<std::int64_t>, D>) {
          d.Decode(std::span<std::int64_t>(reinterpret_cast<std::int64_t*>(out), count));
        } else if constexpr (std::is_base_of_v<ValueDecoder<float>, D>) {
          d.Decode(std::span<float>(reinterpret_cast<float*>(out), count));
        } else if constexpr (std::is_base_of_v<ValueDecoder<double>, D>) {
          d.Decode(std::span<double>(reinterpret_cast<double*>(out), count));
        } else {
          throw std::logic_error("ValuesDecoder::DecodeFixed on a BYTE_ARRAY column");
        }
      },
      decoder_);
}

void ValuesDecoder::DecodeByteArrays(std::size_t count, ByteArrays& out) {
  if (count == 0) return;
  if (std::holds_alternative<std::monostate>(decoder_)) Build();
  std::visit(
      [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_base_of_v<ByteArrayDecoder, D>) {
          d.Decode(count, out);
        } else {
          throw std::logic_error("ValuesDecoder::DecodeByteArrays on a fixed-width column");
        }
      },
      decoder_);
}

}  // namespace timef::parquet
