// timef's HTTP(S) transport over libcurl (docs/remote.md): ranged GETs of immutable objects whose
// sizes the caller knows (from a manifest: no HEAD request is ever made), with connection reuse,
// coalescing of nearby ranges, concurrent fetches of independent ranges, bounded retries and
// timeouts, and whole-object downloads into a file.
//
// Every response is checked against what was asked: a 206 must carry the Content-Range of the
// range asked for and the object size the caller expects, and exactly that many body bytes; a 200
// (a server that ignores Range) is accepted only with exactly the object's size, from which the
// range is cut. A short or long body, a reset connection, a timeout, a 5xx or a 429 is retried
// with exponential backoff (a Retry-After header is honoured) until max_attempts or
// retry_budget is used up.
//
// Errors name the URL without its credentials and query string (remote::Url::Redacted) and the
// range: MissingFileError for a 404 or 410, FileError for everything else (the last cause in the
// message), FormatError when the server reports another size than the manifest's. A bearer token
// (options.bearer_token_env) is sent as "Authorization: Bearer …" only to the host of the URL
// (libcurl does not forward it across redirects to other hosts) and never appears in a message.
//
// Ownership and threading: an HttpClient is thread-safe and meant to be shared (shared_ptr) by
// every file of a release. It owns a libcurl share handle (DNS cache, TLS sessions, connection
// pool) and a pool of multi handles taken by one call at a time; connections are reused across
// calls and threads. A client used in a child of fork() (a DataLoader worker, say) makes the
// child a connection state of its own on first use: the parent's connections, locks and handles
// belong to the parent and its threads, so the child never touches them (nor frees them).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace timef::remote {

struct ObjectDigests;

struct HttpOptions {
  // Attempts per range (the first included) and the wall time all attempts of one call may take.
  int max_attempts = 5;
  std::chrono::milliseconds retry_budget{60000};
  // Backoff before retry k (k ≥ 1): first_backoff × 2^(k-1), at most max_backoff; a Retry-After
  // longer than what is left of retry_budget ends the retries.
  std::chrono::milliseconds first_backoff{200};
  std::chrono::milliseconds max_backoff{10000};
  std::chrono::milliseconds connect_timeout{10000};
  // One request may take at most this long; and it fails when it moves fewer than 1 byte per
  // second for stall_timeout.
  std::chrono::milliseconds request_timeout{120000};
  std::chrono::seconds stall_timeout{30};
  int max_redirects = 3;
  // Ranges of one call whose gap is at most this many bytes are fetched as one request.
  std::uint64_t coalesce_gap = 64 * 1024;
  // Requests in flight at once in one call.
  int max_parallel = 8;
  // The environment variable holding a bearer token ("" sends none).
  std::string bearer_token_env = "TIMEF_HTTP_TOKEN";
  // TLS peer and host verification (docs/remote.md: off only for tests against self-signed
  // servers; CURL_CA_BUNDLE works as usual).
  bool verify_tls = true;
};

struct HttpStats {
  std::uint64_t requests = 0;        // HTTP requests sent (retries included)
  std::uint64_t retries = 0;         // requests that were retries
  std::uint64_t bytes_received = 0;  // body bytes
};

class HttpClient {
 public:
  // One [offset, offset + out.size()) of an object, read into `out`.
  struct Range {
    std::uint64_t offset = 0;
    std::span<std::byte> out;
  };

  explicit HttpClient(HttpOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  const HttpOptions& options() const { return options_; }

  // Reads every range of the object at `url` whose size is `object_size`, concurrently (ranges
  // within coalesce_gap of each other in one request). `url` is a full URL (remote::Url::Full()).
  void ReadRanges(const std::string& url, std::uint64_t object_size, std::span<Range> ranges);
  // Downloads the whole object into `file` (created or truncated), calling `on_bytes` with each
  // piece received (e.g. to hash it; called again from the start after a retry restarts the
  // download, after `on_restart`). Checks that exactly `object_size` bytes arrived.
  void Download(const std::string& url, std::uint64_t object_size,
                const std::filesystem::path& file,
                const std::function<void(std::span<const std::byte>)>& on_bytes,
                const std::function<void()>& on_restart);

  // The whole object at `url`, whose size is not known in advance (a manifest): at most
  // `max_bytes` (FileError naming the URL when it is larger).
  std::vector<std::byte> Fetch(const std::string& url, std::uint64_t max_bytes);

  // S3 writes (s3:// URLs only, else ValidationError; docs/remote.md "Push"). Each is retried like
  // a read. A 401 or 403 is a FileError whose code() is std::errc::permission_denied.
  //
  // PUT of the `size` bytes of `file` (at most 5 GiB, a single PUT's limit), sent with Content-MD5
  // and the signed x-amz-content-sha256 of `digests` (so S3 refuses a body that differs), and
  // the ETag answered compared with the MD5: a FormatError when it differs or is missing.
  void PutObject(const std::string& url, const std::filesystem::path& file, std::uint64_t size,
                 const ObjectDigests& digests);
  // PUT of `bytes`, checked the same way; with `if_absent`, "If-None-Match: *" (a server that
  // honours it answers 412, a FileError, when the object exists).
  void PutObject(const std::string& url, std::span<const std::byte> bytes, bool if_absent);
  // Server-side copy (CopyObject) of `from` to `to` (both s3://), checked against the source's MD5
  // (hex): the ETag of the copy must equal it. A 200 whose body is an <Error> is retried.
  void CopyObject(const std::string& from, const std::string& to, const std::string& md5_hex);
  // DELETE of the object; one that does not exist is no error.
  void DeleteObject(const std::string& url);

  // What this process's calls have done (a child of fork() counts from zero).
  HttpStats stats() const;

 private:
  struct Impl;
  // The connection state of the calling process, made on its first call after a fork().
  Impl& Current() const;
  // What a PUT sends: `size` bytes read from the open file `fd`, or `bytes` when fd is -1.
  struct PutBody {
    int fd = -1;
    std::span<const std::byte> bytes;
    std::uint64_t size = 0;
  };
  // Both PutObject overloads: the PUT of `body` with the headers S3 checks it by, retried, and
  // its ETag compared with the MD5.
  void Put(const std::string& url, const PutBody& body, const ObjectDigests& digests,
           bool if_absent);

  HttpOptions options_;
  mutable std::mutex fork_mutex_;                     // guards impls_ when a child adds its own
  mutable std::vector<std::unique_ptr<Impl>> impls_;  // every state made; the current one last
  mutable std::atomic<Impl*> current_;
};

}  // namespace timef::remote
