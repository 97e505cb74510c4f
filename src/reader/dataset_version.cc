// DatasetVersion's accessors (include/timef/dataset_version.h). Opening is in open_verify.cc
// (a directory) and remote_open.cc (a URL).
#include "timef/dataset_version.h"

#include "reader/version_parts.h"

namespace timef {

const manifest::Manifest& DatasetVersion::manifest() const { return parts_->manifest; }

ReleaseRef DatasetVersion::ref() const { return ReleaseRef::Parse(parts_->manifest.Ref()); }

const std::filesystem::path& DatasetVersion::location() const { return parts_->location; }

bool DatasetVersion::remote() const { return parts_->client != nullptr; }

const std::optional<std::filesystem::path>& DatasetVersion::sources_root() const {
  return parts_->sources_root;
}

std::vector<DatasetVersion::PayloadSource> DatasetVersion::payload_sources() const {
  std::vector<PayloadSource> out;
  for (const auto& [ref, source] : parts_->sources) out.push_back({ref, source.dir});
  return out;
}

}  // namespace timef
