#include "remote/http_file.h"

#include <algorithm>
#include <cstring>

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
  std::shared_ptr<const Segment> hit;
  {
    std::lock_guard lock(segments_mutex_);
    for (auto it = segments_.rbegin(); it != segments_.rend(); ++it) {
      std::shared_ptr<const Segment> segment = it->lock();
      if (segment && offset >= segment->offset &&
          offset - segment->offset <= segment->bytes.size() &&
          out.size() <= segment->bytes.size() - (offset - segment->offset)) {
        hit = std::move(segment);
        break;
      }
    }
  }
  if (hit) {
    // Copied outside the lock: a segment is never changed once kept, and `hit` keeps it alive.
    std::memcpy(out.data(), hit->bytes.data() + (offset - hit->offset), out.size());
    return;
  }
  HttpClient::Range range{offset, out};
  client_->ReadRanges(url_, size_, std::span<HttpClient::Range>(&range, 1));
}

parquet::RandomAccessFile::PrefetchHold HttpFile::DoPrefetch(
    std::span<const parquet::ByteRange> ranges) const {
  std::vector<parquet::ByteRange> sorted;
  sorted.reserve(ranges.size());
  for (const parquet::ByteRange& range : ranges) {
    if (range.length > 0) sorted.push_back(range);
  }
  std::sort(
      sorted.begin(), sorted.end(),
      [](const parquet::ByteRange& a, const parquet::ByteRange& b) { return a.offset < b.offset; });
  // Merged as ReadRanges would coalesce them, so that each segment is one request and a read of
  // any announced range lies inside one segment.
  std::vector<parquet::ByteRange> merged;
  const std::uint64_t gap = client_->options().coalesce_gap;
  for (const parquet::ByteRange& range : sorted) {
    if (!merged.empty() && range.offset <= merged.back().offset + merged.back().length + gap) {
      parquet::ByteRange& last = merged.back();
      last.length = std::max(last.offset + last.length, range.offset + range.length) - last.offset;
    } else {
      merged.push_back(range);
    }
  }
  auto fetched = std::make_shared<std::vector<std::shared_ptr<const Segment>>>();
  std::vector<HttpClient::Range> requests;
  std::uint64_t total = 0;
  for (const parquet::ByteRange& range : merged) {
    if (range.length > kMaxPrefetchBytes - total) break;
    total += range.length;
    auto segment = std::make_shared<Segment>();
    segment->offset = range.offset;
    segment->bytes.resize(static_cast<std::size_t>(range.length));
    requests.push_back(HttpClient::Range{range.offset, segment->bytes});
    fetched->push_back(std::move(segment));
  }
  if (requests.empty()) return nullptr;
  client_->ReadRanges(url_, size_, requests);
  std::lock_guard lock(segments_mutex_);
  std::erase_if(segments_, [](const std::weak_ptr<const Segment>& s) { return s.expired(); });
  for (const auto& segment : *fetched) segments_.push_back(segment);
  return fetched;
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
