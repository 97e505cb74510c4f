#include "manifest/decode.h"
#include "manifest/json_fields.h"

namespace timef::manifest::internal {
namespace {

Spec DecodeSpec(const Json& value, const std::string& pointer, Problems& problems) {
  Spec spec;
  if (!ExpectObject(value, pointer, problems)) return spec;
  Fields fields(value, pointer, problems);
  fields.RejectUnknown({"spec_type", "name", "unit_value", "dtype", "categories", "value_shape",
                        "dimension_names", "nullable", "modality"});
  fields.String("spec_type", true, &spec.spec_type);
  fields.String("name", true, &spec.name);
  // The key is required even though its value may be null: null means "unit unknown".
  if (fields.Require("unit_value") != nullptr) fields.NullableString("unit_value", &spec.unit);
  fields.Enum("dtype", false, "dtype", &spec.dtype);
  fields.StringList("categories", &spec.categories);
  if (const Json* shape = fields.Find("value_shape")) {
    std::string list_pointer = fields.PointerOf("value_shape");
    if (ExpectArray(*shape, list_pointer, problems)) {
      for (size_t i = 0; i < shape->size(); ++i) {
        int64_t extent = 0;
        if (ReadInt((*shape)[i], JoinPointer(list_pointer, i), problems, &extent)) {
          spec.value_shape.push_back(extent);
        }
      }
    }
  }
  fields.StringList("dimension_names", &spec.dimension_names);
  fields.Bool("nullable", &spec.nullable);
  fields.Enum("modality", false, "modality", &spec.modality);
  return spec;
}

AnnotationDescriptor DecodeDescriptor(const Json& value, const std::string& pointer,
                                      Problems& problems) {
  AnnotationDescriptor descriptor;
  if (!ExpectObject(value, pointer, problems)) return descriptor;
  Fields fields(value, pointer, problems);
  fields.RejectUnknown({"key", "annotation_type", "value_type", "unit", "description"});
  fields.String("key", true, &descriptor.key);
  fields.Enum("annotation_type", true, "annotation_type", &descriptor.annotation_type);
  fields.NullableEnum("value_type", "value_type", &descriptor.value_type);
  fields.NullableString("unit", &descriptor.unit);
  fields.NullableString("description", &descriptor.description);
  return descriptor;
}

// Calls `decode(element, pointer)` for each element of the optional array `key`.
template <typename Decode>
void ForEachElement(Fields& fields, std::string_view key, Decode decode) {
  const Json* list = fields.Find(key);
  if (list == nullptr) return;
  std::string list_pointer = fields.PointerOf(key);
  if (!ExpectArray(*list, list_pointer, fields.problems())) return;
  for (size_t i = 0; i < list->size(); ++i) decode((*list)[i], JoinPointer(list_pointer, i));
}

}  // namespace

Schema DecodeSchema(const Json& value, const std::string& pointer, Problems& problems) {
  Schema schema;
  if (!ExpectObject(value, pointer, problems)) return schema;
  Fields fields(value, pointer, problems);
  fields.RejectUnknown({"time_series_specs", "annotations", "tasks"});
  ForEachElement(fields, "time_series_specs", [&](const Json& element, const std::string& at) {
    schema.time_series_specs.push_back(DecodeSpec(element, at, problems));
  });
  ForEachElement(fields, "annotations", [&](const Json& element, const std::string& at) {
    schema.annotations.push_back(DecodeDescriptor(element, at, problems));
  });
  ForEachElement(fields, "tasks", [&](const Json& element, const std::string& at) {
    if (!ExpectObject(element, at, problems)) return;
    Fields task(element, at, problems);
    task.RejectUnknown({"task_type"});
    TaskType type{};
    const Json* name = task.Require("task_type");
    if (name != nullptr &&
        ReadEnum(*name, task.PointerOf("task_type"), problems, "task_type", &type)) {
      schema.tasks.push_back(type);
    }
  });
  return schema;
}

}  // namespace timef::manifest::internal
