// One values shard being written: a Parquet file of one spec_type, row group by row group, closed
// with its footer and fsynced (docs/format.md §7.1–§7.4).
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/file_io.h"
#include "parquet/file_writer.h"
#include "timef/model.h"
#include "values/buffered_chunk.h"
#include "values/values_options.h"
#include "values/values_writer.h"

namespace timef::values {

// Threads: with options.compression_threads = 1 everything runs on the calling thread. With N > 1,
// WriteRowGroup returns the placements at once and hands the row group to a background thread,
// which turns the chunks into column batches, builds the dictionaries, encodes and compresses
// (with N - 1 compression threads in the Parquet writer, so N threads work at a time) and writes
// it, while the caller loads the next row group. One row group at most is in flight: the next
// WriteRowGroup, ReachedBytes or Close waits for it first and rethrows its failure (the writer is
// then unusable). The Parquet writer gets the same calls in the same order either way, so the file
// is byte-identical for every thread count. The ShardWriter itself is not thread-safe.
class ShardWriter {
 public:
  // Creates `release_dir / value_path` (FileError naming it when it exists or cannot be made).
  ShardWriter(const std::filesystem::path& release_dir, std::string value_path,
              std::shared_ptr<const model::Spec> spec, manifest::ValueEncoding encoding,
              const ValuesOptions& options);
  ~ShardWriter();
  ShardWriter(const ShardWriter&) = delete;
  ShardWriter& operator=(const ShardWriter&) = delete;

  // Writes `chunks` as the next row group, dropping each chunk once it is handed to the engine,
  // and returns where each landed, in order (in the background with several threads, see above).
  std::vector<ChunkLocator> WriteRowGroup(std::deque<BufferedChunk> chunks);

  // Whether the file holds at least `target` bytes with every row group written so far: waits for
  // a row group still compressing only when the bound of its size says it might matter, so the
  // answer is the same for every thread count.
  bool ReachedBytes(std::int64_t target);

  // Writes the page index and footer, closes and fsyncs the file.
  ShardInfo Close();

 private:
  // Hands the chunks to the Parquet writer and flushes them as one row group.
  void Store(std::deque<BufferedChunk>& chunks);
  // Waits for the row group in flight and rethrows its failure.
  void FinishStoring();

  std::filesystem::path file_;
  std::string value_path_;
  std::shared_ptr<const model::Spec> spec_;
  parquet::FileOutputStream out_;
  std::unique_ptr<parquet::FileWriter> writer_;
  parquet::ColumnData scratch_;       // one chunk's `values` batch, reused
  bool pipelined_ = false;            // compression_threads > 1
  std::int64_t row_groups_ = 0;       // handed to WriteRowGroup so far
  std::exception_ptr store_failure_;  // set by the background thread, read after joining it
  // Last member: destroyed (joined) first, while everything the thread touches still exists.
  std::jthread storing_;
};

// The `values` column batch of one chunk: one list row of the chunk's values in the shard's
// physical representation (small ints widened to INT32, uint as bit pattern, enum codes as labels).
void ChunkToColumn(const model::Spec& spec, const model::ValueArray& values,
                   parquet::ColumnData& out);

}  // namespace timef::values
