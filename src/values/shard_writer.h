// One values shard being written: a Parquet file of one spec_type, row group by row group, closed
// with its footer and fsynced (docs/format.md §7.1–§7.4).
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/file_io.h"
#include "parquet/file_writer.h"
#include "timef/model.h"
#include "values/buffered_chunk.h"
#include "values/values_options.h"
#include "values/values_writer.h"

namespace timef::values {

// Threads: the ShardWriter is not thread-safe. With options.compression_threads = N > 1 its Parquet
// writer compresses and writes each row group in the background on N threads (FileWriter), and
// row groups may be encoded apart, on other threads, by EncodeRowGroup, then written here in order:
// the file is byte-identical for every thread count and either way of writing.
class ShardWriter {
 public:
  // Creates `release_dir / value_path` (FileError naming it when it exists or cannot be made).
  ShardWriter(const std::filesystem::path& release_dir, std::string value_path,
              std::shared_ptr<const model::Spec> spec, manifest::ValueEncoding encoding,
              const ValuesOptions& options);
  ~ShardWriter();
  ShardWriter(const ShardWriter&) = delete;
  ShardWriter& operator=(const ShardWriter&) = delete;

  // Writes `chunks` as the next row group, encoded on the calling thread, dropping each chunk once
  // it is handed to the engine, and returns where each landed, in order; `n_values` are the
  // chunks' value counts, in order (the caller has them; std::logic_error when they do not match).
  std::vector<ChunkLocator> WriteRowGroup(std::deque<BufferedChunk> chunks,
                                          std::span<const std::int64_t> n_values);
  // Writes a row group EncodeRowGroup encoded (with this shard's spec and encoding) as the next
  // one; `n_values` are its chunks' value counts, in order. Returns where each landed.
  std::vector<ChunkLocator> WriteRowGroup(parquet::RowGroupWriter& group,
                                          std::span<const std::int64_t> n_values);

  // Whether the file holds at least `target` bytes with every row group written so far: waits for
  // a row group still compressing only when the bound of its size says it might matter, so the
  // answer is the same for every thread count.
  bool ReachedBytes(std::int64_t target);

  // Writes the page index and footer, closes and fsyncs the file.
  ShardInfo Close();

 private:
  static void CheckPlacements(std::int64_t rows, std::span<const std::int64_t> n_values);
  // Where the chunks of row group `row_group` landed, given their value counts in order.
  std::vector<ChunkLocator> Placements(std::int64_t row_group,
                                       std::span<const std::int64_t> n_values) const;

  std::filesystem::path file_;
  std::string value_path_;
  std::shared_ptr<const model::Spec> spec_;
  parquet::FileOutputStream out_;
  std::unique_ptr<parquet::FileWriter> writer_;
  parquet::ColumnData scratch_;  // one chunk's `values` batch, reused
};

// The Parquet writer options of a values shard of `spec` stored with `encoding` (`name`: the file
// errors name).
parquet::WriterOptions ShardWriterOptions(const model::Spec& spec, manifest::ValueEncoding encoding,
                                          const ValuesOptions& options, std::string name);

// What encoding a row group apart takes, reused row group after row group: the Parquet row group
// writer of a values shard of `spec` written with `options` (ShardWriterOptions), and the scratch
// of one chunk's `values` batch. Not thread-safe; it may move between threads.
struct RowGroupStage {
  RowGroupStage(const model::Spec& spec, const parquet::WriterOptions& options);
  parquet::RowGroupWriter writer;
  parquet::ColumnData scratch;
};

// Stages `chunks` (dropping each once staged) into `stage` and encodes them as one row group, on
// the calling thread, which may be any: it touches nothing but its arguments. Then
// ShardWriter::WriteRowGroup(stage.writer, ...) writes it. Errors as parquet::RowGroupWriter's.
void EncodeRowGroup(const model::Spec& spec, std::deque<BufferedChunk> chunks,
                    RowGroupStage& stage);

// The `values` column batch of one chunk: one list row of the chunk's values in the shard's
// physical representation (small ints widened to INT32, uint as bit pattern, enum codes as labels).
void ChunkToColumn(const model::Spec& spec, const model::ValueArray& values,
                   parquet::ColumnData& out);

}  // namespace timef::values
