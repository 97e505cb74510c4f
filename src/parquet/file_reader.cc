#include "parquet/file_reader.h"

#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "parquet/compression.h"
#include "parquet/encoding_bytes.h"
#include "parquet/errors.h"
#include "parquet/reader_page_index.h"
#include "timef/error.h"

namespace timef::parquet {
namespace {

constexpr std::uint64_t kMagicSize = 4;
constexpr std::uint64_t kFooterTailSize = 8;  // metadata length + magic

bool IsMagic(std::span<const std::byte> bytes, const char* magic) {
  for (std::size_t i = 0; i < kMagicSize; ++i) {
    if (bytes[i] != static_cast<std::byte>(magic[i])) return false;
  }
  return true;
}

std::string JoinPath(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& part : path) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

}  // namespace

struct FileReader::Impl {
  std::shared_ptr<RandomAccessFile> file;
  ReaderOptions options;
  ErrorContext context;
  FileMetaData metadata;
  std::uint64_t metadata_offset = 0;  // where the footer's metadata starts; pages end before it
  std::vector<ColumnDescriptor> columns;
  std::vector<std::string> column_paths;  // dotted, for messages
  // Per (row group, column): 0 = not looked at, 1 = none, 2 = loaded.
  std::vector<std::uint8_t> index_state;
  std::vector<std::unique_ptr<OffsetIndex>> indexes;
  // Per (row group, column), made on first use: a chunk read then builds no error context (a
  // path and column copy) and repeats no footer checks.
  std::vector<std::unique_ptr<const ChunkInfo>> infos;
  std::vector<std::byte> index_bytes;
  ReaderStats stats;
  std::uint64_t file_id = DictionaryCache::NewFileId();
  ColumnChunkReader chunk_reader;

