// Builds Parquet files page by page for the reader tests, independent of the engine's writer:
// every page kind (dictionary, v1 with RLE or BIT_PACKED levels, v2 compressed or not), any
// encoding (the test supplies the encoded values), optional CRC, OffsetIndex per chunk, and
// deliberate lies (sizes, counts) for the corrupt-file tests. Also rewrites footers of existing
// files (to corrupt a field, or to add an OffsetIndex to a file whose writer did not write one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "parquet/compression.h"
#include "parquet/crc32.h"
#include "parquet/encoding_bytes.h"
#include "parquet/encoding_rle.h"
#include "parquet/metadata.h"

namespace timef::parquet::testing {

struct PageOptions {
  bool v2 = false;
  bool v2_compressed = true;  // DataPageHeaderV2.is_compressed
  bool crc = true;
  Encoding level_encoding = Encoding::kRle;  // v1 only: RLE or BIT_PACKED
  std::int32_t compressed_size_delta = 0;    // added to the header's sizes (lies)
  std::int32_t uncompressed_size_delta = 0;
  std::optional<std::int32_t> num_values;  // header value overrides
  std::optional<std::int32_t> num_rows;
  std::optional<std::int32_t> crc_value;
};

// Where the builder put a page (for tests that patch bytes).
struct PageRecord {
  std::size_t row_group = 0;
  std::size_t column = 0;
  PageType type = PageType::kDataPage;
  std::uint64_t offset = 0;  // header
  std::size_t header_size = 0;
  std::size_t body_size = 0;
  std::uint64_t body_offset() const { return offset + header_size; }
};

inline void AppendLevels(std::vector<std::byte>& out, const std::vector<std::int16_t>& levels,
                         std::int16_t max_level, Encoding encoding, bool length_prefix) {
  const int width = static_cast<int>(std::bit_width(static_cast<std::uint16_t>(max_level)));
  if (encoding == Encoding::kBitPacked) {
    AppendLegacyBitPacked(levels, width, out);
    return;
  }
  RleBitPackedEncoder encoder(width);
  encoder.Put(std::span<const std::int16_t>(levels));
  if (length_prefix) {
    encoder.FinishWithLengthPrefix(out);
  } else {
    encoder.Finish(out);
  }
}

class FileBuilder {
 public:
  explicit FileBuilder(std::vector<SchemaElement> schema,
                       CompressionCodec codec = CompressionCodec::kUncompressed)
      : codec_(codec) {
    metadata_.version = 1;
    metadata_.schema = std::move(schema);
    metadata_.created_by = "timef reader test builder";
    Append("PAR1");
  }

  void StartRowGroup(std::int64_t num_rows) {
    metadata_.row_groups.emplace_back();
    metadata_.row_groups.back().num_rows = num_rows;
    metadata_.num_rows += num_rows;
  }

  void StartChunk(Type type, std::vector<std::string> path, std::int16_t max_rep,
                  std::int16_t max_def) {
    ColumnChunk chunk;
    chunk.meta_data.emplace();
    chunk.meta_data->type = type;
    chunk.meta_data->path_in_schema = std::move(path);
    chunk.meta_data->codec = codec_;
    chunk.meta_data->data_page_offset = -1;
    metadata_.row_groups.back().columns.push_back(std::move(chunk));
    max_rep_ = max_rep;
    max_def_ = max_def;
    chunk_start_ = bytes_.size();
    chunk_rows_ = 0;
    index_ = OffsetIndex{};
  }

  void DictionaryPage(std::span<const std::byte> plain, std::int32_t count,
                      const PageOptions& options = {}) {
    PageHeader header;
    header.type = PageType::kDictionaryPage;
    header.dictionary_page_header.emplace();
    header.dictionary_page_header->num_values = count;
    header.dictionary_page_header->encoding = Encoding::kPlain;
    std::vector<std::byte> stored;
    Compress(codec_, plain, 0, stored);
    ColumnMetaData& meta = *Chunk().meta_data;
    meta.dictionary_page_offset = static_cast<std::int64_t>(bytes_.size());
    AddEncoding(Encoding::kPlain);
    WritePage(header, plain.size(), stored, options);
  }

