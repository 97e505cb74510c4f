#include <string>

#include "catalog/model_writer.h"

namespace timef::catalog {

AuditFacts ModelAuditFacts(const model::Dataset& dataset, const ModelWriteSummary& summary) {
  AuditFacts facts;
  facts.identity.dataset_id = dataset.dataset_id();
  facts.identity.dataset_version = dataset.version();
  for (const auto& parent : dataset.parents()) {
    facts.identity.parents.push_back(ParentRow{parent.alias, parent.dataset_id, parent.version});
  }
  facts.counts = summary.counts;
  const model::DerivedSchema schema = model::DeriveSchema(dataset);
  for (const model::Spec& spec : schema.time_series_specs) {
    facts.specs.push_back(AuditSpec{.spec_type = spec.spec_type,
                                    .name = spec.name,
                                    .unit = spec.unit,
                                    .dtype = std::string(model::ToString(spec.dtype)),
                                    .categories = spec.categories,
                                    .value_shape = spec.value_shape,
                                    .dimension_names = spec.dimension_names,
                                    .nullable = spec.nullable,
                                    .modality = std::string(model::ToString(spec.modality))});
  }
  for (const model::AnnotationDescriptor& d : schema.annotations) {
    std::optional<std::string> value_type;
    if (d.value_type) value_type = std::string(model::ToString(*d.value_type));
    facts.annotations.push_back(
        AuditDescriptor{.key = d.key,
                        .annotation_type = std::string(model::ToString(d.annotation_type)),
                        .value_type = value_type,
                        .unit = d.unit,
                        .description = d.description});
  }
  for (model::TaskType type : schema.tasks) facts.task_types.emplace_back(model::ToString(type));
  facts.own_time_series = summary.time_series_paths;
  facts.own_payloads = summary.payload_paths;
  return facts;
}

}  // namespace timef::catalog
