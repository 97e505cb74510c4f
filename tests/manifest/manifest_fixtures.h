// Manifests the manifest tests start from, and where the tests leave the manifests they produce
// (so the JSON Schema test can validate every one of them).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "timef/manifest.h"

namespace timef::testing {

// "sha256:" + the hash of `seed`: a well-formed checksum that differs per seed.
std::string FakeChecksum(std::string_view seed);

// The smallest valid manifest: one control file, every optional block at its default.
manifest::Manifest MinimalManifest();

// Every block filled: parents with their cards, lineage, payload sources, specs of several kinds,
// annotation descriptors, tasks, counts, build environment.
manifest::Manifest FullManifest();

// A Zarr-backed release (value_encoding stays {}).
manifest::Manifest ZarrManifest();

// $TIMEF_TEST_OUT/manifests (or a folder under the build tree when the variable is unset),
// created on first use.
std::filesystem::path ProducedManifestDir();

// Writes `bytes` to ProducedManifestDir()/<name>.json atomically (write, then rename), so a
// concurrently running schema check never sees half a file.
void RecordProducedManifest(std::string_view name, std::string_view bytes);

// The whole file as a string.
std::string ReadFileBytes(const std::filesystem::path& path);

}  // namespace timef::testing
