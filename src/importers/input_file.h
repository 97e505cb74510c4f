// A file opened for reading with positioned reads (private to src/importers/).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <system_error>

#include "timef/error.h"

namespace timef::importers {

// A file opened for reading (RAII).
class InputFile {
 public:
  explicit InputFile(const std::filesystem::path& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      const std::error_code code(errno, std::generic_category());
      ThrowFileError(ErrorSite{.file = path}, "cannot open: " + code.message(), code);
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      const std::error_code code(errno, std::generic_category());
      ::close(fd_);
      throw FileError(ErrorSite{.file = path}, "cannot stat: " + code.message(), code);
    }
    size_ = st.st_size;
  }
  ~InputFile() { ::close(fd_); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  int64_t size() const { return size_; }

  // Exactly out.size() bytes at `offset`; FormatError when the file ends first.
  void ReadAt(int64_t offset, std::span<char> out) const {
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done,
                                static_cast<off_t>(offset + static_cast<int64_t>(done)));
      if (n < 0) {
        if (errno == EINTR) continue;
        const std::error_code code(errno, std::generic_category());
        throw FileError(ErrorSite{.file = path_}, "read failed: " + code.message(), code);
      }
      if (n == 0) {
        throw FormatError(ErrorSite{.file = path_}, "the file ends at byte " +
                                                        std::to_string(offset + done) +
                                                        " (truncated since its header was read?)");
      }
      done += static_cast<size_t>(n);
    }
  }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  int64_t size_ = 0;
};

}  // namespace timef::importers
