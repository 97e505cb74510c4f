// Gc: the explicit cleanup of stale staging directories (docs/format.md §3.3 DECIDE and
// §10.5). A writer removes only the staging directory it created; one left by a
// crash stays until someone runs this. Gc takes the writers' lock of each `<org>/<name>/` (no
// staging directory is created or published meanwhile) and removes a staging directory only when
// it can take that directory's own lock too, which a live writer holds.
#include <algorithm>
#include <optional>
#include <system_error>

#include "core/directory_lock.h"
#include "timef/error.h"
#include "timef/registry.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStagingInfix = ".tmp-";

// `<version>.tmp-<32 lowercase hex>`, the only name a writer gives its staging directory.
bool IsStagingName(std::string_view name) {
  const size_t at = name.find(kStagingInfix);
  if (at == std::string_view::npos) return false;
  const std::string_view hex = name.substr(at + kStagingInfix.size());
  if (hex.size() != 32) return false;
  for (char c : hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return Version::TryParse(name.substr(0, at)).has_value();
}

// The newest modification time of `dir` and everything below it, and the bytes of its files.
void Survey(const fs::path& dir, fs::file_time_type& newest, std::int64_t& bytes) {
  std::error_code ec;
  newest = fs::last_write_time(dir, ec);
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    const fs::file_time_type t = it->last_write_time(entry_ec);
    if (!entry_ec) newest = std::max(newest, t);
    if (it->is_regular_file(entry_ec)) {
      const auto size = it->file_size(entry_ec);
      if (!entry_ec) bytes += static_cast<std::int64_t>(size);
    }
  }
}

std::vector<fs::path> Subdirectories(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code kind_ec;
    if (it->is_directory(kind_ec) && !it->is_symlink(kind_ec)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<StaleStaging> Gc(const fs::path& root, std::chrono::seconds older_than, bool dry_run) {
  if (older_than.count() < 0) {
    throw ValidationError({.object = "gc", .where = "older_than"}, "must not be negative");
  }
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    throw FileError({.file = root}, "registry root is not a directory",
                    ec ? ec : std::make_error_code(std::errc::not_a_directory));
  }
  const fs::file_time_type now = fs::file_time_type::clock::now();
  std::vector<StaleStaging> out;
  for (const fs::path& org : Subdirectories(root)) {
    for (const fs::path& name : Subdirectories(org)) {
      std::vector<fs::path> staging;
      for (const fs::path& dir : Subdirectories(name)) {
        if (IsStagingName(dir.filename().string())) staging.push_back(dir);
      }
      if (staging.empty()) continue;
      const core::DirectoryLock dataset_lock = core::DirectoryLock::Exclusive(name);
      for (const fs::path& dir : staging) {
        // A live writer holds its staging directory's lock: leave it, however old its files. A
        // directory gone meanwhile (its writer failed and removed it) is skipped.
        std::optional<core::DirectoryLock> writer_lock;
        try {
          writer_lock = core::DirectoryLock::TryExclusive(dir);
        } catch (const FileError& e) {
          if (e.code() == std::errc::no_such_file_or_directory) continue;
          throw;
        }
        if (!writer_lock) continue;
        fs::file_time_type newest;
        std::int64_t bytes = 0;
        Survey(dir, newest, bytes);
        const auto age = std::chrono::duration_cast<std::chrono::seconds>(now - newest);
        if (age < older_than) continue;
        if (!dry_run) {
          std::error_code remove_ec;
          fs::remove_all(dir, remove_ec);
          if (remove_ec) {
            throw FileError({.file = dir}, "cannot remove: " + remove_ec.message(), remove_ec);
          }
        }
        out.push_back(StaleStaging{dir, bytes, age});
      }
    }
  }
  return out;
}

}  // namespace timef
