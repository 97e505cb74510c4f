#include "core/release_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "timef/error.h"

namespace timef {
namespace {

std::string TypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

// Throws unless `st` describes a regular file (lstat or fstat of a descriptor opened O_NOFOLLOW).
void RequireRegular(const std::filesystem::path& file, const struct stat& st) {
  if (S_ISLNK(st.st_mode)) {
    throw FileError({.file = file},
                    "is a symbolic link; a release holds regular files only and a reader does not "
                    "follow links",
                    std::make_error_code(std::errc::too_many_symbolic_link_levels));
  }
  if (S_ISDIR(st.st_mode)) {
    throw FileError({.file = file}, "is a directory, not a regular file",
                    std::make_error_code(std::errc::is_a_directory));
  }
  if (!S_ISREG(st.st_mode)) {
    throw FileError({.file = file}, "is not a regular file (" + TypeName(st.st_mode) + ")",
                    std::make_error_code(std::errc::invalid_argument));
  }
}

[[noreturn]] void ThrowErrno(const std::filesystem::path& file, std::string_view action, int err,
                             std::string_view missing_problem) {
  const std::error_code code(err, std::generic_category());
  if (err == ENOENT) throw MissingFileError({.file = file}, missing_problem);
  if (err == ELOOP) {
    throw FileError({.file = file},
                    "is a symbolic link; a release holds regular files only and a reader does not "
                    "follow links",
                    code);
  }
  throw FileError({.file = file}, std::string(action) + ": " + code.message(), code);
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::int64_t ReleaseFileSize(const std::filesystem::path& file, std::string_view missing_problem) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0) ThrowErrno(file, "cannot stat", errno, missing_problem);
  RequireRegular(file, st);
  return static_cast<std::int64_t>(st.st_size);
}

std::string ReadReleaseFile(const std::filesystem::path& file, std::int64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  int raw;
  do {
    raw = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  } while (raw < 0 && errno == EINTR);
  if (raw < 0) ThrowErrno(file, "cannot open", errno, "no such file");
  Descriptor fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) ThrowErrno(file, "cannot stat", errno, "no such file");
  RequireRegular(file, st);
  auto too_large = [&](std::int64_t size) {
    throw FileError({.file = file},
                    "is " + std::to_string(size) + " bytes, more than the " +
                        std::to_string(max_bytes) + " a reader accepts",
                    std::make_error_code(std::errc::file_too_large));
  };
  if (st.st_size > max_bytes) too_large(st.st_size);
  // Reads at most max_bytes + 1, so a file that grows while being read is still bounded.
  std::string bytes(static_cast<std::size_t>(st.st_size) + 1, '\0');
  std::size_t done = 0;
  while (true) {
    if (done == bytes.size()) {
      if (static_cast<std::int64_t>(done) > max_bytes) too_large(static_cast<std::int64_t>(done));
      bytes.resize(
          std::min<std::size_t>(bytes.size() * 2, static_cast<std::size_t>(max_bytes) + 1));
    }
    const ssize_t got = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (got < 0) {
      if (errno == EINTR) continue;
      ThrowErrno(file, "read failed", errno, "no such file");
    }
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  return bytes;
}

}  // namespace timef
