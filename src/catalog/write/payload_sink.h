// Where WriteCatalog puts what the catalog does not hold (docs/format.md §6.4): the chunk locators
// of the values already written, and the irregular offsets and long text it asks to be stored. The
// writer implements it over its values result and payload writers; the catalog never writes those
// files itself.
#pragma once

#include <optional>
#include <vector>

#include "core/locators.h"
#include "timef/model.h"

namespace timef::catalog {

// Called from the thread running WriteCatalog, in the order documented per method; an exception
// aborts the write (the catalog file is deleted).
class PayloadSink {
 public:
  virtual ~PayloadSink() = default;

  // The chunks of one signal in chunk order, once per signal in key order; empty = no chunk rows.
  virtual std::vector<ChunkLocator> Chunks(const model::Signal& signal) = 0;
  // Stores the offsets of an irregular axis (once per distinct axis object, in key order) and
  // returns where. nullopt raises ValidationError: the catalog has no inline offsets.
  virtual std::optional<OffsetsLocator> StoreOffsets(const model::TimeAxis& axis) = 0;
  // Packing of text-bearing values (§6.4 "Packed text"): nullopt = store inline. Called once per
  // present value, in packing order: every task's prompt then rationale (tasks by task_id); then
  // every text target (by task_id, position); then every text or text-list annotation content
  // (by content_key). text_key = 1, 2, 3, … follows the order of the values packed; the returned
  // length must equal the value's size() (ValidationError otherwise).
  virtual std::optional<TextLocator> PackText(const model::Text& text) = 0;
  virtual std::optional<TextLocator> PackTextList(const model::TextList& list) = 0;
};

}  // namespace timef::catalog
