#include "parquet/writer_page.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>

#include "parquet/crc32.h"
#include "parquet/writer_options.h"

namespace timef::parquet {
namespace {

std::int32_t CheckedSize(std::size_t size, const std::string& output_name,
                         const std::string& column_name) {
  if (size > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw WriterError(output_name, column_name,
                      "a page of " + std::to_string(size) +
                          " bytes exceeds the 2 GiB a page header can describe");
  }
  return static_cast<std::int32_t>(size);
}

void CompressOne(PendingPage& page, Compressor& compressor, const std::string& output_name) {
  page.stored.clear();
  page.stored.insert(page.stored.end(), page.stored_prefix.begin(), page.stored_prefix.end());
  if (compressor.codec() == CompressionCodec::kUncompressed) {
    page.stored.insert(page.stored.end(), page.body.begin(), page.body.end());
  } else {
    compressor.Compress(page.body, page.stored);
  }
  page.header.compressed_page_size = CheckedSize(page.stored.size(), output_name, page.column_name);
  page.header.crc = CrcToThrift(Crc32(page.stored));
  // The uncompressed bytes are not needed once stored; give the memory back early.
  std::vector<std::byte>().swap(page.body);
  std::vector<std::byte>().swap(page.stored_prefix);
}

}  // namespace

PendingPage MakeDictionaryPage(std::span<const std::byte> body, std::int32_t num_entries,
                               const std::string& output_name, const std::string& column_name) {
  PendingPage page;
  page.column_name = column_name;
  page.header.type = PageType::kDictionaryPage;
  page.header.uncompressed_page_size = CheckedSize(body.size(), output_name, column_name);
  DictionaryPageHeader dictionary;
  dictionary.num_values = num_entries;
  dictionary.encoding = Encoding::kPlain;
  page.header.dictionary_page_header = dictionary;
  page.body.assign(body.begin(), body.end());
  return page;
}

PendingPage MakeDataPageV1(std::span<const std::byte> body, std::int32_t num_values,
                           Encoding encoding, const std::string& output_name,
                           const std::string& column_name) {
  PendingPage page;
  page.column_name = column_name;
  page.header.type = PageType::kDataPage;
  page.header.uncompressed_page_size = CheckedSize(body.size(), output_name, column_name);
  DataPageHeader data;
  data.num_values = num_values;
  data.encoding = encoding;
  data.definition_level_encoding = Encoding::kRle;
  data.repetition_level_encoding = Encoding::kRle;
  page.header.data_page_header = data;
  page.body.assign(body.begin(), body.end());
  return page;
}

PendingPage MakeDataPageV2(std::span<const std::byte> levels, std::int32_t repetition_bytes,
                           std::span<const std::byte> values, std::int32_t num_values,
                           std::int32_t num_nulls, std::int32_t num_rows, Encoding encoding,
                           bool compressed, const std::string& output_name,
                           const std::string& column_name) {
  PendingPage page;
  page.column_name = column_name;
  page.header.type = PageType::kDataPageV2;
  page.header.uncompressed_page_size =
      CheckedSize(levels.size() + values.size(), output_name, column_name);
  DataPageHeaderV2 data;
  data.num_values = num_values;
  data.num_nulls = num_nulls;
  data.num_rows = num_rows;
  data.encoding = encoding;
  data.repetition_levels_byte_length = repetition_bytes;
  data.definition_levels_byte_length =
      CheckedSize(levels.size(), output_name, column_name) - repetition_bytes;
  data.is_compressed = compressed;
  page.header.data_page_header_v2 = data;
  page.stored_prefix.assign(levels.begin(), levels.end());
  page.body.assign(values.begin(), values.end());
  return page;
}

PageCompressors::PageCompressors(CompressionCodec codec, int level, int threads) : codec_(codec) {
  if (threads < 1) {
    throw ValidationError({.object = "parquet writer", .where = "compression_threads"},
                          "must be at least 1, got " + std::to_string(threads));
  }
  for (int i = 0; i < threads; ++i) compressors_.emplace_back(codec, level);
}

CompressionJob::CompressionJob(std::span<PendingPage* const> pages, std::string output_name)
    : pages_(pages), output_name_(std::move(output_name)) {}

void CompressionJob::Work(Compressor& compressor) {
  for (std::size_t i = next_.fetch_add(1); i < pages_.size(); i = next_.fetch_add(1)) {
    if (!failed_.load(std::memory_order_relaxed)) {
      try {
        CompressOne(*pages_[i], compressor, output_name_);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex_);
        if (!failure_) failure_ = std::current_exception();
        failed_.store(true);
      }
    }
    if (settled_.fetch_add(1) + 1 == pages_.size()) settled_.notify_all();
  }
}

void CompressionJob::Wait() {
  for (std::size_t settled = settled_.load(); settled != pages_.size(); settled = settled_.load()) {
    settled_.wait(settled);
  }
  const std::lock_guard<std::mutex> lock(failure_mutex_);
  if (failure_) std::rethrow_exception(failure_);
}

void PageCompressors::Run(CompressionJob& job, int first, int count) {
  {
    std::vector<std::jthread> helpers;
    for (int t = 1; t < count; ++t) {
      helpers.emplace_back([&job, this, first, t] { job.Work(compressor(first + t)); });
    }
    job.Work(compressor(first));
  }  // joins the helpers
}

void PageCompressors::CompressAll(std::span<PendingPage* const> pages,
                                  const std::string& output_name) {
  CompressionJob job(pages, output_name);
  Run(job, 0, static_cast<int>(std::min(compressors_.size(), pages.size())));
  job.Wait();
}

std::int64_t PageCompressors::StoredBytesAtMost(const PendingPage& page) const {
  // The header as it will be written, plus the most its two still unknown fields can add: the
  // compressed size and the CRC, each an i32 zigzag varint of at most 5 bytes.
  std::vector<std::byte> header;
  WriteThrift(page.header, header);
  constexpr std::int64_t kUnknownFieldBytes = 2 * (1 + 5);
  return static_cast<std::int64_t>(header.size()) + kUnknownFieldBytes +
         static_cast<std::int64_t>(page.stored_prefix.size()) +
         static_cast<std::int64_t>(MaxCompressedSize(codec_, page.body.size()));
}

WrittenPage PageSink::Emit(const PendingPage& page) {
  header_.clear();
  WriteThrift(page.header, header_);
  WrittenPage written;
  written.offset = static_cast<std::int64_t>(out_.position());
  written.header_bytes = static_cast<std::int64_t>(header_.size());
  written.uncompressed_bytes = page.header.uncompressed_page_size;
  written.compressed_bytes = page.header.compressed_page_size;
  out_.Write(header_);
  out_.Write(page.stored);
  return written;
}

}  // namespace timef::parquet
