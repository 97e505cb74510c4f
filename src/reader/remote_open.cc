// Reader::Open of a release URL (docs/remote.md): the manifest fetched and checked, payload
// sources resolved against the same remote root, every file read through the HTTP(S) transport
// with the manifest's sizes, and the catalog fetched into the verified local cache.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/paths.h"
#include "core/release_files.h"
#include "reader/payload_sources.h"
#include "reader/reader_state.h"
#include "reader/remote_release.h"
#include "reader/version_parts.h"
#include "remote/http_file.h"
#include "remote/object_cache.h"
#include "remote/url.h"
#include "timef/dataset_version.h"
#include "timef/error.h"
#include "timef/manifest.h"
#include "timef/reader.h"

namespace timef {
namespace fs = std::filesystem;

// A fetched manifest has the local limit (docs/format.md §3.1): a larger one is refused before it
// is parsed, as a local one is.
manifest::Manifest FetchManifest(remote::HttpClient& client, const std::string& manifest_url,
                                 std::string* bytes) {
  const std::vector<std::byte> body =
      client.Fetch(manifest_url, static_cast<std::uint64_t>(kMaxManifestBytes));
  const std::string_view text(reinterpret_cast<const char*>(body.data()), body.size());
  manifest::Manifest m = manifest::ParseManifest(text, remote::RedactedUrl(manifest_url));
  if (bytes != nullptr) bytes->assign(text);
  return m;
}

RemoteManifest FetchReleaseManifest(remote::HttpClient& client, std::string_view text) {
  remote::Url url = remote::Url::Parse(text);
  if (!url.userinfo.empty() || !url.query.empty()) {
    throw ValidationError({.object = "URL", .where = url.Redacted()},
                          "a release URL carries no credentials or query string (a bearer token "
                          "goes in $TIMEF_HTTP_TOKEN, docs/remote.md)");
  }
  while (url.path.size() > 1 && url.path.ends_with('/')) url.path.pop_back();
  RemoteManifest out{.url = url, .bytes = {}, .manifest = {}};
  out.manifest = FetchManifest(client, url.Join(manifest::kManifestFileName).Full(), &out.bytes);
  return out;
}

DatasetVersion OpenRemoteVersion(std::string_view text,
                                 const std::optional<fs::path>& sources_root) {
  auto client = std::make_shared<remote::HttpClient>();
  RemoteManifest fetched = FetchReleaseManifest(*client, text);
  const fs::path base(fetched.url.Full());
  const ManifestFetch fetch = [client](const fs::path& manifest_url) {
    return FetchManifest(*client, manifest_url.string());
  };
  auto parts = std::make_shared<DatasetVersion::Parts>();
  parts->location = base;
  parts->manifest = std::move(fetched.manifest);
  const manifest::Manifest& m = parts->manifest;
  parts->sources = ResolvePayloadSources(base, m, sources_root, fetch);
  if (!m.payload_sources.empty()) {
    parts->sources_root = sources_root ? sources_root : RegistryRootOf(base, m);
  }
  // Every size the readers may need: the own files and each source's pins, by the name
  // ReaderState resolves them to.
  std::map<std::string, std::uint64_t> sizes;
  auto add = [&](const fs::path& dir, const manifest::FilePart& part) {
    sizes[(dir / part.path).string()] = static_cast<std::uint64_t>(part.size);
  };
  add(base, m.files.control);
  for (const auto& part : m.files.time_series) add(base, part);
  for (const auto& part : m.files.payloads) add(base, part);
  for (const auto& [ref, source] : parts->sources) {
    for (const auto& pin : source.pins) add(source.dir, pin);
  }
  parts->transport = std::make_shared<remote::HttpFileOpener>(client, std::move(sizes));
  parts->client = std::move(client);
  return DatasetVersion(std::move(parts));
}

DatasetVersion OpenVersion(const fs::path& dir_or_url,
                           const std::optional<fs::path>& sources_root) {
  if (remote::IsUrl(dir_or_url.string()))
    return OpenRemoteVersion(dir_or_url.string(), sources_root);
  return OpenLocalVersion(dir_or_url, sources_root);
}

Reader Reader::Open(const DatasetVersion& version, const ReaderOptions& options) {
  const DatasetVersion::Parts& parts = version.parts();
  auto state = std::make_shared<ReaderState>(parts.location, parts.manifest, options, parts.sources,
                                             parts.transport);
  if (parts.client) {
    const manifest::FilePart control = parts.manifest.files.control;
    const fs::path cache_dir = options.cache_dir ? *options.cache_dir : DefaultCacheDir();
    const std::string control_url = (parts.location / control.path).string();
    state->catalog().set_catalog_file([client = parts.client, control_url, control, cache_dir] {
      return remote::CachedObject(*client, control_url, std::string(manifest::kControlFileName),
                                  static_cast<std::uint64_t>(control.size), control.checksum,
                                  cache_dir);
    });
  }
  return Reader(std::move(state));
}

}  // namespace timef
