// ReadValuePages (include/timef/value_pages.h): a signal's chunks mapped onto the data pages of
// their shards through each chunk's OffsetIndex, with the bounds of the chunk's ColumnIndex when a
// page holds only this signal's steps.
#include "timef/value_pages.h"

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "parquet/errors.h"
#include "parquet/file_io.h"
#include "parquet/file_reader.h"
#include "parquet/metadata.h"
#include "parquet/reader_page_index.h"
#include "reader/lazy_handles.h"
#include "reader/reader_state.h"

namespace timef {
namespace {

// The physical type a scalar dtype has in a timef shard (docs/format.md §7.2); nullopt for the
// dtypes whose statistics are not numbers (str, enum).
std::optional<parquet::Type> PhysicalTypeOf(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return parquet::Type::kBoolean;
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
    case DType::kUint8:
    case DType::kUint16:
    case DType::kUint32:
      return parquet::Type::kInt32;
    case DType::kFloat32:
      return parquet::Type::kFloat;
    case DType::kFloat64:
      return parquet::Type::kDouble;
    case DType::kStr:
    case DType::kEnum:
      return std::nullopt;
  }
  return std::nullopt;
}

// A PLAIN-encoded statistics value of `dtype` as a double; nullopt when its width is wrong or it
// is NaN (another writer's bounds; timef leaves NaN out).
std::optional<double> StatValue(const std::string& bytes, DType dtype) {
  auto load = [&](auto value) -> std::optional<decltype(value)> {
    if (bytes.size() != sizeof(value)) return std::nullopt;
    std::memcpy(&value, bytes.data(), sizeof(value));
    return value;
  };
  std::optional<double> out;
  switch (dtype) {
    case DType::kBool:
      if (bytes.size() == 1) out = bytes[0] != 0 ? 1.0 : 0.0;
      break;
    case DType::kUint32:
      if (auto v = load(std::uint32_t{})) out = static_cast<double>(*v);
      break;
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
    case DType::kUint8:
    case DType::kUint16:
      if (auto v = load(std::int32_t{})) out = static_cast<double>(*v);
      break;
    case DType::kFloat32:
      if (auto v = load(float{})) out = static_cast<double>(*v);
      break;
    case DType::kFloat64:
      out = load(double{});
      break;
    case DType::kStr:
    case DType::kEnum:
      break;
  }
  if (out && std::isnan(*out)) return std::nullopt;
  if (out && *out == 0.0) out = 0.0;  // -0.0 and +0.0 are one bound
  return out;
}

// One shard as this read needs it: the footer, the `values` leaf, and the page indexes of the
// row groups asked for.
struct Shard {
  std::shared_ptr<parquet::RandomAccessFile> file;
  std::optional<parquet::FileReader> reader;
  int column = -1;
  bool numeric_leaf = false;
  std::map<int, std::optional<parquet::ColumnIndex>> column_indexes;
};

const std::optional<parquet::ColumnIndex>& ColumnIndexOf(Shard& shard, int row_group,
                                                         std::size_t n_pages) {
  auto [it, inserted] = shard.column_indexes.try_emplace(row_group);
  if (!inserted) return it->second;
  const parquet::ColumnChunk& chunk = shard.reader->column_chunk(row_group, shard.column);
  if (!chunk.column_index_offset || !chunk.column_index_length) return it->second;
  const std::int64_t offset = *chunk.column_index_offset;
  const std::int64_t length = *chunk.column_index_length;
  parquet::ErrorContext context{
      .file = shard.reader->path(),
      .row_group = row_group,
      .column = "values",
      .offset = static_cast<std::uint64_t>(std::max<std::int64_t>(0, offset))};
  if (offset < 0 || length <= 0) context.Throw("column index has a negative offset or no bytes");
  const std::vector<std::byte> bytes =
      shard.file->Read(static_cast<std::uint64_t>(offset), static_cast<std::uint64_t>(length));
  parquet::ColumnIndex index =
      parquet::WithErrorContext(context, static_cast<std::uint64_t>(offset),
                                [&] { return parquet::ReadThrift<parquet::ColumnIndex>(bytes); });
  if (index.null_pages.size() != n_pages || index.min_values.size() != n_pages ||
      index.max_values.size() != n_pages) {
    context.Throw("column index lists " + std::to_string(index.null_pages.size()) +
                  " pages, the offset index " + std::to_string(n_pages));
  }
  it->second = std::move(index);
  return it->second;
}

}  // namespace