  // A data page of `num_values` levels (flat required columns: values). `rep` and `def` are the
  // levels (empty when the maximum level is 0); `values` the encoded non-null values.
  void DataPage(Encoding encoding, std::span<const std::byte> values, std::int32_t num_values,
                const std::vector<std::int16_t>& rep = {},
                const std::vector<std::int16_t>& def = {}, const PageOptions& options = {}) {
    std::int32_t rows = num_values;
    if (max_rep_ > 0) {
      rows = 0;
      for (auto r : rep) rows += r == 0 ? 1 : 0;
    }
    std::int32_t nulls = 0;
    for (auto d : def) nulls += d < max_def_ ? 1 : 0;
    PageHeader header;
    std::vector<std::byte> stored;
    std::size_t uncompressed = 0;
    if (!options.v2) {
      header.type = PageType::kDataPage;
      header.data_page_header.emplace();
      auto& h = *header.data_page_header;
      h.num_values = options.num_values.value_or(num_values);
      h.encoding = encoding;
      h.definition_level_encoding = options.level_encoding;
      h.repetition_level_encoding = options.level_encoding;
      std::vector<std::byte> body;
      if (max_rep_ > 0) AppendLevels(body, rep, max_rep_, options.level_encoding, true);
      if (max_def_ > 0) AppendLevels(body, def, max_def_, options.level_encoding, true);
      body.insert(body.end(), values.begin(), values.end());
      uncompressed = body.size();
      Compress(codec_, body, 0, stored);
    } else {
      header.type = PageType::kDataPageV2;
      header.data_page_header_v2.emplace();
      auto& h = *header.data_page_header_v2;
      h.num_values = options.num_values.value_or(num_values);
      h.num_nulls = nulls;
      h.num_rows = options.num_rows.value_or(rows);
      h.encoding = encoding;
      std::vector<std::byte> levels;
      if (max_rep_ > 0) AppendLevels(levels, rep, max_rep_, Encoding::kRle, false);
      h.repetition_levels_byte_length = static_cast<std::int32_t>(levels.size());
      if (max_def_ > 0) AppendLevels(levels, def, max_def_, Encoding::kRle, false);
      h.definition_levels_byte_length =
          static_cast<std::int32_t>(levels.size()) - h.repetition_levels_byte_length;
      h.is_compressed = options.v2_compressed;
      stored = levels;
      uncompressed = levels.size() + values.size();
      if (options.v2_compressed) {
        Compress(codec_, values, 0, stored);
      } else {
        stored.insert(stored.end(), values.begin(), values.end());
      }
    }
    ColumnMetaData& meta = *Chunk().meta_data;
    if (meta.data_page_offset < 0) meta.data_page_offset = static_cast<std::int64_t>(bytes_.size());
    meta.num_values += num_values;
    AddEncoding(encoding);
    PageLocation location;
    location.offset = static_cast<std::int64_t>(bytes_.size());
    location.first_row_index = chunk_rows_;
    const std::size_t before = bytes_.size();
    WritePage(header, uncompressed, stored, options);
    location.compressed_page_size = static_cast<std::int32_t>(bytes_.size() - before);
    index_.page_locations.push_back(location);
    chunk_rows_ += rows;
  }

  // Appends raw bytes inside the current chunk (e.g. garbage between pages).
  void RawBytes(std::span<const std::byte> bytes) {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
  }

  void EndChunk(bool offset_index = true) {
    ColumnMetaData& meta = *Chunk().meta_data;
    meta.total_compressed_size = static_cast<std::int64_t>(bytes_.size() - chunk_start_);
    meta.total_uncompressed_size = meta.total_compressed_size;
    if (offset_index) {
      pending_indexes_.push_back({metadata_.row_groups.size() - 1,
                                  metadata_.row_groups.back().columns.size() - 1, index_});
    }
  }

  std::vector<std::byte> Finish() {
    for (auto& pending : pending_indexes_) {
      ColumnChunk& chunk = metadata_.row_groups[pending.row_group].columns[pending.column];
      chunk.offset_index_offset = static_cast<std::int64_t>(bytes_.size());
      WriteThrift(pending.index, bytes_);
      chunk.offset_index_length =
          static_cast<std::int32_t>(bytes_.size() - *chunk.offset_index_offset);
    }
    std::vector<std::byte> footer;
    WriteThrift(metadata_, footer);
    bytes_.insert(bytes_.end(), footer.begin(), footer.end());
    AppendLE<std::uint32_t>(bytes_, static_cast<std::uint32_t>(footer.size()));
    Append("PAR1");
    return std::move(bytes_);
  }

  FileMetaData& metadata() { return metadata_; }
  const std::vector<PageRecord>& pages() const { return pages_; }

 private:
  struct PendingIndex {
    std::size_t row_group;
    std::size_t column;
    OffsetIndex index;
  };

  ColumnChunk& Chunk() { return metadata_.row_groups.back().columns.back(); }

  void Append(std::string_view s) {
    for (char c : s) bytes_.push_back(static_cast<std::byte>(c));
  }

  void AddEncoding(Encoding e) {
    auto& encodings = Chunk().meta_data->encodings;
    for (auto x : encodings) {
      if (x == e) return;
    }
    encodings.push_back(e);
  }

  void WritePage(PageHeader header, std::size_t uncompressed, const std::vector<std::byte>& stored,
                 const PageOptions& options) {
    header.uncompressed_page_size =
        static_cast<std::int32_t>(uncompressed) + options.uncompressed_size_delta;
    header.compressed_page_size =
        static_cast<std::int32_t>(stored.size()) + options.compressed_size_delta;
    if (options.crc) header.crc = options.crc_value.value_or(CrcToThrift(Crc32(stored)));
    PageRecord record;
    record.row_group = metadata_.row_groups.size() - 1;
    record.column = metadata_.row_groups.back().columns.size() - 1;
    record.type = header.type;
    record.offset = bytes_.size();
    WriteThrift(header, bytes_);
    record.header_size = bytes_.size() - record.offset;
    record.body_size = stored.size();
    bytes_.insert(bytes_.end(), stored.begin(), stored.end());
    pages_.push_back(record);
  }

