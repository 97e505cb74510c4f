// Repetition and definition levels of one data page: where each level stream lies in the page
// (data page v1 sections with their own encodings, or v2's raw RLE sections) and a decoder that
// hands the levels out in batches, so a page of any size needs only a batch of scratch memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "parquet/encoding_rle.h"
#include "parquet/metadata.h"

namespace timef::parquet {

// Decodes one level stream. A stream whose maximum level is 0 holds no bytes and yields zeros.
class LevelDecoder {
 public:
  LevelDecoder() = default;

  // The RLE/bit-packed hybrid without a length prefix (v2 sections, v1 after the prefix).
  static LevelDecoder Rle(std::span<const std::byte> runs, std::int16_t max_level);
  // Deprecated BIT_PACKED (MSB first) holding `num_values` levels.
  static LevelDecoder BitPacked(std::span<const std::byte> data, std::int16_t max_level,
                                std::size_t num_values);

  std::int16_t max_level() const { return max_level_; }

  // Writes the next out.size() levels. Throws DecodeError when the stream is malformed, ends
  // early, or holds a level above the maximum.
  void Decode(std::span<std::int16_t> out);

 private:
  enum class Kind { kZero, kRle, kBitPacked };
  Kind kind_ = Kind::kZero;
  std::int16_t max_level_ = 0;
  RleBitPackedDecoder rle_;
  std::span<const std::byte> packed_;
  std::size_t packed_done_ = 0;  // BIT_PACKED levels decoded so far
  std::vector<std::int16_t> bit_scratch_;
};

// Where the sections of a v1 data page lie: the levels (each with its encoding) and the values.
struct V1PageSections {
  LevelDecoder repetition;
  LevelDecoder definition;
  std::span<const std::byte> values;
};

// Splits an uncompressed v1 data page. Level streams exist only for a positive maximum level;
// their encoding must be RLE (4-byte length prefix) or BIT_PACKED. Throws DecodeError otherwise or
// when a section runs past the page.
V1PageSections SplitV1Page(std::span<const std::byte> page, const DataPageHeader& header,
                           std::int16_t max_repetition_level, std::int16_t max_definition_level);

// The level width for a maximum level (bits of max_level; 0 for 0).
int LevelBitWidth(std::int16_t max_level);

}  // namespace timef::parquet
