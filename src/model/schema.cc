#include "timef/model/schema.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/checks.h"
#include "timef/model/dataset.h"

namespace timef::model {
namespace {

std::string Optional(const std::optional<std::string>& value) {
  return value ? internal::Quoted(*value) : std::string("none");
}

// The first field in which two specs differ, with both values.
std::pair<std::string, std::string> FirstDifference(const Spec& a, const Spec& b) {
  auto list = [](const std::vector<std::string>& v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + internal::Quoted(v[i]);
    return out + "]";
  };
  auto shape = [](const std::vector<int64_t>& v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
    return out + "]";
  };
  if (a.name != b.name)
    return {"name", internal::Quoted(a.name) + " vs " + internal::Quoted(b.name)};
  if (a.unit != b.unit) return {"unit", Optional(a.unit) + " vs " + Optional(b.unit)};
  if (a.dtype != b.dtype) {
    return {"dtype", std::string(ToString(a.dtype)) + " vs " + std::string(ToString(b.dtype))};
  }
  if (a.categories != b.categories)
    return {"categories", list(a.categories) + " vs " + list(b.categories)};
  if (a.value_shape != b.value_shape) {
    return {"value_shape", shape(a.value_shape) + " vs " + shape(b.value_shape)};
  }
  if (a.dimension_names != b.dimension_names) {
    return {"dimension_names", list(a.dimension_names) + " vs " + list(b.dimension_names)};
  }
  if (a.nullable != b.nullable) {
    return {"nullable",
            std::string(a.nullable ? "true" : "false") + " vs " + (b.nullable ? "true" : "false")};
  }
  return {"modality",
          std::string(ToString(a.modality)) + " vs " + std::string(ToString(b.modality))};
}

struct DescriptorEntry {
  AnnotationDescriptor descriptor;
  std::string first_holder;
};

class SchemaBuilder {
 public:
  void AddSignal(const Signal& signal) {
    const Spec& spec = *signal.spec();
    auto [it, inserted] = specs_.emplace(spec.spec_type, std::make_pair(&spec, signal.Describe()));
    if (inserted || it->second.first == &spec || *it->second.first == spec) return;
    auto [field, values] = FirstDifference(*it->second.first, spec);
    internal::Fail(signal.Describe(), "spec." + field,
                   "spec_type " + internal::Quoted(spec.spec_type) +
                       " has conflicting specs: " + values + " (" + it->second.second +
                       " vs this signal); one spec_type has " + "one spec");
  }

  void AddOccurrences(const Annotatable& owner, const std::string& owner_name) {
    const auto& occurrences = owner.annotations();
    for (size_t i = 0; i < occurrences.size(); ++i) {
      AddOccurrence(*occurrences[i], owner_name, "annotations[" + std::to_string(i) + "]");
    }
  }

  void AddOccurrence(const Annotation& occurrence, const std::string& holder,
                     const std::string& where) {
    const AnnotationContent& content = *occurrence.content();
    AnnotationDescriptor seen{.key = content.name(),
                              .annotation_type = AnnotationTypeOf(occurrence.span()),
                              .value_type = ValueTypeOf(content.value().kind()),
                              .unit = content.unit(),
                              .description = content.description()};
    auto [it, inserted] = descriptors_.emplace(content.name(), DescriptorEntry{seen, holder});
    if (inserted) return;
    AnnotationDescriptor& known = it->second.descriptor;
    // Not the structured binding itself: clang before 16 cannot capture one in a lambda.
    const std::string& first_holder = it->second.first_holder;
    auto conflict = [&](const std::string& field, const std::string& values) {
      internal::Fail(holder, where + "." + field,
                     "annotation key " + internal::Quoted(content.name()) + " has conflicting " +
                         field + ": " + values + " (first seen on " + first_holder + ")");
    };
    if (known.annotation_type != seen.annotation_type) {
      conflict("span", std::string(ToString(seen.annotation_type)) + " here, " +
                           std::string(ToString(known.annotation_type)) + " before");
    }
    if (known.value_type != seen.value_type) {
      auto name = [](std::optional<AnnotationValueType> t) {
        return t ? std::string(ToString(*t)) : std::string("marker");
      };
      conflict("value", name(seen.value_type) + " here, " + name(known.value_type) + " before");
    }
    // A missing unit or description yields to a present one; two present ones must agree.
    if (seen.unit && known.unit && *seen.unit != *known.unit) {
      conflict("unit", Optional(seen.unit) + " here, " + Optional(known.unit) + " before");
    }
    if (!known.unit) known.unit = seen.unit;
    if (seen.description && known.description && *seen.description != *known.description) {
      conflict("description",
               Optional(seen.description) + " here, " + Optional(known.description) + " before");
    }
    if (!known.description) known.description = seen.description;
  }

  void AddTaskType(TaskType type) { task_types_.insert(type); }

  Schema Finish() const {
    Schema schema;
    for (const auto& [spec_type, entry] : specs_) schema.time_series_specs.push_back(*entry.first);
    for (const auto& [key, entry] : descriptors_) schema.annotations.push_back(entry.descriptor);
    schema.tasks.assign(task_types_.begin(), task_types_.end());
    std::sort(schema.tasks.begin(), schema.tasks.end(),
              [](TaskType a, TaskType b) { return ToString(a) < ToString(b); });
    return schema;
  }

 private:
  // std::map orders by byte, which for UTF-8 is code point order (docs/format.md §1.1 "sorted").
  std::map<std::string, std::pair<const Spec*, std::string>> specs_;
  std::map<std::string, DescriptorEntry> descriptors_;
  std::set<TaskType> task_types_;
};

void WalkSource(const Source& source, const std::string& record_name, SchemaBuilder& builder) {
  builder.AddOccurrences(source, source.Describe() + " of " + record_name);
  for (const auto& signal : source.signals()) {
    builder.AddSignal(*signal);
    builder.AddOccurrences(*signal, signal->Describe());
  }
  for (const auto& child : source.children()) WalkSource(*child, record_name, builder);
}

}  // namespace

std::optional<AnnotationValueType> ValueTypeOf(ValueKind kind) {
  switch (kind) {
    case ValueKind::kMarker:
      return std::nullopt;
    case ValueKind::kText:
      return AnnotationValueType::kStr;
    case ValueKind::kInteger:
      return AnnotationValueType::kInt;
    case ValueKind::kFloat:
      return AnnotationValueType::kFloat;
    case ValueKind::kBoolean:
      return AnnotationValueType::kBool;
    case ValueKind::kTextList:
      return AnnotationValueType::kList;
  }
  return std::nullopt;
}

Schema DeriveSchema(const Dataset& dataset) {
  SchemaBuilder builder;
  builder.AddOccurrences(dataset, dataset.Describe());
  for (const auto& record : dataset.records()) {
    const std::string record_name = record->Describe();
    builder.AddOccurrences(*record, record_name);
    for (const auto& source : record->sources()) WalkSource(*source, record_name, builder);
  }
  for (const auto& task : dataset.tasks()) {
    builder.AddTaskType(task->type());
    builder.AddOccurrences(*task, task->Describe());
  }
  const auto& registered = dataset.registered_annotations();
  for (size_t i = 0; i < registered.size(); ++i) {
    builder.AddOccurrence(*registered[i], dataset.Describe(),
                          "registered_annotations[" + std::to_string(i) + "]");
  }
  return builder.Finish();
}

}  // namespace timef::model
