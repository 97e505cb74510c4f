// A chunk of one signal's values waiting in memory for its row group (docs/format.md §7.3 steps
// 3–4).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "timef/model.h"

namespace timef::values {

struct BufferedChunk {
  std::int64_t signal_id = 0;
  std::shared_ptr<const std::string> signal_name;  // shared by a signal's chunks
  std::int32_t chunk_idx = 0;
  model::ValueArray values;  // the chunk's timesteps, a copy: the signal's array is dropped
  std::int64_t bytes = 0;    // n_values × step_bytes

  std::int64_t n_values() const { return values.size(); }
};

// Values per chunk for a signal whose steps count `step_bytes` (§7.2 step 3).
std::int64_t ValuesPerChunk(std::int64_t chunk_max_bytes, std::int64_t step_bytes);

// Cuts `values` (n steps) into chunks of `per_chunk` steps, in order, appending them to `out`.
void AppendChunks(std::int64_t signal_id, const std::shared_ptr<const std::string>& name,
                  const model::ValueArray& values, std::int64_t per_chunk, std::int64_t step_bytes,
                  std::deque<BufferedChunk>& out);

// Cuts a signal handed in pieces (model/values.h) into exactly the chunks AppendChunks cuts its
// whole array into: `per_chunk` steps each, the last one shorter. Holds at most one chunk's steps;
// each completed chunk goes to `emit` at once. Scalar specs only (one scalar per step).
class PieceChunker {
 public:
  PieceChunker(std::int64_t signal_id, std::shared_ptr<const std::string> name, model::DType dtype,
               std::int64_t per_chunk, std::int64_t step_bytes,
               std::function<void(BufferedChunk)> emit)
      : signal_id_(signal_id),
        name_(std::move(name)),
        dtype_(dtype),
        per_chunk_(per_chunk),
        step_bytes_(step_bytes),
        emit_(std::move(emit)) {}

  void Add(const model::ValueArray& piece);
  // Emits the last, partial chunk.
  void Finish();

 private:
  void Emit();

  std::int64_t signal_id_;
  std::shared_ptr<const std::string> name_;
  model::DType dtype_;
  std::int64_t per_chunk_;
  std::int64_t step_bytes_;
  std::function<void(BufferedChunk)> emit_;
  std::vector<model::ValueArray> parts_;  // the current chunk's steps, in slices of pieces
  std::int64_t filled_ = 0;
  std::int32_t next_index_ = 0;
};

// The chunks of one row group in the making, with the §7.2 step 4 budgets.
class RowGroupBuffer {
 public:
  // 2^31 values: a row group's list column must stay countable in int32 levels.
  static constexpr std::int64_t kMaxRowGroupValues = std::int64_t{1} << 31;

  explicit RowGroupBuffer(std::int64_t target_bytes) : target_bytes_(target_bytes) {}

  bool empty() const { return chunks_.empty(); }
  // True when `chunk` would bring the row group to 2^31 values: flush first.
  bool MustFlushBefore(const BufferedChunk& chunk) const {
    return !chunks_.empty() && values_ + chunk.n_values() >= kMaxRowGroupValues;
  }
  void Add(BufferedChunk chunk);
  bool Full() const { return bytes_ >= target_bytes_; }
  // Hands the chunks over and starts an empty row group.
  std::deque<BufferedChunk> Take();

 private:
  std::int64_t target_bytes_;
  std::deque<BufferedChunk> chunks_;
  std::int64_t bytes_ = 0;
  std::int64_t values_ = 0;
};

}  // namespace timef::values
