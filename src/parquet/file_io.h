// The engine's I/O: a random-access input interface (pread, mmap and in-memory implementations,
// plus a counting wrapper for tests that assert which bytes a read touched), the opener through
// which readers turn a file name into one, and a sequential output stream (a buffered file writer
// and an in-memory sink).
//
// RandomAccessFile is timef's one byte-range source: the Parquet engine, the payload reader and the
// Zarr reader read every file through it, whether it is a local file (pread, mmap) or a remote
// object (src/remote/, an HTTP(S) range source), so a remote read takes the local code path.
//
// Errors name the path and the byte offset: a range outside the file is a timef::FormatError (the
// file's own metadata pointed there); an operating-system failure is a timef::FileError carrying
// the errno as std::error_code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace timef::parquet {

// The bytes [offset, offset + length) of a file.
struct ByteRange {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  bool operator==(const ByteRange&) const = default;
};

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  // The path (or a descriptive name for in-memory data) used in error messages.
  const std::filesystem::path& path() const noexcept { return path_; }
  virtual std::uint64_t size() const = 0;

  // Fills `out` with the bytes at [offset, offset + out.size()). Safe to call concurrently.
  void ReadAt(std::uint64_t offset, std::span<std::byte> out) const;
  // The same into a new buffer; the range is checked before anything is allocated.
  std::vector<std::byte> Read(std::uint64_t offset, std::uint64_t length) const;
  // A view of the range without copying, when the implementation holds the bytes in memory
  // (mmap, in-memory); std::nullopt otherwise. Bounds-checked like ReadAt; valid while the file
  // object lives. Views are not counted by CountingFile, which never offers them.
  std::optional<std::span<const std::byte>> View(std::uint64_t offset, std::uint64_t length) const;

  // Throws FormatError unless [offset, offset + length) lies inside the file.
  void CheckRange(std::uint64_t offset, std::uint64_t length) const;

  // Whether Prefetch does anything: true for a source whose every read costs a round trip (a
  // remote object), false for local files and memory, whose Prefetch is a no-op. A caller may
  // skip working out the ranges when it is false.
  virtual bool prefetches() const { return false; }
  // A hint that `ranges` are about to be read: a source that prefetches fetches them now, in few
  // requests, and serves the reads they cover from memory while the returned hold lives (drop it
  // once those reads are done: that frees the bytes); null when nothing is kept. Reads return the
  // same bytes with or without it. Every range is checked like a read (FormatError outside the
  // file) and the fetch raises what a read would. Safe to call concurrently with reads and other
  // prefetches.
  using PrefetchHold = std::shared_ptr<const void>;
  [[nodiscard]] PrefetchHold Prefetch(std::span<const ByteRange> ranges) const;

 protected:
  explicit RandomAccessFile(std::filesystem::path path) : path_(std::move(path)) {}
  // REQUIRES: the range lies inside the file.
  virtual void DoReadAt(std::uint64_t offset, std::span<std::byte> out) const = 0;
  // Called before every read or view: throws when the bytes can no longer be read safely (a
  // mapped file that shrank).
  virtual void CheckReadable() const {}
  // All size() bytes when they are in memory, else nullptr.
  virtual const std::byte* InMemoryData() const { return nullptr; }
  // REQUIRES: every range lies inside the file. The default keeps nothing.
  virtual PrefetchHold DoPrefetch(std::span<const ByteRange> ranges) const {
    static_cast<void>(ranges);
    return nullptr;
  }

 private:
  std::filesystem::path path_;
};

// Reads with pread(2). Throws FileError when the file cannot be opened or is not a regular file.
std::unique_ptr<RandomAccessFile> OpenPreadFile(const std::filesystem::path& path);

// Maps the whole file read-only. Reading a mapped page past the end of a file that shrank would
// kill the process (SIGBUS), so every read and view first checks the file's current size through
// its descriptor (fstat) and raises FileError naming the file when it shrank (docs/format.md
// §7.9): a release truncated under an open reader is an error, not a crash. A truncation while a
// view is being decoded (after the check) is not caught; the files timef reads are immutable.
std::unique_ptr<RandomAccessFile> OpenMmapFile(const std::filesystem::path& path);

