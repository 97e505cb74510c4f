#include "values/shard_writer.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "timef/error.h"
#include "values/shard_schema.h"

namespace timef::values {
namespace {

template <class T>
void AppendFixed(std::span<const T> values, std::vector<std::byte>& out) {
  const std::size_t at = out.size();
  out.resize(at + values.size_bytes());
  if (!values.empty()) std::memcpy(out.data() + at, values.data(), values.size_bytes());
}

// Small integers become INT32; unsigned ones keep their value (which is their bit pattern in 32
// bits), uint32 is reinterpreted.
template <class T>
void AppendWidened(std::span<const T> values, std::vector<std::byte>& out) {
  const std::size_t at = out.size();
  out.resize(at + values.size() * sizeof(std::int32_t));
  std::byte* cursor = out.data() + at;
  for (T value : values) {
    const auto wide = static_cast<std::int32_t>(value);
    std::memcpy(cursor, &wide, sizeof(wide));
    cursor += sizeof(wide);
  }
}

void AppendText(std::string_view text, parquet::ColumnData& out) {
  const std::size_t at = out.values.size();
  out.values.resize(at + text.size());
  if (!text.empty()) std::memcpy(out.values.data() + at, text.data(), text.size());
  out.byte_offsets.push_back(static_cast<std::int64_t>(out.values.size()));
}

// Flat column batches of a row group's key columns.
struct KeyColumns {
  std::vector<std::int64_t> signal_ids;
  std::vector<std::int32_t> chunk_idx;
  std::vector<std::int32_t> n_values;
  parquet::ColumnData spec_type;
  parquet::ColumnData signal;
};

parquet::ColumnView FixedView(parquet::Type type, std::span<const std::byte> bytes,
                              std::int64_t rows) {
  parquet::ColumnView view;
  view.physical_type = type;
  view.num_rows = rows;
  view.values = bytes;
  return view;
}

}  // namespace

void ChunkToColumn(const model::Spec& spec, const model::ValueArray& values,
                   parquet::ColumnData& out) {
  out.Clear();
  const parquet::ColumnDescriptor leaf = ValuesLeaf(spec);
  out.physical_type = leaf.physical_type;
  out.type_length = 0;
  out.num_rows = 1;
  const std::int64_t n = values.size();
  out.list_offsets = {0, n};
  if (spec.nullable && values.has_validity()) out.validity = values.validity();
  switch (spec.dtype) {
    case model::DType::kBool:
    case model::DType::kUint8:
      if (spec.dtype == model::DType::kBool) {
        AppendFixed(values.values<std::uint8_t>(), out.values);
      } else {
        AppendWidened(values.values<std::uint8_t>(), out.values);
      }
      break;
    case model::DType::kInt8:
      AppendWidened(values.values<std::int8_t>(), out.values);
      break;
    case model::DType::kInt16:
      AppendWidened(values.values<std::int16_t>(), out.values);
      break;
    case model::DType::kUint16:
      AppendWidened(values.values<std::uint16_t>(), out.values);
      break;
    case model::DType::kInt32:
    case model::DType::kEnum:
      if (spec.dtype == model::DType::kInt32) {
        AppendFixed(values.values<std::int32_t>(), out.values);
      } else {
        out.byte_offsets.push_back(0);
        const auto codes = values.values<std::int32_t>();
        for (std::int64_t i = 0; i < n; ++i) {
          // Null steps carry no label; their codes are not looked at.
          const bool present = values.IsValid(i);
          AppendText(present ? std::string_view(spec.categories[static_cast<std::size_t>(codes[i])])
                             : std::string_view(),
                     out);
        }
      }
      break;
    case model::DType::kUint32:
      AppendFixed(values.values<std::uint32_t>(), out.values);
      break;
    case model::DType::kFloat32:
      AppendFixed(values.values<float>(), out.values);
      break;
    case model::DType::kFloat64:
      AppendFixed(values.values<double>(), out.values);
      break;
    case model::DType::kStr:
      out.byte_offsets.push_back(0);
      for (const std::string& text : values.values<std::string>()) AppendText(text, out);
      break;
  }
}

parquet::WriterOptions ShardWriterOptions(const model::Spec& spec, manifest::ValueEncoding encoding,
                                          const ValuesOptions& options, std::string name) {
  parquet::WriterOptions writer_options;
  writer_options.compression = options.compression;
  writer_options.compression_level = options.compression_level;
  // With N > 1 threads the Parquet writer compresses each row group on N threads off the calling
  // thread (its background thread and N - 2 helpers; the caller helps only once it waits), while
  // ValuesSession encodes row groups ahead on threads of their own. N - 1 here (as until
  // 2026-12-07) left one compressor, which runs on the caller, so zstd and the loaders took
  // turns on one core: an ECG write on 2 threads ran 1.07x faster than on 1, now 1.66x
  // (docs/benchmarks.md "Compression off the loading thread").
  writer_options.compression_threads = options.compression_threads;
  writer_options.data_page_target_bytes = options.data_page_target_bytes;
  writer_options.columns = ShardColumnOptions(spec, encoding);
  writer_options.key_value_metadata = {parquet::KeyValue{kSpecTypeKey, spec.spec_type}};
  writer_options.name = std::move(name);
  return writer_options;
}

namespace {

// Hands `chunks` (dropping each once staged) to `sink` (a FileWriter's open row group or a
// RowGroupWriter) as one row group's columns.
template <typename Sink>
void StageChunks(const model::Spec& spec, std::deque<BufferedChunk> chunks,
                 parquet::ColumnData& scratch, Sink& sink) {
  const auto rows = static_cast<std::int64_t>(chunks.size());
  KeyColumns keys;
  keys.signal_ids.reserve(chunks.size());
  keys.spec_type.physical_type = parquet::Type::kByteArray;
  keys.signal.physical_type = parquet::Type::kByteArray;
  keys.spec_type.byte_offsets.push_back(0);
  keys.signal.byte_offsets.push_back(0);
  while (!chunks.empty()) {
    BufferedChunk chunk = std::move(chunks.front());
    chunks.pop_front();
    ChunkToColumn(spec, chunk.values, scratch);
    sink.WriteColumn(kValuesColumn, scratch.View());
    keys.signal_ids.push_back(chunk.signal_id);
    keys.chunk_idx.push_back(chunk.chunk_idx);
    keys.n_values.push_back(static_cast<std::int32_t>(chunk.n_values()));
    AppendText(spec.spec_type, keys.spec_type);
    AppendText(*chunk.signal_name, keys.signal);
  }
  keys.spec_type.num_rows = rows;
  keys.signal.num_rows = rows;
  sink.WriteColumn(kSignalIdColumn,
                   FixedView(parquet::Type::kInt64,
                             std::as_bytes(std::span<const std::int64_t>(keys.signal_ids)), rows));
  sink.WriteColumn(kSpecTypeColumn, keys.spec_type.View());
  sink.WriteColumn(kSignalColumn, keys.signal.View());
  sink.WriteColumn(kChunkIdxColumn,
                   FixedView(parquet::Type::kInt32,
                             std::as_bytes(std::span<const std::int32_t>(keys.chunk_idx)), rows));
  sink.WriteColumn(kNValuesColumn,
                   FixedView(parquet::Type::kInt32,
                             std::as_bytes(std::span<const std::int32_t>(keys.n_values)), rows));
  scratch.Clear();
}

}  // namespace

RowGroupStage::RowGroupStage(const model::Spec& spec, const parquet::WriterOptions& options)
    : writer(ShardSchema(spec), options) {}

void EncodeRowGroup(const model::Spec& spec, std::deque<BufferedChunk> chunks,
                    RowGroupStage& stage) {
  StageChunks(spec, std::move(chunks), stage.scratch, stage.writer);
  stage.writer.Encode();
}

ShardWriter::ShardWriter(const std::filesystem::path& release_dir, std::string value_path,
                         std::shared_ptr<const model::Spec> spec, manifest::ValueEncoding encoding,
                         const ValuesOptions& options)
    : file_(release_dir / value_path),
      value_path_(std::move(value_path)),
      spec_(std::move(spec)),
      out_(file_, parquet::FileOutputOptions{.fsync_on_close = true, .exclusive = true}) {
  writer_ = std::make_unique<parquet::FileWriter>(
      out_, ShardSchema(*spec_), ShardWriterOptions(*spec_, encoding, options, file_.string()));
}

ShardWriter::~ShardWriter() = default;

std::vector<ChunkLocator> ShardWriter::WriteRowGroup(std::deque<BufferedChunk> chunks,
                                                     std::span<const std::int64_t> n_values) {
  const std::int64_t row_group = writer_->num_row_groups();
  CheckPlacements(static_cast<std::int64_t>(chunks.size()), n_values);
  StageChunks(*spec_, std::move(chunks), scratch_, *writer_);
  writer_->FlushRowGroup();
  return Placements(row_group, n_values);
}

std::vector<ChunkLocator> ShardWriter::WriteRowGroup(parquet::RowGroupWriter& group,
                                                     std::span<const std::int64_t> n_values) {
  const std::int64_t row_group = writer_->num_row_groups();
  CheckPlacements(group.encoded_rows(), n_values);
  writer_->WriteRowGroup(group);
  return Placements(row_group, n_values);
}

void ShardWriter::CheckPlacements(std::int64_t rows, std::span<const std::int64_t> n_values) {
  if (rows != static_cast<std::int64_t>(n_values.size())) {
    throw std::logic_error("values shard: a row group of " + std::to_string(rows) +
                           " rows placed as " + std::to_string(n_values.size()) + " chunks");
  }
}

std::vector<ChunkLocator> ShardWriter::Placements(std::int64_t row_group,
                                                  std::span<const std::int64_t> n_values) const {
  std::vector<ChunkLocator> placements;
  placements.reserve(n_values.size());
  std::int64_t row = 0;
  for (const std::int64_t n : n_values) {
    placements.push_back(ChunkLocator{std::nullopt, value_path_, row_group, row++, n});
  }
  return placements;
}

bool ShardWriter::ReachedBytes(std::int64_t target) {
  return writer_->StoredBytesAtMost() >= target && writer_->StoredBytes() >= target;
}

ShardInfo ShardWriter::Close() {
  const parquet::FileMetaData& footer = writer_->Close();
  out_.Close();
  ShardInfo info;
  info.path = value_path_;
  info.spec_type = spec_->spec_type;
  info.bytes = static_cast<std::int64_t>(out_.position());
  info.row_groups = static_cast<std::int64_t>(footer.row_groups.size());
  info.rows = footer.num_rows;
  return info;
}

}  // namespace timef::values
