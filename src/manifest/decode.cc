#include "manifest/decode.h"

#include "manifest/check.h"
#include "manifest/json_fields.h"

namespace timef::manifest::internal {
namespace {

// Calls `decode(key, value, pointer)` for each member of the optional object `key`.
template <typename Decode>
void ForEachMember(Fields& fields, std::string_view key, Decode decode) {
  const Json* map = fields.Find(key);
  if (map == nullptr) return;
  std::string map_pointer = fields.PointerOf(key);
  if (!ExpectObject(*map, map_pointer, fields.problems())) return;
  for (const auto& [name, value] : map->items())
    decode(name, value, JoinPointer(map_pointer, name));
}

std::vector<FilePart> DecodeFileList(const Json& value, const std::string& pointer,
                                     Problems& problems) {
  std::vector<FilePart> parts;
  if (!ExpectArray(value, pointer, problems)) return parts;
  for (size_t i = 0; i < value.size(); ++i) {
    parts.push_back(DecodeFilePart(value[i], JoinPointer(pointer, i), problems));
  }
  return parts;
}

Counts DecodeCounts(const Json& value, const std::string& pointer, Problems& problems) {
  Counts counts;
  if (!ExpectObject(value, pointer, problems)) return counts;
  Fields fields(value, pointer, problems);
  fields.RejectUnknown({"records", "sources", "signals", "axes", "annotation_contents",
                        "annotation_occurrences", "signal_chunks", "tasks", "signals_by_spec"});
  fields.Int("records", false, &counts.records);
  fields.Int("sources", false, &counts.sources);
  fields.Int("signals", false, &counts.signals);
  fields.Int("axes", false, &counts.axes);
  fields.Int("annotation_contents", false, &counts.annotation_contents);
  fields.Int("annotation_occurrences", false, &counts.annotation_occurrences);
  fields.Int("signal_chunks", false, &counts.signal_chunks);
  ForEachMember(fields, "tasks",
                [&](const std::string& name, const Json& count, const std::string& at) {
                  if (!ParseTaskType(name)) {
                    problems.Add(at, "unknown task_type " + Quote(name));
                    return;
                  }
                  int64_t number = 0;
                  if (ReadInt(count, at, problems, &number)) counts.tasks[name] = number;
                });
  ForEachMember(fields, "signals_by_spec",
                [&](const std::string& name, const Json& count, const std::string& at) {
                  int64_t number = 0;
                  if (ReadInt(count, at, problems, &number)) counts.signals_by_spec[name] = number;
                });
  return counts;
}

Files DecodeFiles(const Json& value, const std::string& pointer, Problems& problems) {
  Files files;
  if (!ExpectObject(value, pointer, problems)) return files;
  Fields fields(value, pointer, problems);
  fields.RejectUnknown({"control", "time_series", "payloads"});
  if (const Json* control = fields.Require("control")) {
    files.control = DecodeFilePart(*control, fields.PointerOf("control"), problems);
  }
  if (const Json* list = fields.Find("time_series")) {
    files.time_series = DecodeFileList(*list, fields.PointerOf("time_series"), problems);
  }
  if (const Json* list = fields.Find("payloads")) {
    files.payloads = DecodeFileList(*list, fields.PointerOf("payloads"), problems);
  }
  return files;
}

BuildEnv DecodeBuildEnv(const Json& value, const std::string& pointer, Problems& problems) {
  BuildEnv env;
  if (!ExpectObject(value, pointer, problems)) return env;
  Fields fields(value, pointer, problems);
  fields.RejectUnknown({"producer", "compiler", "libraries", "upgraded_from"});
  if (const Json* producer = fields.Find("producer")) {
    std::string at = fields.PointerOf("producer");
    if (ExpectObject(*producer, at, problems)) {
      Fields producer_fields(*producer, at, problems);
      producer_fields.RejectUnknown({"name", "version"});
      Producer decoded;
      producer_fields.String("name", true, &decoded.name);
      producer_fields.String("version", true, &decoded.version);
      env.producer = decoded;
    }
  }
  if (const Json* compiler = fields.Find("compiler")) {
    std::string text;
    if (ReadString(*compiler, fields.PointerOf("compiler"), problems, &text)) env.compiler = text;
  }
  ForEachMember(fields, "libraries",
                [&](const std::string& name, const Json& version, const std::string& at) {
                  std::string text;
                  if (ReadString(version, at, problems, &text)) env.libraries[name] = text;
                });
  if (const Json* upgraded = fields.Find("upgraded_from"); upgraded && !upgraded->is_null()) {
    std::string at = fields.PointerOf("upgraded_from");
    if (ExpectObject(*upgraded, at, problems)) {
      Fields upgraded_fields(*upgraded, at, problems);
      upgraded_fields.RejectUnknown({"timef_format_version", "manifest_checksum"});
      UpgradedFrom decoded;
      upgraded_fields.Int("timef_format_version", true, &decoded.timef_format_version);
      upgraded_fields.String("manifest_checksum", true, &decoded.manifest_checksum);
      env.upgraded_from = decoded;
    }
  }
  return env;
}

}  // namespace

FilePart DecodeFilePart(const Json& value, const std::string& pointer, Problems& problems) {
  FilePart part;
  if (!ExpectObject(value, pointer, problems)) return part;
  Fields fields(value, pointer, problems);
  fields.RejectUnknown({"path", "checksum", "size"});
  fields.String("path", true, &part.path);
  fields.String("checksum", true, &part.checksum);
  fields.Int("size", true, &part.size);
  return part;
}

Manifest DecodeManifest(const Json& document, Problems& problems) {
  Manifest manifest;
  if (!ExpectObject(document, "", problems)) return manifest;
  Fields fields(document, "", problems);
  // Another format version has other shape rules: judging it by these would only mislead.
  if (const Json* version = fields.Find("timef_format_version")) {
    int64_t number = 0;
    Problems ignored;
    if (ReadInt(*version, "/timef_format_version", ignored, &number) &&
        number != kManifestFormatVersion) {
      problems.Add("/timef_format_version", UnsupportedFormatVersion(number));
      return manifest;
    }
  }
  fields.RejectUnknown({"timef_format_version", "dataset_id", "metadata", "schema", "counts",
                        "files", "values_backend", "value_encoding", "build_env", "parent_cards",
                        "lineage", "payload_sources"});
  fields.Int("timef_format_version", true, &manifest.format_version);
  fields.String("dataset_id", true, &manifest.dataset_id);
  if (const Json* metadata = fields.Require("metadata")) {
    manifest.metadata = DecodeCard(*metadata, "/metadata", problems);
  }
  if (const Json* schema = fields.Find("schema")) {
    manifest.schema = DecodeSchema(*schema, "/schema", problems);
  }
  if (const Json* counts = fields.Find("counts")) {
    manifest.counts = DecodeCounts(*counts, "/counts", problems);
  }
  if (const Json* files = fields.Require("files")) {
    manifest.files = DecodeFiles(*files, "/files", problems);
  }
  fields.Enum("values_backend", false, "values_backend", &manifest.values_backend);
  ForEachMember(fields, "value_encoding",
                [&](const std::string& spec_type, const Json& value, const std::string& at) {
                  ValueEncoding encoding{};
                  if (ReadEnum(value, at, problems, "value_encoding", &encoding)) {
                    manifest.value_encoding[spec_type] = encoding;
                  }
                });
  if (const Json* env = fields.Find("build_env")) {
    manifest.build_env = DecodeBuildEnv(*env, "/build_env", problems);
  }
  ForEachMember(fields, "parent_cards",
                [&](const std::string& alias, const Json& value, const std::string& at) {
                  manifest.parent_cards[alias] = DecodeCard(value, at, problems);
                });
  ForEachMember(fields, "lineage",
                [&](const std::string& ref, const Json& value, const std::string& at) {
                  manifest.lineage[ref] = DecodeCard(value, at, problems);
                });
  ForEachMember(fields, "payload_sources",
                [&](const std::string& ref, const Json& value, const std::string& at) {
                  manifest.payload_sources[ref] = DecodeFileList(value, at, problems);
                });
  return manifest;
}

}  // namespace timef::manifest::internal
