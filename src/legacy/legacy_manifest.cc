#include "legacy/legacy_manifest.h"

#include "core/checksum.h"
#include "core/json_forms.h"
#include "core/paths.h"
#include "timef/error.h"

namespace timef::legacy {

namespace {

[[noreturn]] void Fail(const std::filesystem::path& path, const std::string& where,
                       const std::string& problem) {
  throw FormatError(ErrorSite{.file = path, .where = where}, problem);
}

std::vector<manifest::FilePart> Parts(const Json& files, const std::string& key,
                                      const std::filesystem::path& path) {
  std::vector<manifest::FilePart> out;
  const std::string at = "/files/" + key;
  if (!files.contains(key) || files[key].is_null()) return out;
  if (!files[key].is_array()) Fail(path, at, "expected a list of FileParts");
  for (std::size_t i = 0; i < files[key].size(); ++i) {
    const Json& part = files[key][i];
    const std::string pointer = at + "/" + std::to_string(i);
    if (!part.is_object() || !part.contains("path") || !part["path"].is_string() ||
        !part.contains("checksum") || !part["checksum"].is_string() || !part.contains("size") ||
        !part["size"].is_number_integer()) {
      Fail(path, pointer, "expected a FilePart {path, checksum, size}");
    }
    manifest::FilePart fp{part["path"].get<std::string>(), part["checksum"].get<std::string>(),
                          part["size"].get<std::int64_t>()};
    CheckRelativePath(pointer + "/path", fp.path);
    if (!IsValidChecksum(fp.checksum)) Fail(path, pointer + "/checksum", "invalid checksum");
    if (fp.size < 0) Fail(path, pointer + "/size", "negative size");
    out.push_back(std::move(fp));
  }
  return out;
}

}  // namespace

std::vector<manifest::FilePart> LegacyManifest::AllFiles() const {
  std::vector<manifest::FilePart> out;
  for (const auto* list : {&records, &annotations, &time_series_index, &tasks, &time_series}) {
    out.insert(out.end(), list->begin(), list->end());
  }
  return out;
}

bool IsLegacyManifest(const Json& document, const std::filesystem::path& path) {
  if (!document.is_object() || !document.contains("files") || !document["files"].is_object()) {
    return false;
  }
  const Json& files = document["files"];
  for (const auto& [key, value] : files.items()) {
    if (value.is_string()) {
      Fail(path, "/files/" + key, "unsupported legacy layout (single-file layout)");
    }
  }
  if (files.contains("control")) return false;
  if (files.contains("samples") && !files.contains("records")) {
    Fail(path, "/files/samples", "unsupported legacy layout (samples generation)");
  }
  return files.contains("records");
}

LegacyManifest ReadLegacyManifest(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / "manifest.json";
  return ParseLegacyManifest(manifest::ReadManifestBytes(path), path);
}

LegacyManifest ParseLegacyManifest(std::string_view bytes, const std::filesystem::path& path) {
  std::string problem;
  std::optional<Json> parsed = ParseJsonStrict(bytes, &problem);
  if (!parsed) Fail(path, "", "invalid JSON: " + problem);
  const Json& doc = *parsed;
  if (!IsLegacyManifest(doc, path)) Fail(path, "/files", "not a legacy manifest");
  LegacyManifest m;
  Sha256 hash;
  hash.Update(bytes);
  m.checksum = hash.Finish();
  if (!doc.contains("timef_format_version") || !doc["timef_format_version"].is_number_integer()) {
    Fail(path, "/timef_format_version", "missing or not an integer");
  }
  m.format_version = doc["timef_format_version"].get<std::int64_t>();
  if (m.format_version != 1 && m.format_version != 2) {
    Fail(path, "/timef_format_version",
         "unsupported legacy format version " + std::to_string(m.format_version));
  }
  if (doc.contains("dataset_id") && doc["dataset_id"].is_string()) {
    m.dataset_id = doc["dataset_id"].get<std::string>();
  }
  if (doc.contains("metadata") && doc["metadata"].is_object()) m.metadata = doc["metadata"];
  if (m.dataset_id.empty() && m.metadata.contains("dataset_id") &&
      m.metadata["dataset_id"].is_string()) {
    m.dataset_id = m.metadata["dataset_id"].get<std::string>();
  }
  if (m.dataset_id.empty()) Fail(path, "/dataset_id", "missing");
  if (doc.contains("schema") && doc["schema"].is_object()) m.schema = doc["schema"];
  if (doc.contains("values_backend") && !doc["values_backend"].is_null() &&
      doc["values_backend"] != "parquet") {
    Fail(path, "/values_backend",
         "unsupported legacy values backend " + doc["values_backend"].dump() +
             " (only parquet shards are read)");
  }
  if (doc.contains("id_encoding") && !doc["id_encoding"].is_null()) {
    if (!doc["id_encoding"].is_object()) Fail(path, "/id_encoding", "expected an object");
    m.has_id_encoding = true;
    for (const auto& [key, value] : doc["id_encoding"].items()) {
      if (value == "uuid16") {
        m.id_encoding[key] = IdStorage::kUuid16;
      } else if (value == "string") {
        m.id_encoding[key] = IdStorage::kString;
      } else {
        Fail(path, "/id_encoding/" + key, "expected \"uuid16\" or \"string\", got " + value.dump());
      }
    }
  }
  const Json& files = doc["files"];
  m.records = Parts(files, "records", path);
  m.annotations = Parts(files, "annotations", path);
  m.time_series_index = Parts(files, "time_series_index", path);
  m.tasks = Parts(files, "tasks", path);
  m.time_series = Parts(files, "time_series", path);
  if (m.records.empty()) Fail(path, "/files/records", "lists no part");
  return m;
}

std::uintmax_t ListedFileSize(const std::filesystem::path& file) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec == std::errc::no_such_file_or_directory) {
    throw MissingFileError(ErrorSite{.file = file}, "missing file listed in the legacy manifest");
  }
  if (ec) ThrowFileError(ErrorSite{.file = file}, "cannot read its size: " + ec.message(), ec);
  return size;
}

}  // namespace timef::legacy
