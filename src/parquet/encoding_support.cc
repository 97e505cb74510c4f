#include "parquet/encoding_support.h"

namespace timef::parquet {

bool ReaderDecodes(Encoding encoding, Type type) {
  switch (encoding) {
    case Encoding::kPlain:
      return true;
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return type != Type::kBoolean;
    case Encoding::kRle:
      return type == Type::kBoolean;
    case Encoding::kDeltaBinaryPacked:
      return type == Type::kInt32 || type == Type::kInt64;
    case Encoding::kDeltaLengthByteArray:
      return type == Type::kByteArray;
    case Encoding::kDeltaByteArray:
      return type == Type::kByteArray || type == Type::kFixedLenByteArray;
    case Encoding::kByteStreamSplit:
      return type == Type::kFloat || type == Type::kDouble || type == Type::kInt32 ||
             type == Type::kInt64 || type == Type::kFixedLenByteArray;
    default:
      return false;
  }
}

bool WriterEncodes(Encoding encoding, Type type) {
  if (encoding == Encoding::kPlainDictionary) return false;
  if (encoding == Encoding::kByteStreamSplit) return type == Type::kFloat || type == Type::kDouble;
  return ReaderDecodes(encoding, type);
}

}  // namespace timef::parquet
