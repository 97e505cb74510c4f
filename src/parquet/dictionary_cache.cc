#include "parquet/dictionary_cache.h"

#include <atomic>

namespace timef::parquet {

std::uint64_t DictionaryCache::NewFileId() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::size_t DictionaryCache::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = k.file * 0x9E3779B97F4A7C15ULL;
  h ^= static_cast<std::uint64_t>(k.row_group) + 0x632BE59BD9B4E019ULL + (h << 6) + (h >> 2);
  h ^= static_cast<std::uint64_t>(k.column) + 0x85EBCA77C2B2AE63ULL + (h << 6) + (h >> 2);
  return static_cast<std::size_t>(h);
}

std::shared_ptr<const Dictionary> DictionaryCache::Find(const Key& key) {
  std::lock_guard lock(mutex_);
  auto it = index_.find(key);
  if (it == index_.end()) {
    ++stats_.misses;
    return nullptr;
  }
  ++stats_.hits;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->dictionary;
}

void DictionaryCache::Put(const Key& key, std::shared_ptr<const Dictionary> dictionary) {
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(key); it != index_.end()) Evict(it->second);
  const std::size_t bytes = dictionary->bytes();
  if (bytes > budget_) return;
  while (bytes_ + bytes > budget_ && !lru_.empty()) {
    Evict(std::prev(lru_.end()));
    ++stats_.evictions;
  }
  lru_.push_front(Entry{key, std::move(dictionary), bytes});
  index_[key] = lru_.begin();
  bytes_ += bytes;
}

void DictionaryCache::Evict(List::iterator it) {
  bytes_ -= it->bytes;
  index_.erase(it->key);
  lru_.erase(it);
}

void DictionaryCache::EraseFile(std::uint64_t file) {
  std::lock_guard lock(mutex_);
  for (auto it = lru_.begin(); it != lru_.end();) {
    auto next = std::next(it);
    if (it->key.file == file) Evict(it);
    it = next;
  }
}

void DictionaryCache::Clear() {
  std::lock_guard lock(mutex_);
  lru_.clear();
  index_.clear();
  bytes_ = 0;
}

DictionaryCacheStats DictionaryCache::stats() const {
  std::lock_guard lock(mutex_);
  DictionaryCacheStats out = stats_;
  out.entries = lru_.size();
  out.bytes = bytes_;
  return out;
}

}  // namespace timef::parquet