  Impl(std::shared_ptr<RandomAccessFile> f, std::filesystem::path path, ReaderOptions o)
      : file(std::move(f)),
        options(std::move(o)),
        context{std::move(path), {}, {}, {}},
        chunk_reader(*file, stats, options.verify_crc, options.dictionary_cache.get(), file_id,
                     options.decode_budget.get()) {}
  ~Impl() {
    if (options.dictionary_cache) options.dictionary_cache->EraseFile(file_id);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  std::span<const std::byte> Read(std::uint64_t offset, std::uint64_t length,
                                  std::vector<std::byte>& scratch) {
    return ReadFileRange(*file, offset, length, scratch, stats, context);
  }

  void ReadFooter();
  void CheckRowGroups();
  void CheckArguments(int row_group, int column) const;
  // CheckArguments, and ValidationError unless [first_row, last_row) lies in the row group.
  void CheckRows(int row_group, int column, std::int64_t first_row, std::int64_t last_row) const;
  ErrorContext ChunkContext(int row_group, int column) const {
    return context.WithRowGroup(row_group).WithColumn(column_paths[column]);
  }
  ChunkInfo MakeChunkInfo(int row_group, int column) const;
  const ChunkInfo& Info(int row_group, int column) {
    auto& slot = infos[static_cast<std::size_t>(row_group) * columns.size() +
                       static_cast<std::size_t>(column)];
    if (!slot) slot = std::make_unique<const ChunkInfo>(MakeChunkInfo(row_group, column));
    return *slot;
  }
  const OffsetIndex* LoadOffsetIndex(int row_group, int column);
};

void FileReader::Impl::ReadFooter() {
  const std::uint64_t size = file->size();
  if (size < 2 * kMagicSize + 4) {
    context.WithOffset(0).Throw("file of " + std::to_string(size) +
                                " bytes is too small to be Parquet");
  }
  std::vector<std::byte> scratch;
  const auto tail = Read(size - kFooterTailSize, kFooterTailSize, scratch);
  const std::uint64_t length = LoadLE<std::uint32_t>(tail.data());
  if (IsMagic(tail.subspan(4), "PARE")) {
    context.WithOffset(size - kMagicSize).Throw("encrypted footers are not supported");
  }
  if (!IsMagic(tail.subspan(4), "PAR1")) {
    context.WithOffset(size - kMagicSize).Throw("missing the trailing \"PAR1\" magic");
  }
  if (length == 0 || length > size - kFooterTailSize - kMagicSize) {
    context.WithOffset(size - kFooterTailSize)
        .Throw("footer metadata length " + std::to_string(length) + " does not fit the " +
               std::to_string(size) + "-byte file");
  }
  metadata_offset = size - kFooterTailSize - length;
  std::vector<std::byte> head_scratch;
  const auto head = Read(0, kMagicSize, head_scratch);
  if (!IsMagic(head, "PAR1")) context.WithOffset(0).Throw("missing the leading \"PAR1\" magic");
  const auto footer = Read(metadata_offset, length, scratch);
  metadata =
      WithErrorContext(context, metadata_offset, [&] { return ReadThrift<FileMetaData>(footer); });
  columns =
      WithErrorContext(context, metadata_offset, [&] { return ResolveColumns(metadata.schema); });
  column_paths.reserve(columns.size());
  for (const auto& column : columns) column_paths.push_back(JoinPath(column.path_in_schema));
  CheckRowGroups();
  const std::size_t chunks = metadata.row_groups.size() * columns.size();
  index_state.assign(chunks, 0);
  indexes.resize(chunks);
  infos.resize(chunks);
}

void FileReader::Impl::CheckRowGroups() {
  const ErrorContext at = context.WithOffset(metadata_offset);
  if (metadata.num_rows < 0) at.Throw("negative num_rows " + std::to_string(metadata.num_rows));
  std::int64_t total = 0;
  for (std::size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& group = metadata.row_groups[g];
    const ErrorContext group_at = at.WithRowGroup(static_cast<std::int64_t>(g));
    if (group.num_rows < 0 || group.num_rows > std::numeric_limits<std::int64_t>::max() - total) {
      group_at.Throw("invalid num_rows " + std::to_string(group.num_rows));
    }
    total += group.num_rows;
    if (group.columns.size() != columns.size()) {
      group_at.Throw("has " + std::to_string(group.columns.size()) +
                     " column chunks, the schema has " + std::to_string(columns.size()) +
                     " leaf columns");
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const ColumnChunk& chunk = group.columns[c];
      const ErrorContext chunk_at = group_at.WithColumn(column_paths[c]);
      if (chunk.file_path) {
        chunk_at.Throw("column chunk stored in another file ('" + *chunk.file_path +
                       "') is not supported");
      }
      if (chunk.encrypted_column_metadata || !chunk.meta_data) {
        chunk_at.Throw("column chunk without (plaintext) metadata");
      }
      if (chunk.meta_data->type != columns[c].physical_type) {
        chunk_at.Throw("column chunk type " + ToString(chunk.meta_data->type) +
                       " differs from the schema's " + ToString(columns[c].physical_type));
      }
    }
  }
  if (total != metadata.num_rows) {
    at.Throw("row groups hold " + std::to_string(total) + " rows, the footer says " +
             std::to_string(metadata.num_rows));
  }
}

void FileReader::Impl::CheckArguments(int row_group, int column) const {
  if (row_group < 0 || static_cast<std::size_t>(row_group) >= metadata.row_groups.size()) {
    throw ValidationError(
        ErrorSite{context.file, "", "row group " + std::to_string(row_group)},
        "no such row group (the file has " + std::to_string(metadata.row_groups.size()) + ")");
  }
  if (column < 0 || static_cast<std::size_t>(column) >= columns.size()) {
    throw ValidationError(ErrorSite{context.file, "", "column " + std::to_string(column)},
                          "no such column (the file has " + std::to_string(columns.size()) + ")");
  }
}

ChunkInfo FileReader::Impl::MakeChunkInfo(int row_group, int column) const {
  const RowGroup& group = metadata.row_groups[static_cast<std::size_t>(row_group)];
  const ColumnMetaData& meta = *group.columns[static_cast<std::size_t>(column)].meta_data;
  ChunkInfo info;
  info.column = &columns[static_cast<std::size_t>(column)];
  info.codec = meta.codec;
  info.num_rows = group.num_rows;
  info.num_values = meta.num_values;
  info.key = {row_group, column};
  info.context = ChunkContext(row_group, column);
  // Some writers leave dictionary_page_offset 0 or absent although the chunk starts with one:
  // the chunk starts at the smaller of the two offsets that are set.
  std::int64_t start = meta.data_page_offset;
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  const ErrorContext at =
      info.context.WithOffset(start < 0 ? 0 : static_cast<std::uint64_t>(start));
  if (start < static_cast<std::int64_t>(kMagicSize) || meta.total_compressed_size < 0 ||
      static_cast<std::uint64_t>(start) > metadata_offset ||
      static_cast<std::uint64_t>(meta.total_compressed_size) >
          metadata_offset - static_cast<std::uint64_t>(start)) {
    at.Throw("column chunk at offset " + std::to_string(start) + " of " +
             std::to_string(meta.total_compressed_size) +
             " bytes lies outside the file's page area [4, " + std::to_string(metadata_offset) +
             ")");
  }
  if (meta.num_values < 0) at.Throw("negative num_values " + std::to_string(meta.num_values));
  if (!IsSupportedCodec(meta.codec)) {
    at.Throw("compression codec " + ToString(meta.codec) + " is not supported");
  }
  info.range = {static_cast<std::uint64_t>(start),
                static_cast<std::uint64_t>(meta.total_compressed_size)};
  return info;
}

const OffsetIndex* FileReader::Impl::LoadOffsetIndex(int row_group, int column) {
  const std::size_t slot =
      static_cast<std::size_t>(row_group) * columns.size() + static_cast<std::size_t>(column);
  if (index_state[slot] == 1) return nullptr;
  if (index_state[slot] == 2) return indexes[slot].get();
  const ColumnChunk& chunk = metadata.row_groups[static_cast<std::size_t>(row_group)]
                                 .columns[static_cast<std::size_t>(column)];
  if (!chunk.offset_index_offset || !chunk.offset_index_length) {
    index_state[slot] = 1;
    return nullptr;
  }
  const std::int64_t offset = *chunk.offset_index_offset;
  const std::int64_t length = *chunk.offset_index_length;
  const ErrorContext at = ChunkContext(row_group, column).WithOffset(offset < 0 ? 0 : offset);
  if (offset < static_cast<std::int64_t>(kMagicSize) || length <= 0 ||
      static_cast<std::uint64_t>(offset) > metadata_offset ||
      static_cast<std::uint64_t>(length) > metadata_offset - static_cast<std::uint64_t>(offset)) {
    at.Throw("offset index at " + std::to_string(offset) + " of " + std::to_string(length) +
             " bytes lies outside the file's page area");
  }
  const ChunkInfo& info = Info(row_group, column);
  const auto bytes =
      Read(static_cast<std::uint64_t>(offset), static_cast<std::uint64_t>(length), index_bytes);
  auto index = std::make_unique<OffsetIndex>(
      WithErrorContext(info.context, static_cast<std::uint64_t>(offset),
                       [&] { return ReadThrift<OffsetIndex>(bytes); }));
  ValidateOffsetIndex(*index, info.range, info.num_rows, static_cast<std::uint64_t>(offset),
                      info.context);
  ++stats.offset_indexes_loaded;
  indexes[slot] = std::move(index);
  index_state[slot] = 2;
  return indexes[slot].get();
}

// ---- FileReader ----

FileReader::FileReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileReader::FileReader(FileReader&&) noexcept = default;
FileReader& FileReader::operator=(FileReader&&) noexcept = default;
FileReader::~FileReader() = default;

FileReader FileReader::Open(std::shared_ptr<RandomAccessFile> file, std::filesystem::path path,
                            ReaderOptions options) {
  if (file == nullptr) throw std::invalid_argument("FileReader::Open: no file");
  if (path.empty()) path = file->path();
  auto impl = std::make_unique<Impl>(std::move(file), std::move(path), options);
  impl->ReadFooter();
  return FileReader(std::move(impl));
}

FileReader FileReader::OpenFile(const std::filesystem::path& path, ReaderOptions options) {
  return Open(std::shared_ptr<RandomAccessFile>(OpenMmapFile(path)), path, options);
}

const std::filesystem::path& FileReader::path() const { return impl_->context.file; }
const FileMetaData& FileReader::metadata() const { return impl_->metadata; }
const std::vector<ColumnDescriptor>& FileReader::columns() const { return impl_->columns; }
std::int64_t FileReader::num_rows() const { return impl_->metadata.num_rows; }
int FileReader::num_row_groups() const {
  return static_cast<int>(impl_->metadata.row_groups.size());
}

std::int64_t FileReader::row_group_num_rows(int row_group) const {
  impl_->CheckArguments(row_group, 0);
  return impl_->metadata.row_groups[static_cast<std::size_t>(row_group)].num_rows;
}

const ColumnChunk& FileReader::column_chunk(int row_group, int column) const {
  impl_->CheckArguments(row_group, column);
  return impl_->metadata.row_groups[static_cast<std::size_t>(row_group)]
      .columns[static_cast<std::size_t>(column)];
}

int FileReader::ColumnIndex(std::string_view name) const {
  for (std::size_t i = 0; i < impl_->columns.size(); ++i) {
    if (impl_->columns[i].name == name) return static_cast<int>(i);
  }
  throw NotFoundError(ErrorSite{impl_->context.file, "", std::string(name)},
                      "no column named '" + std::string(name) + "'");
}

std::vector<int> FileReader::ColumnIndices(std::span<const std::string> names) const {
  std::vector<int> out;
  out.reserve(names.size());
  for (const auto& name : names) out.push_back(ColumnIndex(name));
  return out;
}

void FileReader::ReadColumnChunk(int row_group, int column, ColumnData& out) {
  impl_->CheckArguments(row_group, column);
  const ChunkInfo& info = impl_->Info(row_group, column);
  impl_->chunk_reader.Read(info, nullptr, 0, info.num_rows, out);
}

void FileReader::Impl::CheckRows(int row_group, int column, std::int64_t first_row,
                                 std::int64_t last_row) const {
  CheckArguments(row_group, column);
  const std::int64_t rows = metadata.row_groups[static_cast<std::size_t>(row_group)].num_rows;
  if (first_row < 0 || first_row > last_row || last_row > rows) {
    throw ValidationError(ErrorSite{context.file, "", "row group " + std::to_string(row_group)},
                          "row range [" + std::to_string(first_row) + ", " +
                              std::to_string(last_row) + ") is not within the row group's " +
                              std::to_string(rows) + " rows");
  }
}

void FileReader::ReadRows(int row_group, int column, std::int64_t first_row, std::int64_t last_row,
                          ColumnData& out) {
  impl_->CheckRows(row_group, column, first_row, last_row);
  const ChunkInfo& info = impl_->Info(row_group, column);
  const OffsetIndex* index = nullptr;
  if (impl_->options.use_page_index && first_row < last_row) {
    index = impl_->LoadOffsetIndex(row_group, column);
  }
  impl_->chunk_reader.Read(info, index, first_row, last_row, out);
}

std::optional<ByteRange> FileReader::RowsByteRange(int row_group, int column,
                                                   std::int64_t first_row, std::int64_t last_row) {
  impl_->CheckRows(row_group, column, first_row, last_row);
  if (!impl_->options.use_page_index || first_row == last_row) return std::nullopt;
  const OffsetIndex* index = impl_->LoadOffsetIndex(row_group, column);
  if (index == nullptr) return std::nullopt;
  const PageSpan span = PagesForRows(*index, first_row, last_row);
  if (span.begin >= span.end) return std::nullopt;
  const auto& locations = index->page_locations;
  const auto begin = static_cast<std::uint64_t>(locations[span.begin].offset);
  const auto end = static_cast<std::uint64_t>(locations[span.end - 1].offset) +
                   static_cast<std::uint64_t>(locations[span.end - 1].compressed_page_size);
  return ByteRange{begin, end - begin};
}

const OffsetIndex* FileReader::offset_index(int row_group, int column) {
  impl_->CheckArguments(row_group, column);
  return impl_->LoadOffsetIndex(row_group, column);
}

const ReaderStats& FileReader::stats() const { return impl_->stats; }
void FileReader::ResetStats() { impl_->stats = ReaderStats{}; }

}  // namespace timef::parquet
