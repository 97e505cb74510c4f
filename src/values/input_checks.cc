#include "values/input_checks.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "timef/error.h"

namespace timef::values {
namespace {

[[noreturn]] void Reject(const SignalInput& input, const std::string& field,
                         const std::string& problem) {
  throw ValidationError(
      ErrorSite{std::nullopt, "signal " + std::to_string(input.signal_id) + " '" + input.name + "'",
                field},
      problem);
}

// Nulls only in a nullable spec; enum codes within the categories (indices from `first_step`).
void CheckContent(const SignalInput& input, const model::ValueArray& values,
                  std::int64_t first_step) {
  const model::Spec& spec = *input.spec;
  if (!spec.nullable && values.null_count() > 0) {
    Reject(input, "values", "holds nulls but spec_type '" + spec.spec_type + "' is not nullable");
  }
  if (spec.dtype == model::DType::kEnum) {
    const auto codes = values.values<std::int32_t>();
    const auto categories = static_cast<std::int32_t>(spec.categories.size());
    const std::int64_t width = std::max<std::int64_t>(1, spec.StepWidth());
    for (std::size_t i = 0; i < codes.size(); ++i) {
      if (values.IsValid(static_cast<std::int64_t>(i) / width) &&
          (codes[i] < 0 || codes[i] >= categories)) {
        Reject(input,
               "values[" + std::to_string(first_step * width + static_cast<std::int64_t>(i)) + "]",
               "enum code " + std::to_string(codes[i]) + " outside the " +
                   std::to_string(categories) + " categories");
      }
    }
  }
}

}  // namespace

void CheckInputs(const std::vector<SignalInput>& inputs, manifest::ValuesBackend backend) {
  std::set<std::int64_t> ids;
  std::map<std::string, const model::Spec*> specs;
  for (const SignalInput& input : inputs) {
    if (!ids.insert(input.signal_id).second) Reject(input, "signal_id", "appears twice");
    if (input.spec == nullptr) Reject(input, "spec", "is missing");
    if (backend == manifest::ValuesBackend::kParquet && !input.spec->value_shape.empty()) {
      Reject(input, "spec",
             "spec_type '" + input.spec->spec_type +
                 "' has a value_shape; the Parquet values plane stores scalar specs only (use "
                 "Zarr)");
    }
    if (backend == manifest::ValuesBackend::kZarr && input.spec->dtype == model::DType::kStr) {
      Reject(input, "spec",
             "spec_type '" + input.spec->spec_type +
                 "' has dtype str, which the Zarr values plane does not store (docs/format.md "
                 "§8.2)");
    }
    if (input.n_values < 0) Reject(input, "n_values", "is negative");
    if (!input.load && !input.pieces) Reject(input, "load", "no loader");
    auto [it, inserted] = specs.emplace(input.spec->spec_type, input.spec.get());
    if (!inserted && !(*it->second == *input.spec)) {
      Reject(input, "spec", "two different specs share spec_type '" + input.spec->spec_type + "'");
    }
  }
}

void CheckLoaded(const SignalInput& input, const model::ValueArray* values) {
  const model::Spec& spec = *input.spec;
  if (values == nullptr) Reject(input, "values", "the loader returned no array");
  if (values->dtype() != spec.dtype) {
    Reject(input, "values",
           "dtype " + std::string(model::ToString(values->dtype())) +
               " does not match the spec's " + std::string(model::ToString(spec.dtype)));
  }
  if (values->holds_enum_labels()) {
    Reject(input, "values", "enum values must be conformed to codes before writing");
  }
  if (values->size() != input.n_values * spec.StepWidth()) {
    Reject(input, "values",
           "holds " + std::to_string(values->size()) + " values, expected n_values = " +
               std::to_string(input.n_values) + " steps of " + std::to_string(spec.StepWidth()));
  }
  if (values->has_validity() &&
      static_cast<std::int64_t>(values->validity().size()) != input.n_values) {
    Reject(input, "values.validity", "expected one byte per timestep");
  }
  CheckContent(input, *values, 0);
}

void CheckPiece(const SignalInput& input, const model::ValueArray& piece, std::int64_t first_step) {
  const model::Spec& spec = *input.spec;
  const std::string where = "values (piece at step " + std::to_string(first_step) + ")";
  if (piece.dtype() != spec.dtype) {
    Reject(input, where,
           "dtype " + std::string(model::ToString(piece.dtype())) + " does not match the spec's " +
               std::string(model::ToString(spec.dtype)));
  }
  if (piece.holds_enum_labels()) {
    Reject(input, where, "enum values must be conformed to codes before writing");
  }
  const std::int64_t width = std::max<std::int64_t>(1, spec.StepWidth());
  const std::int64_t steps = piece.size() / width;
  if (piece.size() % width != 0) Reject(input, where, "does not hold whole timesteps");
  if (steps > input.n_values - first_step) {
    Reject(input, where,
           "brings the pieces past n_values = " + std::to_string(input.n_values) + " steps");
  }
  if (piece.has_validity() && static_cast<std::int64_t>(piece.validity().size()) != steps) {
    Reject(input, where + ".validity", "expected one byte per timestep of the piece");
  }
  CheckContent(input, piece, first_step);
}

void CheckPieceTotal(const SignalInput& input, std::int64_t steps) {
  if (steps != input.n_values) {
    Reject(input, "values",
           "the pieces hold " + std::to_string(steps) +
               " steps, expected n_values = " + std::to_string(input.n_values));
  }
}

}  // namespace timef::values
