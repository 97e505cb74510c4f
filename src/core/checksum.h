// sha256 checksums (docs/format.md §2.4): "sha256:" + 64 lowercase hex, hashed in 1 MiB blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace timef {

inline constexpr size_t kChecksumBlockSize = size_t{1} << 20;

// Incremental SHA-256; Finish() returns "sha256:<64 hex>". Also used for offsets digests.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;

  void Update(std::span<const std::byte> bytes);
  void Update(std::string_view bytes);
  // Ends the hash; the object must not be updated afterwards.
  std::string Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Hashes the whole file. FileError (code no_such_file_or_directory when missing) naming the path.
std::string FileChecksum(const std::filesystem::path& path);
// The same, calling `on_block(bytes)` after each block is hashed with that block's size (a
// progress report; an exception it throws ends the hash and propagates).
std::string FileChecksum(const std::filesystem::path& path,
                         const std::function<void(std::int64_t bytes)>& on_block);
// Hashes from the stream's current position to its end. Error when the stream fails mid-read.
std::string StreamChecksum(std::istream& stream);
// `^sha256:[0-9a-f]{64}$`
bool IsValidChecksum(std::string_view text);

}  // namespace timef
