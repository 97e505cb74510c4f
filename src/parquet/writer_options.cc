#include "parquet/writer_options.h"

#include <set>
#include <string>

#include "parquet/compression.h"
#include "parquet/encoding_support.h"
#include "timef/version.h"

namespace timef::parquet {

std::string DefaultCreatedBy() { return std::string("timef version ") + kVersion; }

ValidationError WriterError(const std::string& output_name, const std::string& column,
                            std::string_view problem) {
  ErrorSite site;
  if (!output_name.empty()) site.file = output_name;
  site.object = "parquet writer";
  if (!column.empty()) site.where = "column " + column;
  return ValidationError(std::move(site), problem);
}

void ValidateColumnOptions(const ColumnDescriptor& column, const ColumnWriteOptions& options,
                           const std::string& output_name) {
  auto fail = [&](const std::string& problem) {
    throw WriterError(output_name, column.name, problem);
  };
  if (!WriterEncodes(options.encoding, column.physical_type)) {
    fail("encoding " + ToString(options.encoding) + " does not fit physical type " +
         ToString(column.physical_type));
  }
  const bool dictionary = options.encoding == Encoding::kRleDictionary;
  if (dictionary && options.dictionary_fallback) {
    const Encoding fallback = *options.dictionary_fallback;
    if (fallback == Encoding::kRleDictionary || !WriterEncodes(fallback, column.physical_type)) {
      fail("dictionary fallback encoding " + ToString(fallback) + " does not fit physical type " +
           ToString(column.physical_type));
    }
  }
  if (!options.dictionary_preset.empty()) {
    if (!dictionary || column.physical_type != Type::kByteArray) {
      fail("a dictionary preset needs a BYTE_ARRAY column with RLE_DICTIONARY encoding");
    }
    std::set<std::string_view> seen;
    for (const std::string& entry : options.dictionary_preset) {
      if (!seen.insert(entry).second) fail("dictionary preset repeats \"" + entry + "\"");
    }
  }
}

void ValidateWriterSetup(const std::vector<ColumnDescriptor>& schema,
                         const WriterOptions& options) {
  const std::string& name = options.name;
  if (schema.empty()) throw WriterError(name, "", "the schema has no columns");
  if (!IsSupportedCodec(options.compression)) {
    throw WriterError(name, "",
                      "compression codec " + ToString(options.compression) + " is not supported");
  }
  if (!write_option::threads.Contains(options.compression_threads)) {
    throw WriterError(
        name, "",
        "compression_threads " + write_option::threads.Problem(options.compression_threads));
  }
  if (options.data_page_target_bytes <= 0) {
    throw WriterError(name, "", "data_page_target_bytes must be positive");
  }
  if (options.dictionary_limit_bytes <= 0) {
    throw WriterError(name, "", "dictionary_limit_bytes must be positive");
  }
  if (options.data_page_version != DataPageVersion::kV1 &&
      options.data_page_version != DataPageVersion::kV2) {
    throw WriterError(name, "", "data_page_version must be 1 or 2");
  }
  if (!options.columns.empty() && options.columns.size() != schema.size()) {
    throw WriterError(name, "",
                      "options list " + std::to_string(options.columns.size()) +
                          " columns, the schema has " + std::to_string(schema.size()));
  }
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < schema.size(); ++i) {
    const ColumnDescriptor& column = schema[i];
    if (column.name.empty()) throw WriterError(name, "#" + std::to_string(i), "empty column name");
    if (!names.insert(column.name).second) {
      throw WriterError(name, column.name, "duplicate column name");
    }
    switch (column.physical_type) {
      case Type::kBoolean:
      case Type::kInt32:
      case Type::kInt64:
      case Type::kFloat:
      case Type::kDouble:
      case Type::kByteArray:
        if (column.type_length != 0) {
          throw WriterError(name, column.name, "type_length is only for FIXED_LEN_BYTE_ARRAY");
        }
        break;
      case Type::kFixedLenByteArray:
        if (column.type_length <= 0) {
          throw WriterError(name, column.name, "FIXED_LEN_BYTE_ARRAY needs a positive type_length");
        }
        break;
      default:
        throw WriterError(
            name, column.name,
            "physical type " + ToString(column.physical_type) + " is not supported by the writer");
    }
    if (!column.is_list && column.element_nullable) {
      throw WriterError(name, column.name, "element_nullable is only for list columns");
    }
    ValidateColumnOptions(
        column, options.columns.empty() ? ColumnWriteOptions{} : options.columns[i], name);
  }
}

}  // namespace timef::parquet
