// The download cache of remote releases (docs/remote.md "Cache"): whole objects, each kept under
// its manifest checksum, verified by sha256 as they arrive and again before they are used.
//
// Concurrency: several processes (DataLoader workers, ranks on one node) may share one cache. A
// download goes to a file of its own (`<name>.<pid>.<n>.part`) and is renamed into place only when
// its size and sha256 match, so a reader never sees a partial or damaged copy, and two processes
// fetching the same object both end with the one verified file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "remote/http_client.h"

namespace timef::remote {

// The local copy of the object at `url` (a full URL) whose manifest records `size` bytes and
// `checksum` ("sha256:<hex>"): `<cache_dir>/objects/<hex>/<name>` (cache_dir: DefaultCacheDir() of
// core/paths.h). A copy already there is hashed and used when it matches (a damaged one is removed
// and fetched again); a missing one is downloaded. FormatError naming the redacted URL when the
// download does not match the manifest; HttpClient's errors; FileError for a cache that cannot be
// written.
std::filesystem::path CachedObject(HttpClient& client, const std::string& url,
                                   const std::string& name, std::uint64_t size,
                                   const std::string& checksum,
                                   const std::filesystem::path& cache_dir);

}  // namespace timef::remote
