// The reader's cache of decoded packed text, newest first, bounded by bytes (the newest value is
// kept even when larger). A value is keyed by the file it was read from as resolved for its
// storing release (LocatorResolver::ResolveFile), its row and its kind, so two releases whose
// payload files share a relative path never answer for each other. Not thread-safe: the owning
// PayloadFiles serializes use (its one mutex).
#pragma once

#include <cstdint>
#include <filesystem>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

namespace timef {

class TextCache {
 public:
  explicit TextCache(std::int64_t max_bytes) : max_bytes_(max_bytes) {}

  // The cached value (one element for kind text) or nullptr; a hit becomes the newest entry. The
  // pointer is valid until the next Put or Clear.
  const std::vector<std::string>* Find(const std::filesystem::path& file, std::int64_t row,
                                       bool list);
  void Put(const std::filesystem::path& file, std::int64_t row, bool list,
           std::vector<std::string> value);
  void Clear();
  std::int64_t bytes() const { return bytes_; }

 private:
  struct Entry {
    std::string key;
    std::vector<std::string> value;
    std::int64_t bytes;
  };
  static std::string Key(const std::filesystem::path& file, std::int64_t row, bool list);

  std::int64_t max_bytes_;
  std::list<Entry> entries_;
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  std::int64_t bytes_ = 0;
};

}  // namespace timef