  CompressionCodec codec_;
  FileMetaData metadata_;
  std::vector<std::byte> bytes_;
  std::int16_t max_rep_ = 0;
  std::int16_t max_def_ = 0;
  std::size_t chunk_start_ = 0;
  std::int64_t chunk_rows_ = 0;
  OffsetIndex index_;
  std::vector<PendingIndex> pending_indexes_;
  std::vector<PageRecord> pages_;
};

// ---- Schema shorthands ----

inline SchemaElement Root(int children) {
  SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}

inline SchemaElement Leaf(std::string name, Type type, FieldRepetitionType repetition,
                          std::optional<std::int32_t> type_length = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = repetition;
  e.type_length = type_length;
  return e;
}

inline SchemaElement Group(std::string name, FieldRepetitionType repetition, int children,
                           bool list_annotation) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = repetition;
  e.num_children = children;
  if (list_annotation) {
    e.converted_type = ConvertedType::kList;
    e.logical_type = LogicalType::Simple(LogicalType::Kind::kList);
  }
  return e;
}

// ---- Footer surgery on existing files ----

struct SplitFile {
  std::vector<std::byte> body;  // everything before the footer metadata
  FileMetaData metadata;
};

inline SplitFile SplitFooter(const std::vector<std::byte>& file) {
  const std::size_t n = file.size();
  const std::uint32_t length = LoadLE<std::uint32_t>(file.data() + n - 8);
  const std::size_t start = n - 8 - length;
  SplitFile out;
  out.body.assign(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(start));
  out.metadata = ReadThrift<FileMetaData>(std::span(file).subspan(start, length));
  return out;
}

inline std::vector<std::byte> JoinFooter(SplitFile split) {
  std::vector<std::byte> footer;
  WriteThrift(split.metadata, footer);
  std::vector<std::byte> out = std::move(split.body);
  out.insert(out.end(), footer.begin(), footer.end());
  AppendLE<std::uint32_t>(out, static_cast<std::uint32_t>(footer.size()));
  for (char c : std::string_view("PAR1")) out.push_back(static_cast<std::byte>(c));
  return out;
}

// Parses the footer, lets `edit` change it, and writes it back.
inline std::vector<std::byte> EditFooter(const std::vector<std::byte>& file,
                                         const std::function<void(FileMetaData&)>& edit) {
  SplitFile split = SplitFooter(file);
  edit(split.metadata);
  return JoinFooter(std::move(split));
}

// Adds an OffsetIndex to every column chunk whose data pages' row counts the page headers tell
// (flat columns, v2 pages, or a single data page), placed before a new footer. Returns the number
// of chunks indexed.
inline std::size_t AddOffsetIndexes(std::vector<std::byte>& file) {
  SplitFile split = SplitFooter(file);
  std::size_t indexed = 0;
  for (RowGroup& group : split.metadata.row_groups) {
    for (ColumnChunk& chunk : group.columns) {
      if (chunk.offset_index_offset) continue;
      const ColumnMetaData& meta = *chunk.meta_data;
      std::int64_t start = meta.data_page_offset;
      if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0) {
        start = std::min(start, *meta.dictionary_page_offset);
      }
      const bool flat = meta.path_in_schema.size() == 1;
      OffsetIndex index;
      std::int64_t rows = 0;
      bool known = true;
      std::size_t pos = static_cast<std::size_t>(start);
      const std::size_t end = pos + static_cast<std::size_t>(meta.total_compressed_size);
      while (pos < end) {
        std::size_t header_size = 0;
        const auto header =
            ReadThrift<PageHeader>(std::span(split.body).subspan(pos, end - pos), &header_size);
        const std::size_t size =
            header_size + static_cast<std::size_t>(header.compressed_page_size);
        if (header.type == PageType::kDataPage || header.type == PageType::kDataPageV2) {
          index.page_locations.push_back(
              {static_cast<std::int64_t>(pos), static_cast<std::int32_t>(size), rows});
          if (header.type == PageType::kDataPageV2) {
            rows += header.data_page_header_v2->num_rows;
          } else if (flat) {
            rows += header.data_page_header->num_values;
          } else {
            known = false;
          }
        }
        pos += size;
      }
      if (!known && index.page_locations.size() > 1) continue;
      chunk.offset_index_offset = static_cast<std::int64_t>(split.body.size());
      WriteThrift(index, split.body);
      chunk.offset_index_length =
          static_cast<std::int32_t>(split.body.size() - *chunk.offset_index_offset);
      ++indexed;
    }
  }
  file = JoinFooter(std::move(split));
  return indexed;
}

}  // namespace timef::parquet::testing
