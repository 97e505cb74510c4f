// The ValueResolver of a read: every locator the catalog hands over is resolved against the
// manifest (ReaderState::ResolveFile, so a locator naming an unlisted file fails with the table and
// column), then wrapped in a lazy handle, or loaded at once when the read's LoadPlan says so.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "catalog/value_resolver.h"
#include "timef/reader.h"

namespace timef {

class ReaderState;

// The handles it builds share `state`, so they stay readable after the Reader is closed. Used by
// the thread running the hydration, like the ReaderState it holds.
class ReadResolver final : public catalog::ValueResolver {
 public:
  ReadResolver(std::shared_ptr<ReaderState> state, LoadPlan plan);

  std::shared_ptr<const model::SignalValues> Values(
      const model::Signal& signal, std::vector<ChunkLocator> chunks) const override;
  std::shared_ptr<const model::TimeOffsets> Offsets(const OffsetsLocator& locator,
                                                    std::int64_t first_us,
                                                    std::int64_t last_us) const override;
  model::Text Text(const TextLocator& locator, std::int64_t text_key) const override;
  model::TextList TextList(const TextLocator& locator, std::int64_t text_key) const override;

 private:
  std::shared_ptr<ReaderState> state_;
  LoadPlan plan_;
};

}  // namespace timef
