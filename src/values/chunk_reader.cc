#include "values/chunk_reader.h"

#include <functional>
#include <string>

#include "parquet/column_data.h"
#include "timef/error.h"
#include "values/column_values.h"
#include "values/leaf_check.h"
#include "values/shard_schema.h"

namespace timef::values {
struct ChunkReader::OpenShard {
  explicit OpenShard(parquet::FileReader opened) : reader(std::move(opened)) {
    const auto& columns = reader.columns();
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name == kValuesColumnName) {
        values_column = static_cast<int>(i);
        break;
      }
    }
  }
  parquet::FileReader reader;
  int values_column = -1;  // -1 = the file has no `values` column
};

namespace {
parquet::ReaderOptions ShardOptions(std::shared_ptr<parquet::DictionaryCache> dictionaries,
                                    std::shared_ptr<parquet::DecodeBudget> budget) {
  parquet::ReaderOptions options;
  options.dictionary_cache = std::move(dictionaries);
  options.decode_budget = std::move(budget);
  return options;
}
}  // namespace

ChunkReader::ChunkReader(std::size_t dictionary_cache_bytes)
    : ChunkReader(std::make_shared<parquet::DictionaryCache>(dictionary_cache_bytes)) {}
ChunkReader::ChunkReader(std::shared_ptr<parquet::DictionaryCache> dictionaries,
                         std::shared_ptr<parquet::DecodeBudget> budget,
                         std::shared_ptr<const parquet::FileOpener> opener)
    : dictionaries_(dictionaries), shards_(std::move(opener), ShardOptions(dictionaries, budget)) {}
ChunkReader::~ChunkReader() = default;

template <class Convert>
auto ChunkReader::ReadRow(const ChunkRef& chunk, const model::Spec& spec, Convert convert) {
  const std::int64_t row = chunk.locator.minor.value_or(0);  // a Parquet locator has one
  // The site is spelled out only when a read fails: building it is an allocation per chunk. The
  // lambda holds one reference, so the std::function made of it stores it without allocating.
  const struct {
    const ChunkRef& chunk;
    const model::Spec& spec;
    std::int64_t row;
  } site{chunk, spec, row};
  auto fail = [&site](const std::string& problem) {
    const std::string where = "values of '" + site.chunk.locator.value_path + "', row group " +
                              std::to_string(site.chunk.locator.major) + ", row " +
                              std::to_string(site.row);
    throw FormatError(ErrorSite{site.chunk.file, "", where},
                      problem + " (spec_type '" + site.spec.spec_type + "')");
  };
  OpenShard& shard = shards_.Get(chunk.file);
  parquet::FileReader& reader = shard.reader;
  if (shard.values_column < 0) fail("the shard has no 'values' column");
  const parquet::ColumnDescriptor& leaf =
      reader.columns()[static_cast<std::size_t>(shard.values_column)];
  if (std::string problem = ValuesLeafProblem(leaf, spec); !problem.empty()) fail(problem);
  if (chunk.locator.major < 0 || chunk.locator.major >= reader.num_row_groups()) {
    fail("row group " + std::to_string(chunk.locator.major) + " does not exist (the shard has " +
         std::to_string(reader.num_row_groups()) + ")");
  }
  const int row_group = static_cast<int>(chunk.locator.major);
  const std::int64_t rows = reader.row_group_num_rows(row_group);
  if (row < 0 || row >= rows) {
    fail("row " + std::to_string(row) + " does not exist (the row group has " +
         std::to_string(rows) + ")");
  }
  // One scratch for every shard, emptied after a read that grew it past kKeepScratchBytes: a
  // list row of a hostile page can decode to far more values than the chunk has.
  struct TrimScratch {
    parquet::ColumnData& scratch;
    ~TrimScratch() {
      if (scratch.values.capacity() > kKeepScratchBytes) scratch = parquet::ColumnData{};
    }
  } trim{scratch_};
  bool read = false;
  if (reader.offset_index(row_group, shard.values_column) == nullptr) {
    if (whole_.file != chunk.file || whole_.row_group != row_group) {
      whole_.file.clear();
      reader.ReadColumnChunk(row_group, shard.values_column, whole_.data);
      whole_.file = chunk.file;
      whole_.row_group = row_group;
    }
    read = SliceListRow(whole_.data, row, scratch_);
    if (whole_.data.values.capacity() > kKeepWholeGroupBytes) whole_ = WholeGroup{};
  }
  if (!read) reader.ReadRows(row_group, shard.values_column, row, row + 1, scratch_);
  auto values = convert(scratch_, std::function<void(const std::string&)>(fail));
  ++chunks_read_;
  return values;
}

model::ValueArray ChunkReader::Read(const ChunkRef& chunk, const model::Spec& spec) {
  return ReadRow(chunk, spec, [&](const parquet::ColumnData& row, const auto& fail) {
    return RowToValues(row, spec, chunk.locator.n_values, fail);
  });
}

std::int64_t ChunkReader::ReadInto(const ChunkRef& chunk, const model::Spec& spec,
                                   model::ScalarSpan out, std::span<std::uint8_t> validity) {
  return ReadRow(chunk, spec, [&](const parquet::ColumnData& row, const auto& fail) {
    return RowToValuesInto(row, spec, chunk.locator.n_values, out, validity, fail);
  });
}

std::optional<parquet::ByteRange> ChunkReader::PageRange(const ChunkRef& chunk) {
  if (chunk.zarr()) return std::nullopt;
  OpenShard& shard = shards_.Get(chunk.file);
  parquet::FileReader& reader = shard.reader;
  const std::int64_t row = *chunk.locator.minor;
  if (shard.values_column < 0 || chunk.locator.major < 0 ||
      chunk.locator.major >= reader.num_row_groups()) {
    return std::nullopt;
  }
  const int row_group = static_cast<int>(chunk.locator.major);
  if (row < 0 || row >= reader.row_group_num_rows(row_group)) return std::nullopt;
  return reader.RowsByteRange(row_group, shard.values_column, row, row + 1);
}

ChunkReaderStats ChunkReader::stats() const {
  return ChunkReaderStats{.files_opened = shards_.files_opened(),
                          .chunks_read = chunks_read_,
                          .pages = shards_.pages(),
                          .dictionaries = dictionaries_->stats()};
}

void ChunkReader::Clear() {
  shards_.Clear();
  whole_ = WholeGroup{};
  dictionaries_->Clear();
}

}  // namespace timef::values
