#include "core/paths.h"

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include "core/text.h"
#include "timef/error.h"

namespace timef {
namespace {

constexpr std::string_view kPlaceholder = "{:08d}";

std::optional<std::string> Env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

}  // namespace

std::string PartPath(std::string_view path_template, int64_t index) {
  const size_t at = path_template.find(kPlaceholder);
  if (at == std::string_view::npos ||
      path_template.find(kPlaceholder, at + 1) != std::string_view::npos) {
    throw ValidationError(ErrorSite{.object = std::string(path_template)},
                          "a part-path template must hold exactly one '{:08d}'");
  }
  if (index < 0 || index > kMaxPartIndex) {
    // A ninth digit would break the lexical order of part files, so it is never written.
    throw ValidationError(
        ErrorSite{.object = std::string(path_template)},
        "part index " + std::to_string(index) + " is outside 0.." + std::to_string(kMaxPartIndex));
  }
  char digits[8];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, index);
  const size_t length = static_cast<size_t>(end - digits);
  std::string out;
  out.reserve(path_template.size() + 2);
  out.append(path_template.substr(0, at));
  out.append(8 - length, '0');
  out.append(digits, length);
  out.append(path_template.substr(at + kPlaceholder.size()));
  return out;
}

std::string RelativePathProblem(std::string_view path) {
  if (path.empty()) return "path is empty";
  if (path.find('\0') != std::string_view::npos) return "path contains a NUL byte";
  if (path.find('\\') != std::string_view::npos) return "path contains a backslash";
  if (path.front() == '/') return "path is absolute";
  if (path.back() == '/') return "path ends with '/'";
  // '..' is reported before the cosmetic rules because it is the one that escapes the root.
  bool has_empty = false;
  bool has_dot = false;
  size_t start = 0;
  while (true) {
    const size_t slash = path.find('/', start);
    const std::string_view segment = path.substr(
        start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (segment == "..") return "path has a '..' segment";
    has_empty = has_empty || segment.empty();
    has_dot = has_dot || segment == ".";
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (has_empty) return "path has an empty segment";
  if (has_dot) return "path has a '.' segment";
  return "";
}

void CheckRelativePath(std::string_view field, std::string_view path) {
  const std::string problem = RelativePathProblem(path);
  if (!problem.empty()) {
    throw ValidationError(ErrorSite{.where = std::string(field)},
                          problem + " (path '" + core::PrintableForMessage(path) + "')");
  }
}

std::filesystem::path DefaultCacheDir() {
  if (auto dir = Env("TIMEF_CACHE_DIR")) return std::filesystem::path(*dir);
  if (auto dir = Env("XDG_CACHE_HOME")) return std::filesystem::path(*dir) / "timef";
  if (auto home = Env("HOME")) return std::filesystem::path(*home) / ".cache" / "timef";
  throw ValidationError({.object = "cache directory"},
                        "none of TIMEF_CACHE_DIR, XDG_CACHE_HOME and HOME is set");
}

std::filesystem::path ScratchPartOf(const std::filesystem::path& target) {
  std::random_device random;
  const std::uint64_t bits = (std::uint64_t{random()} << 32) | random();
  return target.string() + "." + std::to_string(::getpid()) + "." + std::to_string(bits) + ".part";
}

}  // namespace timef
