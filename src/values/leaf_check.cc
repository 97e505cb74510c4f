#include "values/leaf_check.h"

#include <optional>

namespace timef::values {
namespace {

using parquet::ConvertedType;
using parquet::LogicalType;
using parquet::Type;

struct IntAnnotation {
  int bits = 32;
  bool is_signed = true;
};

// The integer annotation of an INT32 leaf; std::nullopt when it carries a non-integer one.
std::optional<IntAnnotation> IntegerAnnotation(const parquet::ColumnDescriptor& leaf) {
  if (leaf.logical_type.has_value()) {
    if (leaf.logical_type->kind != LogicalType::Kind::kInteger) return std::nullopt;
    return IntAnnotation{leaf.logical_type->bit_width, leaf.logical_type->is_signed};
  }
  if (!leaf.converted_type.has_value()) return IntAnnotation{};
  switch (*leaf.converted_type) {
    case ConvertedType::kInt8:
      return IntAnnotation{8, true};
    case ConvertedType::kInt16:
      return IntAnnotation{16, true};
    case ConvertedType::kInt32:
      return IntAnnotation{32, true};
    case ConvertedType::kUint8:
      return IntAnnotation{8, false};
    case ConvertedType::kUint16:
      return IntAnnotation{16, false};
    case ConvertedType::kUint32:
      return IntAnnotation{32, false};
    default:
      return std::nullopt;
  }
}

bool IsTextLeaf(const parquet::ColumnDescriptor& leaf) {
  if (leaf.logical_type.has_value()) {
    return leaf.logical_type->kind == LogicalType::Kind::kString ||
           leaf.logical_type->kind == LogicalType::Kind::kEnum;
  }
  return !leaf.converted_type.has_value() || *leaf.converted_type == ConvertedType::kUtf8 ||
         *leaf.converted_type == ConvertedType::kEnum;
}

std::string Describe(const parquet::ColumnDescriptor& leaf) {
  std::string text = parquet::ToString(leaf.physical_type);
  if (leaf.physical_type == Type::kInt32) {
    if (auto annotation = IntegerAnnotation(leaf)) {
      text += " INT(" + std::to_string(annotation->bits) + ", " +
              (annotation->is_signed ? "signed" : "unsigned") + ")";
    } else {
      text += " with a non-integer annotation";
    }
  }
  return text;
}

}  // namespace

std::string ValuesLeafProblem(const parquet::ColumnDescriptor& leaf, const model::Spec& spec) {
  if (!leaf.is_list) return "the values column is not a list";
  const auto& path = leaf.path_in_schema;
  // Parquet's backward-compatibility rules make a repeated group named "array" or
  // "<name>_tuple" (or a repeated leaf) the element itself: a legacy 2-level list.
  if (path.size() != 3 || path[1] == "array" || path[1] == path[0] + "_tuple") {
    return "the values column is a legacy 2-level list; a 3-level LIST is required";
  }
  bool fits = false;
  int bits = 0;
  bool is_signed = true;
  switch (spec.dtype) {
    case model::DType::kBool:
      fits = leaf.physical_type == Type::kBoolean;
      break;
    case model::DType::kFloat32:
      fits = leaf.physical_type == Type::kFloat;
      break;
    case model::DType::kFloat64:
      fits = leaf.physical_type == Type::kDouble;
      break;
    case model::DType::kStr:
    case model::DType::kEnum:
      fits = leaf.physical_type == Type::kByteArray && IsTextLeaf(leaf);
      break;
    case model::DType::kInt8:
      bits = 8;
      break;
    case model::DType::kInt16:
      bits = 16;
      break;
    case model::DType::kInt32:
      bits = 32;
      break;
    case model::DType::kUint8:
      bits = 8, is_signed = false;
      break;
    case model::DType::kUint16:
      bits = 16, is_signed = false;
      break;
    case model::DType::kUint32:
      bits = 32, is_signed = false;
      break;
  }
  if (bits != 0 && leaf.physical_type == Type::kInt32) {
    const std::optional<IntAnnotation> annotation = IntegerAnnotation(leaf);
    fits = annotation.has_value() && annotation->bits == bits && annotation->is_signed == is_signed;
  }
  if (fits) return "";
  return "the values leaf is " + Describe(leaf) + ", which does not hold dtype " +
         std::string(model::ToString(spec.dtype));
}

}  // namespace timef::values
