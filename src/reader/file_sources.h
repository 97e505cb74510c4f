// The part of a reader that opens files (docs/architecture.md "Reader parts"): every values,
// payload and Zarr file a reader reads is opened here, through the release's byte-range transport
// (parquet::FileOpener: local files memory-mapped, or a remote release's HTTP(S) ranges). An
// opened file is kept and shared: the decode lanes, the payload reader and the Zarr reader that
// open the same file use one RandomAccessFile (one mapping, or one remote object with its
// connection pool), until Close().
//
// Ownership: the ReaderState owns it through a shared_ptr, which the lanes' ChunkReaders, the
// PayloadReader and the ZarrReader hold as their opener. Threading: thread-safe; one mutex guards
// the open files and the counter, and is never held while the transport opens a file (two threads
// opening the same file at once may both open it; the first kept wins). It takes no other lock,
// so callers may hold theirs. Errors: the transport's (FileError, MissingFileError naming the
// file).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "parquet/file_io.h"

namespace timef {

class FileSources final : public parquet::FileOpener {
 public:
  explicit FileSources(std::shared_ptr<const parquet::FileOpener> transport);

  std::shared_ptr<parquet::RandomAccessFile> Open(const std::filesystem::path& file) const override;
  // The sha256 of a whole file ("sha256:<hex>"), read through the transport (1 MiB ranges).
  std::string Checksum(const std::filesystem::path& file) const;
  // Distinct files opened through the transport since construction.
  std::uint64_t files_opened() const;
  // Whether a transport was given (a remote release), so its files may prefetch; local files,
  // memory-mapped, never do.
  bool remote() const { return remote_; }
  // Drops the open files (those still held by a reader are released when it lets them go).
  void Close();

 private:
  bool remote_;
  std::shared_ptr<const parquet::FileOpener> transport_;
  mutable std::mutex mutex_;
  mutable std::map<std::filesystem::path, std::shared_ptr<parquet::RandomAccessFile>> open_;
  mutable std::uint64_t files_opened_ = 0;
};

}  // namespace timef
