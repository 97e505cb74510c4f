// The error every Parquet value/level decoder throws on malformed input.
#pragma once

#include <string_view>

#include "timef/error.h"

namespace timef::parquet {

// A FormatError without a site: decoders only see bytes, so the problem text says what is wrong
// and the page reader, which knows the file, row group, column and offset, catches DecodeError and
// rethrows a FormatError with that site. If it escapes unwrapped it is still a FormatError.
class DecodeError : public FormatError {
 public:
  explicit DecodeError(std::string_view problem) : FormatError(problem) {}
};

}  // namespace timef::parquet
