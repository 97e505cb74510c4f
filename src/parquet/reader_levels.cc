#include "parquet/reader_levels.h"

#include <algorithm>
#include <bit>
#include <string>

#include "parquet/encoding_error.h"

namespace timef::parquet {

int LevelBitWidth(std::int16_t max_level) {
  return static_cast<int>(std::bit_width(static_cast<std::uint16_t>(max_level)));
}

LevelDecoder LevelDecoder::Rle(std::span<const std::byte> runs, std::int16_t max_level) {
  LevelDecoder decoder;
  decoder.max_level_ = max_level;
  if (max_level > 0) {
    decoder.kind_ = Kind::kRle;
    decoder.rle_ = RleBitPackedDecoder(runs, LevelBitWidth(max_level));
  }
  return decoder;
}

LevelDecoder LevelDecoder::BitPacked(std::span<const std::byte> data, std::int16_t max_level,
                                     std::size_t num_values) {
  LevelDecoder decoder;
  decoder.max_level_ = max_level;
  if (max_level > 0) {
    const std::size_t bytes =
        (num_values * static_cast<std::size_t>(LevelBitWidth(max_level)) + 7) / 8;
    if (bytes > data.size()) {
      throw DecodeError("BIT_PACKED levels: " + std::to_string(num_values) + " levels need " +
                        std::to_string(bytes) + " bytes, the page holds " +
                        std::to_string(data.size()));
    }
    decoder.kind_ = Kind::kBitPacked;
    decoder.packed_ = data.first(bytes);
  }
  return decoder;
}

void LevelDecoder::Decode(std::span<std::int16_t> out) {
  switch (kind_) {
    case Kind::kZero:
      std::fill(out.begin(), out.end(), std::int16_t{0});
      return;
    case Kind::kRle:
      rle_.Decode(out, max_level_);
      return;
    case Kind::kBitPacked: {
      // Values are MSB-first without alignment, but every 8th value starts a byte: decode from
      // the last such value and drop the (at most 7) values before the one wanted.
      const int width = LevelBitWidth(max_level_);
      const std::size_t aligned = packed_done_ & ~std::size_t{7};
      const std::size_t lead = packed_done_ - aligned;
      const std::size_t offset = aligned * static_cast<std::size_t>(width) / 8;
      const auto data = packed_.subspan(std::min(offset, packed_.size()));
      if (lead == 0) {
        DecodeLegacyBitPacked(data, width, out, max_level_);
      } else {
        bit_scratch_.resize(lead + out.size());
        DecodeLegacyBitPacked(data, width, bit_scratch_, max_level_);
        std::copy(bit_scratch_.begin() + static_cast<std::ptrdiff_t>(lead), bit_scratch_.end(),
                  out.begin());
      }
      packed_done_ += out.size();
      return;
    }
  }
}

namespace {

// Reads one v1 level section starting at `rest`; returns its decoder and advances `rest`.
LevelDecoder ReadV1Levels(std::span<const std::byte>& rest, Encoding encoding,
                          std::int16_t max_level, std::size_t num_values, const char* what) {
  if (max_level == 0) return LevelDecoder();
  if (encoding == Encoding::kRle) {
    const LengthPrefixed section = ReadLengthPrefix(rest);
    rest = rest.subspan(section.total_size);
    return LevelDecoder::Rle(section.body, max_level);
  }
  if (encoding == Encoding::kBitPacked) {
    LevelDecoder decoder = LevelDecoder::BitPacked(rest, max_level, num_values);
    const std::size_t bytes =
        (num_values * static_cast<std::size_t>(LevelBitWidth(max_level)) + 7) / 8;
    rest = rest.subspan(bytes);
    return decoder;
  }
  throw DecodeError(std::string(what) + " levels use encoding " + ToString(encoding) +
                    "; only RLE and BIT_PACKED are valid for levels");
}

}  // namespace

V1PageSections SplitV1Page(std::span<const std::byte> page, const DataPageHeader& header,
                           std::int16_t max_repetition_level, std::int16_t max_definition_level) {
  const auto num_values = static_cast<std::size_t>(header.num_values);
  std::span<const std::byte> rest = page;
  V1PageSections sections;
  sections.repetition = ReadV1Levels(rest, header.repetition_level_encoding, max_repetition_level,
                                     num_values, "repetition");
  sections.definition = ReadV1Levels(rest, header.definition_level_encoding, max_definition_level,
                                     num_values, "definition");
  sections.values = rest;
  return sections;
}

}  // namespace timef::parquet
