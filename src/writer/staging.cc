#include "writer/staging.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <random>
#include <system_error>
#include <vector>

#include "timef/error.h"
#include "timef/manifest.h"

namespace timef::writer {
namespace fs = std::filesystem;

std::string RandomHex32() {
  std::random_device device;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(32);
  for (int i = 0; i < 4; ++i) {
    uint32_t word = device();
    for (int j = 0; j < 8; ++j) {
      out.push_back(kHex[word & 0xF]);
      word >>= 4;
    }
  }
  return out;
}

void FsyncPath(const fs::path& path, bool directory) {
  const int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) {
    throw FileError({.file = path},
                    "cannot open for fsync: " + std::system_category().message(errno),
                    std::error_code(errno, std::generic_category()));
  }
  const int rc = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  if (rc != 0) {
    throw FileError({.file = path}, "fsync failed: " + std::system_category().message(saved),
                    std::error_code(saved, std::generic_category()));
  }
}

namespace {

// rename(2) that never replaces an existing `to`: 0, or -1 with errno (EEXIST when `to` exists).
int RenameNoReplace(const fs::path& from, const fs::path& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  // No RENAME_NOREPLACE on this file system: rename(2) replaces only an empty directory (a
  // committed release holds its manifest), and fails with ENOTEMPTY or EEXIST otherwise.
  return ::rename(from.c_str(), to.c_str());
}

}  // namespace

bool HoldsCommittedRelease(const fs::path& release_dir) {
  const fs::path manifest = release_dir / manifest::kManifestFileName;
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(manifest, ec);
  if (ec == std::errc::no_such_file_or_directory) return false;
  if (ec) throw FileError({.file = manifest}, "cannot stat: " + ec.message(), ec);
  return fs::exists(status);
}

StagingDir::StagingDir(const fs::path& release_dir) : release_dir_(release_dir) {
  std::error_code ec;
  fs::create_directories(release_dir_.parent_path(), ec);
  if (ec) {
    throw FileError({.file = release_dir_.parent_path()},
                    "cannot create the dataset directory: " + ec.message(), ec);
  }
  // Created and locked under the parent's lock, which gc takes too: gc never finds it unlocked.
  const core::DirectoryLock parent = core::DirectoryLock::Exclusive(release_dir_.parent_path());
  // A collision of 128 random bits means a broken random source; try a few times anyway.
  for (int attempt = 0; attempt < 4; ++attempt) {
    fs::path candidate = release_dir_;
    candidate += ".tmp-" + RandomHex32();
    if (fs::create_directory(candidate, ec)) {
      path_ = std::move(candidate);
      try {
        lock_ = core::DirectoryLock::Exclusive(path_);
      } catch (...) {
        fs::remove_all(path_, ec);
        throw;
      }
      return;
    }
    if (ec)
      throw FileError({.file = candidate}, "cannot create the staging directory: " + ec.message(),
                      ec);
  }
  throw FileError({.file = release_dir_}, "cannot create a fresh staging directory");
}

StagingDir::~StagingDir() {
  // Never remove what is at the path unless it is still the directory this object created.
  if (published_ || path_.empty() || !lock_ || !lock_->Designates(path_)) return;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

void StagingDir::CheckPresent() const {
  if (published_ || (lock_ && lock_->Designates(path_))) return;
  throw FileError({.file = path_},
                  "the staging directory vanished while the release was being written (removed "
                  "by another process, such as 'timef gc' run with a short --older-than); nothing "
                  "was published",
                  std::make_error_code(std::errc::no_such_file_or_directory));
}

void StagingDir::Publish() {
  CheckPresent();
  std::vector<fs::path> directories{path_};
  for (const auto& entry : fs::recursive_directory_iterator(path_)) {
    if (entry.is_directory()) {
      directories.push_back(entry.path());
    } else {
      FsyncPath(entry.path(), false);
    }
  }
  // Children before parents, so each directory entry is durable before its parent's.
  for (auto it = directories.rbegin(); it != directories.rend(); ++it) FsyncPath(*it, true);

  const core::DirectoryLock lock = core::DirectoryLock::Exclusive(release_dir_.parent_path());
  CheckPresent();  // under the lock: gc cannot remove it from here to the rename
  if (HoldsCommittedRelease(release_dir_)) {
    throw ValidationError({.file = release_dir_},
                          "already holds a committed version (another writer committed first)");
  }
  // A release directory without a manifest is what a crash leaves; it is never a release. Under
  // the lock no writer of this library commits there until this one has renamed.
  std::error_code ec;
  const fs::file_status leftover = fs::symlink_status(release_dir_, ec);
  if (fs::is_directory(leftover)) {
    if (!lock.held()) {
      throw FileError({.file = release_dir_},
                      "holds an uncommitted leftover, which cannot be removed safely without a "
                      "lock of the parent directory; remove it by hand");
    }
    fs::remove_all(release_dir_, ec);
    if (ec)
      throw FileError({.file = release_dir_}, "cannot remove the leftover: " + ec.message(), ec);
  }
  if (RenameNoReplace(path_, release_dir_) != 0) {
    const int saved = errno;
    if (saved == ENOTEMPTY || saved == EEXIST) {
      throw ValidationError({.file = release_dir_},
                            "already holds a committed version (another writer committed first)");
    }
    throw FileError(
        {.file = release_dir_},
        "cannot rename the staging directory into place: " + std::system_category().message(saved),
        std::error_code(saved, std::generic_category()));
  }
  published_ = true;
  FsyncPath(release_dir_.parent_path(), true);
}

}  // namespace timef::writer
