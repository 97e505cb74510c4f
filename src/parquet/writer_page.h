// Writes finished pages to the output: compresses the page bytes with the file's codec, computes
// the CRC-32 of the bytes as stored, serializes the page header and writes header and body.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "parquet/compression.h"
#include "parquet/file_io.h"
#include "parquet/metadata.h"

namespace timef::parquet {

struct WrittenPage {
  std::int64_t offset = 0;  // file offset of the page header
  std::int64_t header_bytes = 0;
  std::int64_t uncompressed_bytes = 0;  // page body before compression (excluding the header)
  std::int64_t compressed_bytes = 0;    // page body as stored
  std::int64_t total_bytes() const { return header_bytes + compressed_bytes; }
};

class PageSink {
 public:
  // `compressor` holds the file's codec. The names appear in errors.
  PageSink(OutputStream& out, Compressor& compressor, std::string output_name,
           std::string column_name);

  WrittenPage WriteDictionaryPage(std::span<const std::byte> body, std::int32_t num_entries);
  // `body`: repetition levels, definition levels (each with its 4-byte length) and the values.
  WrittenPage WriteDataPageV1(std::span<const std::byte> body, std::int32_t num_values,
                              Encoding encoding);
  // `levels`: the repetition levels (`repetition_bytes`) then the definition levels, without
  // length prefixes and never compressed; `values` is compressed alone.
  WrittenPage WriteDataPageV2(std::span<const std::byte> levels, std::int32_t repetition_bytes,
                              std::span<const std::byte> values, std::int32_t num_values,
                              std::int32_t num_nulls, std::int32_t num_rows, Encoding encoding);

 private:
  std::int32_t CheckedSize(std::size_t size) const;
  // Compresses `input` onto `stored_` unless the codec is UNCOMPRESSED.
  void AppendCompressed(std::span<const std::byte> input);
  WrittenPage Emit(PageHeader& header, std::span<const std::byte> stored);

  OutputStream& out_;
  Compressor& compressor_;
  std::string output_name_;
  std::string column_name_;
  std::vector<std::byte> stored_;
  std::vector<std::byte> header_;
};

}  // namespace timef::parquet
