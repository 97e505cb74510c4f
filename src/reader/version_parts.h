// What a DatasetVersion holds (include/timef/dataset_version.h) for the Reader opened from it: the
// checked manifest, the resolved payload sources and, for a remote version, the HTTP(S) client
// and the byte-range transport its files are read through.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "parquet/file_io.h"
#include "reader/payload_sources.h"
#include "remote/http_client.h"
#include "timef/dataset_version.h"
#include "timef/manifest.h"

namespace timef {

struct DatasetVersion::Parts {
  std::filesystem::path location;  // directory, or URL without a trailing '/'
  manifest::Manifest manifest;
  ResolvedSources sources;
  std::optional<std::filesystem::path> sources_root;
  // Remote only: the connections shared by every reader of this version, and the transport that
  // opens its files (and its sources') by URL with the manifests' sizes. Null for a local version.
  std::shared_ptr<remote::HttpClient> client;
  std::shared_ptr<const parquet::FileOpener> transport;
};

}  // namespace timef
