// The lazy model sources a reader hands out: signal values read chunk by chunk, irregular offsets
// read once per axis object and checked, packed text read on every Read() and never kept. Each
// may be used from any thread: what they share is the ReaderState, whose parts lock themselves.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "manifest/stored_payload.h"
#include "payload/payload_reader.h"
#include "reader/decode_lanes.h"
#include "timef/model.h"
#include "values/chunk_reader.h"

namespace timef {

class ReaderState;

// `locators` (the catalog's, relative to the reader's release) let a writer reuse the stored
// chunks (StoredChunks); empty when the handle was built from the compact locator index, which
// keeps no locators: such a handle is then re-encoded by a writer.
class LazySignalValues final : public model::SignalValues, public StoredChunks {
 public:
  LazySignalValues(std::shared_ptr<ReaderState> state, std::shared_ptr<const model::Spec> spec,
                   std::vector<values::ChunkRef> chunks, std::vector<ChunkLocator> locators = {});
  std::shared_ptr<const model::ValueArray> Load() const override;
  // Decodes only the chunks that intersect [begin, end).
  model::ValueArray ReadSteps(std::int64_t begin, std::int64_t end,
                              std::int64_t step_width) const override;
  bool is_loaded() const override { return false; }
  // Decodes straight into the caller's buffers (ReaderState::ReadSignalInto).
  void LoadInto(model::ScalarSpan out, std::span<std::uint8_t> validity,
                const std::string& object) const override;
  const std::vector<values::ChunkRef>& chunks() const { return chunks_; }
  const model::Spec& spec() const { return *spec_; }
  std::vector<ChunkLocator> StoredChunkLocators() const override;
  std::vector<StoredFilePin> StoredPins() const override;
  // The reader state this handle keeps alive (tests check with it that the state is freed).
  const std::shared_ptr<ReaderState>& state() const { return state_; }

 private:
  std::shared_ptr<ReaderState> state_;
  std::shared_ptr<const model::Spec> spec_;
  std::vector<values::ChunkRef> chunks_;
  std::vector<ChunkLocator> locators_;
};

// Values a read loaded eagerly, which still know where they are stored (the pins are taken at
// construction: a loaded object keeps no reader state once filled). A batch read builds them
// pending, from their lazy handle, and fills them (SignalBatch::Fill) before it hands them out; a
// pending one that was never filled (a hydration that failed half way) decodes on Load().
class LoadedStoredValues final : public model::SignalValues, public StoredChunks {
 public:
  LoadedStoredValues(std::shared_ptr<const model::ValueArray> values,
                     std::vector<ChunkLocator> stored, std::vector<StoredFilePin> pins)
      : values_(std::move(values)), stored_(std::move(stored)), pins_(std::move(pins)) {}
  explicit LoadedStoredValues(std::shared_ptr<const LazySignalValues> pending)
      : stored_(pending->StoredChunkLocators()),
        pins_(pending->StoredPins()),
        pending_(std::move(pending)) {}
  // Not thread-safe: called before the object is shared. Lets go of the reader state.
  void Fill(std::shared_ptr<const model::ValueArray> values) {
    values_ = std::move(values);
    pending_.reset();
  }
  std::shared_ptr<const model::ValueArray> Load() const override {
    return values_ ? values_ : pending_->Load();
  }
  bool is_loaded() const override { return values_ != nullptr; }
  std::vector<ChunkLocator> StoredChunkLocators() const override { return stored_; }
  std::vector<StoredFilePin> StoredPins() const override { return pins_; }

 private:
  std::shared_ptr<const model::ValueArray> values_;
  std::vector<ChunkLocator> stored_;
  std::vector<StoredFilePin> pins_;
  std::shared_ptr<const LazySignalValues> pending_;  // until filled
};

// The values of a batch of lazy handles of one reader, decoded together on its decode lanes
// (ReaderState::StartSignals): Add() every handle, start the batch once, Wait(), then take the
// values (Value) or hand them to the objects waiting for them (Fill). A batch whose items are all
// added with AddInto decodes into the caller's buffers instead (Nulls). Add, AddInto and Fill are
// for the thread that owns the batch; Wait, Value and Nulls may be called from any thread once it
// is started. Destroying a batch waits for its decoding.
class SignalBatch {
 public:
  // `loaded`, when given, is filled with the handle's values by Fill(). Returns the item's index.
  std::size_t Add(std::shared_ptr<const LazySignalValues> signal,
                  std::shared_ptr<LoadedStoredValues> loaded = nullptr) {
    signals_.push_back(std::move(signal));
    loaded_.push_back(std::move(loaded));
    return signals_.size() - 1;
  }
  // An item decoded into `out` and `validity` (checked by the caller: model::CheckValueBuffers),
  // which must stay valid, and not overlap another item's, until Wait() returns. Not mixed with
  // Add in one batch.
  std::size_t AddInto(std::shared_ptr<const LazySignalValues> signal, model::ScalarSpan out,
                      std::span<std::uint8_t> validity) {
    outs_.push_back(out);
    validity_.push_back(validity);
    return Add(std::move(signal));
  }
  // Blocks until the batch is decoded; rethrows the failure of the earliest run that failed.
  void Wait() { job_.Wait(); }
  // Item `i`'s values. REQUIRES: Wait() returned.
  const std::shared_ptr<const model::ValueArray>& Value(std::size_t i) const { return values_[i]; }
  // The null steps of item `i` added with AddInto. REQUIRES: Wait() returned.
  std::int64_t Nulls(std::size_t i) const { return nulls_[i]; }
  // Wait(), then gives each item's LoadedStoredValues its values and lets go of the handles (and
  // with them of the reader state).
  void Fill();

