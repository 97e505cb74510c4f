#include "reader/lazy_handles.h"

#include <algorithm>

#include "reader/reader_state.h"
#include "timef/error.h"

namespace timef {

LazySignalValues::LazySignalValues(std::shared_ptr<ReaderState> state,
                                   std::shared_ptr<const model::Spec> spec,
                                   std::vector<values::ChunkRef> chunks,
                                   std::vector<ChunkLocator> locators)
    : state_(std::move(state)),
      spec_(std::move(spec)),
      chunks_(std::move(chunks)),
      locators_(std::move(locators)) {}

std::vector<ChunkLocator> LazySignalValues::StoredChunkLocators() const {
  return state_->locators().StoredLocators(locators_);
}

std::vector<StoredFilePin> LazySignalValues::StoredPins() const {
  return state_->locators().PinsOf(locators_);
}

std::shared_ptr<const model::ValueArray> LazySignalValues::Load() const {
  return std::make_shared<const model::ValueArray>(state_->ReadSignal(chunks_, *spec_));
}

void LazySignalValues::LoadInto(model::ScalarSpan out, std::span<std::uint8_t> validity,
                                const std::string& object) const {
  const std::int64_t nulls = state_->ReadSignalInto(chunks_, *spec_, out, validity);
  if (nulls > 0 && validity.empty()) model::ThrowNullsWithoutValidity(nulls, object);
}

void SignalBatch::Fill() {
  job_.Wait();
  for (std::size_t i = 0; i < loaded_.size(); ++i) {
    if (loaded_[i]) loaded_[i]->Fill(std::move(values_[i]));
  }
  signals_.clear();
  loaded_.clear();
  values_.clear();
}

model::ValueArray LazySignalValues::ReadSteps(std::int64_t begin, std::int64_t end,
                                              std::int64_t step_width) const {
  std::vector<model::ValueArray> parts;
  if (begin >= end) return values::ConcatValues(spec_->dtype, parts);
  std::int64_t chunk_begin = 0;
  for (const values::ChunkRef& chunk : chunks_) {
    const std::int64_t chunk_end = chunk_begin + chunk.locator.n_values;
    if (chunk_end > begin && chunk_begin < end) {
      const std::int64_t from = std::max(begin, chunk_begin) - chunk_begin;
      const std::int64_t to = std::min(end, chunk_end) - chunk_begin;
      if (chunk.zarr()) {
        // A Zarr locator spans up to 2^30 steps: read only the window's steps (docs/format.md
        // §8.7).
        values::ChunkRef window = chunk;
        window.locator.major += from;
        window.locator.n_values = to - from;
        parts.push_back(state_->ReadChunk(window, *spec_));
        if (chunk_end >= end) break;
        chunk_begin = chunk_end;
        continue;
      }
      model::ValueArray values = state_->ReadChunk(chunk, *spec_);
      if (from == 0 && to == chunk.locator.n_values) {
        parts.push_back(std::move(values));
      } else {
        parts.push_back(values.SliceSteps(from, to, step_width));
      }
    }
    if (chunk_end >= end) break;
    chunk_begin = chunk_end;
  }
  if (parts.size() == 1) return std::move(parts.front());
  return values::ConcatValues(spec_->dtype, parts);
}

LazyOffsets::LazyOffsets(std::shared_ptr<ReaderState> state, payload::OffsetsRef ref,
                         OffsetsLocator stored, StoredFilePin pin)
    : state_(std::move(state)),
      ref_(std::move(ref)),
      stored_(std::move(stored)),
      pin_(std::move(pin)) {}

std::shared_ptr<const std::vector<std::int64_t>> LazyOffsets::Load() const {
  std::lock_guard lock(mutex_);
  if (!loaded_) {
    loaded_ = std::make_shared<const std::vector<std::int64_t>>(state_->ReadOffsets(ref_));
    state_.reset();
  }
  return loaded_;
}

bool LazyOffsets::is_loaded() const {
  std::lock_guard lock(mutex_);
  return loaded_ != nullptr;
}

PayloadText::PayloadText(std::shared_ptr<ReaderState> state, payload::TextRef ref,
                         std::string checksum, TextLocator stored, StoredFilePin pin)
    : state_(std::move(state)),
      ref_(std::move(ref)),
      checksum_(std::move(checksum)),
      stored_(std::move(stored)),
      pin_(std::move(pin)) {}

std::string PayloadText::Read() const { return state_->ReadText(ref_); }

bool PayloadText::SameStoredValue(const model::LazyText& other) const {
  const auto* same = dynamic_cast<const PayloadText*>(&other);
  return same != nullptr && !checksum_.empty() && same->checksum_ == checksum_ &&
         same->ref_.locator.row == ref_.locator.row;
}

PayloadTextList::PayloadTextList(std::shared_ptr<ReaderState> state, payload::TextRef ref,
                                 std::string checksum, TextLocator stored, StoredFilePin pin)
    : state_(std::move(state)),
      ref_(std::move(ref)),
      checksum_(std::move(checksum)),
      stored_(std::move(stored)),
      pin_(std::move(pin)) {}

std::vector<std::string> PayloadTextList::Read() const { return state_->ReadTextList(ref_); }

bool PayloadTextList::SameStoredValue(const model::LazyTextList& other) const {
  const auto* same = dynamic_cast<const PayloadTextList*>(&other);
  return same != nullptr && !checksum_.empty() && same->checksum_ == checksum_ &&
         same->ref_.locator.row == ref_.locator.row;
}

}  // namespace timef
