#include "core/directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <utility>

#include "timef/error.h"

namespace timef::core {
namespace {

int OpenDirectory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int saved = errno;
    throw FileError({.file = dir}, "cannot open to lock: " + std::system_category().message(saved),
                    std::error_code(saved, std::generic_category()));
  }
  return fd;
}

// Errors of flock(2) that mean "this file system has no flock".
bool Unsupported(int error) {
  return error == ENOLCK || error == EOPNOTSUPP || error == EINVAL || error == EBADF;
}

}  // namespace

DirectoryLock DirectoryLock::Exclusive(const std::filesystem::path& dir) {
  const int fd = OpenDirectory(dir);
  int rc = 0;
  do {
    rc = ::flock(fd, LOCK_EX);
  } while (rc != 0 && errno == EINTR);
  if (rc == 0) return DirectoryLock(fd, true);
  const int saved = errno;
  if (Unsupported(saved)) return DirectoryLock(fd, false);
  ::close(fd);
  throw FileError({.file = dir}, "cannot lock: " + std::system_category().message(saved),
                  std::error_code(saved, std::generic_category()));
}

std::optional<DirectoryLock> DirectoryLock::TryExclusive(const std::filesystem::path& dir) {
  const int fd = OpenDirectory(dir);
  int rc = 0;
  do {
    rc = ::flock(fd, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc == 0) return DirectoryLock(fd, true);
  const int saved = errno;
  if (Unsupported(saved)) return DirectoryLock(fd, false);
  ::close(fd);
  if (saved == EWOULDBLOCK) return std::nullopt;
  throw FileError({.file = dir}, "cannot lock: " + std::system_category().message(saved),
                  std::error_code(saved, std::generic_category()));
}

DirectoryLock::DirectoryLock(DirectoryLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), held_(std::exchange(other.held_, false)) {}

DirectoryLock& DirectoryLock::operator=(DirectoryLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    held_ = std::exchange(other.held_, false);
  }
  return *this;
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

bool DirectoryLock::Designates(const std::filesystem::path& dir) const {
  struct stat mine {};
  struct stat there {};
  if (fd_ < 0 || ::fstat(fd_, &mine) != 0) return false;
  if (::lstat(dir.c_str(), &there) != 0) return false;
  return mine.st_dev == there.st_dev && mine.st_ino == there.st_ino;
}

}  // namespace timef::core
