#include "suite/read_setup.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "corpus/rng.h"

namespace timef::bench {
namespace {

std::vector<std::filesystem::path> ShardPaths(const Reader& reader) {
  std::vector<std::filesystem::path> out;
  for (const auto& part : reader.manifest().files.time_series) {
    out.push_back(reader.path() / part.path);
  }
  return out;
}

}  // namespace

ReadSetup::ReadSetup(const SuiteOptions& options, CorpusKind kind)
    : corpus(BuildCorpus(kind, options.size, options.seed)),
      paths(PathsFor(options, kind)),
      reader(Reader::Open(paths.release, ReaderOptions{.decode_threads = options.decode_threads})),
      raw(RawStore::Open(paths.raw)),
      duckdb(std::make_unique<ParquetPeer>(ShardPaths(reader), options.duckdb_threads)),
      chunk_max_bytes_(options.write_options.chunk_max_bytes) {
  for (const auto& signal : corpus.signals) ids.push_back(*signal->id());
}

std::map<std::int64_t, std::shared_ptr<model::Signal>> ReadSetup::Handles(
    std::span<const std::int64_t> ids_wanted) {
  std::map<std::int64_t, std::shared_ptr<model::Signal>> out;
  for (auto& signal : reader.GetSignals(ids_wanted)) out[*signal->id()] = signal;
  return out;
}

std::int64_t ReadSetup::ChunkValues() const {
  return std::max<std::int64_t>(1, chunk_max_bytes_ / 4);
}

std::vector<std::vector<ParquetPeer::Window>> PlanWindows(const ReadSetup& setup,
                                                          const SuiteOptions& options,
                                                          int per_record) {
  std::vector<std::vector<ParquetPeer::Window>> windows;
  std::size_t ordinal = 0;
  for (std::size_t r = 0; r < setup.corpus.dataset->records().size(); ++r) {
    const auto signals = setup.corpus.dataset->records()[r]->Signals();
    double duration_s = 1e300;
    for (std::size_t k = 0; k < signals.size(); ++k) {
      duration_s = std::min(duration_s, signals[k]->n_values() / setup.corpus.rate_hz[ordinal + k]);
    }
    Rng rng = Rng::For({options.seed, r, 0x3140});
    for (int w = 0; w < per_record; ++w) {
      const double start_s =
          std::floor(rng.Uniform(0, std::max(0.0, duration_s - options.window_seconds)));
      std::vector<ParquetPeer::Window> parts;
      for (std::size_t k = 0; k < signals.size(); ++k) {
        const double rate = setup.corpus.rate_hz[ordinal + k];
        const auto begin = static_cast<std::int64_t>(start_s * rate);
        const auto end = std::min(signals[k]->n_values(),
                                  begin + static_cast<std::int64_t>(options.window_seconds * rate));
        parts.push_back({*signals[k]->id(), begin, end});
      }
      windows.push_back(std::move(parts));
    }
    ordinal += signals.size();
  }
  return windows;
}

std::vector<std::int64_t> PickIds(std::span<const std::int64_t> ids, int count, std::uint64_t seed,
                                  std::uint64_t salt) {
  Rng rng = Rng::For({seed, salt, 0x9D5});
  std::vector<std::int64_t> out;
  out.reserve(count);
  for (int i = 0; i < count; ++i) out.push_back(ids[rng.Below(ids.size())]);
  return out;
}

bool SameBits(std::span<const float> a, std::span<const float> b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

double SumOf(std::span<const float> values) {
  double sum = 0;
  for (float v : values) sum += v;
  return sum;
}

}  // namespace timef::bench
