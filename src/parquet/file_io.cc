#include "parquet/file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

#include "timef/error.h"

namespace timef::parquet {
namespace {

std::string AtOffset(std::uint64_t offset) { return "offset " + std::to_string(offset); }

[[noreturn]] void ThrowErrno(const std::filesystem::path& path, std::string where,
                             const std::string& action, int err) {
  ThrowFileError(ErrorSite{path, "", std::move(where)}, action + ": " + std::strerror(err),
                 std::error_code(err, std::generic_category()));
}

// An open file descriptor, closed on destruction.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Opens `path` for reading and returns the descriptor and the file size.
std::pair<int, std::uint64_t> OpenForReading(const std::filesystem::path& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) ThrowErrno(path, "", "cannot open for reading", errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    ThrowErrno(path, "", "cannot stat", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw FileError(ErrorSite{path, "", ""}, "not a regular file");
  }
  return {fd, static_cast<std::uint64_t>(st.st_size)};
}

class PreadFile : public RandomAccessFile {
 public:
  PreadFile(const std::filesystem::path& path, int fd, std::uint64_t size)
      : RandomAccessFile(path), fd_(fd), size_(size) {}
  std::uint64_t size() const override { return size_; }

 protected:
  void DoReadAt(std::uint64_t offset, std::span<std::byte> out) const override {
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::pread(fd_.get(), out.data() + done, out.size() - done,
                                static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        ThrowErrno(path(), AtOffset(offset + done), "read failed", errno);
      }
      if (n == 0) {
        throw FileError(ErrorSite{path(), "", AtOffset(offset + done)},
                        "file ended early (it shrank after being opened)");
      }
      done += static_cast<std::size_t>(n);
    }
  }

 private:
  Fd fd_;
  std::uint64_t size_;
};

class MmapFile : public RandomAccessFile {
 public:
  MmapFile(const std::filesystem::path& path, int fd, const void* data, std::uint64_t size)
      : RandomAccessFile(path), fd_(fd), data_(static_cast<const std::byte*>(data)), size_(size) {}
  ~MmapFile() override {
    if (size_ > 0) ::munmap(const_cast<std::byte*>(data_), size_);
  }
  std::uint64_t size() const override { return size_; }

 protected:
  void DoReadAt(std::uint64_t offset, std::span<std::byte> out) const override {
    if (!out.empty()) std::memcpy(out.data(), data_ + offset, out.size());
  }
  const std::byte* InMemoryData() const override { return data_; }
  void CheckReadable() const override {
    struct stat st {};
    if (::fstat(fd_.get(), &st) != 0) ThrowErrno(path(), "", "cannot stat", errno);
    if (static_cast<std::uint64_t>(st.st_size) < size_) {
      throw FileError(ErrorSite{path(), "", ""}, "file shrank after being opened (" +
                                                     std::to_string(st.st_size) + " bytes, " +
                                                     std::to_string(size_) + " when opened)");
    }
  }

 private:
  Fd fd_;  // kept for the size check
  const std::byte* data_;
  std::uint64_t size_;
};

}  // namespace

// ---- RandomAccessFile ----

void RandomAccessFile::CheckRange(std::uint64_t offset, std::uint64_t length) const {
  const std::uint64_t file_size = size();
  if (offset > file_size || length > file_size - offset) {
    throw FormatError(ErrorSite{path_, "", AtOffset(offset)},
                      "range of " + std::to_string(length) + " bytes runs past the end of the " +
                          std::to_string(file_size) + "-byte file");
  }
}

RandomAccessFile::PrefetchHold RandomAccessFile::Prefetch(std::span<const ByteRange> ranges) const {
  for (const ByteRange& range : ranges) CheckRange(range.offset, range.length);
  return DoPrefetch(ranges);
}

void RandomAccessFile::ReadAt(std::uint64_t offset, std::span<std::byte> out) const {
  CheckRange(offset, out.size());
  CheckReadable();
  DoReadAt(offset, out);
}

std::vector<std::byte> RandomAccessFile::Read(std::uint64_t offset, std::uint64_t length) const {
  CheckRange(offset, length);
  CheckReadable();
  std::vector<std::byte> bytes(static_cast<std::size_t>(length));
  DoReadAt(offset, bytes);
  return bytes;
}

std::optional<std::span<const std::byte>> RandomAccessFile::View(std::uint64_t offset,
                                                                 std::uint64_t length) const {
  CheckRange(offset, length);
  CheckReadable();
  const std::byte* data = InMemoryData();
  if (data == nullptr) return std::nullopt;
  return std::span<const std::byte>(data + offset, static_cast<std::size_t>(length));
}

std::unique_ptr<RandomAccessFile> OpenPreadFile(const std::filesystem::path& path) {
  const auto [fd, size] = OpenForReading(path);
  return std::make_unique<PreadFile>(path, fd, size);
}

