#include "reader/signal_index.h"

#include <limits>

#include "timef/error.h"
#include "values/zarr_store.h"

namespace timef {

std::uint32_t SignalIndex::FileIndex(const ChunkLocator& locator, const Resolve& resolve) {
  auto key = std::make_pair(locator.payload_source, locator.value_path);
  auto it = file_index_.find(key);
  if (it != file_index_.end()) return it->second;
  File file{resolve(locator), locator.value_path,
            locator.value_path.starts_with(values::zarr::kStorePrefix), locator.payload_source};
  const auto index = static_cast<std::uint32_t>(files_.size());
  files_.push_back(std::move(file));
  file_index_.emplace(std::move(key), index);
  return index;
}

std::uint32_t SignalIndex::SpecIndex(std::shared_ptr<const model::Spec> spec) {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i] == spec || *specs_[i] == *spec) return static_cast<std::uint32_t>(i);
  }
  specs_.push_back(std::move(spec));
  return static_cast<std::uint32_t>(specs_.size() - 1);
}

void SignalIndex::Add(catalog::SignalLocatorRow&& row, const Resolve& resolve) {
  Entry entry;
  entry.record_id = row.record_id;
  entry.n_values = row.n_values;
  entry.spec = SpecIndex(std::move(row.spec));
  entry.first_chunk = chunks_.size();
  entry.n_chunks = static_cast<std::uint32_t>(row.chunks.size());
  for (const ChunkLocator& locator : row.chunks) {
    // Resolving first lets the one resolve function name a Zarr or unlisted file; the row index
    // is checked here as well because a file already indexed is not resolved again.
    const std::uint32_t file = FileIndex(locator, resolve);
    if (files_[file].zarr) {
      if (locator.minor || locator.major < 0) {
        throw FormatError({.object = "signal_chunks", .where = "chunk_minor_index"},
                          "a Zarr locator of signal " + std::to_string(row.signal_id) +
                              " has a row index or a negative start");
      }
      chunks_.push_back(CompactChunk{file, 0, locator.major, locator.n_values});
      continue;
    }
    if (!locator.minor) {
      throw FormatError(
          {.object = "signal_chunks", .where = "chunk_minor_index"},
          "a parquet locator of signal " + std::to_string(row.signal_id) + " has no row index");
    }
    constexpr std::int64_t kMax = std::numeric_limits<std::uint32_t>::max();
    if (locator.major < 0 || locator.major > kMax || *locator.minor < 0 || *locator.minor > kMax) {
      throw FormatError({.object = "signal_chunks", .where = "chunk_major_index"},
                        "signal " + std::to_string(row.signal_id) + ": row group " +
                            std::to_string(locator.major) + ", row " +
                            std::to_string(*locator.minor) + " is outside 0..2^32-1");
    }
    chunks_.push_back(CompactChunk{file, static_cast<std::uint32_t>(*locator.minor), locator.major,
                                   locator.n_values});
  }
  entries_[row.signal_id] = entry;
}

const SignalIndex::Entry* SignalIndex::Find(std::int64_t signal_id) const {
  auto it = entries_.find(signal_id);
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<values::ChunkRef> SignalIndex::ChunkRefs(const Entry& entry) const {
  std::vector<values::ChunkRef> out;
  out.reserve(entry.n_chunks);
  for (std::uint64_t i = entry.first_chunk; i < entry.first_chunk + entry.n_chunks; ++i) {
    const CompactChunk& c = chunks_[i];
    const File& file = files_[c.file];
    std::optional<std::int64_t> row;
    if (!file.zarr) row = c.row;
    out.push_back(values::ChunkRef{
        file.path, ChunkLocator{file.payload_source, file.value_path, c.major, row, c.n_values}});
  }
  return out;
}

std::size_t SignalIndex::bytes() const {
  // unordered_map: a node (key, entry, next pointer, cached hash) plus a bucket pointer each.
  const std::size_t per_entry = sizeof(std::int64_t) + sizeof(Entry) + 2 * sizeof(void*) + 8;
  return entries_.size() * per_entry + chunks_.capacity() * sizeof(CompactChunk) +
         files_.size() * (sizeof(File) + 64);
}

}  // namespace timef
