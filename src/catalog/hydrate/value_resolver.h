// What hydration cannot build from the catalog alone: the values, offsets and packed text that
// live in values and payload files. The catalog reads the locators (docs/format.md §6.4) and hands
// them to a ValueResolver, which the reader implements; the catalog never opens those files.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/locators.h"
#include "timef/model.h"

namespace timef::catalog {

// Implementations must be usable from the thread that runs the hydration; the objects they return
// are owned by the model objects they are attached to. Errors they raise propagate unchanged out
// of the hydration call.
class ValueResolver {
 public:
  virtual ~ValueResolver() = default;

  // The values source of `signal` from its chunk locators in chunk_index order (checked to run
  // 0..k-1 and to add up to n_values). Called once per signal that has chunk rows; nullptr leaves
  // the signal without values.
  virtual std::shared_ptr<const model::SignalValues> Values(
      const model::Signal& signal, std::vector<ChunkLocator> chunks) const = 0;
  // The offsets of an irregular axis; `first_us` and `last_us` are what the catalog stores, for
  // the resolver to check the payload against. Called once per axis object.
  virtual std::shared_ptr<const model::TimeOffsets> Offsets(const OffsetsLocator& locator,
                                                            int64_t first_us,
                                                            int64_t last_us) const = 0;
  // A packed text or text list (prompt, rationale, text target, annotation value); `text_key`
  // names it in messages.
  virtual model::Text Text(const TextLocator& locator, int64_t text_key) const = 0;
  virtual model::TextList TextList(const TextLocator& locator, int64_t text_key) const = 0;
  // Called after Values() has been called for every signal of a hydration batch, before any of
  // the batch's objects is handed out: a resolver may defer loading the values to here and load
  // them together (the reader decodes them on several threads). Default: nothing.
  virtual void FinishValues() const {}
};

}  // namespace timef::catalog
