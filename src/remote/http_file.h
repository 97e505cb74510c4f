// Remote objects as RandomAccessFiles (parquet/file_io.h): what the Parquet engine, the payload
// reader and the Zarr reader read a remote release through, unchanged (docs/remote.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "parquet/file_io.h"
#include "remote/http_client.h"

namespace timef::remote {

// The object at `url` (a full URL), whose size the caller knows from a manifest: size() is never
// asked of the server, and every response is checked against it (HttpClient). Reads are safe from
// any thread; they share the client's connections. Errors: HttpClient's, naming the redacted URL.
class HttpFile final : public parquet::RandomAccessFile {
 public:
  HttpFile(std::shared_ptr<HttpClient> client, std::string url, std::uint64_t size);
  std::uint64_t size() const override { return size_; }
  const std::shared_ptr<HttpClient>& client() const { return client_; }

 protected:
  void DoReadAt(std::uint64_t offset, std::span<std::byte> out) const override;

 private:
  std::shared_ptr<HttpClient> client_;
  std::string url_;
  std::uint64_t size_;
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
