#include "manifest/check.h"

#include <map>
#include <set>

#include "core/checksum.h"
#include "core/paths.h"
#include "timef/ids.h"

namespace timef::manifest::internal {
namespace {

constexpr std::string_view kParquetShardPrefix = "time_series/part-";
constexpr std::string_view kParquetShardSuffix = ".parquet";
constexpr std::string_view kZarrPrefix = "time_series.zarr/";

// `time_series/part-NNNNNNNN.parquet`, the only values file name of the Parquet backend.
bool IsParquetShardPath(std::string_view path) {
  constexpr size_t kDigits = 8;
  if (path.size() != kParquetShardPrefix.size() + kDigits + kParquetShardSuffix.size() ||
      !path.starts_with(kParquetShardPrefix) || !path.ends_with(kParquetShardSuffix)) {
    return false;
  }
  std::string_view digits = path.substr(kParquetShardPrefix.size(), kDigits);
  return digits.find_first_not_of("0123456789") == std::string_view::npos;
}

void CheckFileList(const std::vector<FilePart>& parts, const std::string& pointer,
                   Problems& problems) {
  for (size_t i = 0; i < parts.size(); ++i) {
    CheckFilePart(parts[i], JoinPointer(pointer, i), problems);
  }
}

// Sorted by path and unique, as §5.6 and §5.9 keep these lists.
void CheckSortedByPath(const std::vector<FilePart>& parts, const std::string& pointer,
                       Problems& problems) {
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& previous = parts[i - 1].path;
    const std::string& current = parts[i].path;
    std::string at = JoinPointer(JoinPointer(pointer, i), "path");
    if (current == previous) {
      problems.Add(at, "duplicate path " + Quote(current));
    } else if (current < previous) {
      problems.Add(at, "not sorted by path (" + Quote(current) + " after " + Quote(previous) + ")");
    }
  }
}

void CheckCount(int64_t value, const std::string& pointer, Problems& problems) {
  if (value < 0) problems.Add(pointer, "count " + std::to_string(value) + " must be >= 0");
}

void CheckCountsValues(const Counts& counts, Problems& problems) {
  CheckCount(counts.records, "/counts/records", problems);
  CheckCount(counts.sources, "/counts/sources", problems);
  CheckCount(counts.signals, "/counts/signals", problems);
  CheckCount(counts.axes, "/counts/axes", problems);
  CheckCount(counts.annotation_contents, "/counts/annotation_contents", problems);
  CheckCount(counts.annotation_occurrences, "/counts/annotation_occurrences", problems);
  CheckCount(counts.signal_chunks, "/counts/signal_chunks", problems);
  for (const auto& [name, count] : counts.tasks) {
    if (!ParseTaskType(name)) problems.Add(JoinPointer("/counts/tasks", name), "unknown task_type");
    CheckCount(count, JoinPointer("/counts/tasks", name), problems);
  }
  for (const auto& [spec_type, count] : counts.signals_by_spec) {
    CheckCount(count, JoinPointer("/counts/signals_by_spec", spec_type), problems);
  }
}

void CheckCardMap(const std::map<std::string, Card>& cards, const std::string& pointer,
                  Problems& problems) {
  for (const auto& [key, card] : cards) CheckCardValues(card, JoinPointer(pointer, key), problems);
}

// Everything a JSON Schema can also say: patterns, ranges, required-if conditions.
void CheckValues(const Manifest& m, Problems& problems) {
  if (m.format_version != kManifestFormatVersion) {
    problems.Add("/timef_format_version", UnsupportedFormatVersion(m.format_version));
  }
  if (!IsValidDatasetId(m.dataset_id)) {
    problems.Add("/dataset_id",
                 "invalid dataset id " + Quote(m.dataset_id) + " (expected org/name)");
  }
  CheckCardValues(m.metadata, "/metadata", problems);
  CheckSchemaValues(m.schema, "/schema", problems);
  CheckCountsValues(m.counts, problems);
  CheckFilePart(m.files.control, "/files/control", problems);
  CheckFileList(m.files.time_series, "/files/time_series", problems);
  CheckFileList(m.files.payloads, "/files/payloads", problems);
  if (const auto& upgraded = m.build_env.upgraded_from) {
    if (!IsValidChecksum(upgraded->manifest_checksum)) {
      problems.Add("/build_env/upgraded_from/manifest_checksum",
                   "invalid checksum " + Quote(upgraded->manifest_checksum) +
                       " (expected sha256: and 64 lowercase hex digits)");
    }
  }
  for (const auto& [alias, card] : m.parent_cards) {
    if (!IsValidAlias(alias)) {
      problems.Add(JoinPointer("/parent_cards", alias),
                   "invalid alias " + Quote(alias) + " (expected ^[a-z][a-z0-9_-]*$)");
    }
  }
  CheckCardMap(m.parent_cards, "/parent_cards", problems);
  for (const auto& [ref, card] : m.lineage) {
    if (!ReleaseRef::TryParse(ref)) {
      problems.Add(JoinPointer("/lineage", ref),
                   "invalid release reference " + Quote(ref) + " (expected org/name@x.y.z)");
    }
  }
  CheckCardMap(m.lineage, "/lineage", problems);
  for (const auto& [ref, pins] : m.payload_sources) {
    std::string at = JoinPointer("/payload_sources", ref);
    if (!ReleaseRef::TryParse(ref)) {
      problems.Add(at, "invalid release reference " + Quote(ref) + " (expected org/name@x.y.z)");
    }
    if (pins.empty()) problems.Add(at, "a payload source pins at least one file");
    CheckFileList(pins, at, problems);
  }
}

void CheckFilesRules(const Manifest& m, Problems& problems) {
  const Files& files = m.files;
  if (files.control.path != kControlFileName) {
    problems.Add("/files/control/path", "expected '" + std::string(kControlFileName) + "', got " +
                                            Quote(files.control.path));
  }
  CheckSortedByPath(files.time_series, "/files/time_series", problems);
  CheckSortedByPath(files.payloads, "/files/payloads", problems);
  // A path appears at most once in the whole block (the lists' own duplicates are reported above).
  std::map<std::string_view, std::string> first_seen{{files.control.path, "/files/control"}};
  auto check_list = [&](const std::vector<FilePart>& parts, const std::string& pointer) {
    std::set<std::string_view> in_this_list;
    for (size_t i = 0; i < parts.size(); ++i) {
      std::string at = JoinPointer(pointer, i);
      if (!in_this_list.insert(parts[i].path).second) continue;
      auto [it, inserted] = first_seen.emplace(parts[i].path, at);
      if (!inserted) {
        problems.Add(JoinPointer(at, "path"),
                     "path " + Quote(parts[i].path) + " is already listed at " + it->second);
      }
    }
  };
  check_list(files.time_series, "/files/time_series");
  check_list(files.payloads, "/files/payloads");

  for (size_t i = 0; i < files.time_series.size(); ++i) {
    const std::string& path = files.time_series[i].path;
    bool agrees = m.values_backend == ValuesBackend::kParquet ? IsParquetShardPath(path)
                                                              : path.starts_with(kZarrPrefix);
    if (!agrees) {
      problems.Add(
          JoinPointer(JoinPointer("/files/time_series", i), "path"),
          "path " + Quote(path) + " does not belong to values_backend '" +
              std::string(ToString(m.values_backend)) + "' (expected " +
              (m.values_backend == ValuesBackend::kParquet ? "time_series/part-NNNNNNNN.parquet"
                                                           : "a path under time_series.zarr/") +
              ")");
    }
  }
}

void CheckProvenanceRules(const Manifest& m, Problems& problems) {
  const std::string own_ref = m.Ref();
  std::set<std::string> aliases;
  for (size_t i = 0; i < m.metadata.parents.size(); ++i) {
    const ParentRelease& parent = m.metadata.parents[i];
    aliases.insert(parent.alias);
    auto card = m.parent_cards.find(parent.alias);
    if (card == m.parent_cards.end()) {
      problems.Add("/parent_cards", "missing the card of parent alias " + Quote(parent.alias));
    } else {
      std::string at = JoinPointer("/parent_cards", parent.alias);
      if (card->second.dataset_id != parent.dataset_id) {
        problems.Add(JoinPointer(at, "dataset_id"),
                     "expected " + Quote(parent.dataset_id) + " (from /metadata/parents/" +
                         std::to_string(i) + "), got " + Quote(card->second.dataset_id));
      }
      if (card->second.dataset_version != parent.version) {
        problems.Add(JoinPointer(at, "dataset_version"),
                     "expected " + Quote(parent.version) + " (from /metadata/parents/" +
                         std::to_string(i) + "), got " + Quote(card->second.dataset_version));
      }
    }
    if (!m.lineage.contains(parent.Ref())) {
      problems.Add("/lineage", "missing the card of parent release " + Quote(parent.Ref()) +
                                   " (alias " + Quote(parent.alias) + ")");
    }
  }
  for (const auto& [alias, card] : m.parent_cards) {
    if (!aliases.contains(alias)) {
      problems.Add(JoinPointer("/parent_cards", alias),
                   "alias " + Quote(alias) + " is not in /metadata/parents");
    }
    CheckCardRules(card, JoinPointer("/parent_cards", alias), problems);
  }
  for (const auto& [ref, card] : m.lineage) {
    std::string at = JoinPointer("/lineage", ref);
    if (ref == own_ref) problems.Add(at, "lineage never holds this release's own reference");
    if (card.Ref() != ref) {
      problems.Add(at, "the card is of release " + Quote(card.Ref()) + ", not of its key");
    }
    CheckCardRules(card, at, problems);
  }
  for (const auto& [ref, pins] : m.payload_sources) {
    std::string at = JoinPointer("/payload_sources", ref);
    if (ref == own_ref) {
      problems.Add(at, "a release is never its own payload source (its files are in /files)");
    }
    CheckSortedByPath(pins, at, problems);
    for (size_t i = 0; i < pins.size(); ++i) {
      if (pins[i].path == kControlFileName) {
        problems.Add(JoinPointer(JoinPointer(at, i), "path"), "a pin never names a control file");
      }
    }
  }
}

void CheckSchemaReferences(const Manifest& m, Problems& problems) {
  std::set<std::string_view> spec_types;
  for (const auto& spec : m.schema.time_series_specs) spec_types.insert(spec.spec_type);
  std::set<std::string_view> task_types;
  for (TaskType type : m.schema.tasks) task_types.insert(ToString(type));

  if (m.values_backend == ValuesBackend::kZarr && !m.value_encoding.empty()) {
    problems.Add("/value_encoding", "must be {} with values_backend 'zarr'");
  }
  for (const auto& [spec_type, encoding] : m.value_encoding) {
    if (!spec_types.contains(spec_type)) {
      problems.Add(JoinPointer("/value_encoding", spec_type),
                   "spec_type " + Quote(spec_type) + " is not in /schema/time_series_specs");
    }
  }
  for (const auto& [task_type, count] : m.counts.tasks) {
    if (!task_types.contains(task_type)) {
      problems.Add(JoinPointer("/counts/tasks", task_type),
                   "task_type " + Quote(task_type) + " is not in /schema/tasks");
    }
  }
  for (const auto& [spec_type, count] : m.counts.signals_by_spec) {
    if (!spec_types.contains(spec_type)) {
      problems.Add(JoinPointer("/counts/signals_by_spec", spec_type),
                   "spec_type " + Quote(spec_type) + " is not in /schema/time_series_specs");
    }
  }
}

// §5.10 step 4.
void CheckRules(const Manifest& m, Problems& problems) {
  if (m.dataset_id != m.metadata.dataset_id) {
    problems.Add("/dataset_id", "expected " + Quote(m.metadata.dataset_id) +
                                    " (from /metadata/dataset_id), got " + Quote(m.dataset_id));
  }
  CheckCardRules(m.metadata, "/metadata", problems);
  CheckProvenanceRules(m, problems);
  CheckSchemaRules(m.schema, "/schema", problems);
  CheckFilesRules(m, problems);
  CheckSchemaReferences(m, problems);
}

}  // namespace

std::string UnsupportedFormatVersion(int64_t version) {
  return "unsupported format version " + std::to_string(version) + " (this reader supports " +
         std::to_string(kManifestFormatVersion) + ")";
}

void CheckFilePart(const FilePart& part, const std::string& pointer, Problems& problems) {
  if (std::string problem = RelativePathProblem(part.path); !problem.empty()) {
    problems.AddPath(JoinPointer(pointer, "path"), problem + " (path " + Quote(part.path) + ")");
  }
  if (!IsValidChecksum(part.checksum)) {
    problems.Add(JoinPointer(pointer, "checksum"),
                 "invalid checksum " + Quote(part.checksum) +
                     " (expected sha256: and 64 lowercase hex digits)");
  }
  if (part.size < 0) {
    problems.Add(JoinPointer(pointer, "size"),
                 "size " + std::to_string(part.size) + " must be >= 0");
  }
}

void CheckManifestModel(const Manifest& manifest, Problems& problems) {
  CheckValues(manifest, problems);
  // Cross-field rules compare values; on broken values they would only repeat the problem.
  if (problems.empty()) CheckRules(manifest, problems);
}

}  // namespace timef::manifest::internal
