// What opening and pulling a release by URL share (docs/remote.md): the release URL checked and
// its manifest fetched and parsed.
#pragma once

#include <string>
#include <string_view>

#include "remote/http_client.h"
#include "remote/url.h"
#include "timef/manifest.h"

namespace timef {

struct RemoteManifest {
  remote::Url url;    // the release's URL, without a trailing '/'
  std::string bytes;  // manifest.json as fetched
  manifest::Manifest manifest;
};

// ValidationError for a URL with credentials or a query string (a token goes in
// $TIMEF_HTTP_TOKEN); the transport's errors naming URL/manifest.json; ManifestError.
RemoteManifest FetchReleaseManifest(remote::HttpClient& client, std::string_view url);

// A manifest fetched from `manifest_url` (at most 256 MiB), parsed.
manifest::Manifest FetchManifest(remote::HttpClient& client, const std::string& manifest_url,
                                 std::string* bytes = nullptr);

}  // namespace timef
