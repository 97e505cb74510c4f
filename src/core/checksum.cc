#include "core/checksum.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

#include "timef/error.h"

namespace timef {
namespace {

constexpr std::string_view kPrefix = "sha256:";

struct EvpContextDeleter {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};

// Reads up to `buffer.size()` bytes; returns how many (0 at the end) or throws.
template <typename ReadFn>
std::string HashInBlocks(ReadFn&& read,
                         const std::function<void(std::int64_t)>& on_block = nullptr) {
  std::vector<std::byte> buffer(kChecksumBlockSize);
  Sha256 hash;
  while (true) {
    // A block is filled completely before hashing so the digest never depends on how the
    // source delivers bytes (short reads from pipes, stream buffering).
    size_t filled = 0;
    while (filled < buffer.size()) {
      const size_t got = read(std::span(buffer).subspan(filled));
      if (got == 0) break;
      filled += got;
    }
    hash.Update(std::span<const std::byte>(buffer.data(), filled));
    if (on_block && filled > 0) on_block(static_cast<std::int64_t>(filled));
    if (filled < buffer.size()) break;
  }
  return hash.Finish();
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

struct Sha256::State {
  std::unique_ptr<EVP_MD_CTX, EvpContextDeleter> context;
  bool finished = false;
};

Sha256::Sha256() : state_(std::make_unique<State>()) {
  state_->context.reset(EVP_MD_CTX_new());
  if (!state_->context || EVP_DigestInit_ex(state_->context.get(), EVP_sha256(), nullptr) != 1) {
    throw Error("sha256: OpenSSL could not initialise a digest");
  }
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::Update(std::span<const std::byte> bytes) {
  if (!state_ || state_->finished) throw Error("sha256: Update() after Finish() or move");
  if (bytes.empty()) return;
  if (EVP_DigestUpdate(state_->context.get(), bytes.data(), bytes.size()) != 1) {
    throw Error("sha256: OpenSSL digest update failed");
  }
}

void Sha256::Update(std::string_view bytes) {
  Update(std::as_bytes(std::span(bytes.data(), bytes.size())));
}

std::string Sha256::Finish() {
  if (!state_ || state_->finished) throw Error("sha256: Finish() called twice or after move");
  state_->finished = true;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(state_->context.get(), digest, &length) != 1 || length != 32) {
    throw Error("sha256: OpenSSL digest finalisation failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(kPrefix);
  out.reserve(kPrefix.size() + 2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xF];
  }
  return out;
}

std::string FileChecksum(const std::filesystem::path& path) { return FileChecksum(path, nullptr); }

std::string FileChecksum(const std::filesystem::path& path,
                         const std::function<void(std::int64_t bytes)>& on_block) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    const std::error_code code(errno, std::generic_category());
    ThrowFileError(ErrorSite{.file = path}, "cannot open for checksum: " + code.message(), code);
  }
  return HashInBlocks(
      [&](std::span<std::byte> out) -> size_t {
        while (true) {
          const ssize_t got = ::read(fd.get(), out.data(), out.size());
          if (got >= 0) return static_cast<size_t>(got);
          if (errno == EINTR) continue;
          const std::error_code code(errno, std::generic_category());
          throw FileError(ErrorSite{.file = path}, "read failed during checksum: " + code.message(),
                          code);
        }
      },
      on_block);
}

std::string StreamChecksum(std::istream& stream) {
  if (stream.fail()) {
    throw FileError(ErrorSite{.object = "stream"}, "stream is in a failed state before checksum",
                    std::make_error_code(std::errc::io_error));
  }
  return HashInBlocks([&](std::span<std::byte> out) -> size_t {
    if (!stream.good()) return 0;
    stream.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    if (stream.bad()) {
      throw FileError(ErrorSite{.object = "stream"}, "read failed during checksum",
                      std::make_error_code(std::errc::io_error));
    }
    return static_cast<size_t>(stream.gcount());
  });
}

bool IsValidChecksum(std::string_view text) {
  if (text.size() != kPrefix.size() + 64 || !text.starts_with(kPrefix)) return false;
  for (char c : text.substr(kPrefix.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace timef
