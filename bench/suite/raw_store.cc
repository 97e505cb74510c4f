#include "suite/raw_store.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace timef::bench {
namespace {

[[noreturn]] void Fail(const std::string& what, const std::filesystem::path& path) {
  throw std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno));
}

class OutFile {
 public:
  explicit OutFile(const std::filesystem::path& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd_ < 0) Fail("open", path);
  }
  ~OutFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  void Write(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const char*>(data);
    while (bytes > 0) {
      const ssize_t n = ::write(fd_, p, bytes);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) Fail("write", path_);
      p += n;
      bytes -= static_cast<std::size_t>(n);
    }
  }
  void Sync() {
    if (::fsync(fd_) != 0) Fail("fsync", path_);
  }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

std::vector<std::int64_t> ReadInts(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail("open", path);
  const auto bytes = std::filesystem::file_size(path);
  std::vector<std::int64_t> out(bytes / sizeof(std::int64_t));
  in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(bytes));
  return out;
}

}  // namespace

std::int64_t WriteRawStore(const Corpus& corpus, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  OutFile values(dir / "values.f32");
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i < corpus.signals.size(); ++i) {
    const std::vector<float> v = corpus.values(i);
    values.Write(v.data(), v.size() * sizeof(float));
    offsets.push_back(offsets.back() + static_cast<std::int64_t>(v.size()));
    ids.push_back(*corpus.signals[i]->id());
  }
  values.Sync();
  OutFile offsets_file(dir / "offsets.i64");
  offsets_file.Write(offsets.data(), offsets.size() * sizeof(std::int64_t));
  offsets_file.Sync();
  OutFile ids_file(dir / "ids.i64");
  ids_file.Write(ids.data(), ids.size() * sizeof(std::int64_t));
  ids_file.Sync();
  return offsets.back() * static_cast<std::int64_t>(sizeof(float)) +
         static_cast<std::int64_t>((offsets.size() + ids.size()) * sizeof(std::int64_t));
}

RawStore RawStore::Open(const std::filesystem::path& dir) {
  RawStore store;
  store.offsets_ = ReadInts(dir / "offsets.i64");
  const std::vector<std::int64_t> ids = ReadInts(dir / "ids.i64");
  for (std::size_t i = 0; i < ids.size(); ++i) store.index_.emplace(ids[i], i);
  const auto path = dir / "values.f32";
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) Fail("open", path);
  struct stat st {};
  ::fstat(fd, &st);
  store.map_bytes_ = static_cast<std::size_t>(st.st_size);
  if (store.map_bytes_ > 0) {
    store.map_ = ::mmap(nullptr, store.map_bytes_, PROT_READ, MAP_SHARED, fd, 0);
    if (store.map_ == MAP_FAILED) {
      ::close(fd);
      Fail("mmap", path);
    }
  }
  ::close(fd);
  store.values_ = static_cast<const float*>(store.map_);
  store.n_values_ = store.map_bytes_ / sizeof(float);
  return store;
}

RawStore::RawStore(RawStore&& other) noexcept
    : map_(other.map_),
      map_bytes_(other.map_bytes_),
      values_(other.values_),
      n_values_(other.n_values_),
      offsets_(std::move(other.offsets_)),
      index_(std::move(other.index_)) {
  other.map_ = nullptr;
  other.map_bytes_ = 0;
}

RawStore::~RawStore() {
  if (map_ != nullptr && map_ != MAP_FAILED) ::munmap(map_, map_bytes_);
}

std::span<const float> RawStore::Series(std::int64_t id) const {
  const std::size_t i = index_.at(id);
  return {values_ + offsets_[i], static_cast<std::size_t>(offsets_[i + 1] - offsets_[i])};
}

}  // namespace timef::bench
