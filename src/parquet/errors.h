// How the Parquet engine reports corrupt input.
//
// The low layers (thrift, codecs, value encodings) see only a byte buffer, so they throw
// DecodeError, at best with an offset relative to that buffer. The file layer knows the file, row
// group, column and where the buffer starts, and rethrows a DecodeError as a timef::FormatError
// with that site through an ErrorContext, so every message a user sees names all four.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "parquet/encoding_error.h"
#include "timef/error.h"

namespace timef::parquet {

// DecodeError (parquet/encoding_error.h) is what every layer that sees only a buffer throws for
// corrupt or unsupported input. This refinement also knows the offset of the problem within that
// buffer (the thrift decoder does), so the file layer can name the exact byte.
class DecodeErrorAt : public DecodeError {
 public:
  DecodeErrorAt(std::string_view problem, std::uint64_t offset)
      : DecodeError(problem), offset_(offset) {}

  std::uint64_t offset() const noexcept { return offset_; }

 private:
  std::uint64_t offset_;
};

// Where in a Parquet file something happens. A value type: narrow it with the With* methods as
// the reader descends (file → row group → column → byte offset).
struct ErrorContext {
  std::filesystem::path file;
  std::optional<std::int64_t> row_group;
  std::string column;                   // dotted path in the schema, "" when not about a column
  std::optional<std::uint64_t> offset;  // absolute byte offset in the file

  ErrorContext WithRowGroup(std::int64_t index) const;
  ErrorContext WithColumn(std::string path) const;
  ErrorContext WithOffset(std::uint64_t file_offset) const;

  // "row group 2, column values.list.element, offset 4096" (only the parts that are known).
  std::string Where() const;
  ErrorSite Site() const { return ErrorSite{file, "", Where()}; }

  FormatError Error(std::string_view problem) const;
  [[noreturn]] void Throw(std::string_view problem) const;
  // Rethrows `error`, found in a buffer that starts at file offset `base`, as a FormatError whose
  // offset is base + the error's relative offset (DecodeErrorAt), else `base`.
  [[noreturn]] void Rethrow(const DecodeError& error, std::uint64_t base) const;
};

// Runs `fn`, turning a DecodeError from it into a FormatError located by `context` and `base`
// (the file offset of the buffer `fn` decodes).
template <typename Fn>
decltype(auto) WithErrorContext(const ErrorContext& context, std::uint64_t base, Fn&& fn) {
  try {
    return std::forward<Fn>(fn)();
  } catch (const DecodeError& e) {
    context.Rethrow(e, base);
  }
}

}  // namespace timef::parquet
