#include "values/shard_schema.h"

#include <string>

namespace timef::values {
namespace {

using parquet::ColumnDescriptor;
using parquet::ConvertedType;
using parquet::Encoding;
using parquet::LogicalType;
using parquet::Type;

ColumnDescriptor Flat(std::string name, Type type) {
  ColumnDescriptor column;
  column.name = std::move(name);
  column.physical_type = type;
  column.path_in_schema = {column.name};
  return column;
}

ColumnDescriptor FlatString(std::string name) {
  ColumnDescriptor column = Flat(std::move(name), Type::kByteArray);
  column.logical_type = LogicalType::Simple(LogicalType::Kind::kString);
  column.converted_type = ConvertedType::kUtf8;
  return column;
}

void SetInteger(ColumnDescriptor& leaf, int bits, bool is_signed) {
  leaf.physical_type = Type::kInt32;
  leaf.logical_type = LogicalType::Integer(bits, is_signed);
  static constexpr ConvertedType kSigned[] = {ConvertedType::kInt8, ConvertedType::kInt16,
                                              ConvertedType::kInt32};
  static constexpr ConvertedType kUnsigned[] = {ConvertedType::kUint8, ConvertedType::kUint16,
                                                ConvertedType::kUint32};
  const int slot = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  leaf.converted_type = is_signed ? kSigned[slot] : kUnsigned[slot];
}

parquet::ColumnWriteOptions With(Encoding encoding) {
  parquet::ColumnWriteOptions options;
  options.encoding = encoding;
  return options;
}

}  // namespace

bool IsFloat(model::DType dtype) {
  return dtype == model::DType::kFloat32 || dtype == model::DType::kFloat64;
}

ColumnDescriptor ValuesLeaf(const model::Spec& spec) {
  ColumnDescriptor leaf;
  leaf.name = kValuesColumnName;
  leaf.is_list = true;
  leaf.nullable = false;
  leaf.element_nullable = spec.nullable;
  switch (spec.dtype) {
    case model::DType::kBool:
      leaf.physical_type = Type::kBoolean;
      break;
    case model::DType::kInt8:
      SetInteger(leaf, 8, true);
      break;
    case model::DType::kInt16:
      SetInteger(leaf, 16, true);
      break;
    case model::DType::kInt32:
      SetInteger(leaf, 32, true);
      break;
    case model::DType::kUint8:
      SetInteger(leaf, 8, false);
      break;
    case model::DType::kUint16:
      SetInteger(leaf, 16, false);
      break;
    case model::DType::kUint32:
      SetInteger(leaf, 32, false);
      break;
    case model::DType::kFloat32:
      leaf.physical_type = Type::kFloat;
      break;
    case model::DType::kFloat64:
      leaf.physical_type = Type::kDouble;
      break;
    case model::DType::kStr:
    case model::DType::kEnum:
      leaf.physical_type = Type::kByteArray;
      leaf.logical_type = LogicalType::Simple(LogicalType::Kind::kString);
      leaf.converted_type = ConvertedType::kUtf8;
      break;
  }
  leaf.path_in_schema = parquet::StandardPathInSchema(leaf);
  return leaf;
}

std::vector<ColumnDescriptor> ShardSchema(const model::Spec& spec) {
  std::vector<ColumnDescriptor> columns;
  columns.reserve(kShardColumnCount);
  columns.push_back(Flat("signal_id", Type::kInt64));
  columns.push_back(FlatString("spec_type"));
  columns.push_back(FlatString("signal"));
  columns.push_back(Flat("chunk_idx", Type::kInt32));
  columns.push_back(Flat("n_values", Type::kInt32));
  columns.push_back(ValuesLeaf(spec));
  return columns;
}

std::vector<parquet::ColumnWriteOptions> ShardColumnOptions(const model::Spec& spec,
                                                            manifest::ValueEncoding encoding) {
  std::vector<parquet::ColumnWriteOptions> options(kShardColumnCount);
  options[kSignalIdColumn] = With(Encoding::kPlain);
  options[kSpecTypeColumn] = With(Encoding::kRleDictionary);
  options[kSignalColumn] = With(Encoding::kRleDictionary);
  options[kChunkIdxColumn] = With(Encoding::kDeltaBinaryPacked);
  options[kNValuesColumn] = With(Encoding::kPlain);

  parquet::ColumnWriteOptions& values = options[kValuesColumn];
  if (spec.dtype == model::DType::kEnum) {
    values.encoding = Encoding::kRleDictionary;
    values.dictionary_fallback = std::nullopt;
    values.dictionary_preset = spec.categories;
    return options;
  }
  if (spec.dtype == model::DType::kBool) {
    values.encoding = Encoding::kPlain;
    return options;
  }
  switch (encoding) {
    case manifest::ValueEncoding::kDictionary:
      values.encoding = Encoding::kRleDictionary;
      values.dictionary_fallback =
          IsFloat(spec.dtype) ? Encoding::kByteStreamSplit : Encoding::kPlain;
      break;
    case manifest::ValueEncoding::kByteStreamSplit:
      values.encoding = Encoding::kByteStreamSplit;
      break;
    case manifest::ValueEncoding::kPlain:
      values.encoding = Encoding::kPlain;
      break;
  }
  return options;
}

}  // namespace timef::values
