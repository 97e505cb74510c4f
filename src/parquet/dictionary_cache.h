// Decoded dictionary pages kept across reads, least recently used first out under a byte budget.
// A random row read through the page index needs the dictionary of its column chunk; decoding it
// (often the largest page of the chunk, zstd-compressed) cost more than the row's own data page, so
// readers that jump between row groups keep the decoded dictionaries here.
//
// Ownership: the cache shares each dictionary with the decoder using it (shared_ptr), so evicting
// an entry never frees a dictionary a page decode still reads. Threading: thread-safe (one lock
// held for the map update of each call only), so readers decoding on several threads may share
// one cache; two threads missing the same key both decode it and the later Put replaces the first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "parquet/reader_values.h"

namespace timef::parquet {

struct DictionaryCacheStats {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t evictions = 0;
  std::uint64_t entries = 0;  // held now
  std::uint64_t bytes = 0;    // held now (Dictionary::bytes())
};

class DictionaryCache {
 public:
  // (file, row group, column): `file` is FileReader's own number (see NewFileId).
  struct Key {
    std::uint64_t file = 0;
    std::int64_t row_group = 0;
    std::int64_t column = 0;
    bool operator==(const Key&) const = default;
  };

  // `budget_bytes` bounds the bytes held; 0 keeps nothing. A dictionary larger than the budget is
  // not kept.
  explicit DictionaryCache(std::size_t budget_bytes) : budget_(budget_bytes) {}
  DictionaryCache(const DictionaryCache&) = delete;
  DictionaryCache& operator=(const DictionaryCache&) = delete;

  // A number no other file of this process has had: keys of a closed file never match a new one.
  static std::uint64_t NewFileId();

  // The dictionary stored under `key` (now the most recently used), or nullptr.
  std::shared_ptr<const Dictionary> Find(const Key& key);
  // Stores `dictionary` under `key`, evicting the least recently used entries to stay within the
  // budget.
  void Put(const Key& key, std::shared_ptr<const Dictionary> dictionary);
  // Drops every entry of `file` (a FileReader closing).
  void EraseFile(std::uint64_t file);
  void Clear();

  std::size_t budget_bytes() const { return budget_; }
  DictionaryCacheStats stats() const;

 private:
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  struct Entry {
    Key key;
    std::shared_ptr<const Dictionary> dictionary;
    std::size_t bytes = 0;
  };
  using List = std::list<Entry>;  // most recently used first
  void Evict(List::iterator it);

  std::size_t budget_;
  mutable std::mutex mutex_;  // guards the members below
  std::size_t bytes_ = 0;
  List lru_;
  std::unordered_map<Key, List::iterator, KeyHash> index_;
  DictionaryCacheStats stats_;
};

}  // namespace timef::parquet
