// Writers of the payload files (docs/format.md §9), fed value by value while the catalog is
// written: packed text goes to `payloads/text-NNNNNNNN.parquet` (columns `text` and `text_list`,
// one row per packed value, file-global row numbers), irregular offsets to
// `payloads/offsets-NNNNNNNN.parquet` (one `offsets_us` list row per axis, elements
// DELTA_BINARY_PACKED). Rows are buffered up to the row-group budget, then written; a file is
// closed when it reaches the shard budget. Same zstd level, statistics, page index, CRC and
// row-boundary pages as the values shards. Values are stored in the order given, without
// deduplication.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/locators.h"
#include "payload/payload_options.h"

namespace timef::payload {

class TextPayloadWriter {
 public:
  TextPayloadWriter(std::filesystem::path release_dir, PayloadOptions options = {});
  ~TextPayloadWriter();
  TextPayloadWriter(const TextPayloadWriter&) = delete;
  TextPayloadWriter& operator=(const TextPayloadWriter&) = delete;

  // ValidationError when a string is not valid UTF-8.
  // The locators name this release (payload_source nullopt) and a file relative to it.
  TextLocator AddText(std::string_view utf8);
  TextLocator AddTextList(std::span<const std::string> elements);
  // Writes what is buffered, closes the open file (fsynced) and returns every file written, by
  // path. No values → no file.
  std::vector<PayloadFile> Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class OffsetsPayloadWriter {
 public:
  OffsetsPayloadWriter(std::filesystem::path release_dir, PayloadOptions options = {});
  ~OffsetsPayloadWriter();
  OffsetsPayloadWriter(const OffsetsPayloadWriter&) = delete;
  OffsetsPayloadWriter& operator=(const OffsetsPayloadWriter&) = delete;

  // `offsets` must be non-empty and non-decreasing (ValidationError otherwise).
  // The locator's digest is OffsetsDigest(offsets).
  OffsetsLocator Add(std::span<const std::int64_t> offsets);
  std::vector<PayloadFile> Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// "sha256:" + hex of the offsets as little-endian int64 bytes (docs/format.md §6.5).
std::string OffsetsDigest(std::span<const std::int64_t> offsets);

}  // namespace timef::payload
