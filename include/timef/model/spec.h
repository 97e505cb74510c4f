// The value contract of a signal (docs/format.md §5.3): spec_type, dtype, unit, shape, nullability.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/vocabulary.h"

namespace timef::model {

// DType and Modality are the schema vocabulary's (timef/vocabulary.h).
using ::timef::DType;
using ::timef::Modality;
using ::timef::ParseDType;
using ::timef::ParseModality;
using ::timef::ToString;

// Bytes of one scalar of `dtype` in memory (enum codes count 4; str counts 0: variable).
int64_t DTypeWidth(DType dtype);

struct Spec {
  std::string spec_type;
  std::string name;
  std::optional<std::string> unit;  // canonical unit name; nullopt = unknown (≠ "dimensionless")
  DType dtype = DType::kFloat32;
  std::vector<std::string> categories;       // enum only: non-empty, unique, non-empty strings
  std::vector<int64_t> value_shape;          // [] = scalar per timestep; each entry ≥ 1
  std::vector<std::string> dimension_names;  // [] or one unique non-empty name per shape entry
  bool nullable = false;
  Modality modality = Modality::kTimeSeries;

  // Canonicalizes `unit` (aliases such as "mV" become "millivolt") and checks every rule.
  // Throws ValidationError naming "spec '<spec_type>'" and the field.
  static std::shared_ptr<const Spec> Make(Spec spec);

  // Checks every spec rule (§2.1 reserved spec_types, §5.3, H3); `unit` must already be canonical.
  // Throws ValidationError naming "spec '<spec_type>'" and the field.
  void Check() const;

  // Scalars per timestep: the product of value_shape (1 for a scalar spec).
  int64_t StepWidth() const;

  bool operator==(const Spec&) const = default;
};

}  // namespace timef::model
