#include "reader/payload_sources.h"

#include <algorithm>
#include <system_error>

#include "core/release_files.h"
#include "remote/url.h"
#include "timef/error.h"
#include "timef/ids.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

std::string Quoted(const manifest::FilePart& p) {
  return "{" + p.path + ", " + p.checksum + ", " + std::to_string(p.size) + "}";
}

// The pin's FilePart in `list`, or null.
const manifest::FilePart* Find(const std::vector<manifest::FilePart>& list,
                               const std::string& path) {
  for (const manifest::FilePart& part : list) {
    if (part.path == path) return &part;
  }
  return nullptr;
}

}  // namespace

std::optional<fs::path> RegistryRootOf(const fs::path& release_dir, const manifest::Manifest& m) {
  if (remote::IsUrl(release_dir.string())) {
    // A URL: its path's last three segments (fs::path would fold the scheme's "//").
    std::string url = release_dir.string();
    while (url.ends_with('/')) url.pop_back();
    const std::string suffix = "/" + m.dataset_id + "/" + m.metadata.dataset_version;
    if (!url.ends_with(suffix)) return std::nullopt;
    return fs::path(url.substr(0, url.size() - suffix.size()));
  }
  fs::path dir = fs::absolute(release_dir).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // a trailing '/'
  const fs::path version = dir.filename();
  const fs::path name = dir.parent_path().filename();
  const fs::path org = dir.parent_path().parent_path().filename();
  if (version.string() != m.metadata.dataset_version ||
      org.string() + "/" + name.string() != m.dataset_id) {
    return std::nullopt;
  }
  return dir.parent_path().parent_path().parent_path();
}

ResolvedSources ResolvePayloadSources(const fs::path& release_dir, const manifest::Manifest& m,
                                      const std::optional<fs::path>& sources_root,
                                      const ManifestFetch& fetch) {
  ResolvedSources out;
  if (m.payload_sources.empty()) return out;
  const fs::path own_manifest = release_dir / manifest::kManifestFileName;
  std::optional<fs::path> root = sources_root;
  if (!root) root = RegistryRootOf(release_dir, m);
  if (!root) {
    throw ValidationError({.file = own_manifest, .where = "/payload_sources"},
                          "the release has payload sources but does not sit at <root>/" +
                              m.dataset_id + "/" + m.metadata.dataset_version +
                              "; pass sources_root (timef: --root) to find them");
  }
  for (const auto& [ref_text, pins] : m.payload_sources) {
    const ReleaseRef ref = ReleaseRef::Parse(ref_text, "payload_sources");
    ResolvedSource source{.ref = ref_text, .dir = *root / ref.dataset_id / ref.version.ToString()};
    const fs::path source_manifest_file = source.dir / manifest::kManifestFileName;
    const bool remote = remote::IsUrl(source.dir.string());
    if (remote && !fetch) {
      throw ValidationError({.file = own_manifest, .where = "/payload_sources/" + ref_text},
                            "payload source " + ref_text + " is remote (" +
                                remote::RedactedUrl(source.dir.string()) +
                                "); open the release through its URL");
    }
    std::error_code ec;
    if (!remote && !fs::is_directory(source.dir, ec)) {
      throw MissingFileError({.file = source.dir},
                             "payload source " + ref_text + " of " + own_manifest.string() +
                                 " is missing (sources root " + root->string() + ")");
    }
    const manifest::Manifest source_manifest =
        remote ? fetch(source_manifest_file) : manifest::ReadManifest(source_manifest_file);
    source.pins = pins;
    std::sort(source.pins.begin(), source.pins.end(),
              [](const auto& a, const auto& b) { return a.path < b.path; });
    for (const manifest::FilePart& pin : source.pins) {
      const manifest::FilePart* values = Find(source_manifest.files.time_series, pin.path);
      const manifest::FilePart* payload = Find(source_manifest.files.payloads, pin.path);
      const manifest::FilePart* listed = values ? values : payload;
      if (listed == nullptr || !(*listed == pin)) {
        throw FormatError(
            {.file = own_manifest, .where = "/payload_sources/" + ref_text},
            "pin differs: " + Quoted(pin) + " is " +
                (listed ? "listed as " + Quoted(*listed) : std::string("not listed")) + " in " +
                source_manifest_file.string());
      }
      if (remote) continue;  // sizes are checked on read
      const fs::path file = source.dir / pin.path;
      // A regular file, not a link (docs/format.md §3.1): a pin never reaches outside its source.
      const std::int64_t size =
          ReleaseFileSize(file, "pinned by " + own_manifest.string() + " but missing");
      if (size != pin.size) {
        throw FileError({.file = file, .where = "size"},
                        "expected " + std::to_string(pin.size) + " bytes (pinned by " +
                            own_manifest.string() + "), found " + std::to_string(size));
      }
    }
    for (const manifest::FilePart& pin : source.pins) {
      if (Find(source_manifest.files.time_series, pin.path)) {
        source.values[pin.path] = pin;
      } else {
        source.payloads[pin.path] = pin;
      }
    }
    out.emplace(ref_text, std::move(source));
  }
  return out;
}

}  // namespace timef
