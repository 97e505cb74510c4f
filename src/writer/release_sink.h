// The writer's catalog::PayloadSink: chunk locators from the values already written (or reused,
// StoredReuse), offsets and long text reused when stored by another release, else written to
// this release's payload files as WriteCatalog asks for them (docs/format.md §9, §10).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "catalog/write/payload_sink.h"
#include "payload/payload_writer.h"
#include "values/values_writer.h"
#include "writer/stored_reuse.h"

namespace timef::writer {

// `values` and `reuse` must outlive the sink. Writes under `release_dir` (the staging directory).
// Not thread-safe, like the payload writers it owns.
class ReleasePayloadSink final : public catalog::PayloadSink {
 public:
  ReleasePayloadSink(const values::ValuesResult& values, StoredReuse& reuse,
                     const std::filesystem::path& release_dir,
                     const payload::PayloadOptions& options,
                     std::int64_t text_pack_threshold_bytes);

  std::vector<ChunkLocator> Chunks(const model::Signal& signal) override;
  std::optional<OffsetsLocator> StoreOffsets(const model::TimeAxis& axis) override;
  // Packs a text (or a list whose elements add up to) longer than the threshold, in bytes.
  std::optional<TextLocator> PackText(const model::Text& text) override;
  std::optional<TextLocator> PackTextList(const model::TextList& list) override;

  // Closes the payload files; every file written, text files first.
  std::vector<payload::PayloadFile> Finish();

 private:
  const values::ValuesResult& values_;
  StoredReuse& reuse_;
  payload::TextPayloadWriter texts_;
  payload::OffsetsPayloadWriter offsets_;
  std::int64_t threshold_;
};

}  // namespace timef::writer
