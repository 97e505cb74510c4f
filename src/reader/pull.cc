// PullRelease (include/timef/remote.h, docs/remote.md "Pull").
#include <unistd.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "core/checksum.h"
#include "core/directory_lock.h"
#include "core/paths.h"
#include "reader/remote_release.h"
#include "remote/http_client.h"
#include "remote/url.h"
#include "timef/error.h"
#include "timef/manifest.h"
#include "timef/remote.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

std::string PullPartName(const fs::path& file) {
  std::random_device random;
  const std::uint64_t tag = (std::uint64_t{random()} << 32) | random();
  return file.filename().string() + "." + std::to_string(::getpid()) + "." + std::to_string(tag) +
         ".part";
}

// True when `file` holds exactly `part` (size, then sha256).
bool PulledFileMatches(const fs::path& file, const manifest::FilePart& part) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return false;
  if (static_cast<std::int64_t>(fs::file_size(file, ec)) != part.size || ec) return false;
  return FileChecksum(file) == part.checksum;
}

}  // namespace

PullResult PullRelease(std::string_view url_text, const fs::path& dir, const PullOptions& options) {
  if (options.threads < 1 || options.threads > 64) {
    throw ValidationError({.object = "PullOptions", .where = "threads"},
                          "threads go from 1 to 64, got " + std::to_string(options.threads));
  }
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    throw ValidationError({.file = dir}, "exists already; pull into a new directory");
  }
  remote::HttpClient client;
  const RemoteManifest fetched = FetchReleaseManifest(client, url_text);
  const remote::Url& url = fetched.url;
  const std::string_view manifest_text = fetched.bytes;
  const manifest::Manifest& m = fetched.manifest;

  fs::path staging = dir;
  staging += ".part";
  fs::create_directories(staging, ec);
  if (ec) throw FileError({.file = staging}, "cannot create: " + ec.message(), ec);
  const core::DirectoryLock lock = core::DirectoryLock::Exclusive(staging);
  if (fs::exists(dir, ec)) {
    throw ValidationError({.file = dir}, "exists already (another pull finished it)");
  }

  std::vector<const manifest::FilePart*> parts{&m.files.control};
  for (const auto& p : m.files.time_series) parts.push_back(&p);
  for (const auto& p : m.files.payloads) parts.push_back(&p);

  PullResult result{.release_dir = dir};
  std::vector<const manifest::FilePart*> todo;
  for (const manifest::FilePart* part : parts) {
    if (PulledFileMatches(staging / part->path, *part)) {
      ++result.files_kept;
    } else {
      todo.push_back(part);
    }
  }

  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;  // guards error and result's counters
  std::exception_ptr error;
  auto work = [&] {
    while (!failed) {
      const std::size_t i = next++;
      if (i >= todo.size()) return;
      const manifest::FilePart& part = *todo[i];
      try {
        const fs::path file = staging / part.path;
        fs::create_directories(file.parent_path());
        const fs::path partial = file.parent_path() / PullPartName(file);
        const RemoveOnExit remove_partial(partial);
        Sha256 hash;
        const std::string file_url = url.Join(part.path).Full();
        client.Download(
            file_url, static_cast<std::uint64_t>(part.size), partial,
            [&](std::span<const std::byte> bytes) { hash.Update(bytes); },
            [&] { hash = Sha256(); });
        const std::string got = hash.Finish();
        if (got != part.checksum) {
          throw FormatError(
              {.file = remote::RedactedUrl(file_url), .where = "checksum"},
              "downloaded sha256 " + got + " differs from the manifest's " + part.checksum);
        }
        fs::rename(partial, file);
        std::lock_guard guard(mutex);
        ++result.files_downloaded;
        result.bytes_downloaded += part.size;
      } catch (...) {
        std::lock_guard guard(mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> threads;
  const std::size_t n =
      std::min<std::size_t>(static_cast<std::size_t>(options.threads), todo.size());
  for (std::size_t t = 1; t < n; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);

  // manifest.json last, as fetched (its bytes are what the release's checksums were made for).
  const fs::path manifest_file = staging / manifest::kManifestFileName;
  const fs::path manifest_partial = staging / PullPartName(manifest_file);
  {
    std::FILE* out = std::fopen(manifest_partial.c_str(), "wbe");
    if (out == nullptr) throw FileError({.file = manifest_partial}, "cannot create");
    const bool written =
        std::fwrite(manifest_text.data(), 1, manifest_text.size(), out) == manifest_text.size();
    if (std::fclose(out) != 0 || !written) {
      throw FileError({.file = manifest_partial}, "cannot write");
    }
  }
  fs::rename(manifest_partial, manifest_file);
  fs::rename(staging, dir, ec);
  if (ec)
    throw FileError({.file = dir}, "cannot move the pulled release into place: " + ec.message(),
                    ec);
  return result;
}

}  // namespace timef
