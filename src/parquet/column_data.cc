#include "parquet/column_data.h"

namespace timef::parquet {

std::int32_t SlotWidth(Type type, std::int32_t type_length) {
  switch (type) {
    case Type::kBoolean:
      return 1;
    case Type::kInt32:
    case Type::kFloat:
      return 4;
    case Type::kInt64:
    case Type::kDouble:
      return 8;
    case Type::kInt96:
      return 12;
    case Type::kFixedLenByteArray:
      return type_length;
    case Type::kByteArray:
      return 0;
  }
  return 0;
}

}  // namespace timef::parquet
