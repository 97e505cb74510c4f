#include "reader/file_sources.h"

#include <algorithm>
#include <vector>

#include "core/checksum.h"

namespace timef {

FileSources::FileSources(std::shared_ptr<const parquet::FileOpener> transport)
    : remote_(transport != nullptr),
      transport_(transport ? std::move(transport) : parquet::LocalFileOpener()) {}

std::shared_ptr<parquet::RandomAccessFile> FileSources::Open(
    const std::filesystem::path& file) const {
  {
    std::lock_guard lock(mutex_);
    if (auto it = open_.find(file); it != open_.end()) return it->second;
  }
  std::shared_ptr<parquet::RandomAccessFile> opened = transport_->Open(file);
  std::lock_guard lock(mutex_);
  auto [it, inserted] = open_.emplace(file, std::move(opened));
  if (inserted) ++files_opened_;
  return it->second;
}

std::string FileSources::Checksum(const std::filesystem::path& file) const {
  const std::shared_ptr<parquet::RandomAccessFile> source = Open(file);
  Sha256 hash;
  std::vector<std::byte> block;
  for (std::uint64_t at = 0; at < source->size(); at += kChecksumBlockSize) {
    const std::uint64_t n = std::min<std::uint64_t>(kChecksumBlockSize, source->size() - at);
    block.resize(static_cast<std::size_t>(n));
    source->ReadAt(at, block);
    hash.Update(std::span<const std::byte>(block));
  }
  return hash.Finish();
}

std::uint64_t FileSources::files_opened() const {
  std::lock_guard lock(mutex_);
  return files_opened_;
}

void FileSources::Close() {
  std::lock_guard lock(mutex_);
  open_.clear();
}

}  // namespace timef
