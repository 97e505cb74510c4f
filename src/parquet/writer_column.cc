#include "parquet/writer_column.h"

#include <algorithm>
#include <limits>

#include "parquet/encoding_bitpack.h"
#include "parquet/encoding_byte_stream_split.h"
#include "parquet/encoding_bytes.h"
#include "parquet/encoding_delta.h"
#include "parquet/encoding_plain.h"
#include "parquet/writer_page.h"

namespace timef::parquet {

struct ColumnChunkWriter::Extent {
  std::int64_t row_begin = 0;
  std::int64_t row_end = 0;
  std::int64_t slot_begin = 0;
  std::int64_t slot_end = 0;
  std::int64_t value_begin = 0;
  std::int64_t value_end = 0;
  std::int64_t num_levels = 0;

  std::int64_t num_values() const { return value_end - value_begin; }
};

namespace {

constexpr std::int64_t kMaxPageLevels = std::numeric_limits<std::int32_t>::max();

// An upper bound, in bits, of what RleBitPackedEncoder writes for a stream of values of `width`
// bits, kept up to date value run by value run. A run shorter than 8 is bit-packed; a longer one
// may top up the pending bit-packed group with up to 7 of its values and becomes an RLE run (a
// varint header and the value), ending the bit-packed run before it (whose header is charged
// here). A run of 8..15 may also end up bit-packed whole, hence the min(length, 15) values.
// Beyond the runs: a bit-packed header per 4096 values, the final one and the padding of the
// last group.
class HybridCost {
 public:
  explicit HybridCost(int width) : width_(width) {}

  void Add(std::uint32_t value, std::int64_t count) {
    if (count == 0 || width_ == 0) return;
    if (length_ > 0 && value == value_) {
      bits_ += RunBits(length_ + count) - RunBits(length_);
      length_ += count;
    } else {
      bits_ += RunBits(count);
      value_ = value;
      length_ = count;
    }
    values_ += count;
  }
  std::int64_t bits() const {
    if (width_ == 0) return 0;
    return bits_ + 16 * (1 + values_ / 4096) + 7 * width_;
  }

 private:
  std::int64_t RunBits(std::int64_t length) const {
    if (length < 8) return length * width_;
    std::int64_t varint_bytes = 1;
    for (std::uint64_t header = static_cast<std::uint64_t>(length) << 1; header >= 0x80;
         header >>= 7) {
      ++varint_bytes;
    }
    return std::min<std::int64_t>(length, 15) * width_ + 8 * varint_bytes + 8 * ((width_ + 7) / 8) +
           16;
  }

