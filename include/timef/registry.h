// A registry root (docs/format.md §3.2): `<root>/<org>/<name>/<version>/` holds one committed
// release;
// `<version>.tmp-<32 hex>/` beside it is a writer's staging directory, never a release. A registry
// lists and resolves releases by reference and opens them with their payload sources found in the
// same root (docs/format.md §10.4).
//
// The registry is a view of the directory tree, re-read on every call: releases committed by
// other processes after Open() are seen, and nothing is cached that could go stale.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/ids.h"
#include "timef/manifest.h"
#include "timef/reader.h"

namespace timef {

// One committed release of a registry.
struct RegistryRelease {
  ReleaseRef ref;
  std::filesystem::path dir;
};

// A value holding only the root path: copyable, and safe to use from any number of threads (each
// call reads the directory tree again; what it opens is the caller's). Errors: FileError for a
// root or release directory that cannot be read, NotFoundError for a reference with no release,
// ValidationError for a malformed reference; Open()ed readers raise their own errors.
class Registry {
 public:
  // FileError naming `root` when it is not a directory.
  static Registry Open(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return root_; }

  // Every dataset ID with at least one committed version, sorted.
  std::vector<std::string> Datasets() const;
  // The committed versions of `dataset_id`, ascending (numerically, §2.1); empty when none.
  // ValidationError for an ID that breaks §2.1.
  std::vector<Version> Versions(std::string_view dataset_id) const;
  // The latest version (§3.1: the numerically highest committed one). NotFoundError when none.
  Version Latest(std::string_view dataset_id) const;

  // `org/name` (the latest version) or `org/name@x.y.z` (exactly that one) to a committed
  // release. ValidationError for text that is neither; NotFoundError naming the root and the ref
  // when the dataset or the version is not committed here.
  RegistryRelease Resolve(std::string_view ref) const;
  // Whether `text` has the shape of a ref (`org/name` or `org/name@x.y.z`); says nothing about
  // whether the release exists.
  static bool LooksLikeRef(std::string_view text);

  // The release's manifest, checked against its place (§3.1): FormatError naming the manifest
  // when its dataset_id or dataset_version differs from the directory names.
  manifest::Manifest ReadManifest(const RegistryRelease& release) const;

  // Opens the release (Resolve, then the directory check above, then Reader::Open) with its
  // payload sources found in this registry (`options.sources_root` is set to root()).
  Reader OpenRelease(std::string_view ref, ReaderOptions options = {}) const;

 private:
  explicit Registry(std::filesystem::path root) : root_(std::move(root)) {}
  std::filesystem::path root_;
};

// A staging directory that Gc found: removed, or (dry run) old enough to remove.
struct StaleStaging {
  std::filesystem::path dir;
  std::int64_t bytes = 0;
  std::chrono::seconds age{0};
};

// docs/format.md §3.3 DECIDE: stale staging directories are removed only by this explicit call (the
// `timef gc` command), never by a writer or a reader. Removes every `<root>/<org>/<name>/
// <version>.tmp-<32 hex>/` whose newest entry (the directory and everything below it) was
// modified more than `older_than` ago and whose writer is gone: Gc holds the writers' lock of
// `<org>/<name>/` (flock, taken by every writer of this library to create a staging directory and
// to publish) while it looks, and skips a staging directory whose own lock a live writer holds,
// however old its files. Other names are left alone. With `dry_run` nothing is removed. FileError
// naming the directory when a lock or a removal fails.
std::vector<StaleStaging> Gc(const std::filesystem::path& root,
                             std::chrono::seconds older_than = std::chrono::hours(24),
                             bool dry_run = false);

}  // namespace timef
