// A reader's open Parquet files, by path: each opened once through a FileOpener and kept with what
// its owner keeps beside the FileReader (column positions, scratch), and the page figures summed
// over the files open now and those closed before.
//
// Entry: constructible from a FileReader, with a public `FileReader reader` member (the values
// ChunkReader's shards and the PayloadReader's files are two such entries).
//
// Ownership: owns the entries; a reference from Get() stays valid until Clear() or destruction.
// Threading: not thread-safe (its owner serializes). Errors: Get() raises what FileReader::Open
// and the entry's constructor raise (FileError, FormatError naming the file); nothing is kept then.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <utility>

#include "parquet/file_io.h"
#include "parquet/file_reader.h"
#include "parquet/reader_column.h"

namespace timef::parquet {

template <class Entry>
class OpenFiles {
 public:
  // `opener` null: local files.
  explicit OpenFiles(std::shared_ptr<const FileOpener> opener, ReaderOptions options = {})
      : opener_(opener ? std::move(opener) : LocalFileOpener()), options_(std::move(options)) {}

  Entry& Get(const std::filesystem::path& file) {
    auto found = entries_.find(file);
    if (found != entries_.end()) return *found->second;
    auto entry = std::make_unique<Entry>(FileReader::Open(opener_->Open(file), file, options_));
    ++files_opened_;
    return *entries_.emplace(file, std::move(entry)).first->second;
  }

  // Files opened since construction (the same file again after Clear() counts again).
  std::uint64_t files_opened() const { return files_opened_; }

  // Page figures of every file opened since construction.
  ReaderStats pages() const {
    ReaderStats total = closed_pages_;
    for (const auto& [path, entry] : entries_) AddStats(total, entry->reader.stats());
    return total;
  }

  // Closes every file; the figures stay.
  void Clear() {
    for (const auto& [path, entry] : entries_) AddStats(closed_pages_, entry->reader.stats());
    entries_.clear();
  }

 private:
  std::shared_ptr<const FileOpener> opener_;
  ReaderOptions options_;
  std::map<std::filesystem::path, std::unique_ptr<Entry>> entries_;
  std::uint64_t files_opened_ = 0;
  ReaderStats closed_pages_;
};

}  // namespace timef::parquet
