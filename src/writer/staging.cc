#include "writer/staging.h"

#include <fcntl.h>
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

StagingDir::StagingDir(const fs::path& release_dir) : release_dir_(release_dir) {
  std::error_code ec;
  fs::create_directories(release_dir_.parent_path(), ec);
  if (ec) {
    throw FileError({.file = release_dir_.parent_path()},
                    "cannot create the dataset directory: " + ec.message(), ec);
  }
  // A collision of 128 random bits means a broken random source; try a few times anyway.
  for (int attempt = 0; attempt < 4; ++attempt) {
    fs::path candidate = release_dir_;
    candidate += ".tmp-" + RandomHex32();
    if (fs::create_directory(candidate, ec)) {
      path_ = std::move(candidate);
      return;
    }
    if (ec)
      throw FileError({.file = candidate}, "cannot create the staging directory: " + ec.message(),
                      ec);
  }
  throw FileError({.file = release_dir_}, "cannot create a fresh staging directory");
}

StagingDir::~StagingDir() {
  if (published_ || path_.empty()) return;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

void StagingDir::Publish() {
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

  std::error_code ec;
  if (fs::exists(release_dir_ / manifest::kManifestFileName, ec)) {
    throw ValidationError({.file = release_dir_},
                          "already holds a committed version (another writer committed first)");
  }
  // A release directory without a manifest is what a crash leaves; it is never a release.
  if (fs::exists(release_dir_, ec)) fs::remove_all(release_dir_, ec);
  if (::rename(path_.c_str(), release_dir_.c_str()) != 0) {
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
