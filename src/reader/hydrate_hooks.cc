// The hydration hooks of a read: every locator the catalog hands over is resolved against the
// manifest here (so a locator naming an unlisted file fails with the table and column), then
// wrapped in a lazy handle, or loaded at once when the read's LoadPlan says so.
#include "reader/lazy_handles.h"
#include "reader/parquet_locator.h"
#include "reader/reader_state.h"
#include "timef/error.h"

namespace timef {

catalog::HydrateOptions ReaderState::HydrateOptionsFor(const LoadPlan& plan) {
  catalog::HydrateOptions options;
  // The handles the hooks build share the state, so they stay readable after Close().
  std::shared_ptr<ReaderState> self = shared_from_this();

  options.values = [self, plan](const model::Signal& signal,
                                std::vector<catalog::ChunkLocator> locators)
      -> std::shared_ptr<const model::SignalValues> {
    std::vector<values::ChunkRef> chunks;
    chunks.reserve(locators.size());
    const std::string what = "signal_chunks.value_path (" + signal.Describe() + ")";
    for (catalog::ChunkLocator& l : locators) {
      CheckParquetLocator(l, signal.Describe());
      chunks.push_back(
          values::ChunkRef{self->ResolveOwn(l.payload_source, l.value_path, true, what),
                           std::move(l.value_path), l.major, *l.minor, l.n_values});
    }
    auto lazy = std::make_shared<const LazySignalValues>(self, signal.spec(), std::move(chunks));
    if (plan.signal_values == Loading::kLazy) return lazy;
    return std::make_shared<const model::InMemoryValues>(*lazy->Load());
  };

  options.offsets =
      [self, plan](const catalog::OffsetsLocator& l) -> std::shared_ptr<const model::TimeOffsets> {
    const std::string what = "axes.offsets_path";
    payload::OffsetsRef ref{
        .file = self->ResolveOwn(l.payload_source, l.path, false, what),
        .name = l.path,
        .row = l.row,
        .n_values = l.n_values,
        .digest = l.digest,
        .first_us = l.first_us,
        .last_us = l.last_us,
        .axis = "axis with offsets at " + l.path + " row " + std::to_string(l.row)};
    auto offsets = std::make_shared<const LazyOffsets>(self, std::move(ref));
    if (plan.time_offsets == Loading::kEager) offsets->Load();
    return offsets;
  };

  auto text_ref = [self](const catalog::TextPayloadRow& row) {
    const std::string what = "text_payloads.file (text_key " + std::to_string(row.text_key) + ")";
    return payload::TextRef{.file = self->ResolveOwn(row.payload_source, row.file, false, what),
                            .name = row.file,
                            .row = row.row,
                            .length = row.length,
                            .text_key = row.text_key};
  };
  options.text = [self, plan, text_ref](const catalog::TextPayloadRow& row) {
    payload::TextRef ref = text_ref(row);
    if (plan.text == Loading::kEager) return model::Text(self->ReadText(ref));
    return model::Text::Lazy(
        std::make_shared<const PayloadText>(self, std::move(ref), self->PayloadChecksum(row.file)));
  };
  options.text_list = [self, plan, text_ref](const catalog::TextPayloadRow& row) {
    payload::TextRef ref = text_ref(row);
    if (plan.text == Loading::kEager) return model::TextList(self->ReadTextList(ref));
    return model::TextList::Lazy(std::make_shared<const PayloadTextList>(
        self, std::move(ref), self->PayloadChecksum(row.file)));
  };
  // FORMAT.md §11: a plan does not reach what a read builds only as from_tasks parents.
  const bool all_lazy = plan.signal_values == Loading::kLazy &&
                        plan.time_offsets == Loading::kLazy && plan.text == Loading::kLazy;
  if (!all_lazy) {
    options.unreached =
        std::make_shared<const catalog::HydrateOptions>(HydrateOptionsFor(LoadPlan::AllLazy()));
  }
  return options;
}

}  // namespace timef
