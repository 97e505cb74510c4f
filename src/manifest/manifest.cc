// Public entry points of manifest.h: validation, writer, reader.
#include "timef/manifest.h"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>

#include "core/json_forms.h"
#include "core/release_files.h"
#include "manifest/check.h"
#include "manifest/decode.h"
#include "manifest/encode.h"
#include "manifest/problems.h"
#include "timef/error.h"

namespace timef::manifest {

using internal::Problems;

namespace {

// ParseJsonStrict names the place as "<pointer>: <problem>" or "byte N: <problem>"; move a
// pointer into the problem's pointer field so every error has one where one exists.
ManifestProblem SyntaxProblem(const std::string& text) {
  if (text.starts_with("/")) {
    if (size_t colon = text.find(": "); colon != std::string::npos) {
      return {ManifestProblem::Kind::kManifest, text.substr(0, colon), text.substr(colon + 2)};
    }
  }
  return {ManifestProblem::Kind::kManifest, "", "invalid JSON: " + text};
}

[[noreturn]] void ThrowProblems(const std::vector<ManifestProblem>& problems,
                                const std::filesystem::path& path) {
  const ManifestProblem& first = problems.front();
  std::string message = first.message;
  if (problems.size() > 1) {
    message += " (and " + std::to_string(problems.size() - 1) + " more problem" +
               (problems.size() > 2 ? "s" : "") + ")";
  }
  ErrorSite site{path, "", first.pointer};
  if (first.kind == ManifestProblem::Kind::kPath) throw ValidationError(site, message);
  throw ManifestError(site, message);
}

template <typename T, typename Less>
void SortBy(std::vector<T>& items, Less less) {
  std::stable_sort(items.begin(), items.end(), less);
}

bool PathLess(const FilePart& a, const FilePart& b) { return a.path < b.path; }

}  // namespace

void SortManifestLists(Manifest& m) {
  SortBy(m.schema.time_series_specs,
         [](const Spec& a, const Spec& b) { return a.spec_type < b.spec_type; });
  SortBy(m.schema.annotations, [](const AnnotationDescriptor& a, const AnnotationDescriptor& b) {
    return a.key < b.key;
  });
  SortBy(m.schema.tasks, [](TaskType a, TaskType b) { return ToString(a) < ToString(b); });
  SortBy(m.files.time_series, PathLess);
  SortBy(m.files.payloads, PathLess);
  for (auto& [ref, pins] : m.payload_sources) SortBy(pins, PathLess);
}

std::vector<ManifestProblem> ValidateManifest(const Manifest& manifest) {
  Problems problems;
  internal::CheckManifestModel(manifest, problems);
  return problems.Take();
}

namespace {

ManifestCheck CheckDocument(const Json& document) {
  Problems problems;
  Manifest manifest = internal::DecodeManifest(document, problems);
  // Value and cross-field rules read the decoded model, which is only whole without shape
  // problems.
  if (problems.empty()) internal::CheckManifestModel(manifest, problems);
  if (!problems.empty()) return {std::nullopt, problems.Take()};
  return {std::move(manifest), {}};
}

}  // namespace

ManifestCheck CheckManifest(std::string_view bytes) {
  std::string syntax_problem;
  std::optional<Json> document = ParseJsonStrict(bytes, &syntax_problem);
  if (!document) return {std::nullopt, {SyntaxProblem(syntax_problem)}};
  return CheckDocument(*document);
}

Json ManifestToJson(const Manifest& manifest) {
  std::vector<ManifestProblem> problems = ValidateManifest(manifest);
  if (!problems.empty()) {
    const ManifestProblem& first = problems.front();
    // A writer never emits an invalid manifest; whatever the rule, the caller's input is at fault.
    throw ValidationError(
        ErrorSite{std::nullopt, "manifest", first.pointer},
        first.message + (problems.size() > 1
                             ? " (and " + std::to_string(problems.size() - 1) + " more)"
                             : std::string()));
  }
  return internal::EncodeManifest(manifest);
}

std::string WriteManifest(const Manifest& manifest) {
  return WriteManifestJson(ManifestToJson(manifest));
}

Manifest ParseManifest(std::string_view bytes, const std::filesystem::path& path) {
  ManifestCheck check = CheckManifest(bytes);
  if (!check.manifest) ThrowProblems(check.problems, path);
  return std::move(*check.manifest);
}

Manifest internal::ParseManifestDocument(const Json& document, const std::filesystem::path& path) {
  ManifestCheck check = CheckDocument(document);
  if (!check.manifest) ThrowProblems(check.problems, path);
  return std::move(*check.manifest);
}

std::string ReadManifestBytes(const std::filesystem::path& path) {
  // docs/format.md §5.9: a regular file, not a link, of at most kMaxManifestBytes (a FIFO or
  // /dev/zero would otherwise hang the reader or fill its memory).
  return ReadReleaseFile(path, kMaxManifestBytes);
}

Manifest ReadManifest(const std::filesystem::path& path) {
  return ParseManifest(ReadManifestBytes(path), path);
}

}  // namespace timef::manifest
