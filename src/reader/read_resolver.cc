#include "reader/read_resolver.h"

#include <string>
#include <utility>

#include "reader/lazy_handles.h"
#include "reader/reader_state.h"

namespace timef {
namespace {

payload::TextRef TextRefOf(const ReaderState& state, const TextLocator& locator,
                           std::int64_t text_key) {
  const std::string what = "text_payloads.file (text_key " + std::to_string(text_key) + ")";
  return payload::TextRef{.file = state.locators().ResolveFile(locator, what),
                          .locator = locator,
                          .text_key = text_key};
}

TextLocator StoredOf(const ReaderState& state, TextLocator locator) {
  locator.payload_source = state.locators().StoringRef(locator.payload_source);
  return locator;
}

std::shared_ptr<const model::StoredTextOrigin> LoadedFrom(const ReaderState& state,
                                                          const TextLocator& locator) {
  return std::make_shared<const LoadedStoredText>(
      StoredOf(state, locator), state.locators().PinOf(locator.payload_source, locator.file));
}

}  // namespace

ReadResolver::ReadResolver(std::shared_ptr<ReaderState> state, LoadPlan plan)
    : state_(std::move(state)), plan_(plan) {}

std::shared_ptr<const model::SignalValues> ReadResolver::Values(
    const model::Signal& signal, std::vector<ChunkLocator> chunks) const {
  std::vector<values::ChunkRef> refs;
  refs.reserve(chunks.size());
  const auto what = [&] { return "signal_chunks.value_path (" + signal.Describe() + ")"; };
  for (const ChunkLocator& l : chunks) {
    // ResolveFile lets only a Zarr locator lack a row (ChunkRef::zarr()).
    refs.push_back(values::ChunkRef{state_->locators().ResolveChunkFile(l, what), l});
  }
  auto lazy = std::make_shared<const LazySignalValues>(state_, signal.spec(), std::move(refs),
                                                       std::move(chunks));
  if (plan_.signal_values == Loading::kLazy) return lazy;
  // Loaded values keep where they are stored, so that a writer still reuses them.
  if (!collecting_) collecting_ = std::make_shared<SignalBatch>();
  auto loaded = std::make_shared<LoadedStoredValues>(lazy);
  collecting_->Add(std::move(lazy), loaded);
  return loaded;
}

void ReadResolver::FinishValues() const {
  if (!collecting_) return;
  std::shared_ptr<SignalBatch> batch = std::move(collecting_);
  collecting_.reset();
  state_->StartSignals(*batch, /*caller_runs_first=*/!run_ahead_);
  if (run_ahead_) {
    started_.push_back(std::move(batch));
  } else {
    batch->Fill();
  }
}

std::shared_ptr<ReadResolver> ReadResolver::RunningAhead(std::shared_ptr<ReaderState> state,
                                                         LoadPlan plan) {
  auto resolver = std::make_shared<ReadResolver>(std::move(state), plan);
  resolver->run_ahead_ = true;
  return resolver;
}

std::vector<std::shared_ptr<SignalBatch>> ReadResolver::TakeStarted() const {
  return std::exchange(started_, {});
}

std::shared_ptr<const model::TimeOffsets> ReadResolver::Offsets(const OffsetsLocator& locator,
                                                                std::int64_t first_us,
                                                                std::int64_t last_us) const {
  payload::OffsetsRef ref{
      .file = state_->locators().ResolveFile(locator, "axes.offsets_path"),
      .locator = locator,
      .first_us = first_us,
      .last_us = last_us,
      .axis = "axis with offsets at " + locator.path + " row " + std::to_string(locator.row)};
  OffsetsLocator stored = locator;
  stored.payload_source = state_->locators().StoringRef(locator.payload_source);
  auto offsets = std::make_shared<const LazyOffsets>(
      state_, std::move(ref), std::move(stored),
      state_->locators().PinOf(locator.payload_source, locator.path));
  if (plan_.time_offsets == Loading::kEager) offsets->Load();
  return offsets;
}

model::Text ReadResolver::Text(const TextLocator& locator, std::int64_t text_key) const {
  payload::TextRef ref = TextRefOf(*state_, locator, text_key);
  if (plan_.text == Loading::kEager) {
    return model::Text::Loaded(state_->ReadText(ref), LoadedFrom(*state_, locator));
  }
  return model::Text::Lazy(std::make_shared<const PayloadText>(
      state_, std::move(ref),
      state_->locators().PayloadChecksum(locator.payload_source, locator.file),
      StoredOf(*state_, locator), state_->locators().PinOf(locator.payload_source, locator.file)));
}

model::TextList ReadResolver::TextList(const TextLocator& locator, std::int64_t text_key) const {
  payload::TextRef ref = TextRefOf(*state_, locator, text_key);
  if (plan_.text == Loading::kEager) {
    return model::TextList::Loaded(state_->ReadTextList(ref), LoadedFrom(*state_, locator));
  }
  return model::TextList::Lazy(std::make_shared<const PayloadTextList>(
      state_, std::move(ref),
      state_->locators().PayloadChecksum(locator.payload_source, locator.file),
      StoredOf(*state_, locator), state_->locators().PinOf(locator.payload_source, locator.file)));
}

}  // namespace timef