 private:
  friend class ReaderState;
  std::vector<std::shared_ptr<const LazySignalValues>> signals_;
  std::vector<std::shared_ptr<LoadedStoredValues>> loaded_;
  std::vector<std::shared_ptr<const model::ValueArray>> values_;
  std::vector<model::ScalarSpan> outs_;  // AddInto's buffers (empty: Add)
  std::vector<std::span<std::uint8_t>> validity_;
  std::vector<std::int64_t> nulls_;
  DecodeJob job_;  // last: waits before the vectors go
};

// Reads the axis's offsets on the first Load(), checks them (count, digest, order, first/last)
// and keeps them: the signals of one axis object share one checked array. Once loaded it lets go
// of the reader state, so that loaded offsets keep no reader alive.
class LazyOffsets final : public model::TimeOffsets, public StoredOffsets {
 public:
  // `stored` names its storing release; `pin` is that file's pin.
  LazyOffsets(std::shared_ptr<ReaderState> state, payload::OffsetsRef ref, OffsetsLocator stored,
              StoredFilePin pin);
  std::shared_ptr<const std::vector<std::int64_t>> Load() const override;
  bool is_loaded() const override;
  OffsetsLocator StoredOffsetsLocator() const override { return stored_; }
  StoredFilePin StoredPin() const override { return pin_; }

 private:
  mutable std::mutex mutex_;
  mutable std::shared_ptr<ReaderState> state_;  // null once loaded
  payload::OffsetsRef ref_;
  OffsetsLocator stored_;
  StoredFilePin pin_;
  mutable std::shared_ptr<const std::vector<std::int64_t>> loaded_;
};

// Where a text or text list loaded eagerly is stored (the pin taken at load): it keeps no reader
// state, and lets a writer reuse the stored bytes.
class LoadedStoredText final : public model::StoredTextOrigin, public StoredText {
 public:
  LoadedStoredText(TextLocator stored, StoredFilePin pin)
      : stored_(std::move(stored)), pin_(std::move(pin)) {}
  TextLocator StoredTextLocator() const override { return stored_; }
  StoredFilePin StoredPin() const override { return pin_; }

 private:
  TextLocator stored_;
  StoredFilePin pin_;
};

// A packed text (kind text or text_list) of a payload file, own or pinned.
class PayloadText final : public model::LazyText, public StoredText {
 public:
  PayloadText(std::shared_ptr<ReaderState> state, payload::TextRef ref, std::string checksum,
              TextLocator stored, StoredFilePin pin);
  TextLocator StoredTextLocator() const override { return stored_; }
  StoredFilePin StoredPin() const override { return pin_; }
  std::int64_t size() const override { return ref_.locator.length; }
  std::string Read() const override;
  bool SameStoredValue(const model::LazyText& other) const override;

 private:
  std::shared_ptr<ReaderState> state_;
  payload::TextRef ref_;
  std::string checksum_;  // of the payload file, from the manifest
  TextLocator stored_;
  StoredFilePin pin_;
};

class PayloadTextList final : public model::LazyTextList, public StoredText {
 public:
  PayloadTextList(std::shared_ptr<ReaderState> state, payload::TextRef ref, std::string checksum,
                  TextLocator stored, StoredFilePin pin);
  TextLocator StoredTextLocator() const override { return stored_; }
  StoredFilePin StoredPin() const override { return pin_; }
  std::int64_t size() const override { return ref_.locator.length; }
  std::vector<std::string> Read() const override;
  bool SameStoredValue(const model::LazyTextList& other) const override;

 private:
  std::shared_ptr<ReaderState> state_;
  payload::TextRef ref_;
  std::string checksum_;
  TextLocator stored_;
  StoredFilePin pin_;
};

}  // namespace timef
