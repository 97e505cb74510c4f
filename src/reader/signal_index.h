// The reader's compact in-memory locator index (docs/format.md §11.5): for each signal it has
// resolved, the record ID, the spec and the chunk locators as small integers into a file table. A
// value read through it costs a hash lookup and the page decode, no SQL and no object hydration.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "catalog/hydrate/signal_locators.h"
#include "core/locators.h"
#include "timef/model.h"
#include "values/chunk_reader.h"

namespace timef {

class SignalIndex {
 public:
  struct Entry {
    std::int64_t record_id = 0;
    std::int64_t n_values = 0;
    std::uint32_t spec = 0;
    std::uint32_t n_chunks = 0;
    std::uint64_t first_chunk = 0;
  };

  // Turns a locator's (payload_source, value_path) into the file it names, or throws
  // (LocatorResolver::ResolveFile). Called once per distinct (payload_source, value_path).
  using Resolve = std::function<std::filesystem::path(const ChunkLocator&)>;

  // Adds (or replaces) one signal.
  void Add(catalog::SignalLocatorRow&& row, const Resolve& resolve);
  // nullptr when the signal is not indexed.
  const Entry* Find(std::int64_t signal_id) const;
  const std::shared_ptr<const model::Spec>& spec(const Entry& entry) const {
    return specs_[entry.spec];
  }
  std::vector<values::ChunkRef> ChunkRefs(const Entry& entry) const;

  // Set once every signal of the release is indexed: a miss then means "no such signal".
  bool complete() const { return complete_; }
  void set_complete() { complete_ = true; }
  std::size_t size() const { return entries_.size(); }
  // Approximate heap bytes held, for the docs' memory figure and tests.
  std::size_t bytes() const;

 private:
  struct CompactChunk {  // 24 bytes
    std::uint32_t file = 0;
    std::uint32_t row = 0;   // Parquet: row in the row group; Zarr: unused
    std::int64_t major = 0;  // Parquet: row group; Zarr: first step on axis 0
    std::int64_t n_values = 0;
  };
  struct File {
    std::filesystem::path path;  // Parquet: the shard; Zarr: the array directory
    std::string value_path;
    bool zarr = false;
    std::optional<std::string> payload_source;
  };
  std::uint32_t FileIndex(const ChunkLocator& locator, const Resolve& resolve);
  std::uint32_t SpecIndex(std::shared_ptr<const model::Spec> spec);

  std::unordered_map<std::int64_t, Entry> entries_;
  std::vector<CompactChunk> chunks_;
  std::vector<File> files_;
  // (storing release, value_path) → files_ index: two releases' shards may share a value_path.
  std::map<std::pair<std::optional<std::string>, std::string>, std::uint32_t> file_index_;
  std::vector<std::shared_ptr<const model::Spec>> specs_;
  bool complete_ = false;
};

}  // namespace timef
