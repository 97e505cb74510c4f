// The part of a reader that reads packed text, irregular offsets and Zarr arrays
// (docs/architecture.md "Reader parts"): the PayloadReader, the ZarrReader, the decoded-text cache
// and the record of Zarr store files whose sha256 was checked, all opening their files through the
// reader's FileSources.
//
// Ownership: owned by the ReaderState. Threading: thread-safe; one mutex serializes every read
// (the readers inside are not thread-safe). A caller may hold a decode lane's lock when it calls
// in (lanes first, then this mutex); the FileSources it opens through takes only its own lock.
// Errors: the readers' (FormatError naming the file and value, FileError).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "manifest/stored_payload.h"
#include "parquet/decode_budget.h"
#include "payload/payload_reader.h"
#include "reader/file_sources.h"
#include "reader/text_cache.h"
#include "values/chunk_reader.h"
#include "values/zarr_reader.h"

namespace timef {

class PayloadFiles {
 public:
  PayloadFiles(std::shared_ptr<const FileSources> files,
               std::shared_ptr<parquet::DecodeBudget> decode_budget);

  // A Zarr chunk: `resolve` maps a store file relative to its storing release to the file to open
  // (FormatError when the manifest neither lists nor pins it) and `pin` gives its manifest entry;
  // each store file's sha256 is checked against its pin the first time this reader opens it
  // (blosc frames carry no checksum of their own, docs/format.md §8.5).
  model::ValueArray ReadZarr(
      const values::ChunkRef& chunk, const model::Spec& spec,
      const std::function<std::filesystem::path(const std::string&)>& resolve,
      const std::function<StoredFilePin(const std::string&)>& pin);
  std::string ReadText(const payload::TextRef& ref);
  std::vector<std::string> ReadTextList(const payload::TextRef& ref);
  std::vector<std::int64_t> ReadOffsets(const payload::OffsetsRef& ref);

  values::ZarrReaderStats zarr_stats() const;
  payload::PayloadReaderStats payload_stats() const;
  // Drops open arrays, payload files and cached text (the checked Zarr files stay checked: the
  // files of a published release do not change).
  void Clear();

 private:
  static constexpr std::int64_t kTextCacheBytes = 64 * 1024 * 1024;

  std::shared_ptr<const FileSources> files_;
  mutable std::mutex mutex_;  // guards everything below
  values::ZarrReader zarr_;
  payload::PayloadReader payloads_;
  TextCache text_cache_{kTextCacheBytes};
  std::set<std::string> zarr_checked_;  // "<payload_source>\n<path>"
};

}  // namespace timef
