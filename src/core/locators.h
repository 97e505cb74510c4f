// Where a stored value lives (docs/format.md §6.4): one locator type per kind of stored value, each
// naming the release that stores it. The values and payload writers hand these out, the catalog
// stores and hydrates them, and the reader resolves them to files (LocatorResolver::ResolveFile).
// A locator is plain data: it names a file relative to its storing release and never opens it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace timef {

// One chunk of a signal's values: a signal_chunks row without its signal_key and chunk_index
// (those follow from position). Parquet: `major` = row group, `minor` = row in it. Zarr:
// `value_path` = array path, `major` = first element on axis 0, `minor` = nullopt.
struct ChunkLocator {
  std::optional<std::string> payload_source;  // nullopt = this release, else a payload_sources key
  std::string value_path;
  int64_t major = 0;
  std::optional<int64_t> minor;
  int64_t n_values = 0;
  bool operator==(const ChunkLocator&) const = default;
};

// The offsets of an irregular axis: one offsets_us row of a payload file (the axes.offsets_*
// columns).
struct OffsetsLocator {
  std::optional<std::string> payload_source;  // nullopt = this release
  std::string path;
  int64_t row = 0;
  int64_t n_values = 0;
  std::string digest;  // "sha256:<64 hex>" of the offsets as little-endian int64
  bool operator==(const OffsetsLocator&) const = default;
};

// One packed text or text list: a text_payloads row without its text_key and kind.
struct TextLocator {
  std::optional<std::string> payload_source;  // nullopt = this release
  std::string file;
  int64_t row = 0;     // 0-based row in the file
  int64_t length = 0;  // UTF-8 bytes (text) or element count (text list)
  bool operator==(const TextLocator&) const = default;
};

}  // namespace timef
