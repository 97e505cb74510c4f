// The logic behind `timef parquet meta|dump|rewrite`, kept free of CLI and TimeF concepts so that
// other tools and tests can use it: the footer and page index as JSON, rows as JSON lines, and a
// rewrite of any readable file with this engine's writer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/writer_options.h"
#include "timef/json.h"

namespace timef::parquet {

// File, schema (elements and resolved columns), row groups with their column chunks (encodings,
// codec, sizes, offsets, statistics with decoded bounds, encoding stats) and each chunk's page
// locations from its OffsetIndex (null when it has none).
Json MetadataToJson(FileReader& reader);

struct DumpOptions {
  std::vector<std::string> columns;  // top-level names in output order; empty = all
  std::optional<int> row_group;      // only this row group
  // Rows [first, last): of the selected row group, or of the whole file without one.
  std::optional<std::pair<std::int64_t, std::int64_t>> rows;
};

// Calls `emit` with one JSON object per row (no trailing newline), keys in column order.
// Throws ValidationError for a row group or row range outside the file, NotFoundError for an
// unknown column.
void DumpRows(FileReader& reader, const DumpOptions& options,
              const std::function<void(std::string_view)>& emit);

// Parses "A:B", "A:" or ":B" (non-negative integers); nullopt when malformed. An open end is
// std::nullopt in the pair's place, resolved against the row count by the caller.
std::optional<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>> ParseRowRange(
    std::string_view text);

// Parquet's name for an encoding the writer offers ("PLAIN", "RLE_DICTIONARY", ...; case-
// insensitive); nullopt for an unknown name.
std::optional<Encoding> ParseEncodingName(std::string_view name);

struct RewriteOptions {
  CompressionCodec compression = CompressionCodec::kZstd;
  std::optional<int> compression_level;                     // writer default when absent
  std::vector<std::pair<std::string, Encoding>> encodings;  // per top-level column; others PLAIN
  std::optional<std::int64_t> page_size_bytes;
  std::optional<std::int64_t> row_group_rows;  // keep the input's row groups when absent
  DataPageVersion data_page_version = DataPageVersion::kV1;
};

// Reads every row of `input` and writes it to `output` with the same schema, values and
// key-value metadata. The output is written to a temporary file beside `output` and renamed over
// it only when complete; on any failure nothing is left behind. Throws NotFoundError for an
// encoding given for an unknown column, ValidationError (naming the column) for an encoding that
// does not fit the column's type.
void RewriteFile(const std::filesystem::path& input, const std::filesystem::path& output,
                 const RewriteOptions& options);

}  // namespace timef::parquet