std::vector<ValuePage> ReadValuePages(const SignalValuesRef& ref) {
  std::vector<ValuePage> out;
  if (!ref.has_values() || ref.n_values() == 0) return out;
  auto lazy = std::dynamic_pointer_cast<const LazySignalValues>(ref.source());
  if (lazy == nullptr) {
    out.push_back({.begin = 0, .end = ref.n_values()});
    return out;
  }
  const DType dtype = ref.spec().dtype;
  const std::optional<parquet::Type> physical = PhysicalTypeOf(dtype);
  const bool scalar = ref.spec().StepWidth() == 1;
  std::map<std::filesystem::path, Shard> shards;

  // Chunks in step order; consecutive chunks in one page are merged when the page holds exactly
  // them.
  const std::vector<values::ChunkRef>& chunks = lazy->chunks();
  std::int64_t step = 0;
  std::size_t i = 0;
  while (i < chunks.size()) {
    const values::ChunkRef& chunk = chunks[i];
    const std::int64_t chunk_begin = step;
    if (chunk.zarr() || !physical || !scalar) {
      out.push_back({.begin = chunk_begin, .end = chunk_begin + chunk.locator.n_values});
      step += chunk.locator.n_values;
      ++i;
      continue;
    }
    Shard& shard = shards[chunk.file];
    if (!shard.reader) {
      shard.file = lazy->state()->OpenFile(chunk.file);
      shard.reader.emplace(parquet::FileReader::Open(shard.file, chunk.file));
      shard.column = shard.reader->ColumnIndex("values");
      shard.numeric_leaf = shard.reader->columns()[shard.column].physical_type == *physical;
    }
    const int row_group = static_cast<int>(chunk.locator.major);
    const parquet::OffsetIndex* offsets =
        row_group >= 0 && row_group < shard.reader->num_row_groups()
            ? shard.reader->offset_index(row_group, shard.column)
            : nullptr;
    // The page of this chunk's row, and how many of the following chunks are the page's next rows.
    std::size_t merged = 1;
    ValuePage page{.begin = chunk_begin, .end = chunk_begin + chunk.locator.n_values};
    if (offsets != nullptr && shard.numeric_leaf) {
      const std::int64_t num_rows = shard.reader->row_group_num_rows(row_group);
      const parquet::PageSpan span =
          parquet::PagesForRows(*offsets, (*chunk.locator.minor), (*chunk.locator.minor) + 1);
      if (span.end == span.begin + 1) {
        const std::int64_t first_row = offsets->page_locations[span.begin].first_row_index;
        const std::int64_t end_row = parquet::PageEndRow(*offsets, span.begin, num_rows);
        // The page's rows must be exactly chunks i, i+1, ... of this signal, in order.
        bool exact = first_row == (*chunk.locator.minor);
        std::int64_t end_step = page.end;
        while (exact && (*chunk.locator.minor) + static_cast<std::int64_t>(merged) < end_row) {
          const std::size_t next = i + merged;
          if (next >= chunks.size() || chunks[next].zarr() || chunks[next].file != chunk.file ||
              chunks[next].locator.major != chunk.locator.major ||
              (*chunks[next].locator.minor) !=
                  (*chunk.locator.minor) + static_cast<std::int64_t>(merged)) {
            exact = false;
            break;
          }
          end_step += chunks[next].locator.n_values;
          ++merged;
        }
        if (exact) {
          const std::optional<parquet::ColumnIndex>& index =
              ColumnIndexOf(shard, row_group, offsets->page_locations.size());
          if (index) {
            page.end = end_step;
            if (index->null_pages[span.begin]) {
              page.bounded = true;
            } else {
              page.min = StatValue(index->min_values[span.begin], dtype);
              page.max = StatValue(index->max_values[span.begin], dtype);
              page.bounded = page.min.has_value() && page.max.has_value();
              if (!page.bounded) page.min = page.max = std::nullopt;
            }
          }
          if (!page.bounded) merged = 1, page.end = chunk_begin + chunk.locator.n_values;
        } else {
          merged = 1;
        }
      }
    }
    out.push_back(page);
    step = page.end;
    i += merged;
  }
  return out;
}

}  // namespace timef
