#include "reader/payload_files.h"

#include "timef/error.h"

namespace timef {

PayloadFiles::PayloadFiles(std::shared_ptr<const FileSources> files,
                           std::shared_ptr<parquet::DecodeBudget> decode_budget)
    : files_(std::move(files)), zarr_(std::move(decode_budget), files_), payloads_(files_) {}

model::ValueArray PayloadFiles::ReadZarr(
    const values::ChunkRef& chunk, const model::Spec& spec,
    const std::function<std::filesystem::path(const std::string&)>& resolve,
    const std::function<StoredFilePin(const std::string&)>& pin) {
  std::lock_guard lock(mutex_);
  const ChunkLocator& l = chunk.locator;
  return zarr_.Read(l.value_path, l.major, l.n_values, spec, [&](const std::string& relative) {
    std::filesystem::path file = resolve(relative);
    std::string key = l.payload_source.value_or("") + '\n' + relative;
    if (!zarr_checked_.contains(key)) {
      const StoredFilePin expected = pin(relative);
      const std::string got = files_->Checksum(file);
      if (got != expected.part.checksum) {
        throw FormatError({.file = file},
                          "sha256 " + got + " differs from the " + expected.part.checksum +
                              " that " + expected.release +
                              "'s manifest lists: the Zarr store is damaged (its inner chunks "
                              "carry no checksum of their own, docs/format.md §8.5)");
      }
      zarr_checked_.insert(std::move(key));
    }
    return file;
  });
}

std::string PayloadFiles::ReadText(const payload::TextRef& ref) {
  std::lock_guard lock(mutex_);
  if (const auto* hit = text_cache_.Find(ref.file, ref.locator.row, false)) return hit->front();
  std::string value = payloads_.ReadText(ref);
  text_cache_.Put(ref.file, ref.locator.row, false, {value});
  return value;
}

std::vector<std::string> PayloadFiles::ReadTextList(const payload::TextRef& ref) {
  std::lock_guard lock(mutex_);
  if (const auto* hit = text_cache_.Find(ref.file, ref.locator.row, true)) return *hit;
  std::vector<std::string> value = payloads_.ReadTextList(ref);
  text_cache_.Put(ref.file, ref.locator.row, true, value);
  return value;
}

std::vector<std::int64_t> PayloadFiles::ReadOffsets(const payload::OffsetsRef& ref) {
  std::lock_guard lock(mutex_);
  return payloads_.ReadOffsets(ref);
}

values::ZarrReaderStats PayloadFiles::zarr_stats() const {
  std::lock_guard lock(mutex_);
  return zarr_.stats();
}

payload::PayloadReaderStats PayloadFiles::payload_stats() const {
  std::lock_guard lock(mutex_);
  return payloads_.stats();
}

void PayloadFiles::Clear() {
  std::lock_guard lock(mutex_);
  zarr_.Clear();
  payloads_.Clear();
  text_cache_.Clear();
}

}  // namespace timef
