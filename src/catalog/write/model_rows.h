// The row step of WriteCatalog: each function appends the rows of its tables from a Plan, in key
// order (docs/format.md §6.10), inside the CatalogWriter's data transaction.
#pragma once

#include <string>

#include "catalog/write/catalog_writer.h"
#include "catalog/write/model_plan.h"
#include "core/json_forms.h"
#include "timef/json.h"
#include "timef/model.h"

namespace timef::catalog {

// JSON cells are stored compact (§13).
inline std::string Compact(const Json& json) { return WriteCompactJson(json); }

// datasets, dataset_parents, clocks, records, record_imports, sources.
void WriteRecords(CatalogWriter& w, const model::Dataset& dataset, const Plan& plan);
// axes, signals, imported_signals, signal_chunks.
void WriteAxesAndSignals(CatalogWriter& w, const Plan& plan);
// text_payloads, by text_key.
void WriteTextPayloads(CatalogWriter& w, const Plan& plan);
// annotation_contents, annotation_occurrences, imported_annotations, registered_annotations.
void WriteAnnotations(CatalogWriter& w, const Plan& plan);
// tasks, imported_tasks.
void WriteTaskRows(CatalogWriter& w, const Plan& plan);
// task_targets.
void WriteTargets(CatalogWriter& w, const Plan& plan);
// task_record_refs, task_annotation_refs (ValidationError for an annotation nothing carries),
// task_dependencies.
void WriteTaskRefs(CatalogWriter& w, const Plan& plan);

}  // namespace timef::catalog
