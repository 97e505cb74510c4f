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
