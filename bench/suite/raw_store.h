// The floor peer: every signal's float32 values back to back in one flat file (in signal-ID
// order), plus an offsets file (n + 1 int64 value offsets) and an ID file. Reading a series is an
// offset lookup and a copy out of a memory map — no decoding, no decompression, no checksums.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <unordered_map>
#include <vector>

#include "corpus/corpus.h"

namespace timef::bench {

// Writes values.f32, offsets.i64 and ids.i64 under `dir` (created), generating each signal's
// values once, and fsyncs them. Returns the bytes written.
std::int64_t WriteRawStore(const Corpus& corpus, const std::filesystem::path& dir);

class RawStore {
 public:
  static RawStore Open(const std::filesystem::path& dir);
  RawStore(RawStore&& other) noexcept;
  RawStore& operator=(RawStore&&) = delete;
  ~RawStore();

  // The values of signal `id` (std::out_of_range for an unknown ID).
  std::span<const float> Series(std::int64_t id) const;
  // Every value in file order.
  std::span<const float> All() const { return {values_, n_values_}; }
  std::int64_t file_bytes() const { return static_cast<std::int64_t>(map_bytes_); }

 private:
  RawStore() = default;
  void* map_ = nullptr;
  std::size_t map_bytes_ = 0;
  const float* values_ = nullptr;
  std::size_t n_values_ = 0;
  std::vector<std::int64_t> offsets_;
  std::unordered_map<std::int64_t, std::size_t> index_;
};

}  // namespace timef::bench
