// Checks of WriteValues' inputs: up front (specs, IDs) and on each loaded array.
#pragma once

#include <vector>

#include "timef/model.h"
#include "values/values_writer.h"

namespace timef::values {

// ValidationError for a missing spec, a negative n_values, a missing loader, a duplicate signal_id,
// two specs of one spec_type that differ, and what the backend cannot store: a value-shaped spec
// on Parquet (docs/format.md §7.1), a str spec on Zarr (§8.2).
void CheckInputs(const std::vector<SignalInput>& inputs,
                 manifest::ValuesBackend backend = manifest::ValuesBackend::kParquet);

// ValidationError unless `values` (what `input`'s loader returned) is a conformed array of the
// spec's dtype with n_values steps (n_values × StepWidth() scalars): enum as codes within the
// categories, validity of the right size and nulls only in a nullable spec.
void CheckLoaded(const SignalInput& input, const model::ValueArray* values);

// The same for one piece of `input`'s values starting at step `first_step` (whole steps, within
// n_values, validity of one byte per step of the piece). The total is the caller's to check.
void CheckPiece(const SignalInput& input, const model::ValueArray& piece, std::int64_t first_step);
// ValidationError unless the pieces of `input` added up to `steps` = n_values.
void CheckPieceTotal(const SignalInput& input, std::int64_t steps);

}  // namespace timef::values
