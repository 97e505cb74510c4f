// The lazy model sources a reader hands out: signal values read chunk by chunk, irregular offsets
// read once per axis object and checked, packed text read on every Read() and never kept. Each
// may be used from any thread: what they share is the ReaderState, which locks its file state.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "payload/payload_reader.h"
#include "timef/model.h"
#include "values/chunk_reader.h"

namespace timef {

class ReaderState;

class LazySignalValues final : public model::SignalValues {
 public:
  LazySignalValues(std::shared_ptr<ReaderState> state, std::shared_ptr<const model::Spec> spec,
                   std::vector<values::ChunkRef> chunks);
  std::shared_ptr<const model::ValueArray> Load() const override;
  // Decodes only the chunks that intersect [begin, end).
  model::ValueArray ReadSteps(std::int64_t begin, std::int64_t end,
                              std::int64_t step_width) const override;
  bool is_loaded() const override { return false; }
  const std::vector<values::ChunkRef>& chunks() const { return chunks_; }
  // The reader state this handle keeps alive (tests check with it that the state is freed).
  const std::shared_ptr<ReaderState>& state() const { return state_; }

 private:
  std::shared_ptr<ReaderState> state_;
  std::shared_ptr<const model::Spec> spec_;
  std::vector<values::ChunkRef> chunks_;
};

// Reads the axis's offsets on the first Load(), checks them (count, digest, order, first/last)
// and keeps them: the signals of one axis object share one checked array. Once loaded it lets go
// of the reader state, so that loaded offsets keep no reader alive.
class LazyOffsets final : public model::TimeOffsets {
 public:
  LazyOffsets(std::shared_ptr<ReaderState> state, payload::OffsetsRef ref);
  std::shared_ptr<const std::vector<std::int64_t>> Load() const override;
  bool is_loaded() const override;

 private:
  mutable std::mutex mutex_;
  mutable std::shared_ptr<ReaderState> state_;  // null once loaded
  payload::OffsetsRef ref_;
  mutable std::shared_ptr<const std::vector<std::int64_t>> loaded_;
};

// A packed text (kind text or text_list) of an own payload file.
class PayloadText final : public model::LazyText {
 public:
  PayloadText(std::shared_ptr<ReaderState> state, payload::TextRef ref, std::string checksum);
  std::int64_t size() const override { return ref_.length; }
  std::string Read() const override;
  bool SameStoredValue(const model::LazyText& other) const override;

 private:
  std::shared_ptr<ReaderState> state_;
  payload::TextRef ref_;
  std::string checksum_;  // of the payload file, from the manifest
};

class PayloadTextList final : public model::LazyTextList {
 public:
  PayloadTextList(std::shared_ptr<ReaderState> state, payload::TextRef ref, std::string checksum);
  std::int64_t size() const override { return ref_.length; }
  std::vector<std::string> Read() const override;
  bool SameStoredValue(const model::LazyTextList& other) const override;

 private:
  std::shared_ptr<ReaderState> state_;
  payload::TextRef ref_;
  std::string checksum_;
};

}  // namespace timef
