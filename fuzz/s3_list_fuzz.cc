// libFuzzer target: the ListObjectsV2 answer parser and the S3 error-code reader (src/remote/s3.h,
// docs/remote.md "S3"). Any input either raises a timef::FormatError or parses into a page that
// keeps its promises (a truncated page has a continuation token); S3ErrorCode never throws.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "remote/s3.h"
#include "timef/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static_cast<void>(timef::remote::S3ErrorCode(text));
  try {
    const timef::remote::S3ListPage page = timef::remote::ParseListObjectsV2(text, "s3://fuzz/");
    if (page.truncated && page.next_token.empty()) std::abort();
    // The next page's query encodes every byte it takes as %XX or an unreserved character.
    const std::string query =
        timef::remote::ListObjectsV2Query(page.next_token, "/", page.next_token);
    for (const char c : query) {
      if (static_cast<unsigned char>(c) <= 0x20 || c == '+' || c == '#' || c == '?') std::abort();
    }
  } catch (const timef::FormatError&) {
  }
  return 0;
}
