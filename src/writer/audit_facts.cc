#include "writer/audit_facts.h"

#include <string>

namespace timef::writer {
namespace {

std::vector<std::string> Paths(const std::vector<manifest::FilePart>& parts) {
  std::vector<std::string> out;
  out.reserve(parts.size());
  for (const manifest::FilePart& part : parts) out.push_back(part.path);
  return out;
}

}  // namespace

catalog::AuditFacts AuditFactsOf(const manifest::Manifest& m) {
  catalog::AuditFacts facts;
  facts.identity.dataset_id = m.dataset_id;
  facts.identity.dataset_version = m.metadata.dataset_version;
  for (const manifest::ParentEntry& p : m.metadata.parents) {
    facts.identity.parents.push_back(catalog::ParentRow{p.alias, p.dataset_id, p.version});
  }
  const manifest::Counts& c = m.counts;
  facts.counts = catalog::AuditCounts{.records = c.records,
                                      .sources = c.sources,
                                      .signals = c.signals,
                                      .axes = c.axes,
                                      .annotation_contents = c.annotation_contents,
                                      .annotation_occurrences = c.annotation_occurrences,
                                      .signal_chunks = c.signal_chunks,
                                      .tasks = c.tasks,
                                      .signals_by_spec = c.signals_by_spec};
  for (const manifest::TimeSeriesSpec& spec : m.schema.time_series_specs) {
    facts.specs.push_back(
        catalog::AuditSpec{.spec_type = spec.spec_type,
                           .name = spec.name,
                           .unit = spec.unit_value,
                           .dtype = std::string(manifest::ToString(spec.dtype)),
                           .categories = spec.categories,
                           .value_shape = spec.value_shape,
                           .dimension_names = spec.dimension_names,
                           .nullable = spec.nullable,
                           .modality = std::string(manifest::ToString(spec.modality))});
  }
  for (const manifest::AnnotationDescriptor& d : m.schema.annotations) {
    std::optional<std::string> value_type;
    if (d.value_type) value_type = std::string(manifest::ToString(*d.value_type));
    facts.annotations.push_back(catalog::AuditDescriptor{
        .key = d.key,
        .annotation_type = std::string(manifest::ToString(d.annotation_type)),
        .value_type = std::move(value_type),
        .unit = d.unit,
        .description = d.description});
  }
  for (manifest::TaskType type : m.schema.tasks) {
    facts.task_types.emplace_back(manifest::ToString(type));
  }
  facts.values_backend = std::string(manifest::ToString(m.values_backend));
  facts.own_time_series = Paths(m.files.time_series);
  facts.own_payloads = Paths(m.files.payloads);
  for (const auto& [ref, pins] : m.payload_sources) facts.payload_sources[ref] = Paths(pins);
  return facts;
}

}  // namespace timef::writer