std::unique_ptr<RandomAccessFile> OpenMmapFile(const std::filesystem::path& path) {
  const auto [fd, size] = OpenForReading(path);
  if (size == 0) return std::make_unique<MmapFile>(path, fd, nullptr, 0);  // mmap refuses length 0
  if (size > static_cast<std::uint64_t>(SIZE_MAX)) {
    ::close(fd);
    throw FileError(ErrorSite{path, "", ""}, "file too large to map");
  }
  void* data = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
  if (data == MAP_FAILED) {
    const int err = errno;
    ::close(fd);
    ThrowErrno(path, "", "cannot map", err);
  }
  return std::make_unique<MmapFile>(path, fd, data, size);
}

namespace {
class LocalOpener final : public FileOpener {
 public:
  std::shared_ptr<RandomAccessFile> Open(const std::filesystem::path& file) const override {
    return OpenMmapFile(file);
  }
};
}  // namespace

std::shared_ptr<const FileOpener> LocalFileOpener() {
  // Stateless, so one shared instance is no mutable global state.
  static const std::shared_ptr<const FileOpener> opener = std::make_shared<const LocalOpener>();
  return opener;
}

// ---- MemoryFile ----

MemoryFile::MemoryFile(std::vector<std::byte> bytes, std::filesystem::path name)
    : RandomAccessFile(std::move(name)), bytes_(std::move(bytes)) {}

void MemoryFile::DoReadAt(std::uint64_t offset, std::span<std::byte> out) const {
  if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
}

// ---- CountingFile ----

CountingFile::CountingFile(std::unique_ptr<RandomAccessFile> inner)
    : RandomAccessFile(inner->path()), inner_(std::move(inner)) {}

void CountingFile::DoReadAt(std::uint64_t offset, std::span<std::byte> out) const {
  {
    std::lock_guard lock(mutex_);
    reads_.push_back(Range{offset, out.size()});
    bytes_read_ += out.size();
  }
  inner_->ReadAt(offset, out);
}

std::uint64_t CountingFile::read_calls() const {
  std::lock_guard lock(mutex_);
  return reads_.size();
}

std::uint64_t CountingFile::bytes_read() const {
  std::lock_guard lock(mutex_);
  return bytes_read_;
}

std::vector<CountingFile::Range> CountingFile::reads() const {
  std::lock_guard lock(mutex_);
  return reads_;
}

void CountingFile::Reset() {
  std::lock_guard lock(mutex_);
  reads_.clear();
  bytes_read_ = 0;
}

// ---- FileOutputStream ----

FileOutputStream::FileOutputStream(std::filesystem::path path, FileOutputOptions options)
    : path_(std::move(path)), options_(options) {
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (options_.exclusive ? O_EXCL : O_TRUNC);
  do {
    fd_ = ::open(path_.c_str(), flags, 0644);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) ThrowErrno(path_, "", "cannot create", errno);
  buffer_.reserve(options_.buffer_size);
}

FileOutputStream::~FileOutputStream() {
  if (fd_ < 0) return;
  try {
    Flush();
  } catch (...) {
    // Destruction cannot report; Close() is the way to see errors.
  }
  ::close(fd_);
}

void FileOutputStream::CheckOpen() const {
  if (fd_ < 0) throw std::logic_error("write to a closed FileOutputStream: " + path_.string());
}

void FileOutputStream::WriteToFd(std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      ThrowErrno(path_, AtOffset(flushed_), "write failed", errno);
    }
    flushed_ += static_cast<std::uint64_t>(n);
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

void FileOutputStream::Write(std::span<const std::byte> bytes) {
  CheckOpen();
  if (buffer_.size() + bytes.size() > options_.buffer_size) {
    Flush();
    if (bytes.size() >= options_.buffer_size) {
      WriteToFd(bytes);  // large writes bypass the buffer
      position_ += bytes.size();
      return;
    }
  }
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
  position_ += bytes.size();
}

void FileOutputStream::Flush() {
  CheckOpen();
  if (buffer_.empty()) return;
  WriteToFd(buffer_);
  buffer_.clear();
}

void FileOutputStream::Close() {
  if (fd_ < 0) return;
  const int fd = fd_;
  try {
    Flush();
    if (options_.fsync_on_close && ::fsync(fd) != 0) {
      ThrowErrno(path_, AtOffset(flushed_), "fsync failed", errno);
    }
  } catch (...) {
    ::close(fd);
    fd_ = -1;
    throw;
  }
  fd_ = -1;
  if (::close(fd) != 0) ThrowErrno(path_, AtOffset(flushed_), "close failed", errno);
}

// ---- MemoryOutputStream ----

void MemoryOutputStream::Write(std::span<const std::byte> bytes) {
  if (closed_) throw std::logic_error("write to a closed MemoryOutputStream");
  bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
}

}  // namespace timef::parquet
