// The stored payloads a write reuses instead of re-encoding (docs/format.md §10.2: "writing a read
// dataset reuses its stored payloads"): values, offsets and text whose handles came from a reader
// keep their locators, each naming the release that stores the file, and every such release
// becomes a payload source with the pins of the files used. Bytes stored by the release being
// written cannot be reused (a key is never this release, §5.9), so they are re-encoded.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/locators.h"
#include "manifest/stored_payload.h"
#include "timef/manifest.h"
#include "timef/model.h"

namespace timef::writer {

class StoredReuse {
 public:
  explicit StoredReuse(std::string own_ref) : own_ref_(std::move(own_ref)) {}

  // Takes the stored chunks of `signal` (which has its ID) when its values are a reader's handle
  // on another release's files; false when they must be written.
  bool TakeChunks(const model::Signal& signal);
  // The chunks TakeChunks took for `signal_id`, or null.
  const std::vector<ChunkLocator>* Chunks(std::int64_t signal_id) const;
  std::optional<OffsetsLocator> Offsets(const model::TimeAxis& axis);
  std::optional<TextLocator> Text(const model::Text& text);
  std::optional<TextLocator> TextList(const model::TextList& list);

  std::int64_t reused_signals() const { return static_cast<std::int64_t>(chunks_.size()); }
  // The manifest's payload_sources: ref → pins sorted by path.
  std::map<std::string, std::vector<manifest::FilePart>> PayloadSources() const;

 private:
  bool Reusable(const std::optional<std::string>& release) const {
    return release && *release != own_ref_;
  }
  std::optional<TextLocator> ReuseText(const StoredText* stored);
  // ValidationError when one (release, path) is pinned with two FileParts: two different
  // directories claim to be the same release.
  void Pin(const StoredFilePin& pin);

  std::string own_ref_;
  std::unordered_map<std::int64_t, std::vector<ChunkLocator>> chunks_;
  std::map<std::string, std::map<std::string, manifest::FilePart>> pins_;
};

}  // namespace timef::writer
