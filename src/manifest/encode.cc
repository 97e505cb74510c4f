#include "manifest/encode.h"

#include "core/enum_table.h"
#include "manifest/problems.h"
#include "timef/error.h"

namespace timef::manifest::internal {
namespace {

// Only reachable through a cast: every declared enumerator has a name.
template <typename E>
Json EnumJson(E value, const std::string& pointer) {
  std::optional<E> named = core::EnumFromName<E>(core::EnumName(value));
  if (!named || *named != value) {
    throw ValidationError(ErrorSite{std::nullopt, "manifest", pointer},
                          "enum value " + std::to_string(static_cast<int>(value)) + " has no name");
  }
  return Json(std::string(core::EnumName(value)));
}

template <typename E>
Json NullableEnumJson(const std::optional<E>& value, const std::string& pointer) {
  return value ? EnumJson(*value, pointer) : Json(nullptr);
}

Json NullableString(const std::optional<std::string>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json StringList(const std::vector<std::string>& values) {
  Json out = Json::array();
  for (const auto& value : values) out.push_back(value);
  return out;
}

Json EncodeCard(const Card& card, const std::string& pointer) {
  Json out = Json::object();
  out["dataset_id"] = card.dataset_id;
  out["dataset_version"] = card.dataset_version;
  out["name"] = card.name;
  out["description"] = card.description;
  out["license"] = EnumJson(card.license, JoinPointer(pointer, "license"));
  Json domains = Json::array();
  for (size_t i = 0; i < card.domains.size(); ++i) {
    domains.push_back(EnumJson(card.domains[i], JoinPointer(JoinPointer(pointer, "domains"), i)));
  }
  out["domains"] = std::move(domains);
  out["tags"] = StringList(card.tags);
  out["source_url"] = NullableString(card.source_url);
  out["source_revision"] = NullableString(card.source_revision);
  out["license_url"] = NullableString(card.license_url);
  out["citation"] = NullableString(card.citation);
  out["access"] = EnumJson(card.access, JoinPointer(pointer, "access"));
  out["access_url"] = NullableString(card.access_url);
  Json parents = Json::array();
  for (const ParentRelease& parent : card.parents) {
    Json entry = Json::object();
    entry["alias"] = parent.alias;
    entry["dataset_id"] = parent.dataset_id;
    entry["version"] = parent.version;
    parents.push_back(std::move(entry));
  }
  out["parents"] = std::move(parents);
  out["value_encoding"] =
      NullableEnumJson(card.value_encoding, JoinPointer(pointer, "value_encoding"));
  return out;
}

Json EncodeSchema(const Schema& schema) {
  Json specs = Json::array();
  for (size_t i = 0; i < schema.time_series_specs.size(); ++i) {
    const Spec& spec = schema.time_series_specs[i];
    std::string at = JoinPointer("/schema/time_series_specs", i);
    Json entry = Json::object();
    entry["spec_type"] = spec.spec_type;
    entry["name"] = spec.name;
    entry["unit_value"] = NullableString(spec.unit);
    entry["dtype"] = EnumJson(spec.dtype, JoinPointer(at, "dtype"));
    entry["categories"] = StringList(spec.categories);
    Json shape = Json::array();
    for (int64_t extent : spec.value_shape) shape.push_back(extent);
    entry["value_shape"] = std::move(shape);
    entry["dimension_names"] = StringList(spec.dimension_names);
    entry["nullable"] = spec.nullable;
    entry["modality"] = EnumJson(spec.modality, JoinPointer(at, "modality"));
    specs.push_back(std::move(entry));
  }
  Json annotations = Json::array();
  for (size_t i = 0; i < schema.annotations.size(); ++i) {
    const AnnotationDescriptor& descriptor = schema.annotations[i];
    std::string at = JoinPointer("/schema/annotations", i);
    Json entry = Json::object();
    entry["key"] = descriptor.key;
    entry["annotation_type"] =
        EnumJson(descriptor.annotation_type, JoinPointer(at, "annotation_type"));
    entry["value_type"] = NullableEnumJson(descriptor.value_type, JoinPointer(at, "value_type"));
    entry["unit"] = NullableString(descriptor.unit);
    entry["description"] = NullableString(descriptor.description);
    annotations.push_back(std::move(entry));
  }
  Json tasks = Json::array();
  for (size_t i = 0; i < schema.tasks.size(); ++i) {
    Json entry = Json::object();
    entry["task_type"] =
        EnumJson(schema.tasks[i], JoinPointer(JoinPointer("/schema/tasks", i), "task_type"));
    tasks.push_back(std::move(entry));
  }
  Json out = Json::object();
  out["time_series_specs"] = std::move(specs);
  out["annotations"] = std::move(annotations);
  out["tasks"] = std::move(tasks);
  return out;
}

Json IntMap(const std::map<std::string, int64_t>& values) {
  Json out = Json::object();
  for (const auto& [key, value] : values) out[key] = value;
  return out;
}

Json EncodeCounts(const Counts& counts) {
  Json out = Json::object();
  out["records"] = counts.records;
  out["sources"] = counts.sources;
  out["signals"] = counts.signals;
  out["axes"] = counts.axes;
  out["annotation_contents"] = counts.annotation_contents;
  out["annotation_occurrences"] = counts.annotation_occurrences;
  out["signal_chunks"] = counts.signal_chunks;
  out["tasks"] = IntMap(counts.tasks);
  out["signals_by_spec"] = IntMap(counts.signals_by_spec);
  return out;
}

Json EncodeFilePart(const FilePart& part) {
  Json out = Json::object();
  out["path"] = part.path;
  out["checksum"] = part.checksum;
  out["size"] = part.size;
  return out;
}

Json EncodeFileList(const std::vector<FilePart>& parts) {
  Json out = Json::array();
  for (const FilePart& part : parts) out.push_back(EncodeFilePart(part));
  return out;
}

Json EncodeBuildEnv(const BuildEnv& env) {
  Json out = Json::object();
  if (env.producer) {
    Json producer = Json::object();
    producer["name"] = env.producer->name;
    producer["version"] = env.producer->version;
    out["producer"] = std::move(producer);
  }
  if (env.compiler) out["compiler"] = *env.compiler;
  if (!env.libraries.empty()) {
    Json libraries = Json::object();
    for (const auto& [name, version] : env.libraries) libraries[name] = version;
    out["libraries"] = std::move(libraries);
  }
  if (env.upgraded_from) {
    Json upgraded = Json::object();
    upgraded["timef_format_version"] = env.upgraded_from->timef_format_version;
    upgraded["manifest_checksum"] = env.upgraded_from->manifest_checksum;
    out["upgraded_from"] = std::move(upgraded);
  }
  return out;
}

}  // namespace

Json EncodeManifest(const Manifest& m) {
  Json out = Json::object();
  out["timef_format_version"] = m.format_version;
  out["dataset_id"] = m.dataset_id;
  out["metadata"] = EncodeCard(m.metadata, "/metadata");
  out["schema"] = EncodeSchema(m.schema);
  out["counts"] = EncodeCounts(m.counts);
  Json files = Json::object();
  files["control"] = EncodeFilePart(m.files.control);
  files["time_series"] = EncodeFileList(m.files.time_series);
  files["payloads"] = EncodeFileList(m.files.payloads);
  out["files"] = std::move(files);
  out["values_backend"] = EnumJson(m.values_backend, "/values_backend");
  Json encodings = Json::object();
  for (const auto& [spec_type, encoding] : m.value_encoding) {
    encodings[spec_type] = EnumJson(encoding, JoinPointer("/value_encoding", spec_type));
  }
  out["value_encoding"] = std::move(encodings);
  out["build_env"] = EncodeBuildEnv(m.build_env);
  Json parent_cards = Json::object();
  for (const auto& [alias, card] : m.parent_cards) {
    parent_cards[alias] = EncodeCard(card, JoinPointer("/parent_cards", alias));
  }
  out["parent_cards"] = std::move(parent_cards);
  Json lineage = Json::object();
  for (const auto& [ref, card] : m.lineage) {
    lineage[ref] = EncodeCard(card, JoinPointer("/lineage", ref));
  }
  out["lineage"] = std::move(lineage);
  Json sources = Json::object();
  for (const auto& [ref, pins] : m.payload_sources) sources[ref] = EncodeFileList(pins);
  out["payload_sources"] = std::move(sources);
  return out;
}

}  // namespace timef::manifest::internal
