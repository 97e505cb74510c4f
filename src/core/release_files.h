// The files of a release as a reader meets them (docs/format.md §3.1): regular files inside the
// release, never reached through a symbolic link, of bounded size where the format bounds it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace timef {

// The most bytes a reader accepts in a manifest.json (docs/format.md §5.9).
inline constexpr std::int64_t kMaxManifestBytes = std::int64_t{64} << 20;

// The size of `file`, which must be a regular file reached without following a link (a link
// could point anywhere on the host, whose size or hash no message may show). FileError naming the
// file otherwise: code no_such_file_or_directory and `missing_problem` when it is absent; "is a
// symbolic link ..." (code too_many_symbolic_link_levels); "is not a regular file (<type>)"
// (code invalid_argument); or the stat failure with its errno.
std::int64_t ReleaseFileSize(const std::filesystem::path& file, std::string_view missing_problem);

// The whole of `file`, a regular file reached without following a link and at most `max_bytes`
// long, read without blocking on special files (a FIFO or device is refused before any read).
// FileError as for ReleaseFileSize (`missing_problem` "no such file"), and "is N bytes, more than
// the M a reader accepts" (code file_too_large) for a larger file.
std::string ReadReleaseFile(const std::filesystem::path& file, std::int64_t max_bytes);

}  // namespace timef
