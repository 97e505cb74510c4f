// The error classes of docs/format.md §12. Every message reads
// "<file or table>[: <field, column or JSON pointer>]: <problem>".
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace timef {

// What an error concerns. `file` wins over `object` as the message's first part.
struct ErrorSite {
  std::optional<std::filesystem::path> file;  // the file concerned, if any
  std::string object;                         // a table or other named thing when no file applies
  std::string where;                          // field, column or JSON pointer inside it
};

class Error : public std::runtime_error {
 public:
  explicit Error(std::string_view problem);
  Error(ErrorSite site, std::string_view problem);

  // The file the error concerns, if any.
  const std::optional<std::filesystem::path>& path() const noexcept { return site_.file; }
  // The field, column or JSON pointer, or "" when the error concerns a whole file or object.
  const std::string& where() const noexcept { return site_.where; }
  // The table or object name (used when there is no file).
  const std::string& object() const noexcept { return site_.object; }
  // The problem alone, without the location prefix.
  const std::string& problem() const noexcept { return problem_; }

 private:
  ErrorSite site_;
  std::string problem_;
};

class ValidationError : public Error {
 public:
  using Error::Error;
};

class NotFoundError : public ValidationError {
 public:
  using ValidationError::ValidationError;
};

class FormatError : public Error {
 public:
  using Error::Error;
};

class FileError : public FormatError {
 public:
  FileError(ErrorSite site, std::string_view problem, std::error_code code = {});
  // std::errc::no_such_file_or_directory for a missing file; empty for size/checksum mismatches.
  std::error_code code() const noexcept { return code_; }

 private:
  std::error_code code_;
};

// A file that does not exist (manifest.json included); code() is always
// std::errc::no_such_file_or_directory. The Python module raises it as timef.MissingFileError,
// which is also a FileNotFoundError.
class MissingFileError : public FileError {
 public:
  MissingFileError(ErrorSite site, std::string_view problem);
};

// Throws MissingFileError when `code` is std::errc::no_such_file_or_directory, else FileError.
[[noreturn]] void ThrowFileError(ErrorSite site, std::string_view problem, std::error_code code);

class ManifestError : public FormatError {
 public:
  using FormatError::FormatError;
};

class ReaderError : public Error {
 public:
  using Error::Error;
};

// Renders "<file or object>[: <where>]: <problem>".
std::string FormatErrorMessage(const ErrorSite& site, std::string_view problem);

}  // namespace timef
