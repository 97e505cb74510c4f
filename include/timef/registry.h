// A registry root (docs/format.md §3.2): `<root>/<org>/<name>/<version>/` holds one committed
// release;
// `<version>.tmp-<32 hex>/` beside it is a writer's staging directory, never a release. A registry
// lists and resolves releases by reference and opens them with their payload sources found in the
// same root (docs/format.md §10.4).
//
// The root is a local directory or an http:// or https:// URL of the same tree served by a web
// server (docs/remote.md "Registries"). A local registry is a view of the directory tree, re-read
// on every call: releases committed by other processes after Open() are seen, and nothing is
// cached that could go stale. An HTTP(S) server offers no listing, so a URL registry lists nothing
// and resolves only exact refs `org/name@x.y.z` (the latest version needs a listing).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timef/dataset_version.h"
#include "timef/ids.h"
#include "timef/manifest.h"
#include "timef/reader.h"

namespace timef {

// One committed release of a registry.
struct RegistryRelease {
  ReleaseRef ref;
  std::filesystem::path dir;  // a directory, or the release's URL in a URL registry
};

// A value holding only the root path: copyable, and safe to use from any number of threads (each
// call reads the directory tree again; what it opens is the caller's). Errors: FileError for a
// root or release directory that cannot be read, NotFoundError for a reference with no release,
// ValidationError for a malformed reference; Open()ed readers raise their own errors.
class Registry {
 public:
  // FileError naming `root` when it is not a directory. An http:// or https:// URL opens a URL
  // registry without a request (ValidationError for a URL with credentials or a query string);
  // a trailing '/' is dropped.
  static Registry Open(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return root_; }
  // Whether the root is a URL.
  bool remote() const { return remote_; }

  // Every dataset ID with at least one committed version, sorted.
  std::vector<std::string> Datasets() const;
  // The committed versions of `dataset_id`, ascending (numerically, §2.1); empty when none.
  // ValidationError for an ID that breaks §2.1. In a URL registry, Datasets, Versions and Latest
  // raise ValidationError: there is no listing to read.
  std::vector<Version> Versions(std::string_view dataset_id) const;
  // The latest version (§3.1: the numerically highest committed one). NotFoundError when none.
  Version Latest(std::string_view dataset_id) const;

  // `org/name` (the latest version) or `org/name@x.y.z` (exactly that one) to a committed
  // release. ValidationError for text that is neither; NotFoundError naming the root and the ref
  // when the dataset or the version is not committed here. In a URL registry only an exact ref
  // resolves, to its URL, without a request (OpenVersion finds out whether it is there).
  RegistryRelease Resolve(std::string_view ref) const;
  // Whether `text` has the shape of a ref (`org/name` or `org/name@x.y.z`); says nothing about
  // whether the release exists.
  static bool LooksLikeRef(std::string_view text);

  // The release's manifest, checked against its place (§3.1): FormatError naming the manifest
  // when its dataset_id or dataset_version differs from the directory names.
  manifest::Manifest ReadManifest(const RegistryRelease& release) const;

  // Opens the version `ref` names (include/timef/dataset_version.h: the checks of opening, no
  // values read) with its payload sources found in this registry, and checks the manifest
  // against its place (FormatError, as ReadManifest). NotFoundError when the release is not
  // here (in a URL registry: its manifest.json answers 404); the other errors of OpenVersion.
  DatasetVersion OpenVersion(std::string_view ref) const;

  // Reader::Open(OpenVersion(ref), options).
  Reader OpenRelease(std::string_view ref, ReaderOptions options = {}) const;

 private:
  Registry(std::filesystem::path root, bool remote) : root_(std::move(root)), remote_(remote) {}
  // ValidationError naming `what` for a URL registry (no listing). The one place a remote lister
  // (an object store's ListObjectsV2) would answer instead.
  void RequireListing(std::string_view what) const;
  std::filesystem::path root_;
  bool remote_ = false;
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
