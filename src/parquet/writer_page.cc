#include "parquet/writer_page.h"

#include <limits>

#include "parquet/crc32.h"
#include "parquet/writer_options.h"

namespace timef::parquet {

PageSink::PageSink(OutputStream& out, Compressor& compressor, std::string output_name,
                   std::string column_name)
    : out_(out),
      compressor_(compressor),
      output_name_(std::move(output_name)),
      column_name_(std::move(column_name)) {}

std::int32_t PageSink::CheckedSize(std::size_t size) const {
  if (size > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw WriterError(output_name_, column_name_,
                      "a page of " + std::to_string(size) +
                          " bytes exceeds the 2 GiB a page header can describe");
  }
  return static_cast<std::int32_t>(size);
}

void PageSink::AppendCompressed(std::span<const std::byte> input) {
  if (compressor_.codec() == CompressionCodec::kUncompressed) {
    stored_.insert(stored_.end(), input.begin(), input.end());
  } else {
    compressor_.Compress(input, stored_);
  }
}

WrittenPage PageSink::Emit(PageHeader& header, std::span<const std::byte> stored) {
  header.compressed_page_size = CheckedSize(stored.size());
  header.crc = CrcToThrift(Crc32(stored));
  header_.clear();
  WriteThrift(header, header_);
  WrittenPage page;
  page.offset = static_cast<std::int64_t>(out_.position());
  page.header_bytes = static_cast<std::int64_t>(header_.size());
  page.uncompressed_bytes = header.uncompressed_page_size;
  page.compressed_bytes = header.compressed_page_size;
  out_.Write(header_);
  out_.Write(stored);
  return page;
}

WrittenPage PageSink::WriteDictionaryPage(std::span<const std::byte> body,
                                          std::int32_t num_entries) {
  PageHeader header;
  header.type = PageType::kDictionaryPage;
  header.uncompressed_page_size = CheckedSize(body.size());
  DictionaryPageHeader dictionary;
  dictionary.num_values = num_entries;
  dictionary.encoding = Encoding::kPlain;
  header.dictionary_page_header = dictionary;
  if (compressor_.codec() == CompressionCodec::kUncompressed) return Emit(header, body);
  stored_.clear();
  AppendCompressed(body);
  return Emit(header, stored_);
}

WrittenPage PageSink::WriteDataPageV1(std::span<const std::byte> body, std::int32_t num_values,
                                      Encoding encoding) {
  PageHeader header;
  header.type = PageType::kDataPage;
  header.uncompressed_page_size = CheckedSize(body.size());
  DataPageHeader data;
  data.num_values = num_values;
  data.encoding = encoding;
  data.definition_level_encoding = Encoding::kRle;
  data.repetition_level_encoding = Encoding::kRle;
  header.data_page_header = data;
  if (compressor_.codec() == CompressionCodec::kUncompressed) return Emit(header, body);
  stored_.clear();
  AppendCompressed(body);
  return Emit(header, stored_);
}

WrittenPage PageSink::WriteDataPageV2(std::span<const std::byte> levels,
                                      std::int32_t repetition_bytes,
                                      std::span<const std::byte> values, std::int32_t num_values,
                                      std::int32_t num_nulls, std::int32_t num_rows,
                                      Encoding encoding) {
  PageHeader header;
  header.type = PageType::kDataPageV2;
  header.uncompressed_page_size = CheckedSize(levels.size() + values.size());
  DataPageHeaderV2 data;
  data.num_values = num_values;
  data.num_nulls = num_nulls;
  data.num_rows = num_rows;
  data.encoding = encoding;
  data.repetition_levels_byte_length = repetition_bytes;
  data.definition_levels_byte_length = CheckedSize(levels.size()) - repetition_bytes;
  data.is_compressed = compressor_.codec() != CompressionCodec::kUncompressed;
  header.data_page_header_v2 = data;
  stored_.clear();
  stored_.insert(stored_.end(), levels.begin(), levels.end());
  AppendCompressed(values);
  return Emit(header, stored_);
}

}  // namespace timef::parquet