  int width_;
  std::uint32_t value_ = 0;
  std::int64_t length_ = 0;
  std::int64_t values_ = 0;
  std::int64_t bits_ = 0;
};

void AppendWithLength(std::span<const std::byte> runs, std::vector<std::byte>& out) {
  const auto length = static_cast<std::uint32_t>(runs.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>((length >> (8 * i)) & 0xFF));
  out.insert(out.end(), runs.begin(), runs.end());
}

bool IsFloating(StatsKind kind) { return kind == StatsKind::kFloat || kind == StatsKind::kDouble; }

}  // namespace

ColumnChunkWriter::ColumnChunkWriter(const ColumnDescriptor& column,
                                     const ColumnWriteOptions& column_options,
                                     const WriterOptions& options)
    : stage_(column, column_options, options.dictionary_limit_bytes, options.name),
      stats_kind_(StatsKindOf(column)),
      utf8_(IsUtf8Column(column)),
      width_(static_cast<std::size_t>(SlotWidth(column.physical_type, column.type_length))),
      max_definition_(column.max_definition_level()),
      max_repetition_(column.max_repetition_level()),
      // In bits; a target past what int64 bits can count (data_page_target_bytes has no upper
      // limit) means no limit.
      target_bits_(
          std::min(options.data_page_target_bytes, std::numeric_limits<std::int64_t>::max() / 8) *
          8),
      page_version_(options.data_page_version),
      truncate_bytes_(options.statistics_truncate_bytes),
      output_name_(options.name),
      definition_encoder_(BitWidth(static_cast<std::uint64_t>(column.max_definition_level()))) {}

ColumnChunkWriter::Extent ColumnChunkWriter::NextPage(Cursor& cursor) const {
  const ColumnDescriptor& column = stage_.column();
  const auto row_offsets = stage_.row_offsets();
  const auto row_present = stage_.row_present();
  const auto slot_present = stage_.slot_present();
  const auto present_level = static_cast<std::uint32_t>(max_definition_);
  const std::uint32_t empty_level = column.nullable ? 1 : 0;
  const Encoding encoding = stage_.encoding();
  const bool dictionary = stage_.dictionary_encoded();
  const bool byte_arrays = column.physical_type == Type::kByteArray && !dictionary;
  const std::span<const std::int64_t> byte_offsets = stage_.byte_array_values().offsets;
  const std::span<const std::uint32_t> indices = stage_.indices();

  // Bits per value at its encoded width (dictionary indices are costed run by run), plus what a
  // page carries besides levels and values.
  std::int64_t value_bits = static_cast<std::int64_t>(width_) * 8;
  std::int64_t fixed_bits = 0;
  if (dictionary) {
    value_bits = 0;
    fixed_bits += 8;  // the bit-width byte
  } else if (column.physical_type == Type::kBoolean) {
    value_bits = encoding == Encoding::kRle ? 0 : 1;  // RLE: costed run by run
    fixed_bits += 7;                                  // PLAIN: the last byte's padding
  } else if (byte_arrays) {
    value_bits = encoding == Encoding::kDeltaByteArray ? 64 : 32;  // lengths (and prefixes)
  } else if (encoding == Encoding::kDeltaByteArray) {
    value_bits += 64;
  }
  const bool value_runs = dictionary || encoding == Encoding::kRle;
  if (encoding == Encoding::kRle) fixed_bits += 32;  // length prefix of RLE booleans
  if (page_version_ == DataPageVersion::kV1) {
    if (max_repetition_ > 0) fixed_bits += 32;
    if (max_definition_ > 0) fixed_bits += 32;
  }
  const std::span<const std::byte> booleans = stage_.fixed_values();

  Extent page;
  page.row_begin = page.row_end = cursor.row;
  page.slot_begin = page.slot_end = cursor.slot;
  page.value_begin = page.value_end = cursor.value;
  HybridCost repetition(max_repetition_ > 0 ? 1 : 0);
  HybridCost definition(BitWidth(static_cast<std::uint64_t>(max_definition_)));
  HybridCost runs(dictionary ? index_bit_width_ : (encoding == Encoding::kRle ? 1 : 0));
  std::int64_t data_bits = 0;
  bool large_page = false;  // the page holds a large row (below)
  const std::int64_t num_rows = stage_.num_rows();
  while (page.row_end < num_rows) {
    const auto r = static_cast<std::size_t>(page.row_end);
    HybridCost row_repetition = repetition;
    HybridCost row_definition = definition;
    std::int64_t slots = 1;
    std::int64_t levels = 1;
    std::int64_t present = 1;
    if (!column.is_list) {
      if (!slot_present.empty()) present = slot_present[r];
      row_definition.Add(static_cast<std::uint32_t>(present), 1);
    } else {
      slots = row_offsets[r + 1] - row_offsets[r];
      row_repetition.Add(0, 1);
      if (!row_present.empty() && row_present[r] == 0) {
        present = 0;
        row_definition.Add(0, 1);
      } else if (slots == 0) {
        present = 0;
        row_definition.Add(empty_level, 1);
      } else {
        levels = slots;
        row_repetition.Add(1, slots - 1);
        if (slot_present.empty()) {
          present = slots;
          row_definition.Add(present_level, slots);
        } else {
          present = 0;
          const auto first = static_cast<std::size_t>(page.slot_end);
          for (std::size_t s = first; s < first + static_cast<std::size_t>(slots); ++s) {
            present += slot_present[s];
            row_definition.Add(slot_present[s] != 0 ? present_level : present_level - 1, 1);
          }
        }
      }
    }
    std::int64_t row_data_bits = present * value_bits;
    const auto v = static_cast<std::size_t>(page.value_end);
    const auto n = static_cast<std::size_t>(present);
    if (byte_arrays && present > 0) row_data_bits += 8 * (byte_offsets[v + n] - byte_offsets[v]);
    HybridCost row_runs = runs;
    if (value_runs) {
      for (std::size_t i = v; i < v + n; ++i) {
        row_runs.Add(dictionary ? indices[i] : std::to_integer<std::uint32_t>(booleans[i]), 1);
      }
    }
    // What the row adds to the page; a row of at least a quarter of the target is large: it gets
    // a page of its own, so a one-row read decodes no other row (docs/format.md §7.4).
    const std::int64_t row_bits = row_repetition.bits() - repetition.bits() +
                                  row_definition.bits() - definition.bits() + row_data_bits +
                                  row_runs.bits() - runs.bits();
    const bool large_row = row_bits * 4 >= target_bits_;
    if (page.row_end > page.row_begin) {
      const std::int64_t bits = fixed_bits + row_repetition.bits() + row_definition.bits() +
                                data_bits + row_data_bits + row_runs.bits();
      if (bits > target_bits_ || large_row || large_page ||
          page.num_levels + levels > kMaxPageLevels) {
        break;
      }
    }
    large_page = large_row;
    repetition = row_repetition;
    definition = row_definition;
    runs = row_runs;
    data_bits += row_data_bits;
    ++page.row_end;
    page.slot_end += slots;
    page.value_end += present;
    page.num_levels += levels;
  }
  cursor = {page.row_end, page.slot_end, page.value_end};
  return page;
}

void ColumnChunkWriter::EncodeLevels(const Extent& page) {
  repetition_.clear();
  definition_.clear();
  const ColumnDescriptor& column = stage_.column();
  const auto slot_present = stage_.slot_present();
  if (!column.is_list) {
    if (max_definition_ > 0) {
      definition_encoder_.Put(
          slot_present.subspan(static_cast<std::size_t>(page.row_begin),
                               static_cast<std::size_t>(page.row_end - page.row_begin)));
      definition_encoder_.Finish(definition_);
    }
    return;
  }
  const auto row_offsets = stage_.row_offsets();
  const auto row_present = stage_.row_present();
  const auto present_level = static_cast<std::uint32_t>(max_definition_);
  const std::uint32_t empty_level = column.nullable ? 1 : 0;
  for (auto r = static_cast<std::size_t>(page.row_begin);
       r < static_cast<std::size_t>(page.row_end); ++r) {
    const std::int64_t slots = row_offsets[r + 1] - row_offsets[r];
    repetition_encoder_.Put(0);
    if (!row_present.empty() && row_present[r] == 0) {
      definition_encoder_.Put(0);
      continue;
    }
    if (slots == 0) {
      definition_encoder_.Put(empty_level);
      continue;
    }
    repetition_encoder_.PutRepeated(1, static_cast<std::size_t>(slots - 1));
    if (slot_present.empty()) {
      definition_encoder_.PutRepeated(present_level, static_cast<std::size_t>(slots));
    } else {
      const auto first = static_cast<std::size_t>(row_offsets[r]);
      for (std::size_t s = first; s < first + static_cast<std::size_t>(slots); ++s) {
        definition_encoder_.Put(slot_present[s] != 0 ? present_level : present_level - 1);
      }
    }
  }
  repetition_encoder_.Finish(repetition_);
  definition_encoder_.Finish(definition_);
}

void ColumnChunkWriter::EncodeValues(const Extent& page, std::vector<std::byte>& out) {
  const auto begin = static_cast<std::size_t>(page.value_begin);
  const auto count = static_cast<std::size_t>(page.num_values());
  const Type type = stage_.column().physical_type;
  // Made only by the encodings of fixed-width values: a byte-array or dictionary-encoded column
  // stages none, and a subspan past an empty span's end is undefined.
  const auto fixed = [&] { return stage_.fixed_values().subspan(begin * width_, count * width_); };
  const auto strings = [&] { return stage_.byte_array_values().Slice(begin, begin + count); };
  switch (stage_.encoding()) {
    case Encoding::kRleDictionary: {
      out.push_back(static_cast<std::byte>(index_bit_width_));
      AppendRleBitPacked(stage_.indices().subspan(begin, count), index_bit_width_, out);
      return;
    }
    case Encoding::kPlain:
      if (type == Type::kBoolean) {
        AppendPlainBooleans(As<std::uint8_t>(fixed()), out);
      } else if (type == Type::kByteArray) {
        AppendPlainByteArrays(strings(), out);
      } else {
        const auto bytes = fixed();
        out.insert(out.end(), bytes.begin(), bytes.end());
      }
      return;
    case Encoding::kRle:
      AppendRleBooleans(As<std::uint8_t>(fixed()), out);
      return;
    case Encoding::kDeltaBinaryPacked:
      if (type == Type::kInt32) {
        AppendDeltaBinaryPacked(As<std::int32_t>(fixed()), out);
      } else {
        AppendDeltaBinaryPacked(As<std::int64_t>(fixed()), out);
      }
      return;
    case Encoding::kDeltaLengthByteArray:
      AppendDeltaLengthByteArray(strings(), out);
      return;
    case Encoding::kDeltaByteArray:
      if (type == Type::kByteArray) {
        AppendDeltaByteArray(strings(), out);
      } else {
        scratch_offsets_.resize(count + 1);
        for (std::size_t i = 0; i <= count; ++i) {
          scratch_offsets_[i] = static_cast<std::int64_t>(i * width_);
        }
        AppendDeltaByteArray(ByteArraysView{scratch_offsets_, fixed().data()}, out);
      }
      return;
    case Encoding::kByteStreamSplit:
      if (type == Type::kFloat) {
        AppendByteStreamSplit(As<float>(fixed()), out);
      } else {
        AppendByteStreamSplit(As<double>(fixed()), out);
      }
      return;
    default:
      break;  // excluded by ValidateColumnOptions
  }
}

ValueBounds ColumnChunkWriter::PageBounds(const Extent& page) const {
  if (stats_kind_ == StatsKind::kNone) return {};
  const auto begin = static_cast<std::size_t>(page.value_begin);
  const auto count = static_cast<std::size_t>(page.num_values());
  const bool strings = stage_.column().physical_type == Type::kByteArray;
  if (stage_.dictionary_encoded()) {
    const auto indices = stage_.indices().subspan(begin, count);
    if (strings) return ByteArrayBounds(stage_.byte_array_dictionary(), indices);
    return FixedWidthBounds(stats_kind_, width_, stage_.fixed_dictionary(), indices);
  }
  if (strings) return ByteArrayBounds(stage_.byte_array_values().Slice(begin, begin + count));
  return FixedWidthBounds(stats_kind_, width_,
                          stage_.fixed_values().subspan(begin * width_, count * width_));
}

EncodedChunk ColumnChunkWriter::Encode(CompressionCodec codec) {
  const ColumnDescriptor& column = stage_.column();
  const bool dictionary = stage_.dictionary_encoded();
  const Encoding encoding = stage_.encoding();
  const bool floating = IsFloating(stats_kind_);

  ColumnMetaData meta;
  meta.type = column.physical_type;
  meta.path_in_schema = StandardPathInSchema(column);
  meta.codec = codec;
  std::vector<PageEncodingStats> encoding_stats;

  // Every page of the chunk, the dictionary page first; the file writer compresses and stores them
  // (StoreChunk).
  EncodedChunk result;
  std::vector<PendingPage>& pages = result.pages;
  result.has_dictionary_page = dictionary;
  if (dictionary) {
    const std::size_t entries = stage_.dictionary_size();
    // Width 1 at least, as most writers do, so that no reader meets a zero-width index stream.
    index_bit_width_ = std::max(1, BitWidth(entries > 0 ? entries - 1 : 0));
    dictionary_page_.clear();
    stage_.AppendDictionaryPage(dictionary_page_);
    pages.push_back(MakeDictionaryPage(dictionary_page_, static_cast<std::int32_t>(entries),
                                       output_name_, column.name));
    encoding_stats.push_back({PageType::kDictionaryPage, Encoding::kPlain, 1});
  }

  ColumnIndex index;
  bool index_valid = stats_kind_ != StatsKind::kNone;
  ValueBounds chunk_bounds;
  std::vector<std::int64_t>& first_rows = result.first_rows;
  Cursor cursor;
  while (cursor.row < stage_.num_rows()) {
    const Extent extent = NextPage(cursor);
    EncodeLevels(extent);
    const auto num_levels = static_cast<std::int32_t>(extent.num_levels);
    const auto num_nulls = static_cast<std::int32_t>(extent.num_levels - extent.num_values());
    body_.clear();
    if (page_version_ == DataPageVersion::kV1) {
      if (max_repetition_ > 0) AppendWithLength(repetition_, body_);
      if (max_definition_ > 0) AppendWithLength(definition_, body_);
      EncodeValues(extent, body_);
      pages.push_back(MakeDataPageV1(body_, num_levels, encoding, output_name_, column.name));
    } else {
      body_.insert(body_.end(), repetition_.begin(), repetition_.end());
      body_.insert(body_.end(), definition_.begin(), definition_.end());
      values_.clear();
      EncodeValues(extent, values_);
      pages.push_back(MakeDataPageV2(
          body_, static_cast<std::int32_t>(repetition_.size()), values_, num_levels, num_nulls,
          static_cast<std::int32_t>(extent.row_end - extent.row_begin), encoding,
          codec != CompressionCodec::kUncompressed, output_name_, column.name));
    }
    first_rows.push_back(extent.row_begin);
    meta.num_values += extent.num_levels;

    const ValueBounds bounds = PageBounds(extent);
    MergeBounds(stats_kind_, bounds, chunk_bounds);
    const bool null_page = extent.num_values() == 0;
    index.null_pages.push_back(null_page);
    if (!index.null_counts) index.null_counts.emplace();
    index.null_counts->push_back(num_nulls);
    if (floating) {
      if (!index.nan_counts) index.nan_counts.emplace();
      index.nan_counts->push_back(bounds.nan_count);
    }
    if (null_page || !bounds.has_bounds) {
      if (!null_page) index_valid = false;  // only NaN: no valid bounds exist
      index.min_values.emplace_back();
      index.max_values.emplace_back();
    } else if (column.physical_type == Type::kByteArray) {
      index.min_values.push_back(
          TruncateMin(bounds.min, truncate_bytes_, utf8_).value_or(bounds.min));
      index.max_values.push_back(
          TruncateMax(bounds.max, truncate_bytes_, utf8_).value_or(bounds.max));
    } else {
      index.min_values.push_back(bounds.min);
      index.max_values.push_back(bounds.max);
    }
  }
  const auto data_pages = static_cast<std::int32_t>(first_rows.size());

  Statistics statistics;
  statistics.null_count = meta.num_values - stage_.num_values();
  if (floating) statistics.nan_count = chunk_bounds.nan_count;
  if (stats_kind_ != StatsKind::kNone && chunk_bounds.has_bounds) {
    const bool bytes = column.physical_type == Type::kByteArray;
    auto min = bytes ? TruncateMin(chunk_bounds.min, truncate_bytes_, utf8_) : std::nullopt;
    auto max = bytes ? TruncateMax(chunk_bounds.max, truncate_bytes_, utf8_) : std::nullopt;
    statistics.is_min_value_exact = !min.has_value();
    statistics.is_max_value_exact = !max.has_value();
    statistics.min_value = min ? std::move(*min) : std::move(chunk_bounds.min);
    statistics.max_value = max ? std::move(*max) : std::move(chunk_bounds.max);
  }
  meta.statistics = std::move(statistics);

  std::vector<Encoding> encodings;
  if (dictionary) encodings.push_back(Encoding::kPlain);
  encodings.push_back(encoding);
  if (max_definition_ > 0 || max_repetition_ > 0) encodings.push_back(Encoding::kRle);
  std::sort(encodings.begin(), encodings.end());
  encodings.erase(std::unique(encodings.begin(), encodings.end()), encodings.end());
  meta.encodings = std::move(encodings);
  encoding_stats.push_back(
      {page_version_ == DataPageVersion::kV1 ? PageType::kDataPage : PageType::kDataPageV2,
       encoding, data_pages});
  meta.encoding_stats = std::move(encoding_stats);

  if (index_valid) {
    index.boundary_order =
        ComputeBoundaryOrder(stats_kind_, index.null_pages, index.min_values, index.max_values);
    result.metadata.column_index = std::move(index);
  }
  result.metadata.chunk.file_offset = 0;
  result.metadata.chunk.meta_data = std::move(meta);
  stage_.Reset();
  return result;
}

WrittenChunk StoreChunk(EncodedChunk& encoded, PageSink& sink) {
  WrittenChunk& result = encoded.metadata;
  ColumnMetaData& meta = *result.chunk.meta_data;
  const bool dictionary = encoded.has_dictionary_page;
  for (std::size_t i = 0; i < encoded.pages.size(); ++i) {
    const WrittenPage page = sink.Emit(encoded.pages[i]);
    meta.total_uncompressed_size += page.header_bytes + page.uncompressed_bytes;
    meta.total_compressed_size += page.total_bytes();
    if (dictionary && i == 0) {
      meta.dictionary_page_offset = page.offset;
      continue;
    }
    const std::size_t data_index = dictionary ? i - 1 : i;
    if (data_index == 0) meta.data_page_offset = page.offset;
    result.offset_index.page_locations.push_back({page.offset,
                                                  static_cast<std::int32_t>(page.total_bytes()),
                                                  encoded.first_rows[data_index]});
  }
  encoded.pages.clear();
  return std::move(result);
}

}  // namespace timef::parquet
