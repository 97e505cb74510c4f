#include "reader/text_cache.h"

#include <utility>

namespace timef {

std::string TextCache::Key(const std::filesystem::path& file, std::int64_t row, bool list) {
  // '\0' cannot occur in a path, so no two (file, row, kind) share a key.
  return file.string() + '\0' + (list ? "L" : "T") + std::to_string(row);
}

const std::vector<std::string>* TextCache::Find(const std::filesystem::path& file, std::int64_t row,
                                                bool list) {
  auto found = index_.find(Key(file, row, list));
  if (found == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, found->second);
  return &entries_.front().value;
}

void TextCache::Put(const std::filesystem::path& file, std::int64_t row, bool list,
                    std::vector<std::string> value) {
  std::string key = Key(file, row, list);
  if (auto old = index_.find(key); old != index_.end()) {
    bytes_ -= old->second->bytes;
    entries_.erase(old->second);
    index_.erase(old);
  }
  std::int64_t bytes = 0;
  for (const std::string& s : value) bytes += static_cast<std::int64_t>(s.size()) + 32;
  entries_.push_front(Entry{key, std::move(value), bytes});
  index_[std::move(key)] = entries_.begin();
  bytes_ += bytes;
  while (entries_.size() > 1 && bytes_ > max_bytes_) {
    const Entry& oldest = entries_.back();
    bytes_ -= oldest.bytes;
    index_.erase(oldest.key);
    entries_.pop_back();
  }
}

void TextCache::Clear() {
  entries_.clear();
  index_.clear();
  bytes_ = 0;
}

}  // namespace timef
