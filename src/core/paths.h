// Relative paths and part numbers (docs/format.md §2.2, §2.3), and the cache directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

namespace timef {

// Part-file templates, each with its own 0-based counter.
inline constexpr std::string_view kValuesShardTemplate = "time_series/part-{:08d}.parquet";
inline constexpr std::string_view kTextPayloadTemplate = "payloads/text-{:08d}.parquet";
inline constexpr std::string_view kOffsetsPayloadTemplate = "payloads/offsets-{:08d}.parquet";
inline constexpr int64_t kMaxPartIndex = 99'999'999;

// Renders `path_template` (which holds exactly one "{:08d}") with `index`.
// Throws ValidationError naming the template and the index when index is outside 0..99,999,999.
std::string PartPath(std::string_view path_template, int64_t index);

// Throws ValidationError "<field>: <problem> (path '<path>')" unless `path` is a relative POSIX
// path: non-empty, no leading '/', no '..' segment, and (DECIDE §2.2, adopted) no '\', NUL,
// empty segment, '.' segment or trailing '/'.
void CheckRelativePath(std::string_view field, std::string_view path);

// Same rules; returns the problem ("" when the path is fine) instead of throwing.
std::string RelativePathProblem(std::string_view path);

// The cache directory of this user (remote catalogs, docs/remote.md "Cache"; legacy metadata
// catalogs, docs/format.md §15.8): $TIMEF_CACHE_DIR, else $XDG_CACHE_HOME/timef, else
// $HOME/.cache/timef (an empty variable counts as unset). ValidationError when none of the three
// is set.
std::filesystem::path DefaultCacheDir();

// Where to build `target` before renaming it into place, so that processes sharing a cache never
// meet in one scratch file: "<target>.<pid>.<64 random bits>.part".
std::filesystem::path ScratchPartOf(const std::filesystem::path& target);

// Removes a scratch file or directory (with its content) when it goes out of scope, errors
// ignored: the ".part" of a download or build that did not reach its rename (after the rename,
// nothing is left at the path). Not copyable; one per scratch path.
class RemoveOnExit {
 public:
  explicit RemoveOnExit(std::filesystem::path path) : path_(std::move(path)) {}
  ~RemoveOnExit() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  RemoveOnExit(const RemoveOnExit&) = delete;
  RemoveOnExit& operator=(const RemoveOnExit&) = delete;

 private:
  std::filesystem::path path_;
};

}  // namespace timef
