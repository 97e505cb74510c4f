#include "remote/http_file.h"

#include "remote/url.h"
#include "timef/error.h"

namespace timef::remote {

HttpFile::HttpFile(std::shared_ptr<HttpClient> client, std::string url, std::uint64_t size)
    : RandomAccessFile(RedactedUrl(url)),
      client_(std::move(client)),
      url_(std::move(url)),
      size_(size) {}

void HttpFile::DoReadAt(std::uint64_t offset, std::span<std::byte> out) const {
  if (out.empty()) return;
  HttpClient::Range range{offset, out};
  client_->ReadRanges(url_, size_, std::span<HttpClient::Range>(&range, 1));
}

HttpFileOpener::HttpFileOpener(std::shared_ptr<HttpClient> client,
                               std::map<std::string, std::uint64_t> sizes)
    : client_(std::move(client)), sizes_(std::move(sizes)) {}

std::shared_ptr<parquet::RandomAccessFile> HttpFileOpener::Open(
    const std::filesystem::path& file) const {
  const std::string name = file.string();
  if (!IsUrl(name)) return parquet::LocalFileOpener()->Open(file);
  auto it = sizes_.find(name);
  if (it == sizes_.end()) {
    throw FileError({.file = RedactedUrl(name)},
                    "no manifest lists this file's size (a remote file is read only with the size "
                    "its manifest records)");
  }
  return std::make_shared<HttpFile>(client_, name, it->second);
}

}  // namespace timef::remote
