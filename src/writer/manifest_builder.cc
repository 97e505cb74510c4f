#include "writer/manifest_builder.h"

#include <zstd.h>

#include "core/checksum.h"
#include "core/duckdb_version.h"
#include "timef/version.h"

namespace timef::writer {

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
