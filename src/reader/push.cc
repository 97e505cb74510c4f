// PushRelease (include/timef/remote.h, docs/remote.md "Push"): a local release uploaded to S3
// through a temporary prefix, copied into place on the server, manifest.json last.
#include <atomic>
#include <exception>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "remote/http_client.h"
#include "remote/s3.h"
#include "remote/url.h"
#include "timef/error.h"
#include "timef/manifest.h"
#include "timef/remote.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

// Runs fn(i) for i in [0, n), `threads` at a time; the first exception stops the rest and is
// rethrown once all have stopped.
void ParallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& fn) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::exception_ptr error;
  auto work = [&] {
    while (!failed) {
      const std::size_t i = next++;
      if (i >= n) return;
      try {
        fn(i);
      } catch (...) {
        std::lock_guard guard(mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> workers;
  const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(threads), n);
  for (std::size_t t = 1; t < count; ++t) workers.emplace_back(work);
  work();
  for (auto& t : workers) t.join();
  if (error) std::rethrow_exception(error);
}

std::string RandomHex32() {
  std::random_device random;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 4; ++i) {
    std::uint32_t word = random();
    for (int j = 0; j < 8; ++j, word >>= 4) out += kHex[word & 15];
  }
  return out;
}

}  // namespace

PushResult PushRelease(const fs::path& release_dir, std::string_view url_text,
                       const PushOptions& options) {
  if (options.threads < 1 || options.threads > 64) {
    throw ValidationError({.object = "PushOptions", .where = "threads"},
                          "threads go from 1 to 64, got " + std::to_string(options.threads));
  }
  const fs::path manifest_path = release_dir / manifest::kManifestFileName;
  const std::string manifest_bytes = manifest::ReadManifestBytes(manifest_path);
  const manifest::Manifest m = manifest::ParseManifest(manifest_bytes, manifest_path);

  if (!remote::IsS3Url(url_text)) {
    throw ValidationError({.object = "URL", .where = remote::RedactedUrl(url_text)},
                          "push needs an s3://bucket/<prefix>/<org>/<name>/<version> URL");
  }
  remote::Url url = remote::Url::Parse(url_text);
  if (!url.query.empty()) {
    throw ValidationError({.object = "URL", .where = url.Redacted()}, "a push URL has no query");
  }
  while (url.path.size() > 1 && url.path.ends_with('/')) url.path.pop_back();
  const std::string expected_tail = "/" + m.dataset_id + "/" + m.metadata.dataset_version;
  if (!url.path.ends_with(expected_tail)) {
    throw ValidationError({.object = "URL", .where = url.Redacted()},
                          "a release goes to <root>" + expected_tail +
                              " (its manifest's dataset_id and dataset_version)");
  }
  const remote::Url parent = [&] {
    remote::Url p = url;
    p.path = url.path.substr(0, url.path.rfind('/'));
    if (p.path.empty()) p.path = "/";
    return p;
  }();
  const remote::Url staging = parent.Join(m.metadata.dataset_version + ".tmp-" + RandomHex32());

  remote::HttpClient client;
  const std::string final_manifest = url.Join(manifest::kManifestFileName).Full();
  const remote::S3Object target = remote::S3Object::FromUrl(url);
  const std::string manifest_key = target.key + "/" + std::string(manifest::kManifestFileName);
  for (const auto& object :
       remote::ListObjectsV2(client, target.bucket, manifest_key, "").objects) {
    if (object.key == manifest_key) {
      throw ValidationError({.object = "URL", .where = url.Redacted()},
                            "holds a release already (manifest.json exists): releases are "
                            "immutable, push a new version");
    }
  }

  std::vector<const manifest::FilePart*> parts{&m.files.control};
  for (const auto& p : m.files.time_series) parts.push_back(&p);
  for (const auto& p : m.files.payloads) parts.push_back(&p);
  std::vector<std::string> md5s(parts.size());
  std::vector<char> uploaded(parts.size(), 0);

  const auto step = [&](std::string_view name, std::string_view path) {
    if (options.on_step) options.on_step(name, path);
  };
  PushResult result{.url = url.Full(), .files = static_cast<std::int64_t>(parts.size())};
  std::mutex mutex;
  auto remove_staging = [&](bool all) {
    std::vector<std::string> left;
    std::mutex left_mutex;
    try {
      ParallelFor(parts.size(), options.threads, [&](std::size_t i) {
        if (!all && !uploaded[i]) return;
        const std::string object = staging.Join(parts[i]->path).Full();
        try {
          step("cleanup", parts[i]->path);
          client.DeleteObject(object);
        } catch (const std::exception&) {
          std::lock_guard guard(left_mutex);
          left.push_back(remote::RedactedUrl(object));
        }
      });
    } catch (const std::exception&) {
    }
    return left;
  };

  try {
    ParallelFor(parts.size(), options.threads, [&](std::size_t i) {
      const manifest::FilePart& part = *parts[i];
      const fs::path local = release_dir / part.path;
      const remote::ObjectDigests digests = remote::ObjectDigests::OfFile(local);
      if (static_cast<std::int64_t>(digests.size) != part.size ||
          "sha256:" + digests.sha256_hex != part.checksum) {
        throw FormatError({.file = local},
                          "differs from its manifest (" + std::to_string(digests.size) +
                              " bytes, sha256:" + digests.sha256_hex + "; the manifest lists " +
                              std::to_string(part.size) + " bytes, " + part.checksum +
                              "): nothing of it was pushed");
      }
      step("upload", part.path);
      client.PutObject(staging.Join(part.path).Full(), local, digests.size, digests);
      std::lock_guard guard(mutex);
      uploaded[i] = 1;
      md5s[i] = digests.md5_hex;
      result.bytes_uploaded += part.size;
    });
    ParallelFor(parts.size(), options.threads, [&](std::size_t i) {
      step("copy", parts[i]->path);
      client.CopyObject(staging.Join(parts[i]->path).Full(), url.Join(parts[i]->path).Full(),
                        md5s[i]);
    });
    step("manifest", std::string(manifest::kManifestFileName));
    client.PutObject(final_manifest, std::as_bytes(std::span(manifest_bytes)), true);
  } catch (...) {
    remove_staging(false);
    throw;
  }
  result.bytes_uploaded += static_cast<std::int64_t>(manifest_bytes.size());
  result.temporary_objects_left = remove_staging(true);
  return result;
}

}  // namespace timef
