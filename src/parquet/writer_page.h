// Turns finished page bodies into stored pages in three steps, so that the costly middle one can
// run on several threads without changing a byte of the output:
//   1. Make*Page builds a PendingPage (header fields, the bytes to compress) on the caller's
//   thread;
//   2. PageCompressors::CompressAll compresses every pending page of a column chunk, on up to
//      `threads` threads, and computes each page's CRC-32 over its bytes as stored;
//   3. PageSink::Emit writes header and body in page order on the caller's thread.
// zstd's one-shot output depends only on codec, level and input, so the file is the same for any
// thread count.
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

// One page between encoding and writing. `stored_prefix` (the levels of a v2 page) is stored as
// is; `body` is compressed after it. CompressAll fills `stored` and the header's
// compressed_page_size and crc.
struct PendingPage {
  PageHeader header;
  std::vector<std::byte> stored_prefix;
  std::vector<std::byte> body;
  std::vector<std::byte> stored;
};

// The names appear in errors. Throws ValidationError when a page exceeds what a header can
// describe (2 GiB).
PendingPage MakeDictionaryPage(std::span<const std::byte> body, std::int32_t num_entries,
                               const std::string& output_name, const std::string& column_name);
// `body`: repetition levels, definition levels (each with its 4-byte length) and the values.
PendingPage MakeDataPageV1(std::span<const std::byte> body, std::int32_t num_values,
                           Encoding encoding, const std::string& output_name,
                           const std::string& column_name);
// `levels`: the repetition levels (`repetition_bytes`) then the definition levels, without
// length prefixes and never compressed; `values` is compressed alone. `compressed` = the file's
// codec is not UNCOMPRESSED (the header says so).
PendingPage MakeDataPageV2(std::span<const std::byte> levels, std::int32_t repetition_bytes,
                           std::span<const std::byte> values, std::int32_t num_values,
                           std::int32_t num_nulls, std::int32_t num_rows, Encoding encoding,
                           bool compressed, const std::string& output_name,
                           const std::string& column_name);

// One Compressor per thread of a writer (a zstd context costs megabytes at high levels, so they
// live as long as the writer). Not thread-safe itself: one writer uses it at a time.
class PageCompressors {
 public:
  // `threads` ≥ 1; throws ValidationError for an unsupported codec or level (see Compressor).
  PageCompressors(CompressionCodec codec, int level, int threads);

  CompressionCodec codec() const { return codec_; }
  // Steps 2: fills `stored`, compressed_page_size and crc of every page. Pages are handed out to
  // the threads one at a time; the first exception of any thread is rethrown here once all have
  // stopped. `output_name`/`column_name` name a page too large for its header.
  void CompressAll(std::span<PendingPage> pages, const std::string& output_name,
                   const std::string& column_name);

 private:
  CompressionCodec codec_;
  std::vector<Compressor> compressors_;
};

// Step 3: writes pages to `out` in the order given.
class PageSink {
 public:
  explicit PageSink(OutputStream& out) : out_(out) {}
  WrittenPage Emit(const PendingPage& page);

 private:
  OutputStream& out_;
  std::vector<std::byte> header_;
};

}  // namespace timef::parquet
