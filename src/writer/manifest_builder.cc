#include "writer/manifest_builder.h"

#include <zstd.h>

#include "core/checksum.h"
#include "core/duckdb_version.h"
#include "timef/version.h"

namespace timef::writer {

manifest::Schema ManifestSchema(const model::DerivedSchema& schema) {
  manifest::Schema out;
  for (const model::Spec& spec : schema.time_series_specs) {
    out.time_series_specs.push_back(
        manifest::TimeSeriesSpec{.spec_type = spec.spec_type,
                                 .name = spec.name,
                                 .unit_value = spec.unit,
                                 .dtype = spec.dtype,
                                 .categories = spec.categories,
                                 .value_shape = spec.value_shape,
                                 .dimension_names = spec.dimension_names,
                                 .nullable = spec.nullable,
                                 .modality = spec.modality});
  }
  for (const model::AnnotationDescriptor& d : schema.annotations) {
    out.annotations.push_back(manifest::AnnotationDescriptor{.key = d.key,
                                                             .annotation_type = d.annotation_type,
                                                             .value_type = d.value_type,
                                                             .unit = d.unit,
                                                             .description = d.description});
  }
  out.tasks = schema.tasks;
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
