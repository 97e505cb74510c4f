#include "timef/error.h"

namespace timef {

std::string FormatErrorMessage(const ErrorSite& site, std::string_view problem) {
  std::string out;
  if (site.file) {
    out = site.file->string();
  } else {
    out = site.object;
  }
  if (!site.where.empty()) {
    if (!out.empty()) out += ": ";
    out += site.where;
  }
  if (!out.empty()) out += ": ";
  out += problem;
  return out;
}

Error::Error(std::string_view problem)
    : std::runtime_error(std::string(problem)), problem_(problem) {}

Error::Error(ErrorSite site, std::string_view problem)
    : std::runtime_error(FormatErrorMessage(site, problem)),
      site_(std::move(site)),
      problem_(problem) {}

FileError::FileError(ErrorSite site, std::string_view problem, std::error_code code)
    : FormatError(std::move(site), problem), code_(code) {}

MissingFileError::MissingFileError(ErrorSite site, std::string_view problem)
    : FileError(std::move(site), problem,
                std::make_error_code(std::errc::no_such_file_or_directory)) {}

void ThrowFileError(ErrorSite site, std::string_view problem, std::error_code code) {
  if (code == std::errc::no_such_file_or_directory) {
    throw MissingFileError(std::move(site), problem);
  }
  throw FileError(std::move(site), problem, code);
}

}  // namespace timef
