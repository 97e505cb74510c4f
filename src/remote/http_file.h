// Remote objects as RandomAccessFiles (parquet/file_io.h): what the Parquet engine, the payload
// reader and the Zarr reader read a remote release through, unchanged (docs/remote.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "parquet/file_io.h"
#include "remote/http_client.h"

namespace timef::remote {

// The object at `url` (a full URL), whose size the caller knows from a manifest: size() is never
// asked of the server, and every response is checked against it (HttpClient). Reads are safe from
// any thread; they share the client's connections. Errors: HttpClient's, naming the redacted URL.
//
// Prefetch: the ranges announced are merged where their gaps are at most the client's
// coalesce_gap and fetched in one ReadRanges call (concurrent, retried and checked like any read);
// while the hold it returns lives, a read that lies wholly inside one of the merged segments is
// copied from it without a request (any other read is a request of its own, as without a
// prefetch). One prefetch fetches at most kMaxPrefetchBytes (the segments in offset order up to
// it); the bytes are freed with the last hold, so the memory is what the prefetches in use hold
// (a reader's decode runs: one each). A prefetch that fails keeps nothing and raises the read
// error.
class HttpFile final : public parquet::RandomAccessFile {
 public:
  static constexpr std::uint64_t kMaxPrefetchBytes = std::uint64_t{32} << 20;

  HttpFile(std::shared_ptr<HttpClient> client, std::string url, std::uint64_t size);
  std::uint64_t size() const override { return size_; }
  const std::shared_ptr<HttpClient>& client() const { return client_; }
  bool prefetches() const override { return true; }

 protected:
  void DoReadAt(std::uint64_t offset, std::span<std::byte> out) const override;
  PrefetchHold DoPrefetch(std::span<const parquet::ByteRange> ranges) const override;

 private:
  // Bytes [offset, offset + bytes.size()) of the object, fetched by a prefetch.
  struct Segment {
    std::uint64_t offset = 0;
    std::vector<std::byte> bytes;
  };

  std::shared_ptr<HttpClient> client_;
  std::string url_;
  std::uint64_t size_;
  mutable std::mutex segments_mutex_;
  // The segments of the prefetches made, alive while a hold owns them (expired ones are dropped
  // at the next prefetch).
  mutable std::vector<std::weak_ptr<const Segment>> segments_;
};

// Opens the files of remote releases: a file is named by its URL (as a path: "https://host/a/b"),
// and its size comes from `sizes` (the manifests' records, by the same name). A name that is not
// an http(s) URL opens as a local file (memory-mapped), so a remote child can read payload sources
// that are local and the other way round. Thread-safe. FileError naming the redacted URL for a
// URL whose size no manifest gives (the reader never asks a server for a size).
class HttpFileOpener final : public parquet::FileOpener {
 public:
  HttpFileOpener(std::shared_ptr<HttpClient> client, std::map<std::string, std::uint64_t> sizes);
  std::shared_ptr<parquet::RandomAccessFile> Open(const std::filesystem::path& file) const override;

 private:
  std::shared_ptr<HttpClient> client_;
  std::map<std::string, std::uint64_t> sizes_;
};

}  // namespace timef::remote
