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

}  // namespace timef
