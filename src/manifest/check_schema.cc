#include <set>

#include "manifest/check.h"
#include "timef/ids.h"
#include "timef/units.h"

namespace timef::manifest::internal {
namespace {

void CheckUnit(const std::optional<std::string>& unit, const std::string& pointer,
               Problems& problems) {
  if (!unit || IsCanonicalUnit(*unit)) return;
  if (std::optional<std::string> canonical = ParseUnit(*unit)) {
    problems.Add(pointer,
                 "unit " + Quote(*unit) + " is not canonical (expected " + Quote(*canonical) + ")");
  } else {
    problems.Add(pointer, "unit " + Quote(*unit) + " does not parse");
  }
}

// Each name non-empty and unique.
void CheckNames(const std::vector<std::string>& names, const std::string& pointer,
                std::string_view what, Problems& problems) {
  std::set<std::string_view> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) {
      problems.Add(JoinPointer(pointer, i), std::string(what) + " must not be empty");
    } else if (!seen.insert(names[i]).second) {
      problems.Add(JoinPointer(pointer, i),
                   "duplicate " + std::string(what) + " " + Quote(names[i]));
    }
  }
}

void CheckSpecValues(const Spec& spec, const std::string& pointer, Problems& problems) {
  if (!IsValidSpecType(spec.spec_type)) {
    problems.Add(JoinPointer(pointer, "spec_type"),
                 "invalid spec_type " + Quote(spec.spec_type) +
                     " (must be non-empty and not '.', '..', '_irregular', '_time_offsets' or "
                     "'_validity')");
  }
  CheckUnit(spec.unit, JoinPointer(pointer, "unit_value"), problems);
  CheckNames(spec.categories, JoinPointer(pointer, "categories"), "category", problems);
  for (size_t i = 0; i < spec.value_shape.size(); ++i) {
    if (spec.value_shape[i] < 1) {
      problems.Add(JoinPointer(JoinPointer(pointer, "value_shape"), i),
                   "extent " + std::to_string(spec.value_shape[i]) + " must be >= 1");
    }
  }
  CheckNames(spec.dimension_names, JoinPointer(pointer, "dimension_names"), "dimension name",
             problems);
}

void CheckSpecRules(const Spec& spec, const std::string& pointer, Problems& problems) {
  bool is_enum = spec.dtype == DType::kEnum;
  if (is_enum && spec.categories.empty()) {
    problems.Add(JoinPointer(pointer, "categories"), "dtype 'enum' needs at least one category");
  } else if (!is_enum && !spec.categories.empty()) {
    problems.Add(
        JoinPointer(pointer, "categories"),
        "only dtype 'enum' has categories (dtype is '" + std::string(ToString(spec.dtype)) + "')");
  }
  if (!spec.dimension_names.empty() && spec.dimension_names.size() != spec.value_shape.size()) {
    problems.Add(JoinPointer(pointer, "dimension_names"),
                 "expected " + std::to_string(spec.value_shape.size()) +
                     " names (one per value_shape entry), got " +
                     std::to_string(spec.dimension_names.size()));
  }
}

// Reports an element whose key is not strictly greater than its predecessor's.
template <typename T, typename KeyOf>
void CheckSortedUnique(const std::vector<T>& items, const std::string& pointer,
                       std::string_view what, KeyOf key_of, Problems& problems) {
  for (size_t i = 1; i < items.size(); ++i) {
    std::string_view previous = key_of(items[i - 1]);
    std::string_view current = key_of(items[i]);
    if (current == previous) {
      problems.Add(JoinPointer(pointer, i),
                   "duplicate " + std::string(what) + " " + Quote(current));
    } else if (current < previous) {
      problems.Add(JoinPointer(pointer, i), "not sorted by " + std::string(what) + " (" +
                                                Quote(current) + " after " + Quote(previous) + ")");
    }
  }
}

}  // namespace

void CheckSchemaValues(const Schema& schema, const std::string& pointer, Problems& problems) {
  std::string specs_pointer = JoinPointer(pointer, "time_series_specs");
  for (size_t i = 0; i < schema.time_series_specs.size(); ++i) {
    CheckSpecValues(schema.time_series_specs[i], JoinPointer(specs_pointer, i), problems);
  }
  std::string annotations_pointer = JoinPointer(pointer, "annotations");
  for (size_t i = 0; i < schema.annotations.size(); ++i) {
    CheckUnit(schema.annotations[i].unit, JoinPointer(JoinPointer(annotations_pointer, i), "unit"),
              problems);
  }
}

void CheckSchemaRules(const Schema& schema, const std::string& pointer, Problems& problems) {
  std::string specs_pointer = JoinPointer(pointer, "time_series_specs");
  for (size_t i = 0; i < schema.time_series_specs.size(); ++i) {
    CheckSpecRules(schema.time_series_specs[i], JoinPointer(specs_pointer, i), problems);
  }
  CheckSortedUnique(
      schema.time_series_specs, specs_pointer, "spec_type",
      [](const Spec& spec) -> std::string_view { return spec.spec_type; }, problems);
  CheckSortedUnique(
      schema.annotations, JoinPointer(pointer, "annotations"), "annotation key",
      [](const AnnotationDescriptor& d) -> std::string_view { return d.key; }, problems);
  CheckSortedUnique(
      schema.tasks, JoinPointer(pointer, "tasks"), "task_type",
      [](TaskType type) -> std::string_view { return ToString(type); }, problems);
}

}  // namespace timef::manifest::internal
