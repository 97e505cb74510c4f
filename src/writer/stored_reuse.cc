#include "writer/stored_reuse.h"

#include "timef/error.h"

namespace timef::writer {

bool StoredReuse::TakeChunks(const model::Signal& signal) {
  const auto* stored = dynamic_cast<const StoredChunks*>(signal.values().get());
  if (stored == nullptr) return false;
  std::vector<ChunkLocator> locators = stored->StoredChunkLocators();
  if (locators.empty()) return false;
  for (const ChunkLocator& l : locators) {
    if (!Reusable(l.payload_source)) return false;
  }
  for (const StoredFilePin& pin : stored->StoredPins()) Pin(pin);
  chunks_[*signal.id()] = std::move(locators);
  return true;
}

const std::vector<ChunkLocator>* StoredReuse::Chunks(std::int64_t signal_id) const {
  auto it = chunks_.find(signal_id);
  return it == chunks_.end() ? nullptr : &it->second;
}

std::optional<OffsetsLocator> StoredReuse::Offsets(const model::TimeAxis& axis) {
  const auto* stored = dynamic_cast<const StoredOffsets*>(axis.offsets_source().get());
  if (stored == nullptr) return std::nullopt;
  OffsetsLocator locator = stored->StoredOffsetsLocator();
  if (!Reusable(locator.payload_source)) return std::nullopt;
  Pin(stored->StoredPin());
  return locator;
}

namespace {

// The stored text behind a lazy value, or behind a value loaded from storage; null for text given
// inline.
template <class TextValue>
const StoredText* StoredTextOf(const TextValue& text) {
  if (const auto* lazy = dynamic_cast<const StoredText*>(text.lazy_source().get())) return lazy;
  return dynamic_cast<const StoredText*>(text.loaded_from().get());
}

}  // namespace

std::optional<TextLocator> StoredReuse::ReuseText(const StoredText* stored) {
  if (stored == nullptr) return std::nullopt;
  TextLocator locator = stored->StoredTextLocator();
  if (!Reusable(locator.payload_source)) return std::nullopt;
  Pin(stored->StoredPin());
  return locator;
}

std::optional<TextLocator> StoredReuse::Text(const model::Text& text) {
  return ReuseText(StoredTextOf(text));
}

std::optional<TextLocator> StoredReuse::TextList(const model::TextList& list) {
  return ReuseText(StoredTextOf(list));
}

void StoredReuse::Pin(const StoredFilePin& pin) {
  auto [it, inserted] = pins_[pin.release].emplace(pin.part.path, pin.part);
  if (!inserted && !(it->second == pin.part)) {
    throw ValidationError({.object = pin.release, .where = pin.part.path},
                          "two read releases named " + pin.release +
                              " store this file with different checksums or sizes (" +
                              it->second.checksum + ", " + pin.part.checksum + ")");
  }
}

std::map<std::string, std::vector<manifest::FilePart>> StoredReuse::PayloadSources() const {
  std::map<std::string, std::vector<manifest::FilePart>> out;
  for (const auto& [release, parts] : pins_) {
    for (const auto& [path, part] : parts) out[release].push_back(part);
  }
  return out;
}

}  // namespace timef::writer
