#include "timef/model/spec.h"

#include <set>

#include "model/checks.h"
#include "timef/error.h"
#include "timef/ids.h"
#include "timef/units.h"

namespace timef::model {

int64_t DTypeWidth(DType dtype) {
  switch (dtype) {
    case DType::kBool:
    case DType::kInt8:
    case DType::kUint8:
      return 1;
    case DType::kInt16:
    case DType::kUint16:
      return 2;
    case DType::kInt32:
    case DType::kUint32:
    case DType::kFloat32:
    case DType::kEnum:
      return 4;
    case DType::kFloat64:
      return 8;
    case DType::kStr:
      return 0;
  }
  return 0;
}

std::shared_ptr<const Spec> Spec::Make(Spec spec) {
  if (spec.unit) {
    std::string object = "spec " + internal::Quoted(spec.spec_type);
    auto canonical = ParseUnit(*spec.unit);
    if (!canonical) {
      internal::Fail(object, "unit", "unit " + internal::Quoted(*spec.unit) + " does not parse");
    }
    spec.unit = std::move(*canonical);
  }
  spec.Check();
  return std::make_shared<const Spec>(std::move(spec));
}

void Spec::Check() const {
  const auto object = [this] { return "spec " + internal::Quoted(spec_type); };
  if (!IsValidSpecType(spec_type)) {
    internal::Fail(object(), "spec_type",
                   "a spec_type is non-empty UTF-8 and not '.', '..', '_irregular', "
                   "'_time_offsets' or '_validity'");
  }
  internal::CheckUtf8(name, object, "name");
  if (unit && !IsCanonicalUnit(*unit)) {
    internal::Fail(object(), "unit",
                   "unit " + internal::Quoted(*unit) + " is not a canonical unit name");
  }
  if (dtype == DType::kEnum) {
    if (categories.empty()) internal::Fail(object(), "categories", "an enum spec needs categories");
    std::set<std::string_view> seen;
    for (size_t i = 0; i < categories.size(); ++i) {
      const std::string where = "categories[" + std::to_string(i) + "]";
      if (categories[i].empty()) internal::Fail(object(), where, "a category must not be empty");
      internal::CheckUtf8(categories[i], object, where);
      if (!seen.insert(categories[i]).second) {
        internal::Fail(object(), where, "category " + internal::Quoted(categories[i]) + " repeats");
      }
    }
  } else if (!categories.empty()) {
    internal::Fail(
        object(), "categories",
        "only an enum spec has categories (dtype is " + std::string(ToString(dtype)) + ")");
  }
  for (size_t i = 0; i < value_shape.size(); ++i) {
    if (value_shape[i] < 1) {
      internal::Fail(object(), "value_shape[" + std::to_string(i) + "]",
                     "each dimension must be ≥ 1, got " + std::to_string(value_shape[i]));
    }
  }
  if (!dimension_names.empty()) {
    if (dimension_names.size() != value_shape.size()) {
      internal::Fail(object(), "dimension_names",
                     "expected " + std::to_string(value_shape.size()) +
                         " names (one per value_shape entry), got " +
                         std::to_string(dimension_names.size()));
    }
    std::set<std::string_view> seen;
    for (size_t i = 0; i < dimension_names.size(); ++i) {
      const std::string where = "dimension_names[" + std::to_string(i) + "]";
      if (dimension_names[i].empty())
        internal::Fail(object(), where, "a dimension name must not be empty");
      internal::CheckUtf8(dimension_names[i], object, where);
      if (!seen.insert(dimension_names[i]).second) {
        internal::Fail(object(), where,
                       "dimension name " + internal::Quoted(dimension_names[i]) + " repeats");
      }
    }
  }
  // A value cast from outside the enumeration has no name.
  if (ParseModality(ToString(modality)) != modality) {
    internal::Fail(object(), "modality", "unknown modality");
  }
  if (ParseDType(ToString(dtype)) != dtype) {
    internal::Fail(object(), "dtype", "unknown dtype");
  }
  StepWidth();  // rejects a shape whose product overflows
}

int64_t Spec::StepWidth() const {
  int64_t width = 1;
  for (int64_t dim : value_shape) {
    if (dim < 1 || __builtin_mul_overflow(width, dim, &width)) {
      internal::Fail("spec " + internal::Quoted(spec_type), "value_shape",
                     "the shape's product must be a positive int64");
    }
  }
  return width;
}

}  // namespace timef::model
