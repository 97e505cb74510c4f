#include "reader/locator_resolver.h"

#include <algorithm>
#include <tuple>

#include "timef/error.h"
#include "values/zarr_store.h"

namespace timef {
namespace fs = std::filesystem;

LocatorResolver::LocatorResolver(fs::path release_dir, const manifest::Manifest& manifest,
                                 ResolvedSources sources, std::optional<LegacyOrigin> legacy)
    : release_dir_(std::move(release_dir)),
      ref_(manifest.Ref()),
      legacy_(std::move(legacy)),
      sources_(std::move(sources)) {
  for (const auto& part : manifest.files.time_series) {
    own_values_.insert(part.path);
    own_parts_[part.path] = part;
  }
  for (const auto& part : manifest.files.payloads) {
    own_payloads_[part.path] = part.checksum;
    own_parts_[part.path] = part;
  }
}

fs::path LocatorResolver::Resolve(const std::optional<std::string>& payload_source,
                                  const std::string& path, StoredFile kind, bool missing_row,
                                  const std::string& what) const {
  const bool values_file = kind == StoredFile::kValues;
  const char* list = values_file ? "time_series" : "payloads";
  const ResolvedSource* source = nullptr;
  auto problem = [&]() -> std::string {
    if (payload_source) {
      auto it = sources_.find(*payload_source);
      if (it == sources_.end()) {
        return "payload_source '" + *payload_source +
               "' is not a key of the manifest's payload_sources";
      }
      source = &it->second;
    }
    if (values_file && missing_row) {
      return "the Parquet locator of '" + path + "' has no row index (chunk_minor_index)";
    }
    if (source != nullptr) {
      const auto& pinned = values_file ? source->values : source->payloads;
      if (pinned.contains(path)) return "";
      return "locator names '" + path + "' of " + source->ref +
             ", which the manifest does not pin (payload_sources, a files." + list +
             " entry of the source)";
    }
    if (values_file ? own_values_.contains(path) : own_payloads_.contains(path)) return "";
    return "locator names '" + path + "', which the manifest does not list in files." + list;
  }();
  if (!problem.empty()) {
    throw FormatError({.file = release_dir_ / manifest::kControlFileName, .where = what}, problem);
  }
  if (source != nullptr) return source->dir / path;
  return (values_file ? release_dir_ : metadata_dir()) / path;
}

fs::path LocatorResolver::ResolveFile(const ChunkLocator& locator, const std::string& what) const {
  if (locator.value_path.starts_with(values::zarr::kStorePrefix)) {
    // docs/format.md §8.6: a Zarr locator names an array; its zarr.json must be listed (or
    // pinned), and every other file is checked when the read needs it.
    if (locator.minor) {
      throw FormatError({.file = release_dir_ / manifest::kControlFileName, .where = what},
                        "the Zarr locator of '" + locator.value_path +
                            "' has a row index (chunk_minor_index must be NULL)");
    }
    return Resolve(locator.payload_source, locator.value_path + "/zarr.json", StoredFile::kValues,
                   false, what)
        .parent_path();
  }
  return Resolve(locator.payload_source, locator.value_path, StoredFile::kValues,
                 !locator.minor.has_value(), what);
}

fs::path LocatorResolver::ResolveChunkFile(const ChunkLocator& locator,
                                           const std::function<std::string()>& what) const {
  auto& by_source = resolved_chunks_[locator.minor.has_value() ? 1 : 0];
  {
    std::lock_guard lock(resolved_mutex_);
    if (auto source = by_source.find(locator.payload_source); source != by_source.end()) {
      if (auto hit = source->second.find(std::string_view(locator.value_path));
          hit != source->second.end()) {
        return hit->second;
      }
    }
  }
  fs::path file = ResolveFile(locator, what());
  std::lock_guard lock(resolved_mutex_);
  by_source[locator.payload_source].emplace(locator.value_path, file);
  return file;
}

fs::path LocatorResolver::ResolveFile(const OffsetsLocator& locator,
                                      const std::string& what) const {
  return Resolve(locator.payload_source, locator.path, StoredFile::kPayload, false, what);
}

fs::path LocatorResolver::ResolveFile(const TextLocator& locator, const std::string& what) const {
  return Resolve(locator.payload_source, locator.file, StoredFile::kPayload, false, what);
}

fs::path LocatorResolver::ResolveStoreFile(const std::optional<std::string>& payload_source,
                                           const std::string& path, const std::string& what) const {
  return Resolve(payload_source, path, StoredFile::kValues, false, what);
}

const std::string& LocatorResolver::PayloadChecksum(
    const std::optional<std::string>& payload_source, const std::string& path) const {
  static const std::string kNone;
  if (payload_source) {
    auto source = sources_.find(*payload_source);
    if (source == sources_.end()) return kNone;
    auto pin = source->second.payloads.find(path);
    return pin == source->second.payloads.end() ? kNone : pin->second.checksum;
  }
  auto it = own_payloads_.find(path);
  return it == own_payloads_.end() ? kNone : it->second;
}

std::string LocatorResolver::StoringRef(const std::optional<std::string>& payload_source) const {
  return payload_source ? *payload_source : ref_;
}

StoredFilePin LocatorResolver::PinOf(const std::optional<std::string>& payload_source,
                                     const std::string& path) const {
  // Resolve() accepted the locator before a handle was built, so the file is listed or pinned.
  if (payload_source) {
    const ResolvedSource& source = sources_.at(*payload_source);
    auto it = source.values.find(path);
    if (it == source.values.end()) it = source.payloads.find(path);
    return StoredFilePin{*payload_source, it->second};
  }
  return StoredFilePin{ref_, own_parts_.at(path)};
}

std::vector<ChunkLocator> LocatorResolver::StoredLocators(
    std::vector<ChunkLocator> locators) const {
  for (ChunkLocator& l : locators) l.payload_source = StoringRef(l.payload_source);
  return locators;
}

std::vector<StoredFilePin> LocatorResolver::PinsOf(
    const std::vector<ChunkLocator>& locators) const {
  std::vector<StoredFilePin> pins;
  const ChunkLocator* previous = nullptr;
  for (const ChunkLocator& l : locators) {
    // Chunks of one signal mostly share a file: skip repeats before sorting.
    if (previous && previous->payload_source == l.payload_source &&
        previous->value_path == l.value_path) {
      continue;
    }
    previous = &l;
    if (l.value_path.starts_with(values::zarr::kStorePrefix)) {
      // A Zarr array is pinned as every file of it and of its validity array (docs/format.md
      // §8.6): the files its storing release lists under those prefixes.
      const std::map<std::string, manifest::FilePart>& listed =
          l.payload_source ? sources_.at(*l.payload_source).values : own_parts_;
      const std::string release = StoringRef(l.payload_source);
      const std::string store(values::zarr::kStorePrefix);
      const std::string validity = values::zarr::ValidityPathOf(l.value_path) + "/";
      bool uses_validity = false;
      for (const std::string& prefix : {l.value_path + "/", validity}) {
        for (auto it = listed.lower_bound(prefix);
             it != listed.end() && it->first.starts_with(prefix); ++it) {
          pins.push_back(StoredFilePin{release, it->second});
          uses_validity |= prefix == validity;
        }
      }
      // And the groups above them (the §5.8 DECIDE: root, and _validity when used).
      for (const std::string& group : {store + "zarr.json", store + "_validity/zarr.json"}) {
        if (group.ends_with("_validity/zarr.json") && !uses_validity) continue;
        if (auto it = listed.find(group); it != listed.end()) {
          pins.push_back(StoredFilePin{release, it->second});
        }
      }
      continue;
    }
    pins.push_back(PinOf(l.payload_source, l.value_path));
  }
  auto key = [](const StoredFilePin& p) { return std::tie(p.release, p.part.path); };
  std::sort(pins.begin(), pins.end(),
            [&](const auto& a, const auto& b) { return key(a) < key(b); });
  pins.erase(std::unique(pins.begin(), pins.end(),
                         [&](const auto& a, const auto& b) { return key(a) == key(b); }),
             pins.end());
  return pins;
}

}  // namespace timef
