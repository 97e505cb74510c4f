// The Parquet value decoders of one reader (ReaderOptions::decode_threads of them): each lane is a
// values::ChunkReader with its own open shards, parked pages and scratch, behind its own lock; the
// lanes share one cache of decoded dictionaries. A single read takes the first free lane; a batch
// cuts its signals into runs in their order and decodes the runs on as many lanes at once
// (docs/architecture.md "Decode lanes").
//
// Why runs in order rather than signal by signal: a lane goes on decoding a page where its previous
// read stopped (parked pages), so a run of a scan's consecutive signals decodes each page once, as
// one reader would; only the page at a run's start may be decoded by two lanes.
//
// Why threads that stay: a thread started per batch was often placed on the core of the thread
// that started it and finished before the scheduler moved it, so a batch's runs took turns on one
// core (measured: no gain from 2 threads on batches of 256 ECG series, twice the CPU time). A
// lane's worker sleeps between batches and keeps its core, arena and caches.
//
// Threading: every member may be called from any thread. A lane's lock is taken before any lock of
// the caller's that the `run` callbacks take (PayloadFiles' and FileSources'), never after. fork():
// the child has none of the workers; the first batch there starts its own, and the parent's worker
// objects are abandoned (leaked, never joined) because their threads and locks do not exist there.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "values/chunk_reader.h"

namespace timef {

class DecodeLanes;

// The runs of one batch (DecodeLanes::Start), each on its own lane. Destroying a job waits for its
// runs. Thread-safe.
class DecodeJob {
 public:
  using Run = std::function<void(values::ChunkReader& lane, std::size_t begin, std::size_t end)>;

  DecodeJob() = default;
  ~DecodeJob() { Join(); }
  DecodeJob(const DecodeJob&) = delete;
  DecodeJob& operator=(const DecodeJob&) = delete;

  // Blocks until every run handed to a worker has ended.
  void Join();
  // Join(), then rethrows the failure of the earliest run that failed (on every call). A failed
  // run stops at its failing item; the other runs finish.
  void Wait();

 private:
  friend class DecodeLanes;
  void Decode(DecodeLanes& lanes, std::size_t k);
  void Finished();  // a worker's run k ended

  Run run_;
  std::vector<std::size_t> bounds_;  // run k holds items [bounds_[k], bounds_[k + 1])
  std::vector<std::exception_ptr> failures_;
  std::mutex done_mutex_;
  std::condition_variable done_;
  std::size_t on_workers_ = 0;  // runs handed to workers and not yet ended (under done_mutex_)
};

class DecodeLanes {
 public:
  // `count` ≥ 1 lanes over one dictionary cache of `dictionary_cache_bytes`.
  // The lanes share one dictionary cache, `budget` (null: none) and `opener` (null: local files),
  // through which they open shards.
  DecodeLanes(int count, std::size_t dictionary_cache_bytes,
              std::shared_ptr<parquet::DecodeBudget> budget = nullptr,
              std::shared_ptr<const parquet::FileOpener> opener = nullptr);
  // Stops and joins the workers (first waiting for the runs queued on them).
  ~DecodeLanes();
  DecodeLanes(const DecodeLanes&) = delete;
  DecodeLanes& operator=(const DecodeLanes&) = delete;

  // Calls `read` with the first lane that is free (the lowest numbered, so one thread reading on
  // its own always keeps its parked pages on lane 0), or waits for lane 0 when none is.
  template <class Read>
  auto OnAnyLane(Read&& read) {
    for (const auto& lane : lanes_) {
      std::unique_lock lock(lane->mutex, std::try_to_lock);
      if (lock.owns_lock()) return read(lane->chunks);
    }
    std::lock_guard lock(lanes_.front()->mutex);
    return read(lanes_.front()->chunks);
  }

  // Cuts the items [0, weights.size()) into at most one contiguous run per lane of about equal
  // total weight (a batch too light to be worth a thread stays one run) and starts run(lane, begin,
  // end) for each, run k on lane k (waiting for the lane while another batch holds it). With
  // `caller_runs_first` the first run decodes on the calling thread before Start returns and the
  // others on threads started for them; without, every run gets a thread and Start returns at
  // once. Runs not on the caller go to lane k's worker thread, started with the first batch that
  // needs one (if it cannot be started, the run decodes on the caller instead). `job` must be new
  // (default-constructed) and outlive nothing `run` refers to.
  void Start(std::span<const std::int64_t> weights, DecodeJob::Run run, bool caller_runs_first,
             DecodeJob& job);

  // Summed over the lanes (dictionary figures once: the cache is shared).
  values::ChunkReaderStats stats() const;
  // Drops every lane's open shards and the cached dictionaries (waits for reads in progress).
  void Clear();

 private:
  friend class DecodeJob;
  struct Lane {
    Lane(std::shared_ptr<parquet::DictionaryCache> cache,
         std::shared_ptr<parquet::DecodeBudget> budget,
         std::shared_ptr<const parquet::FileOpener> opener)
        : chunks(std::move(cache), std::move(budget), std::move(opener)) {}
    std::mutex mutex;
    values::ChunkReader chunks;
  };
  // Below this total weight (values) a batch is decoded as one run: starting a thread costs about
  // what decoding a few thousand values does.
  static constexpr std::int64_t kMinParallelWeight = 16384;
  // Nor is a batch of short items (fewer values per item on average): on 12,000 series of 64-512
  // values in batches of 256, two threads took 1.5-3x the time of one, with twice the CPU time,
  // more of it in the allocator and the kernel, with threads started per batch and with workers
  // alike (docs/benchmarks.md "Values-only epochs"; the cause is not pinned down).
  static constexpr std::int64_t kMinMeanParallelWeight = 2048;

  class Workers;
  // Hands run k of `job` to lane k's worker; false when no worker could be started.
  bool Post(DecodeJob& job, std::size_t k);
  // What a worker does with a posted run.
  void RunPosted(DecodeJob& job, std::size_t k) {
    job.Decode(*this, k);
    job.Finished();  // the last touch of `job`: its owner may destroy it right after
  }

  std::vector<std::unique_ptr<Lane>> lanes_;
  std::mutex workers_mutex_;
  std::unique_ptr<Workers> workers_;  // one thread per lane, started by the first Post
};

}  // namespace timef
