// Writes a model::Dataset into a new control.duckdb (docs/format.md §6) in two steps: plan (every
// key of §6.7 assigned and every locator taken from the PayloadSink, model_plan.h), then rows
// (every table filled through the appender API inside the data transaction, rows in key order,
// model_rows.h).
//
// The catalog writes no values or payload files itself: the PayloadSink says where they live.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "catalog/audit/audit.h"
#include "catalog/write/payload_sink.h"
#include "timef/model.h"

namespace timef::catalog {

// What was written, for the manifest's counts block and files lists.
struct ModelWriteSummary {
  manifest::Counts counts;
  std::vector<std::string> time_series_paths;  // own value paths used, sorted, distinct
  std::vector<std::string> payload_paths;      // own offsets and text files used, sorted, distinct
  model::IdHighWater high_water;
};

// Writes `dataset` to `path`, which must not exist. `dataset` must have every ID assigned and
// have passed Dataset::Validate (the release writer validates once, before anything is staged);
// it is not validated again here. ValidationError for what only the catalog sees (see
// PlanCatalog, and a task annotation reference nothing carries); any error raises before or
// while writing, and the file is deleted.
ModelWriteSummary WriteCatalog(const std::filesystem::path& path, const model::Dataset& dataset,
                               PayloadSink& sink);

}  // namespace timef::catalog
