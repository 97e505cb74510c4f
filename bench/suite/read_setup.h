// What every read workload opens inside its child: the corpus model (lazy, for IDs, lengths and
// rates), a timef Reader on the release, the raw store and the DuckDB peer over the same shards.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "corpus/corpus.h"
#include "suite/duckdb_peer.h"
#include "suite/raw_store.h"
#include "suite/workloads.h"
#include "timef/reader.h"

namespace timef::bench {

struct ReadSetup {
  ReadSetup(const SuiteOptions& options, CorpusKind kind);

  Corpus corpus;
  CorpusPaths paths;
  Reader reader;
  RawStore raw;
  std::unique_ptr<ParquetPeer> duckdb;
  std::vector<std::int64_t> ids;  // signal IDs in ID order

  // Hydrated signal handles of `ids_wanted`, by ID (one GetSignals call).
  std::map<std::int64_t, std::shared_ptr<model::Signal>> Handles(
      std::span<const std::int64_t> ids_wanted);
  // Steps held by one chunk of a float32 signal under the write options.
  std::int64_t ChunkValues() const;

 private:
  std::int64_t chunk_max_bytes_;
};

// Windows of the window workloads: one window is the same `options.window_seconds` of every
// signal of a record, starting at a seeded whole second; `per_record` of them per record, records
// in corpus order.
std::vector<std::vector<ParquetPeer::Window>> PlanWindows(const ReadSetup& setup,
                                                          const SuiteOptions& options,
                                                          int per_record);

// `count` signal IDs drawn uniformly (with replacement) from `ids`, seeded.
std::vector<std::int64_t> PickIds(std::span<const std::int64_t> ids, int count, std::uint64_t seed,
                                  std::uint64_t salt);
// True when both hold the same bit patterns.
bool SameBits(std::span<const float> a, std::span<const float> b);
// A sum that the compiler cannot drop.
double SumOf(std::span<const float> values);

}  // namespace timef::bench
