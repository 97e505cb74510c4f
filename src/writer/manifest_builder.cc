#include "writer/manifest_builder.h"

#include <zstd.h>

#include "timef/checksum.h"
#include "timef/duckdb_version.h"
#include "timef/version.h"

namespace timef::writer {

manifest::Schema ManifestSchema(const model::DerivedSchema& schema) {
  manifest::Schema out;
  for (const model::Spec& spec : schema.time_series_specs) {
    out.time_series_specs.push_back(
        manifest::TimeSeriesSpec{.spec_type = spec.spec_type,
                                 .name = spec.name,
                                 .unit_value = spec.unit,
                                 .dtype = static_cast<manifest::DType>(spec.dtype),
                                 .categories = spec.categories,
                                 .value_shape = spec.value_shape,
                                 .dimension_names = spec.dimension_names,
                                 .nullable = spec.nullable,
                                 .modality = static_cast<manifest::Modality>(spec.modality)});
  }
  for (const model::AnnotationDescriptor& d : schema.annotations) {
    std::optional<manifest::AnnotationValueType> value_type;
    if (d.value_type) value_type = static_cast<manifest::AnnotationValueType>(*d.value_type);
    out.annotations.push_back(manifest::AnnotationDescriptor{
        .key = d.key,
        .annotation_type = static_cast<manifest::AnnotationType>(d.annotation_type),
        .value_type = value_type,
        .unit = d.unit,
        .description = d.description});
  }
  for (model::TaskType type : schema.tasks) {
    out.tasks.push_back(static_cast<manifest::TaskType>(type));
  }
  return out;
}

manifest::Counts ManifestCounts(const catalog::AuditCounts& counts) {
  return manifest::Counts{.records = counts.records,
                          .sources = counts.sources,
                          .signals = counts.signals,
                          .axes = counts.axes,
                          .annotation_contents = counts.annotation_contents,
                          .annotation_occurrences = counts.annotation_occurrences,
                          .signal_chunks = counts.signal_chunks,
                          .tasks = counts.tasks,
                          .signals_by_spec = counts.signals_by_spec};
}

manifest::BuildEnv CurrentBuildEnv() {
  manifest::BuildEnv env;
  env.producer = manifest::Producer{"timef", kVersion};
#if defined(__clang__)
  env.compiler = std::string("clang++ ") + __clang_version__;
#elif defined(__GNUC__)
  env.compiler = std::string("g++ ") + __VERSION__;
#endif
  env.libraries["duckdb"] = LoadedDuckDBVersion();
  env.libraries["zstd"] = ZSTD_versionString();
  return env;
}

std::vector<manifest::FilePart> HashFiles(const std::filesystem::path& release_dir,
                                          const std::vector<std::string>& paths,
                                          const std::function<void(std::int64_t)>& hashed) {
  std::vector<manifest::FilePart> parts;
  std::int64_t done = 0;
  for (const std::string& path : paths) {
    const std::filesystem::path file = release_dir / path;
    manifest::FilePart part{path, FileChecksum(file),
                            static_cast<std::int64_t>(std::filesystem::file_size(file))};
    done += part.size;
    parts.push_back(std::move(part));
    if (hashed) hashed(done);
  }
  return parts;
}

}  // namespace timef::writer
