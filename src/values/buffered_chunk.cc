#include "values/buffered_chunk.h"

#include <algorithm>
#include <limits>

namespace timef::values {

std::int64_t ValuesPerChunk(std::int64_t chunk_max_bytes, std::int64_t step_bytes) {
  constexpr std::int64_t kMaxPerChunk = std::numeric_limits<std::int32_t>::max();
  return std::max<std::int64_t>(
      1, std::min(kMaxPerChunk, chunk_max_bytes / std::max<std::int64_t>(1, step_bytes)));
}

void AppendChunks(std::int64_t signal_id, const std::shared_ptr<const std::string>& name,
                  const model::ValueArray& values, std::int64_t per_chunk, std::int64_t step_bytes,
                  std::deque<BufferedChunk>& out) {
  const std::int64_t n = values.size();
  std::int32_t index = 0;
  for (std::int64_t begin = 0; begin < n; begin += per_chunk, ++index) {
    const std::int64_t end = std::min(n, begin + per_chunk);
    BufferedChunk chunk;
    chunk.signal_id = signal_id;
    chunk.signal_name = name;
    chunk.chunk_idx = index;
    chunk.values = values.SliceSteps(begin, end, 1);
    chunk.bytes = (end - begin) * step_bytes;
    out.push_back(std::move(chunk));
  }
}

void PieceChunker::Add(const model::ValueArray& piece) {
  const std::int64_t n = piece.size();
  std::int64_t at = 0;
  while (at < n) {
    const std::int64_t take = std::min(per_chunk_ - filled_, n - at);
    parts_.push_back(at == 0 && take == n ? piece : piece.SliceSteps(at, at + take, 1));
    filled_ += take;
    at += take;
    if (filled_ == per_chunk_) Emit();
  }
}

void PieceChunker::Finish() {
  if (filled_ > 0) Emit();
}

void PieceChunker::Emit() {
  BufferedChunk chunk;
  chunk.signal_id = signal_id_;
  chunk.signal_name = name_;
  chunk.chunk_idx = next_index_++;
  // One slice is the chunk as it is; several are joined (validity kept when one has nulls, as a
  // slice of the whole array would keep it: the shard bytes do not tell an all-present validity
  // from none).
  chunk.values =
      parts_.size() == 1 ? std::move(parts_.front()) : model::ConcatSteps(dtype_, parts_, 1);
  chunk.bytes = filled_ * step_bytes_;
  parts_.clear();
  filled_ = 0;
  emit_(std::move(chunk));
}

void RowGroupBuffer::Add(BufferedChunk chunk) {
  bytes_ += chunk.bytes;
  values_ += chunk.n_values();
  chunks_.push_back(std::move(chunk));
}

std::deque<BufferedChunk> RowGroupBuffer::Take() {
  std::deque<BufferedChunk> taken;
  taken.swap(chunks_);
  bytes_ = 0;
  values_ = 0;
  return taken;
}

}  // namespace timef::values
