// The staging directory of one write (FORMAT.md §3.2): created next to the release directory as
// `<version>.tmp-<32 hex>`, removed on destruction unless published, so every failure path cleans
// up. Only the directory this object created is ever removed.
#pragma once

#include <filesystem>
#include <string>

namespace timef::writer {

class StagingDir {
 public:
  // Creates `<release_dir>.tmp-<32 random hex>` (and missing parents). FileError on failure.
  explicit StagingDir(const std::filesystem::path& release_dir);
  ~StagingDir();
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Fsyncs every regular file below the directory, each directory, then renames it to the
  // release directory (removing a manifest-less leftover there first) and fsyncs the parent.
  // ValidationError when another writer committed the version first (this staging directory is
  // then removed).
  void Publish();

 private:
  std::filesystem::path release_dir_;
  std::filesystem::path path_;
  bool published_ = false;
};

// fsync of one file or directory; FileError naming the path on failure.
void FsyncPath(const std::filesystem::path& path, bool directory);

// 32 random lowercase hex digits.
std::string RandomHex32();

}  // namespace timef::writer
