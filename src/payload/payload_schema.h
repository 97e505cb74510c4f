// The column shapes of the payload files (docs/format.md §9), shared by the writers, the reader's
// shape checks and the tests that craft files with the engine directly.
#pragma once

#include <string>
#include <vector>

#include "parquet/schema.h"
#include "parquet/writer_options.h"
#include "payload/payload_options.h"

namespace timef::payload {

inline constexpr char kTextColumn[] = "text";
inline constexpr char kTextListColumn[] = "text_list";
inline constexpr char kOffsetsColumn[] = "offsets_us";

// `text` optional STRING; `text_list` optional LIST of required STRING.
std::vector<parquet::ColumnDescriptor> TextFileSchema();
// `offsets_us` required LIST of required INT64.
std::vector<parquet::ColumnDescriptor> OffsetsFileSchema();

// Throws ValidationError naming the option: budgets ≥ 1, codec zstd or uncompressed, zstd level
// 1..22 (the values plane's choices, docs/format.md §7.3).
void ValidatePayloadOptions(const PayloadOptions& options);

// Engine options for one payload file: the codec, level and page size of `options`, the engine's
// statistics, page index, CRC and created_by, and `name` for messages.
parquet::WriterOptions TextWriterOptions(const PayloadOptions& options, std::string name);
// The same with the offsets element DELTA_BINARY_PACKED.
parquet::WriterOptions OffsetsWriterOptions(const PayloadOptions& options, std::string name);

}  // namespace timef::payload
