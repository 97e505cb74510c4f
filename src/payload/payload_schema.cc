#include "payload/payload_schema.h"

#include <string>
#include <utility>

#include "timef/error.h"

namespace timef::payload {
namespace {

parquet::ColumnDescriptor Column(std::string name, parquet::Type type, bool nullable,
                                 bool is_list) {
  parquet::ColumnDescriptor column;
  column.name = std::move(name);
  column.physical_type = type;
  column.nullable = nullable;
  column.is_list = is_list;
  column.element_nullable = false;
  if (type == parquet::Type::kByteArray) {
    column.logical_type = parquet::LogicalType::Simple(parquet::LogicalType::Kind::kString);
    column.converted_type = parquet::ConvertedType::kUtf8;
  }
  column.path_in_schema = parquet::StandardPathInSchema(column);
  return column;
}

ValidationError OptionError(const std::string& option, const std::string& problem) {
  return ValidationError(ErrorSite{std::nullopt, "payload options", option}, problem);
}

parquet::WriterOptions BaseOptions(const PayloadOptions& options, std::string name) {
  ValidatePayloadOptions(options);
  parquet::WriterOptions out;
  out.compression = options.compression;
  out.compression_level = options.compression_level;
  out.data_page_target_bytes = options.data_page_target_bytes;
  out.name = std::move(name);
  return out;
}

}  // namespace

std::vector<parquet::ColumnDescriptor> TextFileSchema() {
  return {Column(kTextColumn, parquet::Type::kByteArray, /*nullable=*/true, /*is_list=*/false),
          Column(kTextListColumn, parquet::Type::kByteArray, /*nullable=*/true, /*is_list=*/true)};
}

std::vector<parquet::ColumnDescriptor> OffsetsFileSchema() {
  return {Column(kOffsetsColumn, parquet::Type::kInt64, /*nullable=*/false, /*is_list=*/true)};
}

void ValidatePayloadOptions(const PayloadOptions& options) {
  if (options.row_group_target_bytes < 1) {
    throw OptionError("row_group_target_bytes", "must be at least 1");
  }
  if (options.shard_target_bytes < 1) throw OptionError("shard_target_bytes", "must be at least 1");
  if (options.data_page_target_bytes < 1) {
    throw OptionError("data_page_target_bytes", "must be at least 1");
  }
  if (options.compression == parquet::CompressionCodec::kZstd) {
    if (options.compression_level < 1 || options.compression_level > 22) {
      throw OptionError("compression_level", "zstd level must be in 1..22, got " +
                                                 std::to_string(options.compression_level));
    }
  } else if (options.compression != parquet::CompressionCodec::kUncompressed) {
    throw OptionError("compression", "must be zstd or uncompressed, got " +
                                         parquet::ToString(options.compression));
  }
}

parquet::WriterOptions TextWriterOptions(const PayloadOptions& options, std::string name) {
  parquet::WriterOptions out = BaseOptions(options, std::move(name));
  out.columns.assign(2, parquet::ColumnWriteOptions{.encoding = parquet::Encoding::kPlain,
                                                    .dictionary_fallback = std::nullopt});
  return out;
}

parquet::WriterOptions OffsetsWriterOptions(const PayloadOptions& options, std::string name) {
  parquet::WriterOptions out = BaseOptions(options, std::move(name));
  out.columns.assign(1,
                     parquet::ColumnWriteOptions{.encoding = parquet::Encoding::kDeltaBinaryPacked,
                                                 .dictionary_fallback = std::nullopt});
  return out;
}

}  // namespace timef::payload
