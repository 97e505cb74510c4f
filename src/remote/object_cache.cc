#include "remote/object_cache.h"

#include <cstdlib>
#include <system_error>

#include "core/checksum.h"
#include "core/paths.h"
#include "remote/url.h"
#include "timef/error.h"

namespace timef::remote {
namespace fs = std::filesystem;

fs::path CachedObject(HttpClient& client, const std::string& url, const std::string& name,
                      std::uint64_t size, const std::string& checksum, const fs::path& cache_dir) {
  if (!IsValidChecksum(checksum)) {
    throw FormatError({.file = RedactedUrl(url), .where = "checksum"},
                      "the manifest's checksum '" + checksum + "' is not sha256:<64 hex>");
  }
  const fs::path dir = cache_dir / "objects" / checksum.substr(7);
  const fs::path file = dir / name;
  std::error_code ec;
  if (fs::is_regular_file(file, ec)) {
    if (fs::file_size(file, ec) == size && !ec && FileChecksum(file) == checksum) return file;
    fs::remove(file, ec);  // damaged: fetched again below
  }
  fs::create_directories(dir, ec);
  if (ec) throw FileError({.file = dir}, "cannot create the cache directory: " + ec.message(), ec);
  const fs::path part = ScratchPartOf(dir / name);
  const RemoveOnExit remove_part(part);
  Sha256 hash;
  client.Download(
      url, size, part, [&](std::span<const std::byte> bytes) { hash.Update(bytes); },
      [&] { hash = Sha256(); });
  const std::string got = hash.Finish();
  if (got != checksum) {
    throw FormatError({.file = RedactedUrl(url), .where = "checksum"},
                      "downloaded sha256 " + got + " differs from the manifest's " + checksum);
  }
  fs::rename(part, file, ec);
  if (ec)
    throw FileError({.file = file}, "cannot move the download into place: " + ec.message(), ec);
  return file;
}

}  // namespace timef::remote
