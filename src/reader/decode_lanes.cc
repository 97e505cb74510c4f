#include "reader/decode_lanes.h"

#include <unistd.h>

#include <algorithm>
#include <deque>
#include <exception>
#include <numeric>
#include <system_error>
#include <thread>

namespace timef {

// One thread per lane, each taking the runs posted for its lane in order and sleeping in between.
class DecodeLanes::Workers {
 public:
  // Starts `count` threads; if one cannot be started, stops the others and throws.
  Workers(DecodeLanes& lanes, std::size_t count) : pid_(getpid()) {
    queues_.reserve(count);
    for (std::size_t k = 0; k < count; ++k) queues_.push_back(std::make_unique<Queue>());
    try {
      for (std::size_t k = 0; k < count; ++k) {
        queues_[k]->thread = std::thread([this, &lanes, k] { Serve(lanes, k); });
      }
    } catch (...) {
      Stop();
      throw;
    }
  }
  // Lets each worker finish the runs queued on it, then joins it.
  ~Workers() { Stop(); }
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  void Post(DecodeJob& job, std::size_t k) {
    Queue& queue = *queues_[k];
    {
      std::lock_guard lock(queue.mutex);
      queue.jobs.push_back(&job);
    }
    queue.ready.notify_one();
  }
  // The process that started the threads (they exist only there).
  pid_t pid() const { return pid_; }

 private:
  struct Queue {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<DecodeJob*> jobs;
    bool stop = false;
    std::thread thread;
  };

  void Serve(DecodeLanes& lanes, std::size_t k) {
    Queue& queue = *queues_[k];
    for (;;) {
      DecodeJob* job = nullptr;
      {
        std::unique_lock lock(queue.mutex);
        queue.ready.wait(lock, [&] { return queue.stop || !queue.jobs.empty(); });
        if (queue.jobs.empty()) return;  // stopping, nothing left
        job = queue.jobs.front();
        queue.jobs.pop_front();
      }
      lanes.RunPosted(*job, k);
    }
  }

  void Stop() {
    for (const auto& queue : queues_) {
      {
        std::lock_guard lock(queue->mutex);
        queue->stop = true;
      }
      queue->ready.notify_one();
    }
    for (const auto& queue : queues_) {
      if (queue->thread.joinable()) queue->thread.join();
    }
  }

  const pid_t pid_;
  std::vector<std::unique_ptr<Queue>> queues_;  // not resized once the threads run
};

DecodeLanes::DecodeLanes(int count, std::size_t dictionary_cache_bytes,
                         std::shared_ptr<parquet::DecodeBudget> budget,
                         std::shared_ptr<const parquet::FileOpener> opener) {
  auto cache = std::make_shared<parquet::DictionaryCache>(dictionary_cache_bytes);
  for (int i = 0; i < std::max(1, count); ++i) {
    lanes_.push_back(std::make_unique<Lane>(cache, budget, opener));
  }
}

DecodeLanes::~DecodeLanes() {
  std::lock_guard lock(workers_mutex_);
  if (workers_ && workers_->pid() != getpid()) {
    // A child of fork(): the workers' threads are not here, so they cannot be joined.
    Workers* abandoned = workers_.release();
    static_cast<void>(abandoned);
  }
}

bool DecodeLanes::Post(DecodeJob& job, std::size_t k) {
  Workers* workers = nullptr;
  {
    std::lock_guard lock(workers_mutex_);
    if (workers_ && workers_->pid() != getpid()) {
      // A child of fork(): those threads are not here and their locks may be held; start anew.
      Workers* abandoned = workers_.release();
      static_cast<void>(abandoned);
    }
    if (!workers_) {
      try {
        workers_ = std::make_unique<Workers>(*this, lanes_.size());
      } catch (const std::system_error&) {
        return false;
      }
    }
    workers = workers_.get();
  }
  {
    std::lock_guard lock(job.done_mutex_);
    ++job.on_workers_;
  }
  workers->Post(job, k);
  return true;
}

void DecodeLanes::Start(std::span<const std::int64_t> weights, DecodeJob::Run run,
                        bool caller_runs_first, DecodeJob& job) {
  const std::size_t n = weights.size();
  const std::int64_t total = std::accumulate(weights.begin(), weights.end(), std::int64_t{0});
  std::size_t runs = std::min(lanes_.size(), n);
  if (total < kMinParallelWeight || total < kMinMeanParallelWeight * static_cast<std::int64_t>(n)) {
    runs = std::min<std::size_t>(runs, 1);
  }
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
  const std::size_t first_posted = caller_runs_first ? 1 : 0;
  for (std::size_t k = first_posted; k < runs; ++k) {
    if (!Post(job, k)) {
      // No worker threads: this run and the ones after decode here instead.
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

void DecodeJob::Finished() {
  // Notified under the lock, so that Join cannot return (and the job go) before this is done.
  std::lock_guard lock(done_mutex_);
  --on_workers_;
  done_.notify_all();
}

void DecodeJob::Join() {
  std::unique_lock lock(done_mutex_);
  done_.wait(lock, [&] { return on_workers_ == 0; });
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
