// The ValueResolver of a read: every locator the catalog hands over is resolved against the
// manifest (LocatorResolver::ResolveFile, so a locator naming an unlisted file fails with the table
// and column), then wrapped in a lazy handle, or, when the read's LoadPlan says so, loaded: the
// values of a hydration batch together once the batch is built (FinishValues), offsets and text at
// once.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "catalog/hydrate/value_resolver.h"
#include "timef/reader.h"

namespace timef {

class ReaderState;
class SignalBatch;

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
  // Starts decoding the values an eager plan asked for since the last call, as one batch on the
  // reader's decode lanes, and waits for it unless the resolver was built to run ahead.
  void FinishValues() const override;

  // A resolver that does not wait in FinishValues (a stream that decodes its next batch while the
  // caller works on the current one): TakeStarted() hands over the batches started since the last
  // call, which the taker must Fill() before it hands out the objects built with them.
  static std::shared_ptr<ReadResolver> RunningAhead(std::shared_ptr<ReaderState> state,
                                                    LoadPlan plan);
  std::vector<std::shared_ptr<SignalBatch>> TakeStarted() const;

 private:
  std::shared_ptr<ReaderState> state_;
  LoadPlan plan_;
  bool run_ahead_ = false;
  mutable std::shared_ptr<SignalBatch> collecting_;  // eager values since the last FinishValues
  mutable std::vector<std::shared_ptr<SignalBatch>> started_;  // run ahead, not taken yet
};

}  // namespace timef