// How a reader turns the name of a file into a RandomAccessFile: the ChunkReader, PayloadReader and
// ZarrReader open every file through one. Implementations are thread-safe (Open may be called from
// any thread); the file returned is shared by whoever opened it and may outlive the opener.
// Errors: FileError (MissingFileError for a file that does not exist) naming the file.
class FileOpener {
 public:
  virtual ~FileOpener() = default;
  virtual std::shared_ptr<RandomAccessFile> Open(const std::filesystem::path& file) const = 0;
};

// Opens local files memory-mapped (OpenMmapFile): what a reader of a local release uses.
std::shared_ptr<const FileOpener> LocalFileOpener();

// Bytes held in memory.
class MemoryFile : public RandomAccessFile {
 public:
  explicit MemoryFile(std::vector<std::byte> bytes, std::filesystem::path name = "<memory>");
  std::uint64_t size() const override { return bytes_.size(); }

 protected:
  void DoReadAt(std::uint64_t offset, std::span<std::byte> out) const override;
  const std::byte* InMemoryData() const override { return bytes_.data(); }

 private:
  std::vector<std::byte> bytes_;
};

// Forwards to another file and records every read, so a test can assert that an operation
// touched only certain byte ranges. Thread-safe.
class CountingFile : public RandomAccessFile {
 public:
  using Range = ByteRange;

  explicit CountingFile(std::unique_ptr<RandomAccessFile> inner);
  std::uint64_t size() const override { return inner_->size(); }

  std::uint64_t read_calls() const;
  std::uint64_t bytes_read() const;
  std::vector<Range> reads() const;  // in call order
  void Reset();

 protected:
  void DoReadAt(std::uint64_t offset, std::span<std::byte> out) const override;

 private:
  std::unique_ptr<RandomAccessFile> inner_;
  mutable std::mutex mutex_;
  mutable std::vector<Range> reads_;
  mutable std::uint64_t bytes_read_ = 0;
};

// ---- Output ----

class OutputStream {
 public:
  virtual ~OutputStream() = default;
  // Bytes written so far (the offset the next Write lands at).
  virtual std::uint64_t position() const = 0;
  virtual void Write(std::span<const std::byte> bytes) = 0;
  // Hands buffered bytes to the operating system.
  virtual void Flush() = 0;
  // Flushes and releases the sink; further writes throw std::logic_error. Idempotent.
  virtual void Close() = 0;
};

struct FileOutputOptions {
  bool fsync_on_close = false;  // make the data durable before Close returns
  bool exclusive = false;       // fail if the file exists, instead of truncating it
  std::size_t buffer_size = std::size_t{1} << 20;
};

// A buffered writer to a new file. Throws FileError (path, offset, errno) on failure. Destroying
// it without Close closes the file silently (no fsync), losing any error: call Close.
class FileOutputStream : public OutputStream {
 public:
  explicit FileOutputStream(std::filesystem::path path, FileOutputOptions options = {});
  ~FileOutputStream() override;
  FileOutputStream(const FileOutputStream&) = delete;
  FileOutputStream& operator=(const FileOutputStream&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }
  std::uint64_t position() const override { return position_; }
  void Write(std::span<const std::byte> bytes) override;
  void Flush() override;
  void Close() override;

 private:
  void WriteToFd(std::span<const std::byte> bytes);
  void CheckOpen() const;

  std::filesystem::path path_;
  FileOutputOptions options_;
  int fd_ = -1;
  std::vector<std::byte> buffer_;
  std::uint64_t position_ = 0;  // logical: flushed + buffered
  std::uint64_t flushed_ = 0;
};

// Collects the bytes in memory (tests, small metadata blobs).
class MemoryOutputStream : public OutputStream {
 public:
  std::uint64_t position() const override { return bytes_.size(); }
  void Write(std::span<const std::byte> bytes) override;
  void Flush() override {}
  void Close() override { closed_ = true; }

  const std::vector<std::byte>& bytes() const noexcept { return bytes_; }
  std::vector<std::byte> Release() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
  bool closed_ = false;
};

}  // namespace timef::parquet
