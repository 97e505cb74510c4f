// ListRemoteRegistry and ResolveRemoteRef (include/timef/remote.h, docs/remote.md "S3"): a
// registry root on S3 listed with ListObjectsV2, one "directory" level at a time.
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

// The names one level below `prefix` ("a/b/" → "c" for "a/b/c/").
std::vector<std::string> Children(remote::HttpClient& client, const Root& root,
                                  const std::string& prefix) {
  std::vector<std::string> out;
  for (const std::string& p :
       remote::ListObjectsV2(client, root.object.bucket, prefix, "/").prefixes) {
    if (!p.starts_with(prefix) || !p.ends_with('/')) continue;
    const std::string name = p.substr(prefix.size(), p.size() - prefix.size() - 1);
    if (!name.empty() && name.find('/') == std::string::npos) out.push_back(name);
  }
  return out;
}

// The committed versions of `dataset_id`, ascending.
std::vector<Version> Versions(remote::HttpClient& client, const Root& root,
                              const std::string& dataset_id) {
  const std::string prefix = root.prefix + dataset_id + "/";
  std::vector<Version> candidates;
  for (const std::string& name : Children(client, root, prefix)) {
    if (std::optional<Version> v = Version::TryParse(name); v && v->ToString() == name) {
      candidates.push_back(*v);
    }
  }
  std::sort(candidates.begin(), candidates.end());
  // Committed: manifest.json is there (a push writes it last). One listing of the dataset's
  // manifests would list every shard too; one exact-prefix listing per version lists one key.
  std::vector<Version> committed;
  for (const Version& v : candidates) {
    const std::string key = prefix + v.ToString() + "/" + std::string(manifest::kManifestFileName);
    for (const auto& o : remote::ListObjectsV2(client, root.object.bucket, key, "").objects) {
      if (o.key == key) {
        committed.push_back(v);
        break;
      }
    }
  }
  return committed;
}

std::string ReleaseUrl(const Root& root, const std::string& dataset_id, const Version& v) {
  return root.url.Join(dataset_id + "/" + v.ToString()).Full();
}

}  // namespace

std::vector<RemoteRegistryRelease> ListRemoteRegistry(std::string_view root_url) {
  const Root root = ParseRoot(root_url);
  remote::HttpClient client;
  std::vector<RemoteRegistryRelease> out;
  std::vector<std::string> orgs = Children(client, root, root.prefix);
  std::sort(orgs.begin(), orgs.end());
  std::vector<std::string> ids;
  for (const std::string& org : orgs) {
    for (const std::string& name : Children(client, root, root.prefix + org + "/")) {
      ids.push_back(org + "/" + name);
    }
  }
  std::sort(ids.begin(), ids.end());
  for (const std::string& id : ids) {
    for (const Version& v : Versions(client, root, id)) {
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
