#include "writer/release_sink.h"

#include <string>
#include <utility>

namespace timef::writer {

ReleasePayloadSink::ReleasePayloadSink(const values::ValuesResult& values, StoredReuse& reuse,
                                       const std::filesystem::path& release_dir,
                                       const payload::PayloadOptions& options,
                                       std::int64_t text_pack_threshold_bytes)
    : values_(values),
      reuse_(reuse),
      texts_(release_dir, options),
      offsets_(release_dir, options),
      threshold_(text_pack_threshold_bytes) {}

std::vector<ChunkLocator> ReleasePayloadSink::Chunks(const model::Signal& signal) {
  if (const std::vector<ChunkLocator>* reused = reuse_.Chunks(*signal.id())) return *reused;
  auto found = values_.chunks.find(*signal.id());
  if (found == values_.chunks.end()) return {};
  return found->second;
}

std::optional<OffsetsLocator> ReleasePayloadSink::StoreOffsets(const model::TimeAxis& axis) {
  if (std::optional<OffsetsLocator> reused = reuse_.Offsets(axis)) return reused;
  return offsets_.Add(*axis.LoadOffsets());
}

std::optional<TextLocator> ReleasePayloadSink::PackText(const model::Text& text) {
  if (std::optional<TextLocator> reused = reuse_.Text(text)) return reused;
  if (text.size() <= threshold_) return std::nullopt;
  return texts_.AddText(text.Read());
}

std::optional<TextLocator> ReleasePayloadSink::PackTextList(const model::TextList& list) {
  if (std::optional<TextLocator> reused = reuse_.TextList(list)) return reused;
  const std::vector<std::string> elements = list.Read();
  std::int64_t bytes = 0;
  for (const std::string& e : elements) bytes += static_cast<std::int64_t>(e.size());
  if (bytes <= threshold_) return std::nullopt;
  return texts_.AddTextList(elements);
}

std::vector<payload::PayloadFile> ReleasePayloadSink::Finish() {
  std::vector<payload::PayloadFile> files = texts_.Finish();
  for (auto& f : offsets_.Finish()) files.push_back(std::move(f));
  return files;
}

}  // namespace timef::writer
