// Where a value that was read from a release is stored, so that a writer can reuse the stored
// bytes instead of decoding and re-encoding them (docs/format.md §10.2: "writing a read dataset
// reuses its stored payloads"). The reader's lazy handles (model::SignalValues, TimeOffsets,
// LazyText, LazyTextList) also implement one of these; the writer finds them by dynamic_cast, so
// the public model stays free of locators and the reader and writer share no code but this.
//
// Every locator handed out here names its storing release explicitly (payload_source is never
// nullopt): "this release" of the reader is a different release for the writer.
#pragma once

#include <string>
#include <vector>

#include "core/locators.h"
#include "timef/manifest.h"

namespace timef {

// A file of a storing release, as a manifest pins it (§5.9): the release's ref and its FilePart.
struct StoredFilePin {
  std::string release;  // ref, e.g. "org/name@1.0.0"
  manifest::FilePart part;
  bool operator==(const StoredFilePin&) const = default;
};

class StoredChunks {
 public:
  virtual ~StoredChunks() = default;
  // The chunk locators in chunk order, each naming its storing release.
  virtual std::vector<ChunkLocator> StoredChunkLocators() const = 0;
  // The pin of every file those locators name, sorted by (release, path), unique.
  virtual std::vector<StoredFilePin> StoredPins() const = 0;
};

class StoredOffsets {
 public:
  virtual ~StoredOffsets() = default;
  virtual OffsetsLocator StoredOffsetsLocator() const = 0;
  virtual StoredFilePin StoredPin() const = 0;
};

class StoredText {
 public:
  virtual ~StoredText() = default;
  virtual TextLocator StoredTextLocator() const = 0;
  virtual StoredFilePin StoredPin() const = 0;
};

}  // namespace timef
