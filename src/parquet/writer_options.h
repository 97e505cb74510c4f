// The knobs of the Parquet file writer. Defaults follow docs/format.md §7.3–§7.4 (the TimeF values
// shards): zstd level 19, 16 KiB data pages cut at row boundaries, v1 data page headers,
// dictionaries up to 1 MiB, byte-array bounds truncated to 64 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "timef/error.h"
#include "timef/write_options.h"

namespace timef::parquet {

enum class DataPageVersion : std::int8_t { kV1 = 1, kV2 = 2 };

struct ColumnWriteOptions {
  // PLAIN (any type); RLE_DICTIONARY (all but BOOLEAN); RLE (BOOLEAN); DELTA_BINARY_PACKED (INT32,
  // INT64); DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY); DELTA_BYTE_ARRAY (BYTE_ARRAY,
  // FIXED_LEN_BYTE_ARRAY); BYTE_STREAM_SPLIT (FLOAT, DOUBLE).
  Encoding encoding = Encoding::kPlain;
  // RLE_DICTIONARY only: a column chunk whose PLAIN dictionary would exceed
  // WriterOptions::dictionary_limit_bytes is written whole with this encoding instead (it must
  // fit the type and not be RLE_DICTIONARY). std::nullopt keeps the dictionary however large.
  std::optional<Encoding> dictionary_fallback = Encoding::kPlain;
  // BYTE_ARRAY with RLE_DICTIONARY only: every dictionary starts with these entries in this
  // order (distinct), used or not, e.g. the categories of an enum.
  std::vector<std::string> dictionary_preset;

  bool operator==(const ColumnWriteOptions&) const = default;
};

// "timef version <x.y.z>".
std::string DefaultCreatedBy();

// The options of a series of Parquet files one plane of a write produces (the values shards, the
// payload files): how large their row groups, files and data pages grow and how their pages are
// compressed (defaults, ranges and docs: timef/write_options.h). Declared once, here, in the
// lowest module both planes use: payload::PayloadOptions is this struct, values::ValuesOptions
// extends it, and writer::ToPayloadOptions fills it from WriteOptions for both.
struct FileSeriesOptions {
  std::int64_t row_group_target_bytes = write_option::row_group_target_bytes.default_value;
  std::int64_t shard_target_bytes = write_option::shard_target_bytes.default_value;
  std::int64_t data_page_target_bytes = write_option::data_page_target_bytes.default_value;
  CompressionCodec compression = CompressionCodec::kZstd;
  int compression_level = static_cast<int>(write_option::compression_level.default_value);
};

struct WriterOptions {
  // UNCOMPRESSED, ZSTD, SNAPPY, GZIP or LZ4_RAW; every page (dictionary and data) uses it.
  CompressionCodec compression = CompressionCodec::kZstd;
  // ZSTD 1..22 (negative = fast modes, 0 = library default); default: the TimeF write option's.
  int compression_level = static_cast<int>(write_option::compression_level.default_value);
  // Threads that compress pages (1 = the calling thread alone). With more, a flushed row group is
  // compressed and written in the background while the caller stages the next (file_writer.h).
  // The file is byte-identical for every value. Default and range: write_option::threads.
  int compression_threads = static_cast<int>(write_option::threads.default_value);
  // A data page is closed before a row that would push its estimated uncompressed size past this
  // (unless the page is still empty, so one large row makes one page).
  std::int64_t data_page_target_bytes = write_option::data_page_target_bytes.default_value;
  std::int64_t dictionary_limit_bytes = 1024 * 1024;
  DataPageVersion data_page_version = DataPageVersion::kV1;
  // BYTE_ARRAY min/max longer than this are truncated to valid bounds (is_*_value_exact = false);
  // 0 keeps them whole.
  std::size_t statistics_truncate_bytes = 64;
  // Empty (every column PLAIN) or one entry per schema column.
  std::vector<ColumnWriteOptions> columns;
  std::vector<KeyValue> key_value_metadata;
  std::string created_by = DefaultCreatedBy();
  // Names the output in error messages (e.g. its path); may be empty.
  std::string name;
};

// A ValidationError about `column` of the output called `output_name` ("" when unnamed).
ValidationError WriterError(const std::string& output_name, const std::string& column,
                            std::string_view problem);

// Throws timef::ValidationError naming the column when `options` do not fit `column` (encoding
// or fallback unsuitable for the physical type, a preset on a non-dictionary column, ...).
void ValidateColumnOptions(const ColumnDescriptor& column, const ColumnWriteOptions& options,
                           const std::string& output_name);

// Throws timef::ValidationError for options outside their ranges, a schema the writer cannot
// write (no columns, duplicate or empty names, INT96, a FIXED_LEN_BYTE_ARRAY without a width) or
// a per-column options list of the wrong length.
void ValidateWriterSetup(const std::vector<ColumnDescriptor>& schema, const WriterOptions& options);

}  // namespace timef::parquet
