// ListRemoteRegistry and ResolveRemoteRef (include/timef/remote.h, docs/remote.md "S3"): a
// registry root on S3 listed with ListObjectsV2.
#include <algorithm>
#include <map>

#include "remote/http_client.h"
#include "remote/s3.h"
#include "remote/url.h"
#include "timef/error.h"
#include "timef/manifest.h"
#include "timef/remote.h"

namespace timef {
namespace {

struct Root {
  remote::Url url;  // without a trailing '/'
  remote::S3Object object;
  std::string prefix;  // the root's key prefix with a trailing '/', or "" for the bucket
};

Root ParseRoot(std::string_view text) {
  if (!remote::IsS3Url(text)) {
    throw ValidationError({.object = "registry root", .where = remote::RedactedUrl(text)},
                          "listing a remote registry needs an s3:// root (a web server has no "
                          "listing: name a release's URL instead)");
  }
  Root root;
  root.url = remote::Url::Parse(text);
  if (!root.url.query.empty()) {
    throw ValidationError({.object = "registry root", .where = root.url.Redacted()},
                          "a registry root has no query");
  }
  while (root.url.path.size() > 1 && root.url.path.ends_with('/')) root.url.path.pop_back();
  root.object = remote::S3Object::FromUrl(root.url);
  root.prefix = root.object.key.empty() ? "" : root.object.key + "/";
  return root;
}

// The committed releases below `prefix` (the root's, or one dataset's): every key
// `<root prefix><org>/<name>/<version>/manifest.json` whose version is x.y.z, from one listing
// without a delimiter (every key below `prefix`, 1,000 a page). A listing by delimiter, a level at
// a time, would fetch fewer keys, but S3-compatible servers differ there (s3rver leaves out the
// common prefixes of keys more than one level down); a plain listing is answered alike by all.
std::map<std::string, std::vector<Version>> Committed(remote::HttpClient& client, const Root& root,
                                                      const std::string& prefix) {
  std::map<std::string, std::vector<Version>> out;
  const std::string manifest_name = "/" + std::string(manifest::kManifestFileName);
  for (const auto& o : remote::ListObjectsV2(client, root.object.bucket, prefix, "").objects) {
    if (!o.key.starts_with(root.prefix) || !o.key.ends_with(manifest_name)) continue;
    // <org>/<name>/<version>
    const std::string rest =
        o.key.substr(root.prefix.size(), o.key.size() - root.prefix.size() - manifest_name.size());
    const auto first = rest.find('/');
    const auto second = first == std::string::npos ? first : rest.find('/', first + 1);
    if (second == std::string::npos || rest.find('/', second + 1) != std::string::npos) continue;
    const std::string id = rest.substr(0, second);
    const std::string version = rest.substr(second + 1);
    const std::optional<Version> v = Version::TryParse(version);
    const std::optional<ReleaseRef> ref = ReleaseRef::TryParse(id + "@" + version);
    if (!v || v->ToString() != version || !ref || ref->dataset_id != id) continue;
    out[id].push_back(*v);
  }
  for (auto& [id, versions] : out) std::sort(versions.begin(), versions.end());
  return out;
}

// The committed versions of `dataset_id`, ascending.
std::vector<Version> Versions(remote::HttpClient& client, const Root& root,
                              const std::string& dataset_id) {
  auto committed = Committed(client, root, root.prefix + dataset_id + "/");
  return std::move(committed[dataset_id]);
}

std::string ReleaseUrl(const Root& root, const std::string& dataset_id, const Version& v) {
  return root.url.Join(dataset_id + "/" + v.ToString()).Full();
}

}  // namespace

std::vector<RemoteRegistryRelease> ListRemoteRegistry(std::string_view root_url) {
  const Root root = ParseRoot(root_url);
  remote::HttpClient client;
  std::vector<RemoteRegistryRelease> out;
  for (const auto& [id, versions] : Committed(client, root, root.prefix)) {
    for (const Version& v : versions) {
      out.push_back({.dataset_id = id, .version = v, .url = ReleaseUrl(root, id, v)});
    }
  }
  return out;
}

std::string ResolveRemoteRef(std::string_view root_url, std::string_view ref) {
  const Root root = ParseRoot(root_url);
  remote::HttpClient client;
  const auto at = ref.find('@');
  if (at != std::string_view::npos) {
    const ReleaseRef parsed = ReleaseRef::Parse(ref);
    const std::vector<Version> versions = Versions(client, root, parsed.dataset_id);
    if (std::find(versions.begin(), versions.end(), parsed.version) == versions.end()) {
      throw NotFoundError({.object = root.url.Redacted(), .where = std::string(ref)},
                          "no committed release " + std::string(ref) + " in this registry");
    }
    return ReleaseUrl(root, parsed.dataset_id, parsed.version);
  }
  // org/name: validated through the ref parser with a placeholder version.
  const std::string id = ReleaseRef::Parse(std::string(ref) + "@0.0.0").dataset_id;
  const std::vector<Version> versions = Versions(client, root, id);
  if (versions.empty()) {
    throw NotFoundError({.object = root.url.Redacted(), .where = std::string(ref)},
                        "no committed version of " + std::string(ref) + " in this registry");
  }
  return ReleaseUrl(root, id, versions.back());
}

}  // namespace timef
