// flock(2) of a directory, the one lock of the registry (docs/format.md §3.3, §10.5): a writer
// holds its staging directory's lock from creation until it is destroyed, and takes the lock of
// `<org>/<name>/` to create its staging directory and to publish; `timef gc` takes the same lock
// of `<org>/<name>/` and removes only staging directories whose lock it can take, so it never
// touches a staging directory whose writer is alive and never races a publish's rename.
#pragma once

#include <filesystem>
#include <optional>

namespace timef::core {

class DirectoryLock {
 public:
  // Opens `dir` (O_DIRECTORY | O_NOFOLLOW) and waits for an exclusive lock. On a file system
  // without flock the lock is not held (held() is false). FileError naming `dir` when it cannot be
  // opened or locked otherwise.
  static DirectoryLock Exclusive(const std::filesystem::path& dir);
  // The same without waiting: nullopt when another holder (another open of the directory, in this
  // process or another) has it locked.
  static std::optional<DirectoryLock> TryExclusive(const std::filesystem::path& dir);

  DirectoryLock(DirectoryLock&& other) noexcept;
  DirectoryLock& operator=(DirectoryLock&& other) noexcept;
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  ~DirectoryLock();  // releases the lock

  bool held() const { return held_; }
  // Whether `dir` is still the directory this lock was taken on (same device and inode): false
  // once it was removed, or renamed and replaced.
  bool Designates(const std::filesystem::path& dir) const;

 private:
  DirectoryLock(int fd, bool held) : fd_(fd), held_(held) {}
  int fd_ = -1;
  bool held_ = false;
};

}  // namespace timef::core
