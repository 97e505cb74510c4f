// Checks of WriteValues' inputs: up front (specs, IDs) and on each loaded array.
#pragma once

#include <vector>

#include "timef/model.h"
#include "values/values_writer.h"

namespace timef::values {

// ValidationError for a missing or value-shaped spec, a negative n_values, a missing loader, a
// duplicate signal_id, or two specs of one spec_type that differ.
void CheckInputs(const std::vector<SignalInput>& inputs);

// ValidationError unless `values` (what `input`'s loader returned) is a conformed array of the
// spec's dtype with n_values steps: enum as codes within the categories, validity of the right
// size and nulls only in a nullable spec.
void CheckLoaded(const SignalInput& input, const model::ValueArray* values);

}  // namespace timef::values
