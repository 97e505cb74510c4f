#include "parquet/reader_column.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "parquet/encoding_error.h"

namespace timef::parquet {
namespace {

// Levels decoded per step: bounds the scratch memory whatever a page claims to hold.
constexpr std::size_t kBatch = 4096;

Encoding DataPageEncoding(const PageHeader& h) {
  return h.type == PageType::kDataPageV2 ? h.data_page_header_v2->encoding
                                         : h.data_page_header->encoding;
}

std::int64_t DataPageValues(const PageHeader& h) {
  return h.type == PageType::kDataPageV2 ? h.data_page_header_v2->num_values
                                         : h.data_page_header->num_values;
}

// Moves the `present` dense values at the front of `base` to the valid ones of `slots` slots of
// W bytes, zero-filling the others. Walks backwards, so it works in place.
template <std::size_t W>
void SpreadFixed(std::byte* base, std::size_t slots, std::size_t present,
                 const std::uint8_t* validity) {
  std::size_t dense = present;
  for (std::size_t s = slots; s-- > 0;) {
    if (validity[s]) {
      --dense;
      if (dense != s) std::memcpy(base + s * W, base + dense * W, W);
    } else {
      std::memset(base + s * W, 0, W);
    }
  }
}

void SpreadFixedAnyWidth(std::byte* base, std::size_t width, std::size_t slots, std::size_t present,
                         const std::uint8_t* validity) {
  std::size_t dense = present;
  for (std::size_t s = slots; s-- > 0;) {
    if (validity[s]) {
      --dense;
      if (dense != s) std::memmove(base + s * width, base + dense * width, width);
    } else {
      std::memset(base + s * width, 0, width);
    }
  }
}

// The byte-array counterpart: `offsets` ends with the 1 + present offsets of the new values
// (start, then each end); afterwards it ends with 1 + slots offsets, null slots being empty.
void SpreadOffsets(std::vector<std::int64_t>& offsets, std::size_t slots, std::size_t present,
                   const std::uint8_t* validity) {
  const std::size_t base = offsets.size() - 1 - present;
  offsets.resize(base + 1 + slots);
  std::int64_t* o = offsets.data() + base;
  std::size_t dense = present;
  for (std::size_t s = slots; s-- > 0;) {
    o[s + 1] = o[dense];
    if (validity[s]) --dense;
  }
}

// The first k in [from, m) with rep[k] == 0 (a row start), else m. Rows here run to thousands
// of levels, so the search looks at blocks of 32 levels with a branch-free test the compiler
// vectorizes before it looks at single levels.
std::size_t NextRowStart(const std::int16_t* rep, std::size_t from, std::size_t m) {
  constexpr std::size_t kBlock = 32;
  std::size_t k = from;
  while (k + kBlock <= m) {
    int zero = 0;
    for (std::size_t i = 0; i < kBlock; ++i) zero |= rep[k + i] == 0 ? 1 : 0;
    if (zero != 0) break;
    k += kBlock;
  }
  while (k < m && rep[k] != 0) ++k;
  return k;
}

}  // namespace

ErrorContext ColumnChunkReader::PageContext(const RawPage& page) const {
  return info_->context.WithOffset(page.offset);
}

std::span<const std::byte> ReadFileRange(const RandomAccessFile& file, std::uint64_t offset,
                                         std::uint64_t length, std::vector<std::byte>& scratch,
                                         ReaderStats& stats, const ErrorContext& context) {
  if (offset > file.size() || length > file.size() - offset) {
    context.WithOffset(offset).Throw("range of " + std::to_string(length) +
                                     " bytes runs past the end of the " +
                                     std::to_string(file.size()) + "-byte file");
  }
  ++stats.io_reads;
  stats.io_bytes += length;
  if (auto view = file.View(offset, length)) return *view;
  if (scratch.size() < length) scratch.resize(length);
  const std::span<std::byte> out(scratch.data(), length);
  file.ReadAt(offset, out);
  return out;
}

std::span<const std::byte> ColumnChunkReader::ReadBytes(std::uint64_t offset, std::uint64_t length,
                                                        std::vector<std::byte>& scratch) {
  return ReadFileRange(file_, offset, length, scratch, stats_, info_->context);
}

std::span<const std::byte> ColumnChunkReader::Content(const RawPage& page) {
  const std::uint64_t before = decompressor_.bytes_decompressed();
  const auto content = decompressor_.Content(page, info_->codec, info_->context);
  stats_.bytes_decompressed += decompressor_.bytes_decompressed() - before;
  return content;
}

void ColumnChunkReader::Read(const ChunkInfo& info, const OffsetIndex* index, std::int64_t first,
                             std::int64_t last, ColumnData& out) {
  // What stays between reads: the parked pages and a buffer of at most a parked page's size.
  struct TrimAfter {
    PageDecompressor& decompressor;
    ~TrimAfter() { decompressor.Trim(kMaxParkedPageBytes); }
  } trim_after{decompressor_};
  info_ = &info;
  const ColumnDescriptor& column = *info.column;
  width_ = SlotWidth(column.physical_type, column.type_length);
  out.Clear();
  out.physical_type = column.physical_type;
  out.type_length = column.physical_type == Type::kFixedLenByteArray ? column.type_length : 0;
  if (column.physical_type == Type::kByteArray) out.byte_offsets.push_back(0);
  slots_ = 0;
  if (dictionary_key_ != info.key) {
    dictionary_.reset();
    dictionary_key_ = info.key;
  }
  if (first < last) {
    if (index != nullptr) {
      ReadIndexedPages(*index, first, last, column.is_list ? FindParked(first) : nullptr, out);
    } else {
      ScanChunk(first, last, out);
    }
  }
  if (column.is_list) {
    out.list_offsets.push_back(slots_);
    out.num_rows = static_cast<std::int64_t>(out.list_offsets.size()) - 1;
  } else {
    out.num_rows = slots_;
  }
  if (out.num_rows != last - first) {
    info.context.WithOffset(info.range.offset)
        .Throw("the column chunk's pages hold " + std::to_string(out.num_rows) + " of the " +
               std::to_string(last - first) + " rows requested from [" + std::to_string(first) +
               ", " + std::to_string(last) + ")");
  }
}

void ColumnChunkReader::ScanChunk(std::int64_t first, std::int64_t last, ColumnData& out) {
  const ChunkInfo& info = *info_;
  const bool list = info.column->is_list;
  const auto chunk = ReadBytes(info.range.offset, info.range.length, page_bytes_);
  std::size_t pos = 0;
  std::int64_t rows_before = 0;  // rows started in the pages before this one
  std::int64_t values_seen = 0;
  bool seen_data = false;
  bool seen_dictionary = false;
  bool stopped = false;
  while (pos < chunk.size()) {
    const RawPage page = ParsePage(chunk.subspan(pos), info.range.offset + pos, info.context);
    pos += page.total_size();
    const PageType type = page.header.type;
    if (type == PageType::kIndexPage) continue;
    if (type == PageType::kDictionaryPage) {
      if (seen_data || seen_dictionary) {
        PageContext(page).Throw("a dictionary page must be the first page of its column chunk");
      }
      seen_dictionary = true;
      if (!HaveDictionary()) LoadDictionaryPage(page);
      continue;
    }
    seen_data = true;
    const bool v2 = type == PageType::kDataPageV2;
    values_seen += DataPageValues(page.header);
    // A v1 page of a list may begin with the rest of the previous page's last row.
    const bool may_continue_row = list && !v2;
    if (rows_before > last || (rows_before == last && !may_continue_row)) {
      stopped = true;
      break;
    }
    std::int64_t page_rows = -1;  // known from the header alone?
    if (!list) {
      page_rows = DataPageValues(page.header);
    } else if (v2) {
      page_rows = page.header.data_page_header_v2->num_rows;
    }
    if (page_rows < 0 && rows_before < first) page_rows = CountPageRows(page, rows_before == 0);
    if (page_rows >= 0 && rows_before + page_rows <= first) {
      ++stats_.data_pages_skipped;
      rows_before += page_rows;
      continue;
    }
    const PageResult result =
        DecodeDataPage(page, rows_before, first, last, rows_before == 0 || v2, out);
    if (!result.complete) {
      stopped = true;
      break;
    }
    if (v2 && result.rows_started != page.header.data_page_header_v2->num_rows) {
      PageContext(page).Throw("data page v2 says num_rows " +
                              std::to_string(page.header.data_page_header_v2->num_rows) +
                              " but its levels start " + std::to_string(result.rows_started));
    }
    rows_before += result.rows_started;
  }
  if (stopped) return;
  const ErrorContext at = info.context.WithOffset(info.range.offset);
  if (values_seen != info.num_values) {
    at.Throw("the column chunk's data pages hold " + std::to_string(values_seen) +
             " values, its metadata says " + std::to_string(info.num_values));
  }
  if (rows_before != info.num_rows) {
    at.Throw("the column chunk's data pages hold " + std::to_string(rows_before) +
             " rows, the row group has " + std::to_string(info.num_rows));
  }
}

void ColumnChunkReader::ReadIndexedPages(const OffsetIndex& index, std::int64_t first,
                                         std::int64_t last, ParkedPage* resume, ColumnData& out) {
  const ChunkInfo& info = *info_;
  const auto& locations = index.page_locations;
  PageSpan span = PagesForRows(index, first, last);
  if (span.begin >= span.end) return;
  if (resume != nullptr && resume->page == span.begin) {
    // The page an earlier read stopped in: its decoders stand at row `first`.
    Unpark(*resume);
    ++stats_.data_pages_resumed;
    const std::size_t p = span.begin;
    const std::int64_t page_rows =
        PageEndRow(index, p, info.num_rows) - locations[p].first_row_index;
    const PageResult result =
        WithErrorContext(info.context, static_cast<std::uint64_t>(locations[p].offset),
                         [&] { return DecodeList(first, last, true, out); });
    if (!result.complete) {
      Park(p, last);
      return;
    }
    CheckPageRows(static_cast<std::uint64_t>(locations[p].offset), result, page_rows);
    if (++span.begin >= span.end) return;
  }
  const auto begin = static_cast<std::uint64_t>(locations[span.begin].offset);
  const auto end = static_cast<std::uint64_t>(locations[span.end - 1].offset) +
                   static_cast<std::uint64_t>(locations[span.end - 1].compressed_page_size);
  const auto bytes = ReadBytes(begin, end - begin, page_bytes_);
  for (std::size_t p = span.begin; p < span.end; ++p) {
    const PageLocation& location = locations[p];
    const auto at = static_cast<std::uint64_t>(location.offset);
    const RawPage page = ParsePage(
        bytes.subspan(at - begin, static_cast<std::size_t>(location.compressed_page_size)), at,
        info.context);
    if (page.total_size() != static_cast<std::size_t>(location.compressed_page_size)) {
      PageContext(page).Throw("page of " + std::to_string(page.total_size()) +
                              " bytes, but the offset index says " +
                              std::to_string(location.compressed_page_size));
    }
    const PageType type = page.header.type;
    if (type != PageType::kDataPage && type != PageType::kDataPageV2) {
      PageContext(page).Throw("offset index entry " + std::to_string(p) + " points at a " +
                              ToString(type) + ", not a data page");
    }
    const std::int64_t page_first = location.first_row_index;
    const std::int64_t page_rows = PageEndRow(index, p, info.num_rows) - page_first;
    const bool v2 = type == PageType::kDataPageV2;
    if (!info.column->is_list && DataPageValues(page.header) != page_rows) {
      PageContext(page).Throw("data page holds " + std::to_string(DataPageValues(page.header)) +
                              " values, the offset index says " + std::to_string(page_rows) +
                              " rows");
    }
    if (v2 && page.header.data_page_header_v2->num_rows != page_rows) {
      PageContext(page).Throw("data page v2 says num_rows " +
                              std::to_string(page.header.data_page_header_v2->num_rows) +
                              ", the offset index says " + std::to_string(page_rows));
    }
    if (IsDictionaryEncoding(DataPageEncoding(page.header))) {
      EnsureDictionaryBefore(static_cast<std::uint64_t>(locations.front().offset));
    }
    const PageResult result = DecodeDataPage(page, page_first, first, last, true, out);
    CheckPageRows(page.offset, result, page_rows);
    // Only the last page of the span can stop early, and only a list page keeps its place.
    if (!result.complete && info.column->is_list) Park(p, last);
  }
}

void ColumnChunkReader::CheckPageRows(std::uint64_t offset, const PageResult& result,
                                      std::int64_t page_rows) const {
  if (result.complete && result.rows_started != page_rows) {
    info_->context.WithOffset(offset).Throw(
        "data page starts " + std::to_string(result.rows_started) +
        " rows, the offset index says " + std::to_string(page_rows));
  }
}

ColumnChunkReader::ParkedPage* ColumnChunkReader::FindParked(std::int64_t first) {
  for (ParkedPage& parked : parked_) {
    if (parked.used && parked.key == info_->key && parked.next_row == first) return &parked;
  }
  return nullptr;
}

void ColumnChunkReader::Park(std::size_t page, std::int64_t next_row) {
  if (!page_parkable_) return;
  const bool owns = page_owned_;
  if (page_bytes_size_ > kMaxParkedPageBytes) return;
  if (parked_.size() < kParkedPages) {
    parked_.resize(kParkedPages);
    for (ParkedPage& slot : parked_) slot.content.set_budget(decompressor_.budget());
  }
  // The slot: one that holds this page already, else a free one, else the oldest.
  ParkedPage* slot = nullptr;
  for (ParkedPage& parked : parked_) {
    if (parked.used && parked.key == info_->key && parked.page == page) {
      slot = &parked;
      break;
    }
  }
  if (slot == nullptr) {
    for (ParkedPage& parked : parked_) {
      if (slot == nullptr || !parked.used || (slot->used && parked.parked_at < slot->parked_at)) {
        slot = &parked;
        if (!parked.used) break;
      }
    }
  }
  slot->used = true;
  slot->key = info_->key;
  slot->page = page;
  slot->next_row = next_row;
  slot->parked_at = ++parks_;
  slot->owns_content = owns;
  // The page's bytes go with it; decompressor_ reuses the slot's old buffer.
  if (owns) decompressor_.SwapBuffer(slot->content);
  slot->dictionary = dictionary_;
  std::swap(slot->values, values_);
  std::swap(slot->repetition, repetition_);
  std::swap(slot->definition, definition_);
  slot->list = list_;
  slot->rep_batch.swap(rep_batch_);
  slot->def_batch.swap(def_batch_);
}

void ColumnChunkReader::Unpark(ParkedPage& parked) {
  if (parked.owns_content) decompressor_.SwapBuffer(parked.content);
  dictionary_ = std::move(parked.dictionary);
  dictionary_key_ = parked.key;
  std::swap(parked.values, values_);
  std::swap(parked.repetition, repetition_);
  std::swap(parked.definition, definition_);
  list_ = parked.list;
  parked.rep_batch.swap(rep_batch_);
  parked.def_batch.swap(def_batch_);
  page_parkable_ = true;
  page_owned_ = parked.owns_content;
  parked.used = false;
}

void ColumnChunkReader::LoadDictionaryPage(const RawPage& page) {
  const ChunkInfo& info = *info_;
  ++stats_.dictionary_pages_decoded;
  if (verify_crc_) VerifyPageCrc(page, info.context);
  const auto content = Content(page);
  const auto count = static_cast<std::size_t>(page.header.dictionary_page_header->num_values);
  auto dictionary = std::make_shared<Dictionary>();
  WithErrorContext(info_->context, page.offset, [&] {
    dictionary->Load(info.column->physical_type, info.column->type_length, content, count);
  });
  dictionary_ = dictionary;
  // Only a dictionary that decoded (and passed its CRC) is kept.
  if (cache_ != nullptr) {
    cache_->Put({file_id_, info.key.first, info.key.second}, std::move(dictionary));
  }
}

bool ColumnChunkReader::HaveDictionary() {
  if (dictionary_) return true;
  if (cache_ == nullptr || info_->key.first < 0) return false;
  dictionary_ = cache_->Find({file_id_, info_->key.first, info_->key.second});
  return dictionary_ != nullptr;
}

void ColumnChunkReader::EnsureDictionaryBefore(std::uint64_t first_data_page) {
  if (HaveDictionary()) return;
  const ChunkInfo& info = *info_;
  const std::uint64_t start = info.range.offset;
  if (first_data_page > start) {
    const auto bytes = ReadBytes(start, first_data_page - start, dictionary_bytes_);
    std::size_t pos = 0;
    while (pos < bytes.size()) {
      const RawPage page = ParsePage(bytes.subspan(pos), start + pos, info.context);
      pos += page.total_size();
      if (page.header.type == PageType::kDictionaryPage) {
        LoadDictionaryPage(page);
        return;
      }
      if (page.header.type != PageType::kIndexPage) {
        PageContext(page).Throw("a " + ToString(page.header.type) +
                                " precedes the first page of the offset index");
      }
    }
  }
  info.context.WithOffset(start).Throw(
      "data pages use a dictionary encoding but the column chunk has no dictionary page");
}

std::size_t ColumnChunkReader::StartDataPage(const RawPage& page, bool with_values) {
  const ChunkInfo& info = *info_;
  const ColumnDescriptor& column = *info.column;
  if (DataPageValues(page.header) > kMaxPageValues) {
    throw DecodeError("data page declares " + std::to_string(DataPageValues(page.header)) +
                      " values, more than the reader's limit of " + std::to_string(kMaxPageValues));
  }
  const auto content = Content(page);
  const std::int16_t max_rep = column.max_repetition_level();
  const std::int16_t max_def = column.max_definition_level();
  std::span<const std::byte> values;
  Encoding encoding;
  std::size_t num_values;
  if (page.header.type == PageType::kDataPageV2) {
    const DataPageHeaderV2& h = *page.header.data_page_header_v2;
    const V2LevelBytes levels = V2Levels(page);
    repetition_ = LevelDecoder::Rle(levels.repetition, max_rep);
    definition_ = LevelDecoder::Rle(levels.definition, max_def);
    values = content;
    encoding = h.encoding;
    num_values = static_cast<std::size_t>(h.num_values);
    if (max_rep == 0 && h.num_rows != h.num_values) {
      throw DecodeError("data page v2 of a flat column has num_rows " + std::to_string(h.num_rows) +
                        " != num_values " + std::to_string(h.num_values));
    }
  } else {
    const DataPageHeader& h = *page.header.data_page_header;
    V1PageSections sections = SplitV1Page(content, h, max_rep, max_def);
    repetition_ = sections.repetition;
    definition_ = sections.definition;
    values = sections.values;
    encoding = h.encoding;
    num_values = static_cast<std::size_t>(h.num_values);
  }
  page_owned_ = decompressor_.Owns(content);
  page_bytes_size_ = content.size();
  page_parkable_ = file_in_memory_ || (page_owned_ && page.header.type == PageType::kDataPage);
  if (with_values) {
    static const Dictionary kNone;  // not loaded: a dictionary-encoded page then fails
    values_.Reset(column.physical_type, column.type_length, encoding, values,
                  dictionary_ ? *dictionary_ : kNone);
  }
  return num_values;
}

std::int64_t ColumnChunkReader::CountPageRows(const RawPage& page, bool must_start_row) {
  return WithErrorContext(info_->context, page.offset, [&] {
    const std::size_t n = StartDataPage(page, false);
    rep_batch_.resize(kBatch);
    std::int64_t rows = 0;
    for (std::size_t i = 0; i < n; i += kBatch) {
      const std::size_t m = std::min(kBatch, n - i);
      const std::span<std::int16_t> rep(rep_batch_.data(), m);
      repetition_.Decode(rep);
      if (i == 0 && must_start_row && rep[0] != 0) {
        throw DecodeError("data page does not start at a row boundary (first repetition level " +
                          std::to_string(rep[0]) + ")");
      }
      rows += std::count(rep.begin(), rep.end(), std::int16_t{0});
    }
    return rows;
  });
}

ColumnChunkReader::PageResult ColumnChunkReader::DecodeDataPage(
    const RawPage& page, std::int64_t rows_before, std::int64_t first, std::int64_t last,
    bool must_start_row, ColumnData& out) {
  ++stats_.data_pages_decoded;
  if (verify_crc_) VerifyPageCrc(page, info_->context);
  return WithErrorContext(info_->context, page.offset, [&] {
    const std::size_t n = StartDataPage(page, true);
    if (!info_->column->is_list) {
      DecodeFlat(n, rows_before, first, last, out);
      return PageResult{static_cast<std::int64_t>(n), true};
    }
    list_ = ListState{.levels_left = n, .row = rows_before - 1};
    return DecodeList(first, last, must_start_row, out);
  });
}

void ColumnChunkReader::DecodeFlat(std::size_t num_levels, std::int64_t rows_before,
                                   std::int64_t first, std::int64_t last, ColumnData& out) {
  const auto n = static_cast<std::int64_t>(num_levels);
  const auto begin = static_cast<std::size_t>(std::clamp<std::int64_t>(first - rows_before, 0, n));
  const auto end = static_cast<std::size_t>(std::clamp<std::int64_t>(last - rows_before, 0, n));
  const std::int16_t max_def = info_->column->max_definition_level();
  if (max_def == 0) {
    values_.Skip(begin);
    AppendSlots(end - begin, end - begin, nullptr, out);
    slots_ += static_cast<std::int64_t>(end - begin);
    return;
  }
  def_batch_.resize(kBatch);
  std::size_t skip = 0;
  for (std::size_t i = 0; i < begin; i += kBatch) {
    const std::size_t m = std::min(kBatch, begin - i);
    const std::span<std::int16_t> def(def_batch_.data(), m);
    definition_.Decode(def);
    skip += static_cast<std::size_t>(std::count(def.begin(), def.end(), max_def));
  }
  values_.Skip(skip);
  for (std::size_t i = begin; i < end; i += kBatch) {
    const std::size_t m = std::min(kBatch, end - i);
    const std::span<std::int16_t> def(def_batch_.data(), m);
    definition_.Decode(def);
    const std::size_t old = out.validity.size();
    out.validity.resize(old + m);
    std::uint8_t* valid = out.validity.data() + old;
    std::size_t present = 0;
    for (std::size_t j = 0; j < m; ++j) {
      valid[j] = def[j] == max_def ? 1 : 0;
      present += valid[j];
    }
    AppendSlots(m, present, valid, out);
    slots_ += static_cast<std::int64_t>(m);
  }
}

ColumnChunkReader::PageResult ColumnChunkReader::DecodeList(std::int64_t first, std::int64_t last,
                                                            bool must_start_row, ColumnData& out) {
  const ColumnDescriptor& column = *info_->column;
  const std::int16_t max_def = column.max_definition_level();
  const std::int16_t list_def = column.nullable ? 1 : 0;  // level of a present, empty list
  const bool nullable = column.nullable;
  const bool element_nullable = column.element_nullable;
  rep_batch_.resize(kBatch);
  def_batch_.resize(kBatch);
  ListState& s = list_;
  std::int64_t& row = s.row;  // the row of the current level
  while (true) {
    if (s.pos == s.len) {
      if (s.levels_left == 0) break;
      const std::size_t m = std::min(kBatch, s.levels_left);
      repetition_.Decode(std::span<std::int16_t>(rep_batch_.data(), m));
      definition_.Decode(std::span<std::int16_t>(def_batch_.data(), m));
      s.levels_left -= m;
      s.pos = 0;
      s.len = m;
      if (!s.started && must_start_row && rep_batch_[0] != 0) {
        throw DecodeError("data page does not start at a row boundary (first repetition level " +
                          std::to_string(rep_batch_[0]) + ")");
      }
      s.started = true;
    }
    const std::int16_t* rep = rep_batch_.data();
    const std::int16_t* def = def_batch_.data();
    const std::int64_t slots_before = slots_;
    std::size_t skip = 0;
    std::size_t present = 0;
    bool stop = false;
    std::size_t j = s.pos;
    if (!nullable && !element_nullable) {
      j = DecodeRequiredLists(rep, def, j, s.len, first, last, skip, present, stop, out);
    } else {
      for (; j < s.len; ++j) {
        const std::int16_t r = rep[j];
        const std::int16_t d = def[j];
        if (r == 0) {
          ++row;
          ++s.rows_started;
        }
        if (row < first) {
          skip += d == max_def ? 1 : 0;
          continue;
        }
        if (row >= last) {
          stop = true;
          break;
        }
        if (r == 0) {
          out.list_offsets.push_back(slots_);
          if (nullable) out.list_validity.push_back(d >= list_def ? 1 : 0);
          if (d <= list_def) continue;  // a null or empty list
        } else if (d <= list_def) {
          throw DecodeError("repetition level " + std::to_string(r) + " with definition level " +
                            std::to_string(d) + ": a continued list cannot be null or empty");
        }
        ++slots_;
        const bool is_present = d == max_def;
        if (element_nullable) out.validity.push_back(is_present ? 1 : 0);
        present += is_present ? 1 : 0;
      }
    }
    values_.Skip(skip);
    const auto new_slots = static_cast<std::size_t>(slots_ - slots_before);
    AppendSlots(
        new_slots, present,
        element_nullable ? out.validity.data() + (out.validity.size() - new_slots) : nullptr, out);
    if (stop) {
      // Level j starts the first row not taken (a stop is always at a row start): leave it
      // uncounted, so that a resumed read takes that row from there.
      s.pos = j;
      --row;
      --s.rows_started;
      return PageResult{s.rows_started, false};
    }
    s.pos = s.len;
  }
  return PageResult{s.rows_started, true};
}

std::size_t ColumnChunkReader::DecodeRequiredLists(const std::int16_t* rep, const std::int16_t* def,
                                                   std::size_t j, std::size_t m, std::int64_t first,
                                                   std::int64_t last, std::size_t& skip,
                                                   std::size_t& present, bool& stop,
                                                   ColumnData& out) {
  // The same outcome, level for level, as DecodeList's general loop for a required list of
  // required elements, taken a row at a time: a row's levels run from its repetition level 0 to
  // the next one, and the counts over them are loops the compiler vectorizes.
  const std::int16_t max_def = info_->column->max_definition_level();
  const std::int16_t list_def = 0;
  std::int64_t& row = list_.row;
  while (j < m) {
    const bool starts_row = rep[j] == 0;
    const std::size_t k = NextRowStart(rep, j + 1, m);
    if (starts_row) {
      ++row;
      ++list_.rows_started;
    }
    if (row < first) {
      std::size_t n = 0;
      for (std::size_t i = j; i < k; ++i) n += def[i] == max_def ? 1 : 0;
      skip += n;
      j = k;
      continue;
    }
    if (row >= last) {
      stop = true;
      return j;
    }
    std::size_t from = j;
    if (starts_row) {
      out.list_offsets.push_back(slots_);
      if (def[j] <= list_def) from = j + 1;  // an empty list
    }
    // The level decoder bounds every level by max_def, and max_def is list_def + 1 here, so a
    // level either starts an empty list (bad within a row) or is a present element.
    std::int16_t bad = 0;
    for (std::size_t i = from; i < k; ++i) bad |= def[i] <= list_def ? 1 : 0;
    const std::size_t n = k - from;
    if (bad != 0) {
      for (std::size_t i = from; i < k; ++i) {
        if (def[i] <= list_def) {
          throw DecodeError("repetition level " + std::to_string(rep[i]) +
                            " with definition level " + std::to_string(def[i]) +
                            ": a continued list cannot be null or empty");
        }
      }
    }
    slots_ += static_cast<std::int64_t>(k - from);
    present += n;
    j = k;
  }
  return j;
}

void ColumnChunkReader::AppendSlots(std::size_t slots, std::size_t present,
                                    const std::uint8_t* validity, ColumnData& out) {
  if (slots == 0) return;
  if (width_ > 0) {
    const auto width = static_cast<std::size_t>(width_);
    const std::size_t old = out.values.size();
    out.values.resize(old + slots * width);
    std::byte* base = out.values.data() + old;
    values_.DecodeFixed(base, present);
    if (present == slots) return;
    switch (width) {
      case 1:
        SpreadFixed<1>(base, slots, present, validity);
        break;
      case 4:
        SpreadFixed<4>(base, slots, present, validity);
        break;
      case 8:
        SpreadFixed<8>(base, slots, present, validity);
        break;
      default:
        SpreadFixedAnyWidth(base, width, slots, present, validity);
    }
    return;
  }
  // Byte arrays decode straight into the output's buffers, borrowed for the call.
  std::swap(byte_scratch_.offsets, out.byte_offsets);
  std::swap(byte_scratch_.bytes, out.values);
  struct SwapBack {
    ByteArrays& scratch;
    ColumnData& out;
    ~SwapBack() {
      std::swap(scratch.offsets, out.byte_offsets);
      std::swap(scratch.bytes, out.values);
    }
  };
  {
    SwapBack guard{byte_scratch_, out};
    values_.DecodeByteArrays(present, byte_scratch_);
  }
  if (present < slots) SpreadOffsets(out.byte_offsets, slots, present, validity);
}

}  // namespace timef::parquet
