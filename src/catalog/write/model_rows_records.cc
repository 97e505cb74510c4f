// The rows of records, sources, axes, signals and their chunks, and packed text.
#include <algorithm>
#include <span>
#include <vector>

#include "catalog/write/model_rows.h"

namespace timef::catalog {

void WriteRecords(CatalogWriter& w, const model::Dataset& dataset, const Plan& plan) {
  w.Append(CatalogTable::kDatasets)
      .Int64(1)
      .Varchar(dataset.dataset_id())
      .Varchar(dataset.version())
      .EndRow();
  int64_t position = 0;
  for (const auto& parent : dataset.parents()) {
    w.Append(CatalogTable::kDatasetParents)
        .Varchar(parent.alias)
        .Varchar(parent.dataset_id)
        .Varchar(parent.version)
        .Int64(position++)
        .EndRow();
  }
  for (size_t i = 0; i < plan.clocks.size(); ++i) {
    w.Append(CatalogTable::kClocks)
        .Int64(static_cast<int64_t>(i + 1))
        .Int64OrNull(plan.clocks[i])
        .EndRow();
  }
  const std::vector<int64_t> read_order = ReadOrder(plan);
  for (size_t i = 0; i < plan.records.size(); ++i) {
    const model::Record& r = *plan.records[i].first;
    Appender& a = w.Append(CatalogTable::kRecords);
    a.Int64(plan.records[i].second).Int64(*r.id()).Int64(plan.record_clock[i]);
    if (r.time_span()) {
      a.Int64(r.time_span()->start_us).Int64(r.time_span()->end_us);
    } else {
      a.Null().Null();
    }
    a.Varchar(Compact(r.metadata())).Int64(read_order[i]).EndRow();
  }
  std::vector<const model::Record*> imported;
  for (const auto& [r, key] : plan.records) {
    if (r->import_marker()) imported.push_back(r);
  }
  std::sort(imported.begin(), imported.end(), [](auto* a, auto* b) { return *a->id() < *b->id(); });
  for (const model::Record* r : imported) {
    w.Append(CatalogTable::kRecordImports)
        .Int64(*r->id())
        .Varchar(r->import_marker()->alias)
        .Int64(r->import_marker()->parent_id)
        .EndRow();
  }
  for (const SourceRow& s : plan.sources) {
    w.Append(CatalogTable::kSources)
        .Int64(s.key)
        .Int64(s.record_key)
        .Int64OrNull(s.parent_key)
        .Varchar(s.source->name())
        .Varchar(Compact(s.source->metadata()))
        .EndRow();
  }
}

void WriteAxesAndSignals(CatalogWriter& w, const Plan& plan) {
  for (size_t i = 0; i < plan.axes.size(); ++i) {
    const model::TimeAxis& axis = *plan.axes[i].first;
    Appender& a = w.Append(CatalogTable::kAxes);
    a.Int64(static_cast<int64_t>(i + 1)).Varchar(model::ToString(axis.type()));
    if (axis.is_regular()) {
      a.Int64(axis.period_numerator_us())
          .Int64(axis.period_denominator())
          .Int64(axis.start_index())
          .Int64(axis.offset_us());
    } else {
      a.Null().Null().Null().Null();
    }
    if (axis.is_irregular()) {
      const OffsetsLocator& l = *plan.axes[i].second;
      a.Int64(axis.first_us()).Int64(axis.last_us());
      a.VarcharOrNull(l.payload_source).Varchar(l.path).Int64(l.row).Int64(axis.n_values());
      a.Varchar(l.digest);
    } else {
      a.Null().Null().Null().Null().Null().Null().Null();
    }
    a.EndRow();
  }
  for (const SignalRow& s : plan.signals) {
    const model::Signal& g = *s.signal;
    const model::Spec& spec = *g.spec();
    w.Append(CatalogTable::kSignals)
        .Int64(s.key)
        .Int64(*g.id())
        .Int64(s.source_key)
        .Varchar(g.name())
        .Int64(s.axis_key)
        .Varchar(spec.spec_type)
        .Varchar(spec.name)
        .VarcharOrNull(spec.unit)
        .Varchar(model::ToString(spec.dtype))
        .VarcharList(std::span<const std::string>(spec.categories))
        .Int64List(spec.value_shape)
        .VarcharList(std::span<const std::string>(spec.dimension_names))
        .Bool(spec.nullable)
        .Int64(g.n_values())
        .Varchar(Compact(g.metadata()))
        .Varchar(model::ToString(spec.modality))
        .VarcharOrNull(g.source_id())
        .EndRow();
  }
  std::vector<const model::Signal*> imported;
  for (const SignalRow& s : plan.signals) {
    if (s.signal->import_marker()) imported.push_back(s.signal);
  }
  std::sort(imported.begin(), imported.end(), [](auto* a, auto* b) { return *a->id() < *b->id(); });
  for (const model::Signal* s : imported) {
    w.Append(CatalogTable::kImportedSignals)
        .Int64(*s->id())
        .Varchar(s->import_marker()->alias)
        .Int64(s->import_marker()->parent_id)
        .EndRow();
  }
  for (const SignalRow& s : plan.signals) {
    int64_t index = 0;
    for (const ChunkLocator& c : s.chunks) {
      w.Append(CatalogTable::kSignalChunks)
          .Int64(s.key)
          .Int64(index++)
          .VarcharOrNull(c.payload_source)
          .Varchar(c.value_path)
          .Int64(c.major)
          .Int64OrNull(c.minor)
          .Int64(c.n_values)
          .EndRow();
    }
  }
}

void WriteTextPayloads(CatalogWriter& w, const Plan& plan) {
  int64_t text_key = 1;
  for (const auto& [packed, kind] : plan.texts) {
    w.Append(CatalogTable::kTextPayloads)
        .Int64(text_key++)
        .VarcharOrNull(packed.payload_source)
        .Varchar(packed.file)
        .Int64(packed.row)
        .Varchar(kind)
        .Int64(packed.length)
        .EndRow();
  }
}

}  // namespace timef::catalog
