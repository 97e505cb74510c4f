// Pages as stored in a column chunk: header parsing with size checks, CRC verification, and
// decompression into a reused buffer (or no copy at all for pages stored uncompressed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "parquet/compression.h"
#include "parquet/decode_budget.h"
#include "parquet/errors.h"
#include "parquet/metadata.h"

namespace timef::parquet {

struct RawPage {
  PageHeader header;
  std::uint64_t offset = 0;         // file offset of the page header
  std::size_t header_size = 0;      // bytes of the Thrift header
  std::span<const std::byte> body;  // the compressed_page_size bytes after the header
  std::size_t total_size() const { return header_size + body.size(); }
  std::uint64_t body_offset() const { return offset + header_size; }
};

// Parses the page starting at bytes[0], which lies at file offset `offset`; the page must end
// within `bytes` (the rest of its column chunk, or its extent in the OffsetIndex). Checks what
// the header alone can tell: non-negative sizes, the member header that matches the page type,
// non-negative counts, v2 level lengths within the page, dictionary page encoding. Throws
// FormatError located by `context` at the offending byte.
RawPage ParsePage(std::span<const std::byte> bytes, std::uint64_t offset,
                  const ErrorContext& context);

// Throws FormatError when the header carries a CRC that does not match the stored bytes.
void VerifyPageCrc(const RawPage& page, const ErrorContext& context);

// The uncompressed content of pages, in a buffer reused from page to page and charged to a
// budget (when given one).
class PageDecompressor {
 public:
  explicit PageDecompressor(DecodeBudget* budget = nullptr) : buffer_(budget) {}
  // Dictionary and v1 data pages: the whole body. v2 data pages: the values section only (the
  // levels, stored uncompressed, are V2LevelBytes). Returns a view of the stored bytes when the
  // page is not compressed, else of this object's buffer, valid until the next call. Throws
  // FormatError for an unsupported codec, an implausible size, a corrupt stream, or a page whose
  // buffer the budget cannot take.
  std::span<const std::byte> Content(const RawPage& page, CompressionCodec codec,
                                     const ErrorContext& context);
  // Bytes decompressed so far (for statistics).
  std::uint64_t bytes_decompressed() const { return bytes_decompressed_; }
  // True when `content` (a span Content returned) lies in this object's buffer.
  bool Owns(std::span<const std::byte> content) const {
    return !content.empty() && content.data() == buffer_.data();
  }
  // Exchanges the buffer with `other`: a caller keeps a page's content (the heap block does not
  // move, so spans into it stay valid) and hands in a buffer to reuse.
  // REQUIRES: `other` has this object's budget.
  void SwapBuffer(BudgetedBuffer& other) { buffer_.Swap(other); }
  DecodeBudget* budget() const { return buffer_.budget(); }
  // Frees the buffer when it holds more than `keep` bytes.
  void Trim(std::size_t keep) { buffer_.Trim(keep); }

 private:
  Decompressor decompressor_;
  BudgetedBuffer buffer_;
  std::uint64_t bytes_decompressed_ = 0;
};

// A v2 data page's repetition and definition level sections (stored uncompressed).
struct V2LevelBytes {
  std::span<const std::byte> repetition;
  std::span<const std::byte> definition;
};
V2LevelBytes V2Levels(const RawPage& page);

}  // namespace timef::parquet
