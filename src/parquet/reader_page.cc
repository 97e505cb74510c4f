#include "parquet/reader_page.h"

#include <string>

#include "parquet/crc32.h"

namespace timef::parquet {
namespace {

std::string Num(std::int64_t v) { return std::to_string(v); }

void CheckHeader(const PageHeader& h, const ErrorContext& at) {
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) {
    at.Throw("page header has a negative size (compressed " + Num(h.compressed_page_size) +
             ", uncompressed " + Num(h.uncompressed_page_size) + ")");
  }
  switch (h.type) {
    case PageType::kDataPage:
      if (!h.data_page_header) at.Throw("DATA_PAGE header without data_page_header");
      if (h.data_page_header->num_values < 0) {
        at.Throw("data page with negative num_values " + Num(h.data_page_header->num_values));
      }
      return;
    case PageType::kDataPageV2: {
      if (!h.data_page_header_v2) at.Throw("DATA_PAGE_V2 header without data_page_header_v2");
      const DataPageHeaderV2& v2 = *h.data_page_header_v2;
      if (v2.num_values < 0 || v2.num_rows < 0 || v2.num_nulls < 0 ||
          v2.num_nulls > v2.num_values || v2.num_rows > v2.num_values) {
        at.Throw("data page v2 with inconsistent counts: num_values " + Num(v2.num_values) +
                 ", num_nulls " + Num(v2.num_nulls) + ", num_rows " + Num(v2.num_rows));
      }
      if (v2.repetition_levels_byte_length < 0 || v2.definition_levels_byte_length < 0) {
        at.Throw("data page v2 with a negative level length");
      }
      const std::int64_t levels =
          std::int64_t{v2.repetition_levels_byte_length} + v2.definition_levels_byte_length;
      if (levels > h.compressed_page_size || levels > h.uncompressed_page_size) {
        at.Throw("data page v2 levels (" + Num(levels) + " bytes) exceed the page (compressed " +
                 Num(h.compressed_page_size) + ", uncompressed " + Num(h.uncompressed_page_size) +
                 " bytes)");
      }
      return;
    }
    case PageType::kDictionaryPage: {
      if (!h.dictionary_page_header) {
        at.Throw("DICTIONARY_PAGE header without dictionary_page_header");
      }
      const DictionaryPageHeader& d = *h.dictionary_page_header;
      if (d.num_values < 0) at.Throw("dictionary page with negative num_values");
      if (d.encoding != Encoding::kPlain && d.encoding != Encoding::kPlainDictionary) {
        at.Throw("dictionary page encoding " + ToString(d.encoding) +
                 " (only PLAIN and PLAIN_DICTIONARY are valid)");
      }
      return;
    }
    case PageType::kIndexPage:
      return;
  }
  at.Throw("unknown page type " + ToString(h.type));
}

}  // namespace

RawPage ParsePage(std::span<const std::byte> bytes, std::uint64_t offset,
                  const ErrorContext& context) {
  RawPage page;
  page.offset = offset;
  page.header = WithErrorContext(context, offset,
                                 [&] { return ReadThrift<PageHeader>(bytes, &page.header_size); });
  const ErrorContext at = context.WithOffset(offset);
  CheckHeader(page.header, at);
  const auto size = static_cast<std::uint64_t>(page.header.compressed_page_size);
  if (size > bytes.size() - page.header_size) {
    at.Throw("page of " + std::to_string(page.header_size) + " + " + std::to_string(size) +
             " bytes runs past the end of its column chunk or page index entry (" +
             std::to_string(bytes.size()) + " bytes left)");
  }
  page.body = bytes.subspan(page.header_size, size);
  return page;
}

void VerifyPageCrc(const RawPage& page, const ErrorContext& context) {
  if (!page.header.crc) return;
  const std::uint32_t actual = Crc32(page.body);
  const std::uint32_t expected = CrcFromThrift(*page.header.crc);
  if (actual != expected) {
    context.WithOffset(page.offset)
        .Throw("page CRC mismatch: header says " + std::to_string(expected) +
               ", the page bytes give " + std::to_string(actual));
  }
}

V2LevelBytes V2Levels(const RawPage& page) {
  const DataPageHeaderV2& v2 = *page.header.data_page_header_v2;
  const auto rep = static_cast<std::size_t>(v2.repetition_levels_byte_length);
  const auto def = static_cast<std::size_t>(v2.definition_levels_byte_length);
  return {page.body.subspan(0, rep), page.body.subspan(rep, def)};
}

std::span<const std::byte> PageDecompressor::Content(const RawPage& page, CompressionCodec codec,
                                                     const ErrorContext& context) {
  std::span<const std::byte> stored = page.body;
  std::int64_t uncompressed = page.header.uncompressed_page_size;
  if (page.header.type == PageType::kDataPageV2) {
    const DataPageHeaderV2& v2 = *page.header.data_page_header_v2;
    const std::int64_t levels =
        std::int64_t{v2.repetition_levels_byte_length} + v2.definition_levels_byte_length;
    stored = stored.subspan(static_cast<std::size_t>(levels));
    uncompressed -= levels;
    if (!v2.compressed()) codec = CompressionCodec::kUncompressed;
  }
  return WithErrorContext(context, page.offset, [&]() -> std::span<const std::byte> {
    CheckDecompressedSize(codec, static_cast<std::int64_t>(stored.size()), uncompressed);
    if (codec == CompressionCodec::kUncompressed) return stored;
    const auto size = static_cast<std::size_t>(uncompressed);
    if (!buffer_.Grow(size)) {
      const DecodeBudget& budget = *buffer_.budget();
      throw DecodeError("the page declares " + std::to_string(size) +
                        " uncompressed bytes; the reader's decoded buffers hold " +
                        std::to_string(budget.held()) + " bytes and may hold at most " +
                        std::to_string(budget.limit()) +
                        " (its decode budget, ReaderOptions::decode_budget_bytes)");
    }
    const std::span<std::byte> out(buffer_.data(), size);
    decompressor_.Decompress(codec, stored, out);
    bytes_decompressed_ += size;
    return out;
  });
}

}  // namespace timef::parquet
