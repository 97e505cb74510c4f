#include "reader/decode_lanes.h"

#include <algorithm>
#include <exception>
#include <numeric>
#include <thread>

namespace timef {

DecodeLanes::DecodeLanes(int count, std::size_t dictionary_cache_bytes) {
  auto cache = std::make_shared<parquet::DictionaryCache>(dictionary_cache_bytes);
  for (int i = 0; i < std::max(1, count); ++i) lanes_.push_back(std::make_unique<Lane>(cache));
}

void DecodeLanes::Start(std::span<const std::int64_t> weights, DecodeJob::Run run,
                        bool caller_runs_first, DecodeJob& job) {
  const std::size_t n = weights.size();
  const std::int64_t total = std::accumulate(weights.begin(), weights.end(), std::int64_t{0});
  std::size_t runs = std::min(lanes_.size(), n);
  if (total < kMinParallelWeight) runs = std::min<std::size_t>(runs, 1);
  // bounds[k] = the first item of run k: where the running weight reaches k/runs of the total.
  std::vector<std::size_t> bounds{0};
  std::int64_t seen = 0;
  for (std::size_t i = 0; i < n && bounds.size() < runs; ++i) {
    seen += weights[i];
    const auto k = static_cast<std::int64_t>(bounds.size());
    if (seen * static_cast<std::int64_t>(runs) >= total * k) bounds.push_back(i + 1);
  }
  while (bounds.size() < runs) bounds.push_back(n);  // weights that are all zero at the end
  bounds.push_back(n);

  job.run_ = std::move(run);
  job.bounds_ = std::move(bounds);
  job.failures_.assign(runs, nullptr);
  const std::size_t first_thread = caller_runs_first ? 1 : 0;
  job.threads_.reserve(runs - std::min(runs, first_thread));
  for (std::size_t k = first_thread; k < runs; ++k) {
    try {
      job.threads_.emplace_back([this, &job, k] { job.Decode(*this, k); });
    } catch (...) {
      // No thread for this run (or the ones after): they run here instead.
      for (std::size_t rest = k; rest < runs; ++rest) job.Decode(*this, rest);
      break;
    }
  }
  if (caller_runs_first && runs > 0) job.Decode(*this, 0);
}

void DecodeJob::Decode(DecodeLanes& lanes, std::size_t k) {
  try {
    DecodeLanes::Lane& lane = *lanes.lanes_[k];
    std::lock_guard lock(lane.mutex);
    if (bounds_[k] < bounds_[k + 1]) run_(lane.chunks, bounds_[k], bounds_[k + 1]);
  } catch (...) {
    failures_[k] = std::current_exception();
  }
}

void DecodeJob::Join() {
  std::lock_guard lock(join_mutex_);
  for (std::jthread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void DecodeJob::Wait() {
  Join();
  for (const std::exception_ptr& failure : failures_) {
    if (failure) std::rethrow_exception(failure);
  }
}

values::ChunkReaderStats DecodeLanes::stats() const {
  values::ChunkReaderStats total;
  for (const auto& lane : lanes_) {
    std::lock_guard lock(lane->mutex);
    const values::ChunkReaderStats one = lane->chunks.stats();
    total.files_opened += one.files_opened;
    total.chunks_read += one.chunks_read;
    parquet::AddStats(total.pages, one.pages);
    total.dictionaries = one.dictionaries;
  }
  return total;
}

void DecodeLanes::Clear() {
  for (const auto& lane : lanes_) {
    std::lock_guard lock(lane->mutex);
    lane->chunks.Clear();
  }
}

}  // namespace timef
