// The staging directory of one write (docs/format.md §3.3): created next to the release directory
// as
// `<version>.tmp-<32 hex>`, removed on destruction unless published, so every failure path cleans
// up. Only the directory this object created is ever removed. The object holds the staging
// directory's lock (core::DirectoryLock) for its whole life, taken when the directory is created
// under the lock of the parent directory, so `timef gc` (which takes the parent's lock too) never
// sees the staging directory of a live writer unlocked.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/directory_lock.h"

namespace timef::writer {

class StagingDir {
 public:
  // Creates `<release_dir>.tmp-<32 random hex>` (and missing parents) and locks it. FileError on
  // failure.
  explicit StagingDir(const std::filesystem::path& release_dir);
  ~StagingDir();
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Fsyncs every regular file below the directory, each directory, then commits: under an
  // exclusive lock (flock) of the parent directory, which every writer of this library takes,
  // it checks that no manifest is at the release directory, removes a manifest-less leftover
  // there, and renames the staging directory into place without replacing anything
  // (renameat2(RENAME_NOREPLACE); where the file system lacks it, rename(2), which cannot
  // replace a non-empty directory, so never a release). Then fsyncs the parent. ValidationError
  // when another writer committed the version first; the destructor then removes this staging
  // directory. FileError when the check, the removal or the rename fails otherwise.
  void Publish();

  // FileError naming the staging directory when, before it was published, it is no longer the
  // directory this object created (removed or replaced by another process while the write went
  // on).
  void CheckPresent() const;

 private:
  std::filesystem::path release_dir_;
  std::filesystem::path path_;
  std::optional<core::DirectoryLock> lock_;  // of path_, held until destruction
  bool published_ = false;
};

// Whether `release_dir` holds a committed version (its manifest.json exists). FileError when
// that cannot be told (a stat failure other than absence).
bool HoldsCommittedRelease(const std::filesystem::path& release_dir);

// fsync of one file or directory; FileError naming the path on failure.
void FsyncPath(const std::filesystem::path& path, bool directory);

// 32 random lowercase hex digits.
std::string RandomHex32();

}  // namespace timef::writer
