#include "catalog/write/model_writer.h"

#include <set>
#include <string>

#include "catalog/write/catalog_writer.h"
#include "catalog/write/model_plan.h"
#include "catalog/write/model_rows.h"

namespace timef::catalog {
namespace {

ModelWriteSummary Summarize(const Plan& plan, const model::Dataset& dataset) {
  ModelWriteSummary s;
  s.high_water = dataset.HighWater();
  manifest::Counts& c = s.counts;
  c.records = static_cast<int64_t>(plan.records.size());
  c.sources = static_cast<int64_t>(plan.sources.size());
  c.signals = static_cast<int64_t>(plan.signals.size());
  c.axes = static_cast<int64_t>(plan.axes.size());
  c.annotation_contents = static_cast<int64_t>(plan.contents.size());
  c.annotation_occurrences = static_cast<int64_t>(plan.occurrences.size());
  std::set<std::string> values;
  std::set<std::string> payloads;
  for (const SignalRow& row : plan.signals) {
    ++c.signals_by_spec[row.signal->spec()->spec_type];
    for (const ChunkLocator& chunk : row.chunks) {
      if (chunk.payload_source) continue;  // §5.5: counts only the chunks this release stores
      ++c.signal_chunks;
      values.insert(chunk.value_path);
    }
  }
  for (const auto& [axis, locator] : plan.axes) {
    if (locator && !locator->payload_source) payloads.insert(locator->path);
  }
  for (const auto& [packed, kind] : plan.texts) {
    if (!packed.payload_source) payloads.insert(packed.file);
  }
  for (const auto& [t, key] : plan.tasks) ++c.tasks[std::string(model::ToString(t->type()))];
  s.time_series_paths.assign(values.begin(), values.end());
  s.payload_paths.assign(payloads.begin(), payloads.end());
  return s;
}

}  // namespace

ModelWriteSummary WriteCatalog(const std::filesystem::path& path, const model::Dataset& dataset,
                               PayloadSink& sink) {
  const Plan plan = PlanCatalog(dataset, sink);
  ModelWriteSummary summary = Summarize(plan, dataset);
  const model::IdHighWater& hw = summary.high_water;
  CatalogWriter writer =
      CatalogWriter::Create(path, HighWaterMarks{.max_record_id = hw.max_record_id,
                                                 .max_signal_id = hw.max_signal_id,
                                                 .max_task_id = hw.max_task_id});
  WriteRecords(writer, dataset, plan);
  WriteAxesAndSignals(writer, plan);
  WriteTextPayloads(writer, plan);
  WriteAnnotations(writer, plan);
  WriteTaskRows(writer, plan);
  WriteTargets(writer, plan);
  WriteTaskRefs(writer, plan);
  writer.Finish();
  return summary;
}

}  // namespace timef::catalog
