// Turns finished page bodies into stored pages in three steps, so that the costly middle one can
// run on several threads without changing a byte of the output:
//   1. Make*Page builds a PendingPage (header fields, the bytes to compress) on the caller's
//   thread;
//   2. PageCompressors::CompressAll compresses a batch of pending pages (the file writer hands it
//      a whole row group), on up to `threads` threads, and computes each page's CRC-32 over its
//      bytes as stored;
//   3. PageSink::Emit writes header and body in page order on the caller's thread.
// zstd's one-shot output depends only on codec, level and input, so the file is the same for any
// thread count.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
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
// compressed_page_size and crc. `column_name` names the page's column in errors.
struct PendingPage {
  PageHeader header;
  std::string column_name;
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

// A batch of pages being compressed, shared by the threads that work on it: each takes the next
// page until none is left, so a thread can join late (the file writer's caller helps with the
// row group in flight once it has nothing else to do). Thread-safe; the pages must outlive it.
class CompressionJob {
 public:
  // `output_name` names a page too large for its header.
  CompressionJob(std::span<PendingPage* const> pages, std::string output_name);
  CompressionJob(const CompressionJob&) = delete;
  CompressionJob& operator=(const CompressionJob&) = delete;

  // Compresses pages with `compressor` (one per thread) until none is left to take; after a
  // failure of any thread the remaining pages are skipped. Never throws.
  void Work(Compressor& compressor);
  // Blocks until every page is compressed or skipped, then rethrows the first failure.
  void Wait();

 private:
  std::span<PendingPage* const> pages_;
  std::string output_name_;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> settled_{0};  // pages compressed or skipped
  std::atomic<bool> failed_{false};
  std::mutex failure_mutex_;
  std::exception_ptr failure_;
};

// One Compressor per thread of a writer (a zstd context costs megabytes at high levels, so they
// live as long as the writer). Not thread-safe itself: one writer uses it at a time.
class PageCompressors {
 public:
  // `threads` ≥ 1; throws ValidationError for an unsupported codec or level (see Compressor).
  PageCompressors(CompressionCodec codec, int level, int threads);

  CompressionCodec codec() const { return codec_; }
  // Step 2: fills `stored`, compressed_page_size and crc of every page. Pages are handed out to
  // the threads one at a time; the first exception of any thread is rethrown here once all have
  // stopped. `output_name` names a page too large for its header.
  void CompressAll(std::span<PendingPage* const> pages, const std::string& output_name);

  int threads() const { return static_cast<int>(compressors_.size()); }
  // Works on `job` with compressors [first, first + count): the calling thread and count - 1
  // helpers, returning when they find no page left to take (others may still be compressing:
  // job.Wait() tells when all are done). Compressor `i` must not be in use elsewhere.
  void Run(CompressionJob& job, int first, int count);
  Compressor& compressor(int i) { return compressors_.at(static_cast<std::size_t>(i)); }

  // The most bytes `page` can take in the file once compressed: header and stored body. Lets a
  // caller bound the size of a file whose last pages are still being compressed.
  std::int64_t StoredBytesAtMost(const PendingPage& page) const;

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
